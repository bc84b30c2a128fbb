// The notes' noisy series re-weighted by self-attention: what the panel draws
// is the core's Nadaraya–Watson with the series' own times as the queries,
// its weights are a band of rows summing to 1, and the width is the knob.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePage, setState, setLanguage, screenshot, scrollToRendered, shownText } from './harness.mjs';
import { SERIES_ENCODING_DIM } from '../../web/src/sections/self-attention/series-smoothing-panel.js';

let page;
usePage({ section: '#self-attention', directCore: true, opened: (lab) => ({ page } = lab) });

const panel = '[data-role="series-panel"]';
// The re-weighted dots as drawn, and the core's own answer for the live state.
const drawn = () => page.locator(`${panel} [data-figure="series"] circle.prediction-dot`).evaluateAll((dots) => dots.length);
const expected = () => page.evaluate(() => {
  const s = window.attentionLab.state;
  const { x, y } = window.directCore.makeDataset({ n: s.seriesPoints, noise: s.seriesNoise, seed: s.seriesSeed, xMax: 5 });
  const smoothed = window.directCore.nadarayaWatson(x, x, y, { kernel: 'gaussian', w: s.seriesWidth });
  const weights = window.directCore.attentionWeights(x, x, { kernel: 'gaussian', w: s.seriesWidth });
  const spread = (v) => Math.max(...v) - Math.min(...v);
  return { n: x.length, smoothed: [...smoothed], weights: [...weights], spread: spread(smoothed), noisySpread: spread(y) };
});
test('the re-weighted series is the core\'s Nadaraya–Watson with queries = keys, a dot per point', async () => {
  await setState(page, { seriesPoints: 40, seriesWidth: 3, seriesNoise: 0.5, seriesSeed: 0 });
  const core = await expected();
  assert.equal(await drawn(), core.n);
  // The drawn dots sit where the core's values put them: compare their order of heights.
  const heights = await page.locator(`${panel} [data-figure="series"] circle.prediction-dot`).evaluateAll((dots) =>
    dots.map((dot) => Number(dot.getAttribute('cy'))));
  for (let i = 1; i < core.n; i += 1) {
    if (Math.abs(core.smoothed[i] - core.smoothed[i - 1]) > 1e-3) {
      assert.equal(Math.sign(heights[i - 1] - heights[i]), Math.sign(core.smoothed[i] - core.smoothed[i - 1]), `dot ${i}`);
    }
  }
  // Each row of weights sums to 1, and a point weighs its neighbours more than far points.
  for (let i = 0; i < core.n; i += 1) {
    const row = core.weights.slice(i * core.n, (i + 1) * core.n);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12, `row ${i} sums to 1`);
    const far = i < core.n / 2 ? core.n - 1 : 0;
    assert.ok(row[i] > row[far], `row ${i}: itself over the far end`);
  }
  assert.ok(core.spread < core.noisySpread, 're-weighting narrows the series');
});

test('the width is the knob: a wide kernel flattens the series, a narrow one keeps its noise', async () => {
  await setState(page, { seriesPoints: 50, seriesWidth: 0.2 });
  const wide = await expected();
  await setState(page, { seriesWidth: 40 });
  const narrow = await expected();
  assert.ok(wide.spread < 0.25 * narrow.spread, `spread ${wide.spread} (w = 0.2) vs ${narrow.spread} (w = 40)`);
  assert.ok(narrow.spread > 0.9 * narrow.noisySpread, 'w = 40 leaves nearly every point alone');
  // The heatmap is the n x n weights; hovering a cell names both points.
  await scrollToRendered(page.locator(`${panel} .heatmap-canvas`)); // hovered once drawn in view
  const canvas = await page.locator(`${panel} .heatmap-canvas`).boundingBox();
  await page.mouse.move(canvas.x + canvas.width * 0.5, canvas.y + canvas.height * 0.5);
  assert.match(await shownText(page.locator('[data-role="series-readout"]')), /^point \d+ \(t = \d\.\d\d\) gives point \d+ \(t = \d\.\d\d\) weight [01]\.\d{4}$/);
  await page.mouse.move(0, 0);
  await setState(page, { seriesWidth: 3 });
});

test('its parameters travel in the URL, it speaks Chinese, and it names self-attention and Nadaraya–Watson', async () => {
  await setState(page, { seriesWidth: 5, seriesPoints: 80 });
  await page.waitForFunction(() => location.hash.includes('seriesWidth=5') && location.hash.includes('seriesPoints=80'));
  assert.equal(await drawn(), 80);
  const lead = await shownText(page.locator(`${panel} .prose`));
  assert.match(lead, /self-attention/);
  assert.match(lead, /Nadaraya–Watson/);
  assert.match(lead, /section \d+/, 'it points to the pooling and data sections');
  await screenshot(page, 'series-smoothing-en', panel);
  await setLanguage(page, 'zh');
  assert.match(await shownText(page.locator(`${panel} .subsection-title`)), /有噪声的序列/);
  assert.match(await shownText(page.locator(`${panel} .prose`)), /自注意力/);
  await screenshot(page, 'series-smoothing-zh', panel);
  await setLanguage(page, 'en');
  await setState(page, { seriesWidth: 3, seriesPoints: 50 });
});

// The notes' recipe (the values' dot product) and its repair (the positions'
// encodings), from the core for the live state.
const dotProducts = () => page.evaluate((dim) => {
  const s = window.attentionLab.state;
  const core = window.directCore;
  const { x, y } = core.makeDataset({ n: s.seriesPoints, noise: s.seriesNoise, seed: s.seriesSeed, xMax: 5 });
  const n = y.length;
  const attend = (vectors, d) => core.dotProductAttention({
    queries: vectors, keys: vectors, values: y, shape: { batch: 1, nq: n, nk: n, d, dv: 1 }, validLens: null,
  });
  const values = attend(y, 1);
  const positions = attend(core.positionalEncoding(n, dim), dim);
  return { n, y: [...y], truth: [...core.truth(x)], values: { output: [...values.output], weights: [...values.weights] },
    positions: { output: [...positions.output], weights: [...positions.weights] } };
}, SERIES_ENCODING_DIM);

const rowArgmax = (weights, n, i) => {
  const row = weights.slice(i * n, (i + 1) * n);
  return row.indexOf(Math.max(...row));
};

// The read-out of one heatmap cell, by hovering it.
async function hoverWeight(row, col, n) {
  const canvas = page.locator(`${panel} .heatmap-canvas`);
  await scrollToRendered(canvas); // hovered once drawn in view
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + (box.width * (col + 0.5)) / n, box.y + (box.height * (row + 0.5)) / n);
  const text = await shownText(page.locator('[data-role="series-readout"]'));
  await page.mouse.move(0, 0);
  return Number(/weight ([\d.]+)$/.exec(text)[1]);
}

test('the notes\' dot product of the values attends to the largest values, not to neighbours; positional encodings repair it', async () => {
  await setState(page, { seriesPoints: 40, seriesWidth: 3, seriesNoise: 0.5, seriesSeed: 0, seriesWeights: 'values' });
  const core = await dotProducts();
  const { n, y } = core;
  const top = y.indexOf(Math.max(...y));
  // Every point with a positive value gives its largest weight to the largest value of the series.
  const positive = y.map((v, i) => i).filter((i) => y[i] > 0);
  assert.ok(positive.length > n * 0.8);
  for (const i of positive) assert.equal(rowArgmax(core.values.weights, n, i), top, `row ${i} looks at the largest value`);
  // Re-weighted so, the series is further from the noiseless curve than the noisy points were;
  // re-weighted by positions, nearer (the errors: about 1.3, 0.52 and 0.30 at these settings).
  const error = (values) => Math.sqrt(values.reduce((sum, v, i) => sum + (v - core.truth[i]) ** 2, 0) / n);
  assert.ok(error(core.values.output) > 2 * error(y), `the notes' recipe: ${error(core.values.output)} against ${error(y)}`);
  assert.ok(error(core.positions.output) < 0.7 * error(y), `positions: ${error(core.positions.output)} against ${error(y)}`);
  const heatmap = page.locator(`${panel} [data-figure="series-weights"]`);
  assert.equal(await heatmap.getAttribute('data-weights'), 'values');
  assert.equal(await hoverWeight(positive[0], top, n), Number(core.values.weights[positive[0] * n + top].toFixed(4)));
  assert.equal(await page.locator(`${panel} [data-figure="series"] path.by-values`).count(), 1);
  assert.equal(await page.locator(`${panel} [data-role="series-notes-note"]`).isVisible(), true);
  await screenshot(page, 'series-notes-dot-product', `${panel}`);
  // The positions' encodings: each point weighs itself most, its neighbours next.
  await setState(page, { seriesWeights: 'positions' });
  assert.equal(await heatmap.getAttribute('data-weights'), 'positions');
  for (let i = 0; i < n; i += 1) assert.equal(rowArgmax(core.positions.weights, n, i), i, `row ${i} looks at itself`);
  assert.equal(await hoverWeight(10, 10, n), Number(core.positions.weights[10 * n + 10].toFixed(4)));
  await screenshot(page, 'series-positions', `${panel}`);
  await setState(page, { seriesWeights: 'time' });
});
