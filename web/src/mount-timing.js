// What the mount's two machines (redraw-schedule.js, section-loading.js)
// share about time: how long one of their tasks may run, and how a timing
// is recorded.

// Longer tasks than this delay a learner's input noticeably (a "long task").
export const TASK_BUDGET_MS = 50;

// A timing replaces the last one of the same name: the browser keeps every
// User Timing entry until it is cleared, and at a dozen entries per redraw
// a lecture's worth of dragging grew the page's memory without bound. A
// PerformanceObserver still sees every entry.
export function measure(name, options) {
  performance.clearMeasures(name);
  performance.measure(name, options);
}
