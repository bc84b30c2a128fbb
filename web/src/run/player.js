// Play, pause, step and reset of a training run, for every run the page
// trains (the kernel width's, the attention model's). The run advances in
// chunks, at most one chunk per animation frame and within a time budget
// (frame-budget.js), so a long run never freezes the page. It knows nothing
// of the model: the `run` adapter begins a run from its start, trains k steps
// from where a run is, and describes it to the listener (width-run.js,
// model-run.js). Chunks give exactly the numbers of one long call (the core
// makes each step depend on the run's settings and the step alone), so
// pausing, stepping and playing never change the numbers.
// A run that the core stops (a step would make the numbers non-finite) is
// 'stopped' where the core left it; `replaysAfterStop`: play starts it again.
// `stepsPerSecond` paces a playing run (Infinity: as fast as the budget
// allows; a function: of the run's length, read at play), so a learner can
// watch it: a frame trains the steps due by the clock since play (or the
// last change of speed), within its budget; `startsAtOnce`: the first step
// is due as play is pressed.

export function createPlayer({
  run, budget, onChange, onFrame = null,
  stepsPerSecond = /** @type {number | ((target: number) => number)} */ (Infinity), startsAtOnce = false, replaysAfterStop = false,
}) {
  let start = null; // what the run starts from (reset and replay return to it); null before a reset
  let history = run.begin(null); // the adapter's record of the run so far
  let done = 0; // steps trained
  let status = 'ready'; // ready | playing | paused | done | stopped
  let target = 1;
  let frame = 0;
  let lastChunk = 0; // steps trained by the last frame or step
  let disposed = false;
  let stopReason = null;
  let speed = stepsPerSecond;
  let paceFrom = null; // { started, steps, perSecond }: what the pacing counts from

  const snapshot = () => run.describe(history, { status, target, stopReason, done, lastChunk });
  const notify = () => {
    if (!disposed) onChange(snapshot());
  };

  function cancel() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
  }

  // Trains k steps from where the run is; false when the core refused or stopped.
  function advance(k) {
    const result = run.train(history, k);
    if (!result) {
      status = 'paused';
      return false;
    }
    history = result.history;
    lastChunk = result.ran;
    done += result.ran;
    if (result.stopReason) {
      stopReason = result.stopReason;
      status = 'stopped';
      return false;
    }
    if (done >= target) status = 'done';
    return true;
  }

  function paceFromNow() {
    const perSecond = typeof speed === 'function' ? speed(target) : speed;
    paceFrom = { started: performance.now(), steps: done, perSecond };
  }

  // The steps due by the clock, beyond those trained.
  function due(now) {
    const { started, steps, perSecond } = paceFrom;
    if (!Number.isFinite(perSecond)) return Infinity;
    return steps + Math.floor(((now - started) / 1000) * perSecond) + (startsAtOnce ? 1 : 0) - done;
  }

  function tick() {
    frame = 0;
    if (status !== 'playing' || disposed) return;
    const started = performance.now();
    const chunk = budget.chunk();
    const dueNow = due(started);
    if (dueNow <= 0 && done < target) { // nothing due yet at this speed: the next frame
      frame = requestAnimationFrame(tick);
      return;
    }
    const k = Math.min(chunk, dueNow, target - done);
    let trained = started;
    if (k > 0) {
      advance(k);
      trained = performance.now();
      budget.measured({ asked: k, chunk, ran: lastChunk, ms: trained - started });
    } else {
      status = 'done';
    }
    notify();
    onFrame?.({ started, trained, ended: performance.now(), steps: k });
    if (status === 'playing') frame = requestAnimationFrame(tick);
  }

  function restart() {
    history = run.begin(start);
    done = 0;
    lastChunk = 0;
    stopReason = null;
  }

  return {
    // A new run from `from`: nothing trained yet.
    reset(from, steps = target) {
      cancel();
      budget.reset(); // another model may train at another pace: measured again
      start = from;
      target = steps;
      restart();
      status = 'ready';
      notify();
    },
    setTarget(steps) {
      target = steps;
      if (status === 'stopped') {
        notify(); // a stopped run stays where it stopped
        return;
      }
      if (done >= target && status !== 'done') {
        cancel();
        status = 'done';
      } else if (status === 'done' && done < target) {
        status = 'paused';
      }
      notify();
    },
    play() {
      if (status === 'playing' || disposed || start === null) return;
      if (status === 'stopped' && !replaysAfterStop) return;
      // Play after the end runs the same run again from the same start; after
      // a stop too, where it replays (with the same settings it stops at the
      // same step: the learner sees it again).
      if (status === 'done' || status === 'stopped') restart();
      status = 'playing';
      paceFromNow();
      notify();
      frame = requestAnimationFrame(tick);
    },
    pause() {
      if (status !== 'playing') return;
      cancel();
      status = 'paused';
      notify();
    },
    step() {
      if (status === 'stopped' || done >= target || disposed || start === null) return;
      cancel();
      status = 'paused';
      advance(1);
      notify();
    },
    // The run's view is going away: the run stops where it is, no frame
    // stays pending, the core is not asked again and the listener hears
    // nothing more. For good: a new view makes a new player.
    dispose() {
      cancel();
      disposed = true;
      if (status === 'playing') status = 'paused';
      start = null;
    },
    // A new pace, counted from now: the steps already trained stay.
    setSpeed(perSecond) {
      speed = perSecond;
      paceFromNow();
    },
    get state() {
      return snapshot();
    },
  };
}
