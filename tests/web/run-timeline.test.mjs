// The run's timeline (web/src/run/run-timeline.js): at most about 200
// moments of a run, every step at its start and then spaced in proportion
// to the step, so that the first steps (where the maps form) fill most of
// the slider; its start and its end included, read back in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRunTimeline, denseSteps, TIMELINE_CAPACITY } from '../../web/src/run/run-timeline.js';

const ahead = (step) => ({ weights: Float64Array.of(step), logits: Float64Array.of(-step) });

// Plays a run of `steps` steps (up to `until`) in chunks of `chunk`, recording as the section does.
function play(timeline, steps, chunk, until = steps) {
  timeline.reset(steps);
  for (let step = 0; step <= until; step = step === until ? until + 1 : Math.min(until, step + chunk)) {
    if (timeline.due(step) || step === until) timeline.record(step, ahead(step));
  }
}
const stepsOf = (timeline) => Array.from({ length: timeline.length }, (_, i) => timeline.at(i).step);
const share = (timeline, upTo) => stepsOf(timeline).filter((step) => step <= upTo).length / timeline.length;

test('a run of 2,000 steps keeps every step at first, then fewer and fewer: at most 200 moments, the start and the end', () => {
  const timeline = createRunTimeline();
  play(timeline, 2000, 1);
  const steps = stepsOf(timeline);
  assert.ok(timeline.length <= TIMELINE_CAPACITY + 1 && timeline.length >= TIMELINE_CAPACITY - 10, `${timeline.length} moments`);
  const dense = denseSteps(2000);
  assert.deepEqual(steps.slice(0, dense + 1), Array.from({ length: dense + 1 }, (_, i) => i), 'every step up to the dense part\'s end');
  assert.equal(timeline.lastStep, 2000);
  const gaps = steps.slice(1).map((step, i) => step - steps[i]);
  assert.ok(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1] || i === gaps.length - 1), 'the gaps only grow (the last one ends the run)');
  // Reverse forms by about step 150: that part was 150 / 2000 = 7.5 % of the slider when spread evenly.
  assert.ok(share(timeline, 150) > 0.5, `the first 150 steps take ${(share(timeline, 150) * 100).toFixed(0)} % of the moments`);
  assert.deepEqual(timeline.at(5).weights, Float64Array.of(5), 'what was recorded is what is read');
});

test('a run that pauses at its plateau (step 300 of 2,000): forming fills most of the slider', () => {
  const timeline = createRunTimeline();
  play(timeline, 2000, 1, 300);
  assert.equal(timeline.lastStep, 300);
  assert.ok(share(timeline, 150) > 0.75, `${(share(timeline, 150) * 100).toFixed(0)} % of the moments by step 150`);
});

test('every run length keeps at most about 200 moments', () => {
  for (const steps of [100, 300, 600, 2000, 10000]) {
    const timeline = createRunTimeline();
    play(timeline, steps, 1);
    assert.ok(timeline.length <= TIMELINE_CAPACITY + 1, `${steps} steps: ${timeline.length} moments`);
    assert.equal(timeline.lastStep, steps);
  }
});

test('chunks that pass a due step keep the first model past it; the end once', () => {
  const timeline = createRunTimeline(10);
  play(timeline, 300, 7);
  const steps = stepsOf(timeline);
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), 300);
  assert.ok(steps.every((step) => step % 7 === 0 || step === 300), 'only steps the chunks reached');
  assert.ok(timeline.length <= 11 + 1, `${timeline.length} moments of a timeline of 10`);
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
