// The frame queue (web/src/frame-queue.js): small jobs run within a time
// budget per animation frame, the first ones at once, the rest in later
// frames; a new list replaces what is left of the old one.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createFrameQueue } from '../../web/src/frame-queue.js';
import { useFakeFrames } from './animation-frames.mjs';

let frames;
beforeEach(() => {
  frames = useFakeFrames();
});
afterEach(() => frames.restore());

// Jobs that each take `ms` of the fake clock and log their name.
function jobs(names, ms, log) {
  return names.map((name) => () => {
    log.push(name);
    frames.clock.now += ms;
  });
}

test('jobs that fit the budget all run at once, with no frame asked for', () => {
  const log = [];
  createFrameQueue(6).replace(jobs(['a', 'b', 'c'], 1, log));
  assert.deepEqual(log, ['a', 'b', 'c']);
  assert.equal(frames.pending(), 0);
});

test('the rest waits for the next frames, a budget\'s worth each, in order', () => {
  const log = [];
  createFrameQueue(6).replace(jobs(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 2, log));
  // 2 ms a job: after a, b, c the budget of 6 ms is spent.
  assert.deepEqual(log, ['a', 'b', 'c']);
  assert.equal(frames.pending(), 1);
  frames.frame();
  assert.deepEqual(log, ['a', 'b', 'c', 'd', 'e', 'f']);
  frames.frame();
  assert.deepEqual(log, ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  assert.equal(frames.pending(), 0, 'done: no further frame');
});

test('a job longer than the budget still runs, one per frame', () => {
  const log = [];
  createFrameQueue(6).replace(jobs(['slow1', 'slow2'], 50, log));
  assert.deepEqual(log, ['slow1']);
  frames.frame();
  assert.deepEqual(log, ['slow1', 'slow2']);
});

test('a new list cancels the pending frame and drops what was left', () => {
  const log = [];
  const queue = createFrameQueue(6);
  queue.replace(jobs(['old1', 'old2', 'old3', 'old4'], 4, log));
  assert.deepEqual(log, ['old1', 'old2']);
  queue.replace(jobs(['new1', 'new2'], 1, log));
  assert.equal(frames.cancelled.length, 1, 'the old list\'s frame was cancelled');
  assert.deepEqual(log, ['old1', 'old2', 'new1', 'new2']);
  frames.frame();
  assert.deepEqual(log, ['old1', 'old2', 'new1', 'new2'], 'old3 and old4 never run');
});

test('the list given is copied: changing it afterwards changes nothing', () => {
  const log = [];
  const list = jobs(['a', 'b', 'c'], 3, log);
  createFrameQueue(6).replace(list);
  list.length = 0;
  frames.frame();
  assert.deepEqual(log, ['a', 'b', 'c']);
});

test('clear drops what is left and cancels the pending frame', () => {
  const log = [];
  const queue = createFrameQueue(6);
  queue.replace(jobs(['a', 'b', 'c', 'd'], 4, log));
  assert.equal(frames.pending(), 1);
  queue.clear();
  assert.equal(frames.pending(), 0);
  frames.frame();
  assert.deepEqual(log, ['a', 'b'], 'c and d never run');
});

test('a job that replaces the list stops the old one; the new one runs at once, one frame asked for', () => {
  const log = [];
  const queue = createFrameQueue(6);
  queue.replace([
    () => {
      log.push('old1');
      queue.replace(jobs(['new1', 'new2', 'new3', 'new4'], 2, log));
    },
    () => log.push('old2'),
  ]);
  assert.deepEqual(log, ['old1', 'new1', 'new2', 'new3']);
  assert.equal(frames.pending(), 1, 'one frame for the rest, not two');
  frames.frame();
  assert.deepEqual(log, ['old1', 'new1', 'new2', 'new3', 'new4'], 'old2 never ran');
});
