// What the page's studies (the scaling study, the consistency study, the
// cost measurement) share: a progress line, a start that waits until their
// panel first comes near the screen (a study is a few hundred ms of core
// work: not while the page loads) and runs again when one of its inputs
// changes, and a queue that runs the work in short tasks between frames.
import { element } from '../../dom.js';
import { runWithin } from '../../frame-queue.js';

// How long a study's inputs must rest before it runs: while the learner
// drags a slider (an input event every frame) the study waits, so its core
// calls never delay the frame that shows the drag.
const SETTLE_MS = 200;

// The queues with work waiting or under way, on the whole page: a study
// changes its panel's height as it fills in (its table, its verdict), so
// what waits for a page at rest waits for studiesDone().
const busyQueues = new Set();
const doneWaiters = [];
function markDone(queue) {
  busyQueues.delete(queue);
  if (busyQueues.size === 0) for (const resolve of doneWaiters.splice(0)) resolve();
}

// Resolves once no study on the page has work waiting or under way.
export function studiesDone() {
  return busyQueues.size === 0 ? Promise.resolve() : new Promise((resolve) => doneWaiters.push(resolve));
}

// Runs jobs in tasks of about `budgetMs` once SETTLE_MS have passed since
// the last replace(). Tasks, not animation frames: the browser draws and
// answers input between them. Replacing the list cancels what is left.
export function createStudyQueue(budgetMs = 8) {
  let jobs = [];
  let timer = 0;
  const queue = {
    replace(next) {
      clearTimeout(timer);
      jobs.length = 0; // a list being run stops here: the new one waits
      jobs = [...next];
      timer = jobs.length > 0 ? setTimeout(run, SETTLE_MS) : 0;
      if (timer) busyQueues.add(queue);
      else markDone(queue);
    },
    // Drops what is left (the panel is going away).
    clear() {
      clearTimeout(timer);
      timer = 0;
      jobs.length = 0;
      markDone(queue);
    },
  };
  function run() {
    timer = 0;
    runWithin(jobs, budgetMs);
    if (jobs.length > 0 && !timer) timer = setTimeout(run, 0);
    if (!timer) markDone(queue);
  }
  return queue;
}

// The status text and progress bar of a study of `count` parts.
export function createStudyProgress(count, statusRole) {
  const progress = element('progress', { className: 'player-progress', max: count, value: 0 });
  const status = element('p', { className: 'player-status', 'aria-live': 'polite', dataset: { role: statusRole } });
  return {
    element: element('div', { className: 'scaling-progress' }, [status, progress]),
    status,
    show(done, text) {
      progress.value = done;
      status.dataset.done = String(done === count);
      status.textContent = text;
    },
  };
}

// Runs `measure(part)` (one core call, through the section's error router:
// null when refused) for each part on `queue` (a study queue),
// handing each row to `found(index, row)`; stops at the first refusal (the
// same arguments fail for every part) and when `current()` turns false (a
// newer study replaced this one).
export function queueStudy(queue, parts, { measure, found, current }) {
  queue.replace(parts.map((part, index) => () => {
    if (!current()) return;
    const row = measure(part);
    if (!row) {
      queue.replace([]);
      return;
    }
    found(index, row);
  }));
}

// `start(inputs)` once `block` is near the screen, and again whenever one of
// `inputNames` (or the language) changes. `eager`: start at once, seen or
// not: a lab that shows this one section (a course page's iframe or
// element) is there for it, and its charts should fill without waiting for
// the reader to scroll to them.
export function createStudyTrigger(block, inputNames, start, { eager = false } = {}) {
  let visible = eager;
  let waiting = null; // the inputs of a study asked for before the panel was seen
  if (!eager) new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    visible = true;
    if (waiting) start(waiting);
    waiting = null;
  }, { rootMargin: '600px 0px' }).observe(block);
  return (inputs, changed) => {
    if (!inputNames.some((name) => changed.has(name)) && !changed.has('language')) return;
    if (visible) start(inputs);
    else waiting = inputs;
  };
}
