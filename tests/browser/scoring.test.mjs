// Section 8, additive vs scaled dot-product attention on the book's demo, and
// the "why divide by sqrt(d)" panel: the weights and outputs drawn are a
// direct core call's, the controls (keys, queries, valid lengths, h, seed)
// change them as the core says, and the scaling study fills in frame by
// frame with the core's numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, numberValue, shownText } from './harness.mjs';
import { pathSegments, matrixCells, values } from './figure-readers.mjs';
import { SALTS } from '../../web/src/sections/shared/seeded-draws.js';
import { SCORING_DRAWS } from '../../web/src/sections/scoring/setup.js';
import { SCALING_DIMS } from '../../web/src/sections/scoring/scaling-panel.js';

let page;
let problems;
usePage({ section: '#scoring', directCore: true, opened: (lab) => ({ page, problems } = lab) });

const DEFAULTS = { seed: 0, keys: 'ones', queries: '20d', nq: 1, lens: [2, 6], h: 8 };

// Both layers called directly on the book's demo, with the page's seeded draws.
async function direct(options = {}) {
  const o = { ...DEFAULTS, ...options };
  return page.evaluate(({ o, salts, draws }) => {
    const core = window.directCore;
    const stream = (role) => (o.seed ^ salts[role]) >>> 0;
    const values = Float64Array.from({ length: 80 }, (_, i) => i % 40);
    const keys = o.keys === 'ones' ? new Float64Array(40).fill(1) : core.randomNormal(40, { seed: stream('keys') });
    const q2 = core.randomNormal(2 * draws.queries * 2, { seed: stream('queries') }).subarray(0, 2 * o.nq * 2);
    const dq = o.queries === '20d' ? 20 : 2;
    const qa = dq === 20 ? core.randomNormal(2 * draws.queries * 20, { seed: stream('queries20') }).subarray(0, 2 * o.nq * 20) : q2;
    const bound = (fanIn) => 1 / Math.sqrt(fanIn);
    const additive = core.additiveAttention({
      queries: qa, keys, values, shape: { batch: 2, nq: o.nq, nk: 10, dq, dk: 2, dv: 4, h: o.h },
      Wq: core.randomUniform(o.h * dq, { seed: stream('wq'), low: -bound(dq), high: bound(dq) }),
      Wk: core.randomUniform(o.h * 2, { seed: stream('wk'), low: -bound(2), high: bound(2) }),
      wv: core.randomUniform(o.h, { seed: stream('wv'), low: -bound(o.h), high: bound(o.h) }),
      validLens: o.lens,
    });
    const dot = core.dotProductAttention({ queries: q2, keys, values, shape: { batch: 2, nq: o.nq, nk: 10, d: 2, dv: 4 }, validLens: o.lens });
    const plain = (r) => ({ weights: Array.from(r.weights), output: Array.from(r.output) });
    return { additive: plain(additive), dot: plain(dot) };
  }, { o, salts: SALTS, draws: SCORING_DRAWS });
}

async function shown() {
  return {
    additive: { weights: values(await matrixCells(page, 'additive-weights')), output: values(await matrixCells(page, 'additive-output')) },
    dot: { weights: values(await matrixCells(page, 'dot-weights')), output: values(await matrixCells(page, 'dot-output')) },
  };
}

test('the book\'s demo: uniform weights over the valid keys, the mean of the valid values', async () => {
  const page$ = await shown();
  const expected = await direct();
  assert.deepEqual(page$, expected);
  // The outputs' columns are the values' dimensions (the book's values are 4-D), not values.
  assert.deepEqual(await page.locator('[data-figure="dot-output"] .matrix-col-labels text').allTextContents(),
    ['dim 1', 'dim 2', 'dim 3', 'dim 4']);
  // What the book prints: weights 1/2 on 2 keys and 1/6 on 6; outputs [2, 3, 4, 5] and [10, 11, 12, 13].
  for (const layer of ['additive', 'dot']) {
    page$[layer].weights.slice(0, 2).forEach((w) => assert.ok(Math.abs(w - 0.5) < 1e-12));
    page$[layer].weights.slice(10, 16).forEach((w) => assert.ok(Math.abs(w - 1 / 6) < 1e-12));
    assert.deepEqual(page$[layer].weights.slice(2, 10), Array(8).fill(0));
    page$[layer].output.forEach((value, i) => assert.ok(Math.abs(value - [2, 3, 4, 5, 10, 11, 12, 13][i]) < 1e-9, `output ${i}`));
  }
  const cells = await matrixCells(page, 'additive-weights');
  assert.deepEqual(cells.filter((cell) => cell.masked).map((cell) => cell.row * 10 + cell.col),
    [2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 18, 19], 'keys beyond the valid lengths 2 and 6 are hatched');
  assert.equal(await page.locator('#scoring [data-role="ones-note"]').isVisible(), true);
  assert.match(await shownText(page.locator('#scoring [data-role="scoring-shapes"]')), /\(2, 1, 20\).*\(2, 1, 2\).*\[2, 6\]/);
});

test('random keys: the two scoring functions disagree, each as the core computes it', async () => {
  await page.locator('[data-param="scoringKeys"] [data-value="random"]').click();
  await settled(page);
  assert.equal(await page.locator('#scoring [data-role="ones-note"]').isVisible(), false);
  let page$ = await shown();
  let expected = await direct({ keys: 'random' });
  assert.deepEqual(page$, expected);
  assert.notDeepEqual(page$.additive.weights, page$.dot.weights);
  const fills = (await matrixCells(page, 'dot-weights')).filter((cell) => !cell.masked).map((cell) => cell.fill);
  assert.ok(new Set(fills).size > 3, 'the weights are no longer uniform: several colours');

  // h changes additive attention only.
  await typeInto(page, 'additiveHidden', 2);
  await settled(page);
  const afterH = await shown();
  expected = await direct({ keys: 'random', h: 2 });
  assert.deepEqual(afterH, expected);
  assert.notDeepEqual(afterH.additive.weights, page$.additive.weights, 'a new h, new additive weights');
  assert.deepEqual(afterH.dot, page$.dot, 'dot-product attention has no h');

  // The same 2-D queries for both, more queries, other lengths and a new draw.
  await page.locator('[data-param="additiveQueries"] [data-value="shared"]').click();
  await typeInto(page, 'scoringQueries', 3);
  await typeInto(page, 'scoringLen1', 10);
  await typeInto(page, 'scoringLen2', 0);
  await page.locator('[data-action="scoring-new-draw"]').click();
  await settled(page);
  assert.equal(await numberValue(page, 'scoringSeed'), 1);
  page$ = await shown();
  expected = await direct({ seed: 1, keys: 'random', queries: 'shared', nq: 3, lens: [10, 0], h: 2 });
  assert.deepEqual(page$, expected);
  assert.equal(page$.dot.weights.length, 60, '2 items x 3 queries x 10 keys');
  assert.deepEqual(page$.dot.weights.slice(30), Array(30).fill(0), 'valid length 0: rows of zeros');
  assert.match(await shownText(page.locator('#scoring [data-role="scoring-shapes"]')), /\(2, 3, 2\).*\(2, 3, 2\)/);
});

test('a length the core refuses is shown at its control, and bounds clamp', async () => {
  await page.evaluate(() => window.attentionLab.setUnchecked({ scoringLen1: 12 }));
  await settled(page);
  const error = page.locator('[data-error-for="scoringLen1"]');
  assert.equal(await error.isVisible(), true);
  assert.match(await shownText(error), /validLens/);
  await typeInto(page, 'scoringLen1', 2);
  await typeInto(page, 'scoringLen2', 6);
  await typeInto(page, 'additiveHidden', 500);
  await settled(page);
  assert.equal(await error.isVisible(), false);
  assert.equal(await numberValue(page, 'additiveHidden'), 64);
  for (const [name, value] of [['additiveHidden', 8], ['scoringQueries', 1], ['scoringSeed', 0]]) await typeInto(page, name, value);
  await page.locator('[data-param="additiveQueries"] [data-value="20d"]').click();
  await page.locator('[data-param="scoringKeys"] [data-value="ones"]').click();
  await settled(page);
  assert.deepEqual(await shown(), await direct());
});

test('why divide by sqrt(d): the core\'s scaling study, d = 1 ... 512, filled in frame by frame', async () => {
  const status = page.locator('#scoring [data-role="scaling-status"]');
  // The study starts when its panel nears the screen: scrolled to as a reader would, whatever the tests before left in view.
  await page.locator('#scoring [data-role="scaling-panel"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { timeout: 60000 });
  const rows = await page.locator('#scoring [data-role="scaling-table"] tbody tr').evaluateAll((trs) => trs.map((tr) => ({ ...tr.dataset })));
  assert.equal(rows.length, SCALING_DIMS.length);
  const expected = await page.evaluate((dims) => dims.map((d) =>
    window.directCore.scalingStudy({ dims: [d], samples: 100, keys: 10, seed: 0 })[0]), SCALING_DIMS);
  rows.forEach((row, i) => {
    assert.equal(Number(row.d), SCALING_DIMS[i]);
    for (const name of ['variance', 'scaledVariance', 'maxWeight', 'scaledMaxWeight']) {
      assert.equal(Number(row[name]), expected[i][name], `${name} at d = ${row.d}`);
    }
  });
  // What the panel is there to show (the core's numbers): Var grows like d unscaled, stays near 1 scaled;
  // the largest weight creeps to 1 unscaled.
  const last = expected[expected.length - 1];
  assert.ok(last.variance > 300 && last.scaledVariance < 1.5 && last.scaledVariance > 0.6, JSON.stringify(last));
  assert.ok(last.maxWeight > 0.8 && last.scaledMaxWeight < 0.5, JSON.stringify(last));
  // Drawn: one point per d on each curve, the unscaled variance rising to the top right.
  const [unscaled] = pathSegments(await page.locator('[data-figure="scaling-variance"] .layer-variance path').getAttribute('d'));
  const [scaled] = pathSegments(await page.locator('[data-figure="scaling-variance"] .layer-scaledVariance path').getAttribute('d'));
  assert.equal(unscaled.length, SCALING_DIMS.length);
  assert.equal(scaled.length, SCALING_DIMS.length);
  assert.ok(unscaled[unscaled.length - 1][1] < unscaled[0][1] - 100, 'the unscaled variance climbs');
  assert.ok(Math.abs(scaled[scaled.length - 1][1] - scaled[0][1]) < 40, 'the scaled one stays level');
  const [weights] = pathSegments(await page.locator('[data-figure="scaling-weight"] .layer-maxWeight path').getAttribute('d'));
  assert.equal(weights.length, SCALING_DIMS.length);

  // New settings restart the study; it runs across frames (the page answers
  // meanwhile) and ends with the core's numbers. The frames are recorded from
  // the change itself, with the CPU slowed 4x so that a fast machine cannot
  // finish the whole study within one frame's budget.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const frames = await page.evaluate(() => new Promise((resolve) => {
    const box = document.querySelector('[data-param="scalingKeys"] input[type="number"]');
    box.value = '30';
    box.dispatchEvent(new Event('change', { bubbles: true }));
    const seen = [];
    const tick = (now) => {
      const status = document.querySelector('#scoring [data-role="scaling-status"]');
      const progress = document.querySelector('#scoring [data-role="scaling-panel"] progress');
      seen.push({ now, done: status.dataset.done === 'true', value: progress.value, max: progress.max });
      if ((seen.length > 1 && seen.at(-1).done) || seen.length > 5000) resolve(seen);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  assert.equal(await status.getAttribute('data-done'), 'true');
  const gaps = frames.slice(1).map((frame, i) => frame.now - frames[i].now);
  console.log(`scaling study with m = 30 keys (CPU 4x slower) filled in over ${frames.length} frames, ` +
    `${(frames.at(-1).now - frames[0].now).toFixed(0)} ms; longest frame ${Math.max(...gaps).toFixed(0)} ms`);
  assert.ok(frames.some((frame) => !frame.done && frame.value > 0 && frame.value < frame.max),
    `the study ran across several frames, drawn part by part: ${frames.map((frame) => frame.value).join(' ')}`);
  const first = await page.locator('#scoring [data-role="scaling-table"] tbody tr').first().evaluate((tr) => Number(tr.dataset.maxWeight));
  const direct1 = await page.evaluate(() => window.directCore.scalingStudy({ dims: [1], samples: 100, keys: 30, seed: 0 })[0].maxWeight);
  assert.equal(first, direct1);
  await typeInto(page, 'scalingKeys', 10);
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { timeout: 60000 });
  assert.deepEqual(problems, []);
});
