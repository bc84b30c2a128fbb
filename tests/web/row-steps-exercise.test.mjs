// The exercise on a trained row taken apart (sections/shared/row-steps-exercise.js),
// declared by both sections that train a model, checked without a browser
// against the real core (dist/attention-core.mjs): a model trained here as
// the page trains it, one row of it from the core handed to check() through
// a view that holds it, as the panel does. The right ratio is worked out
// here from the row's scores, e^(a − b); the recognised mistakes (a / b,
// a − b, α_a) are "not yet" with their own explanation, never "close"; a
// closed panel or a row of one key cannot be checked; another row or more
// training gives another right answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { loadCatalogue, setLanguage, t } from '../../web/src/i18n/index.js';
import { EXAMPLES, modelConfig, trainingOptions, taskOptions, exampleSeed } from '../../web/src/sections/attention-training/setup.js';
import { RATIO_TOLERANCE } from '../../web/src/sections/shared/row-steps-exercise.js';

await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);
const core = await loadAttentionCore();
const state = defaultState();

function trainedRow(steps, row) {
  const model = core.attentionModelTrain(core.attentionModelInit(modelConfig(state)), trainingOptions(state, steps)).model;
  const examples = core.attentionTaskBatch(taskOptions(state, { batch: EXAMPLES, seed: exampleSeed(state.atSeed, core.defaults.heldOutSeedMix) }));
  const result = core.attentionModelRowSteps(model, examples.tokens, { batch: EXAMPLES }, row);
  return { steps: result, ...row, keyNames: Array.from(examples.tokens.subarray(row.item * 8, row.item * 8 + 8), String) };
}
const viewOf = (row) => ({ rowSteps: () => row });
const topTwo = (scores) => Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, 2);

for (const id of ['attention-training', 'translation']) {
  test(`${id} declares the ratio exercise, its keys in both catalogues`, () => {
    const exercise = SECTIONS.find((section) => section.id === id).exercises.find((e) => e.id === 'row-weight-ratio');
    assert.ok(exercise, 'declared');
    assert.equal(exercise.kind, 'compute');
    for (const language of ['en', 'zh']) {
      setLanguage(language);
      for (const key of [exercise.questionKey, exercise.hintKey]) assert.notEqual(t(key), key, `${language} ${key}`);
      assert.doesNotMatch(t(exercise.questionKey), /\{\w+\}/, 'the question has no placeholder to fill');
    }
    setLanguage('en');
  });
}

test('the ratio: right is e^(a − b) of the row\'s two largest scores; recognised mistakes are "not yet"', () => {
  const exercise = SECTIONS.find((section) => section.id === 'attention-training').exercises.find((e) => e.id === 'row-weight-ratio');
  const row = trainedRow(150, { block: 0, item: 0, head: 1, query: 2 });
  const [a, b] = topTwo(row.steps.scores);
  const sa = row.steps.scores[a];
  const sb = row.steps.scores[b];
  const right = Math.exp(sa - sb);
  const view = viewOf(row);
  const check = (answer) => exercise.check(core, {}, answer, null, view);
  assert.equal(check(right).verdict, 'right');
  assert.equal(check(right * (1 + RATIO_TOLERANCE / 2)).verdict, 'right', 'within the tolerance');
  assert.equal(check(right * 1.05).verdict, 'close');
  assert.equal(check(right * 2).verdict, 'wrong');
  if (Math.abs(sa / sb - right) > RATIO_TOLERANCE * right) {
    assert.deepEqual([check(sa / sb).verdict, check(sa / sb).key], ['wrong', 'steps.ex.ratio.scoreRatio']);
  }
  if (Math.abs(sa - sb - right) > RATIO_TOLERANCE * right) {
    assert.deepEqual([check(sa - sb).verdict, check(sa - sb).key], ['wrong', 'steps.ex.ratio.difference']);
  }
  const alpha = row.steps.weights[a];
  if (Math.abs(alpha - right) > RATIO_TOLERANCE * right) assert.equal(check(alpha).key, 'steps.ex.ratio.weight');
  const solution = exercise.solution(core, {}, null, view);
  assert.equal(solution.key, 'steps.ex.ratio.solution');
  assert.equal(Number(solution.params.ratio.replace('−', '-').replace(/,/g, '')).toPrecision(3), right.toPrecision(3));

  // Another row, or the same row after more training: another right answer.
  const other = trainedRow(150, { block: 0, item: 1, head: 0, query: 5 });
  const [c, d] = topTwo(other.steps.scores);
  const otherRight = Math.exp(other.steps.scores[c] - other.steps.scores[d]);
  assert.ok(Math.abs(otherRight - right) > 0.05 * right, `${otherRight} vs ${right}`);
  assert.notEqual(exercise.check(core, {}, right, null, viewOf(other)).verdict, 'right');
  assert.equal(exercise.check(core, {}, otherRight, null, viewOf(other)).verdict, 'right');
});

test('a closed panel, or a row that sees one key, cannot be checked', () => {
  const exercise = SECTIONS.find((section) => section.id === 'translation').exercises.find((e) => e.id === 'row-weight-ratio');
  assert.throws(() => exercise.check(core, {}, 1, null, viewOf(null)), { message: t('steps.ex.ratio.openFirst') });
  assert.throws(() => exercise.check(core, {}, 1, null, undefined), { message: t('steps.ex.ratio.openFirst') });
  assert.equal(exercise.solution(core, {}, null, viewOf(null)).key, 'steps.ex.ratio.solutionNone');
  const model = core.attentionModelInit(modelConfig(state));
  const tokens = new Int32Array(8).fill(1);
  const first = core.attentionModelRowSteps(model, tokens, { causal: true }, { query: 0 });
  const view = viewOf({ steps: first, block: 0, head: 0, query: 0, keyNames: Array(8).fill('1') });
  assert.throws(() => exercise.check(core, {}, 1, null, view), { message: t('steps.ex.ratio.oneKey') });
});
