// The run's timeline (web/src/run/run-timeline.js): about 200 moments
// spread over a run, its start and its end included, read back in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRunTimeline, TIMELINE_CAPACITY } from '../../web/src/run/run-timeline.js';

const ahead = (step) => ({ weights: Float64Array.of(step), logits: Float64Array.of(-step) });

// Plays a run of `steps` steps in chunks of `chunk`, recording as the section does.
function play(timeline, steps, chunk) {
  timeline.reset(steps);
  for (let step = 0; step <= steps; step = step === steps ? steps + 1 : Math.min(steps, step + chunk)) {
    if (timeline.due(step) || step === steps) timeline.record(step, ahead(step));
  }
}

test('a run of 2,000 steps keeps a moment every 10 steps, the start and the end', () => {
  const timeline = createRunTimeline();
  play(timeline, 2000, 1);
  assert.equal(timeline.length, TIMELINE_CAPACITY + 1);
  assert.equal(timeline.at(0).step, 0);
  assert.equal(timeline.at(1).step, 10);
  assert.equal(timeline.lastStep, 2000);
  assert.deepEqual(timeline.at(5).weights, Float64Array.of(50), 'what was recorded is what is read');
});

test('chunks that pass a multiple keep the first model past it; the end once', () => {
  const timeline = createRunTimeline(10); // every 30 steps of 300
  play(timeline, 300, 7);
  const steps = Array.from({ length: timeline.length }, (_, i) => timeline.at(i).step);
  assert.deepEqual(steps, [0, 35, 63, 91, 126, 154, 182, 210, 245, 273, 300]);
  timeline.record(300, ahead(300));
  assert.equal(timeline.length, steps.length, 'the last step is kept once');
});

test('reset empties it; a short run keeps every step', () => {
  const timeline = createRunTimeline();
  play(timeline, 100, 3);
  timeline.reset(100);
  assert.equal(timeline.length, 0);
  assert.equal(timeline.lastStep, null);
  assert.equal(timeline.due(0), true);
  play(timeline, 50, 1);
  assert.equal(timeline.length, 51);
});
