// How many steps a playing run trains in one animation frame (player.js):
// as many as fit in the frame's training budget at the pace measured so far,
// so no frame runs long however fast or slow the machine. Two kinds of call
// need two ways of counting.

// A call that costs about the same per step (the kernel width's epochs):
// the budget divided by the last call's time per step.
export function perStepBudget(budgetMs) {
  let msPerStep = 1;
  return {
    chunk: () => Math.max(1, Math.floor(budgetMs / msPerStep)),
    measured({ ran, ms }) {
      if (ran > 0) msPerStep = Math.max(0.01, ms / ran);
    },
    reset() {
      msPerStep = 1;
    },
  };
}

// A call that costs a fixed part plus a part per step (the attention model's:
// the core evaluates the held-out set at its end): the last chunk's count
// scaled by how much of the budget it used, so the count settles where the
// whole call fits the budget. It at most doubles from one frame to the next,
// and a slow frame (a busy machine) shrinks it. The pace is measured on whole
// chunks: the last of a run, or one that stopped at an evaluation, says
// little of it. `budgetMs`: a number, or a function read at each plan (a
// budget that follows what the page measures).
export function perCallBudget(budgetMs) {
  const budget = typeof budgetMs === 'function' ? budgetMs : () => budgetMs;
  let chunk = 1; // steps the last frame set out to train
  let lastMs = null; // and how long they took, when measured since
  return {
    chunk() {
      if (lastMs !== null) {
        chunk = Math.max(1, Math.min(2 * chunk, Math.floor((chunk * budget()) / Math.max(lastMs, 0.01))));
        lastMs = null;
      }
      return chunk;
    },
    measured({ asked, chunk: planned, ran, ms }) {
      if (asked === planned && ran === asked) lastMs = ms;
    },
    reset() {
      chunk = 1;
      lastMs = null;
    },
  };
}
