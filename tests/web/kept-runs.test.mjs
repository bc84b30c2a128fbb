// The kept runs' store (web/src/run/kept-runs.js) over a Map-backed fake
// of localStorage: a run kept as its section's run view has it, read back
// by a new store (a reload), at most three a section, and tampered storage
// bringing no run, or only the valid ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeStorage } from './fake-storage.mjs';
import {
  createKeptRunStore, keptRunOf, stepsToReach, validKeptRun, KEPT_STORAGE_KEY, KEPT_VERSION, MOST_KEPT,
} from '../../web/src/run/kept-runs.js';
import { defaultState } from '../../web/src/state.js';

// A run as the run view describes it (model-run.js), 200 steps trained.
const run = (accuracy = [0.4, 0.96, 0.99, 1]) => ({
  step: 200, status: 'done', losses: [2.1, 1.5, 0.25], evaluatedAt: accuracy.map((_, i) => 50 * (i + 1)), accuracy, trainingMs: 700,
});
const map = { rows: 2, cols: 2, values: Float64Array.of(0.25, 0.75, 1, 0), rowNames: ['3', '5'], colNames: ['3', '5'] };
const inputs = { ...defaultState(), atPositional: 'learned' };
const kept = (accuracy) => keptRunOf({ inputs, run: run(accuracy), map });

test('steps to 95 % are the step of the first evaluation at or above it, or none', () => {
  assert.equal(stepsToReach([50, 100, 150], [0.5, 0.95, 0.97]), 100);
  assert.equal(stepsToReach([50, 100], [0.5, 0.949]), null);
  assert.equal(stepsToReach([], []), null);
});

test('a kept run holds its settings off their defaults, its curve, its figures and its map', () => {
  const one = kept();
  assert.deepEqual({ ...one.given }, { atPositional: 'learned' }, 'only the settings off their defaults');
  assert.equal(one.step, 200);
  assert.equal(one.loss, 0.25, 'the last loss');
  assert.equal(one.heldOut, 1, 'the last evaluation');
  assert.equal(one.stepsToGoal, 100);
  assert.equal(one.msPerStep, 3.5, '700 ms over 200 steps');
  assert.deepEqual([...one.map.values], [0.25, 0.75, 1, 0]);
});

test('three runs are kept a section, read back by a new store (a reload); a fourth is refused; one can be removed', () => {
  const storage = fakeStorage();
  const store = createKeptRunStore('attention-training', () => storage);
  for (let i = 0; i < MOST_KEPT; i += 1) store.keep(kept([0.1 * (i + 1), 0.96]));
  assert.throws(() => store.keep(kept()), /run: at most 3 runs are kept/);
  assert.deepEqual([...storage.items.keys()], [KEPT_STORAGE_KEY]);
  const reloaded = createKeptRunStore('attention-training', () => storage);
  assert.deepEqual(reloaded.list().map((one) => one.accuracy[0]), [0.1, 0.2, 0.30000000000000004]);
  assert.deepEqual(createKeptRunStore('translation', () => storage).list(), [], 'another section keeps its own');
  reloaded.remove(1);
  assert.deepEqual(createKeptRunStore('attention-training', () => storage).list().map((one) => one.accuracy[0]), [0.1, 0.30000000000000004]);
  assert.throws(() => reloaded.keep({ ...kept(), step: -1 }), /run: not a run the lab can keep/);
});

test('tampered storage brings no run, or only the valid ones', () => {
  const good = JSON.parse(JSON.stringify(kept()));
  const tampered = [
    { ...good, accuracy: [0.4, 1.5, 0.99, 1] }, // an accuracy past 1
    { ...good, evaluatedAt: [50, 50, 150, 200] }, // evaluations out of order
    { ...good, evaluatedAt: [50, 100, 150, 250] }, // an evaluation past the steps trained
    { ...good, given: { atPositional: 'sideways' } }, // a value no control holds
    { ...good, given: { notASetting: 1 } },
    { ...good, map: { ...good.map, values: [0.25, 0.75, 1] } }, // a map of the wrong size
    { ...good, map: { ...good.map, rowNames: ['x'.repeat(41), '5'] } },
    { ...good, msPerStep: -1 },
    { ...good, loss: 'NaN' },
    { ...good, step: 1e9 },
    null, 7, [],
  ];
  for (const bad of tampered) assert.equal(validKeptRun(bad), null, JSON.stringify(bad).slice(0, 120));
  // "__proto__" written as JSON text: an own key once parsed, never a section.
  const sections = JSON.stringify({ 'attention-training': [tampered[0], good, tampered[5]] }).replace(/^\{/, `{"__proto__":[${JSON.stringify(good)}],`);
  const storage = fakeStorage({ [KEPT_STORAGE_KEY]: `{"version":${KEPT_VERSION},"sections":${sections}}` });
  const store = createKeptRunStore('attention-training', () => storage);
  assert.equal(store.list().length, 1, 'the valid one alone');
  assert.equal(store.list()[0].stepsToGoal, 100, 'derived again, never read');
  for (const text of ['{', JSON.stringify({ version: 2, sections: { 'attention-training': [good] } }), `"${'x'.repeat(600 * 1024)}"`]) {
    assert.deepEqual(createKeptRunStore('attention-training', () => fakeStorage({ [KEPT_STORAGE_KEY]: text })).list(), []);
  }
});

test('storage that refuses keeps the runs in memory for the visit', () => {
  const refusing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); } };
  const store = createKeptRunStore('translation', () => refusing);
  store.keep(kept());
  assert.equal(store.list().length, 1);
  const unopenable = createKeptRunStore('translation', () => { throw new Error('sandboxed'); });
  unopenable.keep(kept());
  assert.equal(unopenable.list().length, 1);
});
