// A run of the kernel width's training (the training section) for the
// player: `train(w, k)` runs k epochs from w and returns the core's
// { w, loss, stopReason } (trainKernelWidth; nothing when the core refused).
// Gradient descent on w depends only on w, so k chunks of one epoch give
// exactly the numbers of one call with k epochs. A run the core stops (w or
// the loss no longer finite) stays stopped: its Play is disabled, Reset
// starts it again.
import { createPlayer } from './player.js';
import { perStepBudget } from './frame-budget.js';

const FRAME_BUDGET_MS = 8;

export function widthRun(train) {
  return {
    begin: (w0) => ({ ws: [w0], losses: [] }),
    train(history, k) {
      const result = train(history.ws[history.ws.length - 1], k);
      if (!result) return null;
      return {
        history: {
          ws: history.ws.concat(Array.from(result.w).slice(1)),
          losses: history.losses.concat(Array.from(result.loss)),
        },
        ran: result.loss.length,
        stopReason: result.stopReason,
      };
    },
    describe: ({ ws, losses }, { status, target, stopReason, done }) => ({ ws, losses, status, target, stopReason, epoch: done }),
  };
}

export function createWidthPlayer({ train, onChange }) {
  return createPlayer({
    run: widthRun(train),
    budget: perStepBudget(FRAME_BUDGET_MS),
    onChange,
    // Slow enough to watch a short run (the book's 5 epochs take ~1.7 s),
    // fast enough that 1000 epochs take a few seconds when the core keeps up.
    stepsPerSecond: (epochs) => Math.max(3, epochs / 4),
    startsAtOnce: true,
  });
}
