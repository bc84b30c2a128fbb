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
// A run may train off the page's thread (run/off-thread-training.js): its
// `train` then returns a promise, and the player waits for one chunk at a
// time without holding a frame; a chunk that arrives after a pause, a step
// or a reset is dropped, so what is on screen is where the run is.

export function createPlayer({
  run, budget, offThreadBudget = budget, onChange, onFrame = null,
  stepsPerSecond = /** @type {number | ((target: number) => number)} */ (Infinity), startsAtOnce = false, replaysAfterStop = false,
}) {
  let start = null; // what the run starts from (reset and replay return to it); null before a reset
  let history = run.begin(null); // the adapter's record of the run so far
  let done = 0; // steps trained
  let status = 'ready'; // ready | playing | paused | done | stopped
  let target = 1;
  let frame = 0;
  let lastChunk = 0; // steps trained by the last frame or step
  let lastChunkMs; // the time the last chunk took where it trained, when its result says (off the thread)
  let disposed = false;
  let stopReason = null;
  let speed = stepsPerSecond;
  let paceFrom = null; // { started, steps, perSecond }: what the pacing counts from
  let offThread = false; // the last chunk trained off the thread: the next is planned by offThreadBudget
  let inFlight = null; // the promise of a chunk training off the thread, until it is applied or dropped
  let stepsAsked = 0; // Step presses while a step trains off the thread: each trains once the last lands

  const snapshot = () => run.describe(history, { status, target, stopReason, done, lastChunk });
  const notify = () => {
    if (!disposed) onChange(snapshot());
  };

  function cancel() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    inFlight = null;
    stepsAsked = 0;
  }

  // One step, then the next one asked meanwhile, while the run is paused and not at its end.
  function stepOnce() {
    advance(1, (goingOn) => {
      notify();
      if (goingOn && stepsAsked > 0 && status === 'paused') {
        stepsAsked -= 1;
        stepOnce();
      } else {
        stepsAsked = 0;
      }
    });
  }

  // Trains k steps from where the run is, then calls landed(going on):
  // going on is false when the core refused or stopped. At once, or when a
  // chunk trained off the thread arrives (unless dropped meanwhile).
  function advance(k, landed) {
    const result = run.train(history, k);
    if (typeof result?.then !== 'function') {
      landed(apply(result));
      return;
    }
    inFlight = result;
    result.then((chunk) => {
      if (inFlight !== result || disposed) return;
      inFlight = null;
      landed(apply(chunk));
    }, () => {
      if (inFlight !== result || disposed) return;
      inFlight = null;
      landed(apply(null)); // refused: paused, as on the page
    });
  }

  function apply(result) {
    if (!result) {
      status = 'paused';
      return false;
    }
    history = result.history;
    lastChunk = result.ran;
    lastChunkMs = result.ms;
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
    const plan = offThread ? offThreadBudget : budget;
    const chunk = plan.chunk();
    const dueNow = due(started);
    if (dueNow <= 0 && done < target) { // nothing due yet at this speed: the next frame
      frame = requestAnimationFrame(tick);
      return;
    }
    // Off the thread a paced run trains every step due in one chunk: a slow
    // round trip (a loaded machine) then delays the steps, never drops its pace.
    const perChunk = offThread && Number.isFinite(dueNow) ? Infinity : chunk;
    const k = Math.min(perChunk, dueNow, target - done);
    const finish = (trained) => {
      notify();
      onFrame?.({ started, trained, ended: performance.now(), steps: k });
    };
    if (k <= 0) {
      status = 'done';
      finish(started);
      return;
    }
    let landedNow = true;
    advance(k, () => {
      const trained = performance.now();
      plan.measured({ asked: k, chunk, ran: lastChunk, ms: lastChunkMs ?? trained - started });
      offThread = !landedNow;
      if (landedNow) {
        finish(trained);
        if (status === 'playing') frame = requestAnimationFrame(tick);
        return;
      }
      // Off the thread the next chunk is asked for as this one lands, before
      // it is drawn: the worker trains while the page draws.
      if (status === 'playing') tick();
      finish(trained);
    });
    landedNow = false;
  }

  function restart() {
    inFlight = null;
    stepsAsked = 0;
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
      offThreadBudget.reset();
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
      if (status === 'paused' && inFlight) { // the last step still trains off the thread: this one follows it
        stepsAsked += 1;
        return;
      }
      cancel();
      status = 'paused';
      stepOnce();
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
