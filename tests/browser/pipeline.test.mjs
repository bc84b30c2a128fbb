// Section 6, the scoring framework for one query: the plane and the pipeline
// table are drawn, the query follows the pointer and the arrow keys, and the
// weights and the output shown are those of a direct core call
// (dotProductAttention or additiveAttention on the same seeded draws).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, numberValue, scrollToRendered, shownText } from './harness.mjs';
import { SALTS } from '../../web/src/sections/shared/seeded-draws.js';
import { PIPELINE_DRAWS } from '../../web/src/sections/pipeline/pipeline.js';

let page;
let problems;
usePage({ section: '#pipeline', directCore: true, opened: (lab) => ({ page, problems } = lab) });

// What the page shows: the weight of every row (full precision) and the output.
async function shown() {
  const weights = await page.locator('#pipeline [data-role="pipeline-weight"]').evaluateAll((nodes) =>
    nodes.map((node) => Number(node.dataset.value)));
  const output = Number(await page.locator('#pipeline [data-role="pipeline-output"]').getAttribute('data-value'));
  const scores = await page.locator('#pipeline .pipeline-score .formula').evaluateAll((nodes) =>
    nodes.map((node) => Number(node.dataset.value)));
  const radii = await page.locator('#pipeline .plane-key circle').evaluateAll((circles) =>
    circles.map((circle) => Number(circle.getAttribute('r'))));
  return { weights, scores, output, radii };
}

// The same call, made directly: keys, values and weights are the seeded draws
// of the core, sliced to m keys; the query is (q1, q2).
async function direct({ scoring = 'dot', m = 5, q1 = 1, q2 = 0.5, seed = 0 } = {}) {
  return page.evaluate(({ scoring, m, q1, q2, seed, salts, draws }) => {
    const core = window.directCore;
    const stream = (role) => (seed ^ salts[role]) >>> 0;
    const keys = core.randomNormal(draws.keys * 2, { seed: stream('keys') }).subarray(0, 2 * m);
    const values = core.randomNormal(draws.keys, { seed: stream('values') }).subarray(0, m);
    const h = draws.hidden;
    const result = scoring === 'dot'
      ? core.dotProductAttention({ queries: [q1, q2], keys, values, shape: { batch: 1, nq: 1, nk: m, d: 2, dv: 1 } })
      : core.additiveAttention({
        queries: [q1, q2], keys, values, shape: { batch: 1, nq: 1, nk: m, dq: 2, dk: 2, dv: 1, h },
        Wq: core.randomUniform(h * 2, { seed: stream('wq'), low: -1 / Math.sqrt(2), high: 1 / Math.sqrt(2) }),
        Wk: core.randomUniform(h * 2, { seed: stream('wk'), low: -1 / Math.sqrt(2), high: 1 / Math.sqrt(2) }),
        wv: core.randomUniform(h, { seed: stream('wv'), low: -1 / Math.sqrt(h), high: 1 / Math.sqrt(h) }),
      });
    return { weights: Array.from(result.weights), scores: Array.from(result.scores), output: result.output[0], keys: Array.from(keys) };
  }, { scoring, m, q1, q2, seed, salts: SALTS, draws: PIPELINE_DRAWS });
}

test('the plane and the pipeline are drawn with the core\'s weights and output', async () => {
  const page$ = await shown();
  const expected = await direct();
  assert.deepEqual(page$.weights, expected.weights, 'one row per key, the core\'s weights');
  assert.equal(page$.output, expected.output, 'the output is the core\'s weighted sum');
  assert.equal(await page.locator('#pipeline .pipeline-table tbody tr').count(), 5);
  // The plane: five keys where the core drew them, the largest dot on the largest weight.
  const strongest = expected.weights.indexOf(Math.max(...expected.weights));
  assert.equal(page$.radii.length, 5);
  assert.equal(page$.radii.indexOf(Math.max(...page$.radii)), strongest);
  assert.equal(await page.locator('#pipeline tbody tr.is-strongest').getAttribute('data-key'), String(strongest));
  const bar = await page.locator('#pipeline tbody tr .weight-bar').nth(strongest).evaluate((node) => node.style.width);
  assert.ok(Math.abs(parseFloat(bar) - expected.weights[strongest] * 100) < 1e-3, `bar width ${bar}`);
  // Each score is written out with the numbers of q and k_i, and its value from the core.
  assert.deepEqual(page$.scores, expected.scores, 'one score per key, the core\'s');
  const score = await shownText(page.locator('#pipeline .pipeline-score').first());
  assert.match(score, /1\.00/);
  const sign = expected.scores[0] < 0 ? '[−-]\\s*' : '';
  assert.match(score, new RegExp(`=\\s*${sign}${Math.abs(expected.scores[0]).toFixed(3)}`), 'the score\'s value');
  assert.match(score, new RegExp(expected.keys[0].toFixed(2).replace('-', '[−-]')));
  assert.deepEqual(problems, []);
});

test('dragging the query on the plane moves it and its weights', async () => {
  const before = await shown();
  // In view and laid out before it is measured: a pointer off the screen drags nothing.
  await scrollToRendered(page.locator('#pipeline .plane-svg'));
  await settled(page);
  const frame = await page.locator('#pipeline .plane-svg .plot-frame').boundingBox();
  // The plane spans [-3, 3] on both axes: the frame's corner quarter is (-1.5, 1.5).
  await page.mouse.move(frame.x + frame.width * 0.75, frame.y + frame.height * 0.75);
  await page.mouse.down();
  await page.mouse.move(frame.x + frame.width * 0.25, frame.y + frame.height * 0.25, { steps: 6 });
  await page.mouse.up();
  await settled(page);
  const q1 = await numberValue(page, 'pipelineQ1');
  const q2 = await numberValue(page, 'pipelineQ2');
  assert.ok(Math.abs(q1 + 1.5) < 0.05 && Math.abs(q2 - 1.5) < 0.05, `q followed the pointer to (-1.5, 1.5): (${q1}, ${q2})`);
  const after = await shown();
  assert.notDeepEqual(after.weights, before.weights);
  const expected = await direct({ q1, q2 });
  assert.deepEqual(after.weights, expected.weights);
  assert.equal(after.output, expected.output);

  // The arrow keys move the focused query by 0.1.
  await page.locator('#pipeline .plane-query').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await settled(page);
  assert.equal(await numberValue(page, 'pipelineQ1'), Number((q1 + 0.1).toFixed(2)));
  assert.equal(await numberValue(page, 'pipelineQ2'), Number((q2 - 0.1).toFixed(2)));

  // Keys pressed within one frame (a held key, a slow machine): each moves on from the last, none is lost.
  await page.locator('#pipeline .plane-query').evaluate((node) => {
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowDown']) node.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
  await settled(page);
  assert.equal(await numberValue(page, 'pipelineQ1'), Number((q1 + 0.3).toFixed(2)));
  assert.equal(await numberValue(page, 'pipelineQ2'), Number((q2 - 0.2).toFixed(2)));
});

test('the scoring function, the key count and the seed change the pipeline as the core says', async () => {
  await typeInto(page, 'pipelineQ1', 1);
  await typeInto(page, 'pipelineQ2', 0.5);
  await page.locator('[data-param="pipelineScoring"] [data-value="additive"]').click();
  await settled(page);
  let expected = await direct({ scoring: 'additive' });
  let now = await shown();
  assert.deepEqual(now.weights, expected.weights, 'additive attention\'s weights');
  assert.equal(now.output, expected.output);
  assert.match(await shownText(page.locator('[data-role="pipeline-score-formula"]')), /tanh/);

  await typeInto(page, 'pipelineKeys', 8);
  await settled(page);
  assert.equal(await page.locator('#pipeline .pipeline-table tbody tr').count(), 8);
  expected = await direct({ scoring: 'additive', m: 8 });
  now = await shown();
  assert.deepEqual(now.weights, expected.weights);

  await page.locator('[data-param="pipelineScoring"] [data-value="dot"]').click();
  await page.locator('[data-action="pipeline-new-keys"]').click();
  await settled(page);
  assert.equal(await numberValue(page, 'pipelineSeed'), 1);
  expected = await direct({ m: 8, seed: 1 });
  now = await shown();
  assert.deepEqual(now.weights, expected.weights, 'a new seed, new keys and values');
  assert.equal(now.output, expected.output);

  // Out of bounds is clamped by the parameter table.
  await typeInto(page, 'pipelineKeys', 50);
  await typeInto(page, 'pipelineQ1', -9);
  await settled(page);
  assert.equal(await numberValue(page, 'pipelineKeys'), 8);
  assert.equal(await numberValue(page, 'pipelineQ1'), -3);
  for (const [name, value] of [['pipelineKeys', 5], ['pipelineQ1', 1], ['pipelineSeed', 0]]) await typeInto(page, name, value);
  await settled(page);
  assert.deepEqual((await shown()).weights, (await direct()).weights);
  assert.deepEqual(problems, []);
});

test('with the query at (-1.66, -1.76) every column of the table is in view at 1280 px; wider, it says it scrolls', async () => {
  await page.evaluate(() => window.attentionLab.set({ pipelineQ1: -1.66, pipelineQ2: -1.76, pipelineScoring: 'dot' }));
  await settled(page);
  const box = page.locator('#pipeline .pipeline-scroll');
  const fit = await box.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }));
  assert.ok(fit.scroll <= fit.client, `the table is ${fit.scroll} px in a box of ${fit.client}`);
  assert.match(await shownText(page.locator('#pipeline .pipeline-output')), /f\(q\)|f\(𝐪\)|=/);
  // A box the table does not fit scrolls with a shadow at the edge (the formulas' cue).
  assert.equal(((await box.evaluate((node) => getComputedStyle(node).backgroundImage)).match(/radial-gradient/g) ?? []).length, 2);
  await page.evaluate(() => window.attentionLab.set({ pipelineQ1: 1, pipelineQ2: 0.5 }));
  await settled(page);
});
