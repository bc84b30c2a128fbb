// Runs a list of small jobs within a time budget per animation frame, so a
// heavy computation (the loss landscape at n = 1000) fills in progressively
// instead of freezing the page. Replacing the list cancels what is left.
export function createFrameQueue(budgetMs = 6) {
  let jobs = [];
  let frame = 0;

  function run() {
    frame = 0;
    runWithin(jobs, budgetMs);
    if (jobs.length > 0 && !frame) frame = requestAnimationFrame(run);
  }

  return {
    // The first jobs run at once (a small landscape is ready in the same frame).
    replace(next) {
      jobs.length = 0; // a list being run stops here
      jobs = [...next];
      if (frame) cancelAnimationFrame(frame);
      run();
    },
    // Drops what is left (the figure it fills is going away).
    clear() {
      jobs.length = 0;
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}

// Runs the first of `jobs` (removing them) until `budgetMs` have passed.
export function runWithin(jobs, budgetMs) {
  const started = performance.now();
  while (jobs.length > 0 && performance.now() - started < budgetMs) jobs.shift()();
}
