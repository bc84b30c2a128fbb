// Play, pause, step and reset of a training run of the attention model
// (the attention-training section), as player.js runs the kernel width's.
// The run advances a few optimiser steps per animation frame: as many as
// fit in the frame's training budget at the pace measured so far (see
// nextChunk), so no frame runs long however fast or slow the machine. It knows nothing of the
// model: `train(model, k)` runs at most k steps from `model` and returns
// the core's { model, loss, accuracy, evaluatedAt, stopReason } (the losses
// of the steps it ran and the held-out evaluations made; nothing when the
// core refused). The core draws the batch of step t from the run's seed
// and t alone, so k chunks of one step give exactly the model of one call
// with k steps: pausing, stepping and playing never change the numbers.
// A run that diverges (stopReason: a step would make the loss or the
// parameters non-finite) is 'stopped' at the core's last finite model, at
// the same step however it was played; reset or play starts it again.
// `stepsPerSecond` paces a playing run (Infinity: as fast as the budget
// allows), so a learner can watch it: a frame trains the steps due by the
// clock since play (or the last change of speed), within its budget.

// Training time per frame. The frame also draws (about 10 ms when the section
// redraws maps) and the browser then lays out and paints (10-25 ms measured
// on the 2-core test machine), so the whole frame stays under 50 ms.
export const TRAIN_BUDGET_MS = 10;

export function createModelPlayer({
  train, onChange, budgetMs = TRAIN_BUDGET_MS, onFrame = null, stepsPerSecond = Infinity,
}) {
  let start = null; // the model the run starts from (reset and replay return to it)
  let model = null;
  let history = { losses: [], accuracy: [], evaluatedAt: [], heldOut: null };
  let status = 'ready'; // ready | playing | paused | done | stopped
  let target = 1;
  let frame = 0;
  let lastChunk = 0; // steps trained by the last frame or step
  let chunk = 1; // steps the last frame set out to train
  let lastTrainMs = null; // and how long they took
  let disposed = false;
  let stopReason = null;
  let speed = stepsPerSecond;
  let paceFrom = null; // { started, steps }: the time and the step count the pacing counts from

  const done = () => history.losses.length;
  const snapshot = () => ({
    model, losses: history.losses, accuracy: history.accuracy, evaluatedAt: history.evaluatedAt,
    heldOut: history.heldOut, status, target, step: done(), lastChunk, stopReason,
  });
  const notify = () => {
    if (!disposed) onChange(snapshot());
  };

  function cancel() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
  }

  // Trains k steps from the current model; false when the core refused.
  function advance(k) {
    const result = train(model, k);
    if (!result) {
      status = 'paused';
      return false;
    }
    lastChunk = result.loss.length;
    model = result.model;
    history = {
      losses: history.losses.concat(Array.from(result.loss)),
      accuracy: history.accuracy.concat(Array.from(result.accuracy)),
      evaluatedAt: history.evaluatedAt.concat(Array.from(result.evaluatedAt)),
    };
    history.heldOut = history.accuracy.length > 0 ? history.accuracy[history.accuracy.length - 1] : null;
    if (result.stopReason) {
      stopReason = result.stopReason;
      status = 'stopped';
      return false;
    }
    if (done() >= target) status = 'done';
    return true;
  }

  // How many steps the next frame trains: the last chunk's count scaled by
  // how much of the budget it used. A call costs a fixed part (the core
  // evaluates the held-out set at its end) plus a part per step, so the
  // count settles where the whole call fits the budget; it at most doubles
  // from one frame to the next, and a slow frame (a busy machine) shrinks it.
  function nextChunk() {
    if (lastTrainMs === null) return chunk; // nothing new measured: the same count
    const scaled = Math.floor((chunk * budgetMs) / Math.max(lastTrainMs, 0.01));
    lastTrainMs = null;
    return Math.max(1, Math.min(2 * chunk, scaled));
  }

  function tick() {
    frame = 0;
    if (status !== 'playing' || disposed) return;
    const started = performance.now();
    chunk = nextChunk();
    const due = Number.isFinite(speed)
      ? paceFrom.steps + Math.floor(((started - paceFrom.started) / 1000) * speed) - done() : Infinity;
    if (due <= 0 && done() < target) { // nothing due yet at this speed: the next frame
      frame = requestAnimationFrame(tick);
      return;
    }
    const k = Math.min(chunk, due, target - done());
    let trained = started;
    if (k > 0) {
      advance(k);
      trained = performance.now();
      // The pace is measured on whole chunks: the last of a run, or one that
      // stopped at an evaluation, says little of it.
      if (k === chunk && lastChunk === k) lastTrainMs = trained - started;
    } else {
      status = 'done';
    }
    notify();
    onFrame?.({ started, trained, ended: performance.now(), steps: k });
    if (status === 'playing') frame = requestAnimationFrame(tick);
  }

  function restart() {
    model = start;
    history = { losses: [], accuracy: [], evaluatedAt: [], heldOut: null };
    lastChunk = 0;
    stopReason = null;
  }

  return {
    // A new run from `model0`: nothing trained yet.
    reset(model0, steps = target) {
      cancel();
      chunk = 1; // another model may train at another pace: measured again
      lastTrainMs = null;
      start = model0;
      target = steps;
      restart();
      status = 'ready';
      notify();
    },
    setTarget(steps) {
      target = steps;
      if (status === 'stopped') {
        notify(); // a diverged run stays where it stopped
        return;
      }
      if (done() >= target && status !== 'done') {
        cancel();
        status = 'done';
      } else if (status === 'done' && done() < target) {
        status = 'paused';
      }
      notify();
    },
    play() {
      if (status === 'playing' || disposed || !start) return;
      // Play after the end runs the same run again; after a divergence too (with
      // the same settings it diverges at the same step: the learner sees it again).
      if (status === 'done' || status === 'stopped') restart();
      status = 'playing';
      paceFrom = { started: performance.now(), steps: done() };
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
      if (status === 'stopped' || done() >= target || disposed || !start) return;
      cancel();
      status = 'paused';
      advance(1);
      notify();
    },
    // The view is going away: the run stops where it is, no frame stays
    // pending, the core is not asked again and the listener hears nothing more.
    dispose() {
      cancel();
      disposed = true;
      if (status === 'playing') status = 'paused';
      start = null;
      model = null;
    },
    // A new pace, counted from now: the steps already trained stay.
    setSpeed(stepsPerSecond) {
      speed = stepsPerSecond;
      paceFrom = { started: performance.now(), steps: done() };
    },
    get state() {
      return snapshot();
    },
  };
}
