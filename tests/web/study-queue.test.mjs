// The study queue (web/src/sections/shared/study-runner.js): a study's jobs wait
// until its inputs have rested, then run in tasks of a time budget each; a
// new list (the learner moved the slider again) replaces the old one and
// waits again. A fake clock and timers keep it deterministic.
import { test, beforeEach, afterEach, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createStudyQueue } from '../../web/src/sections/shared/study-runner.js';

const clock = { now: 0 };
let timers; // id -> { due, callback }
let nextId;
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
beforeEach(() => {
  clock.now = 0;
  timers = new Map();
  nextId = 1;
  globalThis.setTimeout = (callback, delay = 0) => {
    timers.set(nextId, { due: clock.now + delay, callback });
    return nextId++;
  };
  globalThis.clearTimeout = (id) => timers.delete(id);
  mock.method(performance, 'now', () => clock.now);
});
afterEach(() => {
  globalThis.setTimeout = realSetTimeout;
  globalThis.clearTimeout = realClearTimeout;
  mock.restoreAll();
});

// Moves the clock on by `ms` and runs the timers then due, one task each;
// the timers those tasks set wait for the next call.
function tick(ms) {
  clock.now += ms;
  const due = [...timers].filter(([, timer]) => timer.due <= clock.now);
  for (const [id, { callback }] of due) {
    timers.delete(id);
    callback();
  }
}

// Jobs that each take `ms` of the fake clock and log their name.
function jobs(names, ms, log) {
  return names.map((name) => () => {
    log.push(name);
    clock.now += ms;
  });
}

test('nothing runs until the inputs have rested 200 ms, then a budget\'s worth a task', () => {
  const log = [];
  createStudyQueue(8).replace(jobs(['a', 'b', 'c', 'd', 'e'], 3, log));
  assert.deepEqual(log, [], 'not in the change\'s own task');
  tick(199);
  assert.deepEqual(log, []);
  tick(1);
  // 3 ms a job: a, b, c reach 9 ms, past the budget of 8.
  assert.deepEqual(log, ['a', 'b', 'c']);
  tick(0);
  assert.deepEqual(log, ['a', 'b', 'c', 'd', 'e'], 'the rest in the next task');
});

test('a new list before the rest is over replaces it, and waits again', () => {
  const log = [];
  const queue = createStudyQueue(8);
  queue.replace(jobs(['old1', 'old2'], 1, log));
  tick(150);
  queue.replace(jobs(['new1', 'new2'], 1, log));
  tick(150);
  assert.deepEqual(log, [], 'the slider moved again: the old study never started');
  tick(50);
  assert.deepEqual(log, ['new1', 'new2']);
});

test('a job may stop the study (the core refused its arguments), and clear() drops what is left', () => {
  const log = [];
  const queue = createStudyQueue(8);
  queue.replace([() => {
    log.push('refused');
    queue.replace([]);
  }, () => log.push('never')]);
  tick(200);
  tick(0);
  assert.deepEqual(log, ['refused']);

  queue.replace(jobs(['a', 'b', 'c', 'd'], 5, log));
  tick(200);
  assert.deepEqual(log, ['refused', 'a', 'b']);
  queue.clear();
  tick(1000);
  assert.deepEqual(log, ['refused', 'a', 'b'], 'the section went away: nothing more ran');
});

test('a job that starts a new study stops the old list; the new one waits for the inputs to rest', () => {
  const log = [];
  const queue = createStudyQueue(8);
  queue.replace([
    () => {
      log.push('old1');
      queue.replace(jobs(['new1'], 1, log));
    },
    () => log.push('old2'),
  ]);
  tick(200);
  assert.deepEqual(log, ['old1'], 'the rest of the old list is dropped at once');
  tick(199);
  assert.deepEqual(log, ['old1']);
  tick(1);
  assert.deepEqual(log, ['old1', 'new1']);
});
