// The training section's and the scoring framework's exercises in the page
// (sections/training/exercises.js, sections/pipeline/exercises.js): every
// exercise answered wrong, then (after "Reset my answers") right, in English
// and then in Chinese, the right answers computed here from a core of the
// test's own (window.directCore) for the live state, never read from the
// page; the status on the root, the feedback's opening from the catalogue,
// the hint after a wrong try, the landscape covered while the prediction
// that it would give away is open, the key asked about outlined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { SALTS } from '../../web/src/sections/shared/seeded-draws.js';
import { PIPELINE_DRAWS } from '../../web/src/sections/pipeline/setup.js';
import { usePage, setState, setLanguage, shownText } from './harness.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// A catalogue text up to its first placeholder or formula: what the page must show of it.
const opening = (language, key) => catalogues[language][key].split(/[{$]/)[0].replace(/\*\*/g, '').trim();
const started = performance.now();

let page;
const lab = usePage({ predictions: 'open', section: '#training', directCore: true, opened: (opened) => ({ page } = opened) });

const exercise = (section, id) => page.locator(`[data-exercise="${section}.${id}"]`);
const statusOf = (section, id) => exercise(section, id).getAttribute('data-status');
const verdictOf = (section, id) => shownText(exercise(section, id).locator('.exercise-verdict'));
const hintShown = (section, id) => exercise(section, id).locator('.exercise-hint').isVisible();
// The block renders its verdict in the click's own handler: nothing to wait for.
const check = (section, id) => exercise(section, id).locator('[data-action="check"]').click();
const choose = async (section, id, option) => {
  await exercise(section, id).locator(`input[value="${option}"]`).check();
  await check(section, id);
};
const type = async (section, id, value) => {
  const box = exercise(section, id).locator('input[type="number"]');
  await box.fill(String(value));
  await box.press('Enter');
};
const reset = (section) => page.locator(`#${section} [data-action="reset-exercises"]`).click();

async function saysWhy(language, section, id, status, key) {
  assert.equal(await statusOf(section, id), status, `${section}.${id}: ${status}`);
  assert.ok((await verdictOf(section, id)).includes(opening(language, key)), `${section}.${id}: said why (${key})`);
  // A hint while another try is open; none beside a right answer or one shown.
  assert.equal(await hintShown(section, id), status === 'wrong' || status === 'close', `${section}.${id}: a hint only while another try is open`);
}

// The training task's numbers for the live state, from the test's core: the
// first step, the bottom of the landscape on a fine grid, the plain loss's
// slope at w0, and the slope at -w.
const trainingFacts = (mirrorIndex = 0) => page.evaluate(({ salt, mirrorIndex }) => {
  const core = window.directCore;
  const { n, noise, seed, w0, lr, leaveOneOut } = window.attentionLab.state;
  const { x, y } = core.makeDataset({ n, noise, seed, xMax: 5 });
  const ws = Float64Array.from({ length: 401 }, (_, i) => i * 0.05);
  const losses = core.lossLandscape(x, y, ws, { leaveOneOut: true });
  const lowest = losses.indexOf(Math.min(...losses));
  const w1 = core.trainKernelWidth(x, y, { w0, lr, epochs: 1, leaveOneOut }).w[1];
  const [u] = core.randomUniform(1, { seed: (mirrorIndex ^ salt) >>> 0, low: 1, high: 10 });
  const mirrorW = Math.round(u * 10) / 10;
  return {
    w0, w1, bottom: ws[lowest], lowestLoss: losses[lowest],
    loss1: core.kernelWidthLoss(x, y, w1, { leaveOneOut: true }).loss,
    plainSlope: core.kernelWidthLoss(x, y, w0, { leaveOneOut: false }).gradient,
    mirrorW,
    mirror: core.kernelWidthLoss(x, y, -mirrorW, { leaveOneOut }),
    shownSlope: core.kernelWidthLoss(x, y, mirrorW, { leaveOneOut }).gradient,
  };
}, { salt: SALTS.widthMirror, mirrorIndex });

// The scoring framework's numbers for the live state: the weights of q and
// 2q, the output with every value raised by 1, and for each key the query
// of a grid over the controls' range that gives it the most weight.
const pipelineFacts = () => page.evaluate(({ salts, draws }) => {
  const core = window.directCore;
  const { pipelineKeys: m, pipelineQ1: q1, pipelineQ2: q2, pipelineSeed: seed } = window.attentionLab.state;
  const stream = (role) => (seed ^ salts[role]) >>> 0;
  const keys = core.randomNormal(draws.keys * 2, { seed: stream('keys') }).subarray(0, 2 * m);
  const values = core.randomNormal(draws.keys, { seed: stream('values') }).subarray(0, m);
  const attend = (queries, vs = values) => core.dotProductAttention({
    queries, keys, values: vs, shape: { batch: 1, nq: queries.length / 2, nk: m, d: 2, dv: 1 },
  });
  const line = Array.from({ length: 61 }, (_, i) => -3 + i * 0.1);
  const grid = line.flatMap((a) => line.map((b) => [a, b]));
  const gridWeights = attend(grid.flat()).weights;
  const best = Array.from({ length: m }, (_, key) => {
    let row = 0;
    for (let r = 1; r < grid.length; r += 1) if (gridWeights[r * m + key] > gridWeights[row * m + key]) row = r;
    return { q: grid[row], weight: gridWeights[row * m + key] };
  });
  return {
    now: Array.from(attend([q1, q2]).weights),
    doubled: Array.from(attend([2 * q1, 2 * q2]).weights),
    output: attend([q1, q2]).output[0],
    raised: attend([q1, q2], Float64Array.from(values, (v) => v + 1)).output[0],
    best,
  };
}, { salts: SALTS, draws: PIPELINE_DRAWS });

const landscapeCovered = () => page.locator('#training [data-figure="landscape"]').getAttribute('data-covered');

async function trainingWrongThenRight(language) {
  await setState(page, { n: 50, noise: 0.5, seed: 0, w0: 1, lr: 0.5, epochs: 5, leaveOneOut: true });
  await reset('training');
  const facts = await trainingFacts();
  // The book's first step: past the bottom (w1 on the far side, its loss well above the lowest).
  assert.ok(facts.w1 > facts.bottom && facts.loss1 > 1.01 * facts.lowestLoss && facts.w1 < 40, JSON.stringify(facts));
  await choose('training', 'first-step', 'bottom');
  await saysWhy(language, 'training', 'first-step', 'revealed', 'training.ex.step.bottomNot');

  assert.notEqual(await landscapeCovered(), null, 'the landscape is covered while the prediction is open');
  assert.ok(facts.plainSlope < 0, 'the plain loss falls as w grows');
  await choose('training', 'without-loo', 'settles');
  await saysWhy(language, 'training', 'without-loo', 'revealed', 'training.ex.noLoo.settlesNot');
  assert.equal(await landscapeCovered(), null, 'uncovered once checked');

  await type('training', 'mirror-gradient', facts.shownSlope.toPrecision(4));
  await saysWhy(language, 'training', 'mirror-gradient', 'wrong', 'training.ex.mirror.sameSign');

  await check('training', 'near-bottom');
  await saysWhy(language, 'training', 'near-bottom', 'wrong', 'training.ex.near.far');

  await reset('training');
  assert.notEqual(await landscapeCovered(), null, 'covered again after a reset');
  await choose('training', 'first-step', 'past');
  await saysWhy(language, 'training', 'first-step', 'right', 'training.ex.step.pastWhy');
  await choose('training', 'without-loo', 'grows');
  await saysWhy(language, 'training', 'without-loo', 'right', 'training.ex.noLoo.growsWhy');
  await type('training', 'mirror-gradient', facts.mirror.gradient.toPrecision(6));
  await saysWhy(language, 'training', 'mirror-gradient', 'right', 'training.ex.mirror.right');
  await setState(page, { w0: Number(facts.bottom.toFixed(3)) });
  assert.equal(Number(await page.locator('#training [data-role="w"]').getAttribute('data-value')), Number(facts.bottom.toFixed(3)),
    'the read-out is at the new w0');
  await check('training', 'near-bottom');
  await saysWhy(language, 'training', 'near-bottom', 'right', 'training.ex.near.right');
}

async function pipelineWrongThenRight(language) {
  await setState(page, { pipelineScoring: 'dot', pipelineKeys: 5, pipelineQ1: 1, pipelineQ2: 0.5, pipelineSeed: 0 });
  await reset('pipeline');
  await page.locator('#pipeline').scrollIntoViewIfNeeded();
  const facts = await pipelineFacts();
  assert.ok(Math.max(...facts.doubled) > Math.max(...facts.now), 'doubling q: peakier');
  assert.ok(Math.abs(facts.raised - facts.output - 1) < 1e-12, 'values + 1: the output + 1');

  await choose('pipeline', 'shift-scores', 'grow');
  await saysWhy(language, 'pipeline', 'shift-scores', 'wrong', 'pipeline.ex.shift.growWhy');
  await choose('pipeline', 'double-query', 'same');
  await saysWhy(language, 'pipeline', 'double-query', 'revealed', 'pipeline.ex.double.sameNot');
  await type('pipeline', 'raised-values', facts.output.toFixed(4));
  await saysWhy(language, 'pipeline', 'raised-values', 'wrong', 'pipeline.ex.raised.unchanged');

  // The key asked about: named in the question, outlined in the table.
  const marked = page.locator('#pipeline tbody tr[data-marked]');
  assert.equal(await marked.count(), 1, 'one row outlined');
  const key = Number(await marked.getAttribute('data-key'));
  assert.ok((await shownText(exercise('pipeline', 'key-weight').locator('legend'))).includes(`k${key + 1}`), 'the question names it');
  await setState(page, { pipelineScoring: 'additive' });
  await check('pipeline', 'key-weight');
  await saysWhy(language, 'pipeline', 'key-weight', 'wrong', 'pipeline.ex.goal.additive');

  await reset('pipeline');
  await setState(page, { pipelineScoring: 'dot' });
  await choose('pipeline', 'shift-scores', 'same');
  await saysWhy(language, 'pipeline', 'shift-scores', 'right', 'pipeline.ex.shift.sameWhy');
  await choose('pipeline', 'double-query', 'peakier');
  await saysWhy(language, 'pipeline', 'double-query', 'right', 'pipeline.ex.double.peakierWhy');
  await type('pipeline', 'raised-values', facts.raised.toFixed(4));
  await saysWhy(language, 'pipeline', 'raised-values', 'right', 'pipeline.ex.raised.right');
  const { q, weight } = facts.best[key];
  assert.ok(weight >= 0.8, `k${key + 1} can reach ${weight}`);
  await setState(page, { pipelineQ1: q[0], pipelineQ2: q[1] });
  await check('pipeline', 'key-weight');
  await saysWhy(language, 'pipeline', 'key-weight', 'right', 'pipeline.ex.goal.right');
}

test('the training and scoring framework exercises, wrong then right, in English and in Chinese', async () => {
  const ready = performance.now();
  for (const [section, kinds] of [['training', ['predict', 'predict', 'compute', 'achieve']], ['pipeline', ['concept', 'predict', 'compute', 'achieve']]]) {
    // In any order: a prediction stands beside the figure it covers, above the section's other exercises.
    const shownKinds = await page.locator(`#${section} [data-exercise]`).evaluateAll((nodes) => nodes.map((node) => node.dataset.kind));
    assert.deepEqual([...shownKinds].sort(), [...kinds].sort(), section);
  }
  await trainingWrongThenRight('en');
  await pipelineWrongThenRight('en');
  await setLanguage(page, 'zh');
  await page.locator('#training').scrollIntoViewIfNeeded();
  await trainingWrongThenRight('zh');
  await pipelineWrongThenRight('zh');
  assert.deepEqual(lab.problems, []);
  console.log(`exercises-width-and-scoring: ${((performance.now() - started) / 1000).toFixed(1)} s in all, ${((performance.now() - ready) / 1000).toFixed(1)} s answering`);
});
