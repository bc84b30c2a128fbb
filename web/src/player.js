// Play, pause, step and reset of a training run. The run advances in chunks,
// at most one chunk per animation frame and within a time budget, so a long
// run never freezes the page. It knows nothing of the model: `train(w, k)`
// runs k epochs from w and returns the core's { w, loss, stopReason }.
// Because gradient descent on w depends only on w, k chunks of one epoch
// give exactly the numbers of one call with k epochs.

const FRAME_BUDGET_MS = 8;

export function createPlayer({ train, onChange }) {
  let history = { ws: [], losses: [] };
  let status = 'ready'; // ready | playing | paused | done | stopped
  let target = 1;
  let stopReason = null;
  let frame = 0;
  let pace = null; // { startedAt, epochsAtStart, perSecond }
  let msPerEpoch = 1;
  let disposed = false;

  const epochsDone = () => history.losses.length;
  const snapshot = () => ({ ws: history.ws, losses: history.losses, status, target, stopReason, epoch: epochsDone() });
  const notify = () => {
    if (!disposed) onChange(snapshot());
  };

  function cancel() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
  }

  // Runs k epochs from the last w; false when the core refused or stopped.
  function advance(k) {
    const started = performance.now();
    const result = train(history.ws[history.ws.length - 1], k);
    if (!result) {
      status = 'paused';
      return false;
    }
    const ran = result.loss.length;
    if (ran > 0) msPerEpoch = Math.max(0.01, (performance.now() - started) / ran);
    history = {
      ws: history.ws.concat(Array.from(result.w).slice(1)),
      losses: history.losses.concat(Array.from(result.loss)),
    };
    if (result.stopReason) {
      stopReason = result.stopReason;
      status = 'stopped';
      return false;
    }
    if (epochsDone() >= target) status = 'done';
    return true;
  }

  function tick(now) {
    frame = 0;
    if (status !== 'playing' || disposed) return;
    const due = pace.epochsAtStart + Math.floor(((now - pace.startedAt) / 1000) * pace.perSecond) + 1;
    const affordable = Math.max(1, Math.floor(FRAME_BUDGET_MS / msPerEpoch));
    const k = Math.min(due - epochsDone(), affordable, target - epochsDone());
    if (k > 0) {
      advance(k);
      notify();
    }
    if (status === 'playing') frame = requestAnimationFrame(tick);
  }

  return {
    // A new run from w0: history holds only w0, nothing is trained yet.
    reset(w0, epochs = target) {
      cancel();
      history = { ws: [w0], losses: [] };
      target = epochs;
      stopReason = null;
      status = 'ready';
      notify();
    },
    setTarget(epochs) {
      target = epochs;
      if (epochsDone() >= target && (status === 'playing' || status === 'paused' || status === 'ready')) {
        cancel();
        status = 'done';
      } else if (status === 'done' && epochsDone() < target) {
        status = 'paused';
      }
      notify();
    },
    play() {
      if (status === 'playing' || status === 'stopped' || disposed) return;
      if (status === 'done') {
        // Play after the end starts the same run again from the same w0.
        history = { ws: [history.ws[0]], losses: [] };
      }
      status = 'playing';
      // Slow enough to watch a short run (the book's 5 epochs take ~1.7 s),
      // fast enough that 1000 epochs take a few seconds when the core keeps up.
      pace = { startedAt: performance.now(), epochsAtStart: epochsDone(), perSecond: Math.max(3, target / 4) };
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
      if (status === 'stopped' || epochsDone() >= target || disposed) return;
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
    },
    get state() {
      return snapshot();
    },
  };
}
