// A run of the attention model's training (the attention-training section)
// for the player: `train(model, k)` runs at most k steps from `model` and
// returns the core's { model, loss, accuracy, evaluatedAt, stopReason } (the
// losses of the steps it ran and the held-out evaluations made; nothing when
// the core refused). The core draws the batch of step t from the run's seed
// and t alone, so k chunks of one step give exactly the model of one call
// with k steps. A run that diverges (a step would make the loss or the
// parameters non-finite) is 'stopped' at the core's last finite model, at
// the same step however it was played; reset or play starts it again.
import { createPlayer } from './player.js';
import { perCallBudget } from './frame-budget.js';

// Training time per frame. The frame also draws (about 10 ms when the section
// redraws maps) and the browser then lays out and paints (10-25 ms measured
// on the 2-core test machine), so the whole frame stays under 50 ms.
export const TRAIN_BUDGET_MS = 10;
// Training time per chunk off the thread (a worker, timed there), where no
// frame waits for it: at least twice the frame's, so the worker spends less
// of its time on handing models back and forth (a run whose steps are slow
// to hand over asks for more: `offThreadMs`), and as long as the page took
// to draw the last chunk, up to a bound: the next chunk trains while the
// page draws, and a shorter one would leave the worker waiting for the page
// (a slow machine, or WebKit's slow frames).
export const OFF_THREAD_BUDGET_MS = 20;
export const OFF_THREAD_MOST_MS = 200;

// `bleu`: the held-out BLEU of each evaluation, for a run whose core reports one (the translator's).
// `trainingMs`: the time its chunks took where they trained (the worker's
// clock, or the page's around the call), for the comparison's ms per step.
const NOTHING_YET = Object.freeze({ model: null, losses: [], accuracy: [], bleu: [], evaluatedAt: [], trainingMs: 0 });

// A run as describe() gives it to onChange.
/**
 * @typedef {{ model: *, losses: number[], accuracy: number[], bleu: number[], evaluatedAt: number[],
 *   heldOut: number | null, heldOutBleu: number | null, status: string, target: number, step: number,
 *   lastChunk: number, stopReason: *, trainingMs: number }} ModelRunState
 */

export function modelRun(train) {
  return {
    begin: (model0) => ({ ...NOTHING_YET, model: model0 }),
    // The chunk's record, or its promise where it trains off the thread.
    train(history, k) {
      const started = performance.now();
      const result = train(history.model, k);
      if (typeof result?.then === 'function') return result.then((chunk) => recorded(history, chunk));
      return recorded(history, result, performance.now() - started);
    },
    describe: ({ model, losses, accuracy, bleu, evaluatedAt, trainingMs }, { status, target, stopReason, done, lastChunk }) => ({
      model, losses, accuracy, bleu, evaluatedAt, trainingMs, heldOut: accuracy.length > 0 ? accuracy[accuracy.length - 1] : null,
      heldOutBleu: bleu.length > 0 ? bleu[bleu.length - 1] : null,
      status, target, step: done, lastChunk, stopReason,
    }),
  };
}

// The run's record with a chunk's result added (null: the core refused);
// `pageMs`: the time it took on the page's thread (off it, the result says).
function recorded(history, result, pageMs = 0) {
  if (!result) return null;
  return {
    history: {
      model: result.model,
      losses: history.losses.concat(Array.from(result.loss)),
      accuracy: history.accuracy.concat(Array.from(result.accuracy)),
      bleu: history.bleu.concat(Array.from(result.bleu ?? [])),
      evaluatedAt: history.evaluatedAt.concat(Array.from(result.evaluatedAt)),
      trainingMs: history.trainingMs + (result.trainMs ?? pageMs),
    },
    ran: result.loss.length,
    stopReason: result.stopReason,
    ms: result.trainMs, // off the thread: the worker's time for it
  };
}

// `stepsPerSecond`: the pace of a playing run (Infinity: as fast as the
// budget allows); `onFrame`: each frame's timings, for the tests.
export function createModelPlayer({
  train, onChange, budgetMs = TRAIN_BUDGET_MS, offThreadMs = OFF_THREAD_BUDGET_MS, onFrame = null, stepsPerSecond = Infinity,
}) {
  let drawMs = 0; // the page's time for the last chunk, from its landing to its frame drawn
  const offThreadBudget = () => Math.min(OFF_THREAD_MOST_MS, Math.max(offThreadMs, drawMs));
  return createPlayer({
    run: modelRun(train), budget: perCallBudget(budgetMs), offThreadBudget: perCallBudget(offThreadBudget),
    onChange,
    onFrame(timing) {
      drawMs = timing.ended - timing.trained;
      onFrame?.(timing);
    },
    stepsPerSecond, replaysAfterStop: true,
  });
}
