// The figures are really drawn, from the core's numbers, and react to the
// controls: heatmap pixels, SVG path data, the hover read-out, the dragged
// query and the gaps where weights are undefined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, scrollToRendered, shownText } from './harness.mjs';
import { rgb } from 'd3-color';
import { interpolateViridis } from 'd3-scale-chromatic';
import { pathSegments, canvasPixels, viridisPixel, matrixCells, drawnPoints } from './figure-readers.mjs';

let page;
let problems;
usePage({ directCore: true, opened: (lab) => ({ page, problems } = lab) });

// Viridis gets brighter from dark purple to yellow: luminance orders the weights.
const luminance = (data, i) => 0.2126 * data[i * 4] + 0.7152 * data[i * 4 + 1] + 0.0722 * data[i * 4 + 2];

async function predictionPath(figure) {
  return page.locator(`[data-figure="${figure}"] .layer-prediction path`).getAttribute('d');
}

test('the identity heatmap of the cues section is drawn cell by cell', async () => {
  const { width, height, data } = await canvasPixels(page, '#cues .heatmap-canvas');
  assert.equal(width, 10);
  assert.equal(height, 10);
  for (let row = 0; row < 10; row += 1) {
    for (let col = 0; col < 10; col += 1) {
      const i = (row * 10 + col) * 4;
      const pixel = data.slice(i, i + 4);
      // viridis(1) is yellow (253, 231, 37), viridis(0) dark purple (68, 1, 84)
      assert.deepEqual(pixel, row === col ? [253, 231, 37, 255] : [68, 1, 84, 255], `cell ${row},${col}`);
    }
  }
});

test('the attention heatmap paints the core\'s weights, one viridis cell per weight', async () => {
  const { width, height, data } = await canvasPixels(page, '#heatmap .heatmap-canvas');
  assert.equal(width, 50, 'one column per training input');
  assert.equal(height, 50, 'one row per test query (0, 0.1, ..., 4.9)');
  const weights = await page.evaluate(() => {
    const { x } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const queries = Array.from({ length: 50 }, (_, i) => i * 0.1);
    return Array.from(window.directCore.attentionWeights(queries, x, { kernel: 'gaussian', w: 1 }));
  });
  // The oracle: the colour scale runs from 0 to the largest weight, in 256 steps of viridis.
  const top = Math.max(...weights);
  const colours = new Set();
  for (let cell = 0; cell < weights.length; cell += 1) {
    const actual = data.slice(cell * 4, cell * 4 + 4);
    assert.deepEqual(actual, viridisPixel(weights[cell], [0, top]), `cell ${Math.floor(cell / 50)},${cell % 50}`);
    colours.add(actual.join());
  }
  assert.ok(colours.size > 40, `a smooth field of colours, got ${colours.size}`);
  // Sorted queries and keys: the brightest cell moves right from the first row to the last.
  const brightest = (row) => {
    let best = 0;
    for (let col = 1; col < 50; col += 1) if (luminance(data, row * 50 + col) > luminance(data, row * 50 + best)) best = col;
    return best;
  };
  assert.ok(brightest(0) < 10 && brightest(49) > 40, 'a bright band along the diagonal');
});

test('the plots draw the truth and the prediction as SVG data, the points on a canvas where they are', async () => {
  const plot = page.locator('[data-figure="pooling"]');
  await scrollToRendered(plot);
  const drawn = await drawnPoints(plot);
  const points = drawn.map(({ cx, cy }) => [cx, cy]);
  assert.equal(points.length, 50);
  assert.ok(points.every(([cx, cy]) => Number.isFinite(cx) && Number.isFinite(cy)));
  assert.ok(new Set(points.map(([cx]) => cx)).size > 40, 'points spread along x');
  // The canvas (transparent but for what it paints) is painted at each
  // point's centre and nowhere far from every point: in its corners there is none.
  const pixels = await canvasPixels(page, '[data-figure="pooling"] .plot-canvas');
  const scale = pixels.width / Number(await plot.locator('.plot-frame').getAttribute('width'));
  const alpha = (x, y) => pixels.data[(Math.floor(y * scale) * pixels.width + Math.floor(x * scale)) * 4 + 3];
  for (const [cx, cy] of points) assert.ok(alpha(cx, cy) > 0, `a point painted at (${cx}, ${cy})`);
  const far = (x, y) => drawn.every((point) => Math.hypot(point.cx - x, point.cy - y) > point.r + 2);
  const corners = [[1, 1], [pixels.width / scale - 2, 1], [1, pixels.height / scale - 2], [pixels.width / scale - 2, pixels.height / scale - 2]];
  for (const [x, y] of corners.filter(([x, y]) => far(x, y))) assert.equal(alpha(x, y), 0, `nothing painted at (${x}, ${y})`);

  const [prediction] = pathSegments(await predictionPath('pooling'));
  assert.equal(prediction.length, 501, 'the prediction is sampled on 0, 0.01, ..., 5');
  const ys = prediction.map(([, y]) => y);
  assert.ok(Math.max(...ys) - Math.min(...ys) > 20, 'Nadaraya-Watson follows the data: not a flat line');
  const truth = pathSegments(await page.locator('[data-figure="pooling"] .layer-truth path').getAttribute('d'))[0];
  assert.equal(truth.length, 501);
  // The truth starts at f(0) = 0 and the first prediction is above it (the data's mean pulls it up).
  assert.ok(truth[0][1] > prediction[0][1], 'f(0) = 0 is drawn below the prediction at x = 0');
});

test('average pooling draws a flat line at the mean of y', async () => {
  await page.locator('[data-param="estimator"] [data-value="average"]').click();
  await settled(page);
  const [flat] = pathSegments(await predictionPath('pooling'));
  assert.equal(new Set(flat.map(([, y]) => y)).size, 1, 'one y for every x');
  const prediction = Number(await page.locator('[data-role="query-formula"]').getAttribute('data-prediction'));
  const mean = await page.evaluate(() => {
    const { y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    return window.directCore.averagePool(y, 1)[0];
  });
  assert.equal(prediction, mean);
  await page.locator('[data-param="estimator"] [data-value="nadaraya-watson"]').click();
  await settled(page);
});

test('changing the kernel width changes the prediction, to the core\'s numbers', async () => {
  const before = await predictionPath('pooling');
  // The formula is out of view (not rendered there): its text, not its rendered text.
  const formulaBefore = await page.locator('[data-role="query-formula"]').textContent();
  await typeInto(page, 'w', 5);
  await settled(page);
  const after = await predictionPath('pooling');
  assert.notEqual(after, before, 'the curve moved');
  const wiggles = (d) => {
    const ys = pathSegments(d)[0].map(([, y]) => y);
    let turns = 0;
    for (let i = 2; i < ys.length; i += 1) if ((ys[i] - ys[i - 1]) * (ys[i - 1] - ys[i - 2]) < 0) turns += 1;
    return turns;
  };
  assert.ok(wiggles(after) > wiggles(before), 'a narrower kernel follows the noise: more turns');
  assert.notEqual(await page.locator('[data-role="query-formula"]').textContent(), formulaBefore);
  const shown = Number(await page.locator('[data-role="query-formula"]').getAttribute('data-prediction'));
  const direct = await page.evaluate(() => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    return window.directCore.nadarayaWatson([2.5], x, y, { kernel: 'gaussian', w: 5 })[0];
  });
  assert.equal(shown, direct);
  await typeInto(page, 'w', 1);
  await settled(page);
});

test('hovering a heatmap cell reads out its query, key and weight', async () => {
  const canvas = page.locator('#heatmap .heatmap-canvas');
  await scrollToRendered(canvas); // a section comes to life (hover and read-out) once drawn in view
  const box = await canvas.boundingBox();
  // Row 30 (query 3.0), column 20: the centre of that cell.
  await page.mouse.move(box.x + (box.width * 20.5) / 50, box.y + (box.height * 30.5) / 50);
  const text = await shownText(page.locator('[data-role="heatmap-readout"]'));
  const expected = await page.evaluate(() => {
    const { x } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const weight = window.directCore.attentionWeights([30 * 0.1], x, { kernel: 'gaussian', w: 1 })[20];
    return { key: x[20].toFixed(3), weight: Number(weight.toPrecision(4)).toString() };
  });
  assert.match(text, /query x = 3\.00/);
  assert.ok(text.includes(`key x21 = ${expected.key}`), `${text} names key x21 = ${expected.key}`);
  assert.ok(text.includes(`weight α = ${expected.weight}`), `${text} shows weight ${expected.weight}`);
  assert.equal(await page.locator('#heatmap .hover-box').isVisible(), true);
});

test('dragging the query moves its row of weights and its prediction', async () => {
  const overlay = page.locator('[data-figure="query"] .plot-overlay');
  await scrollToRendered(overlay);
  const box = await overlay.boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await settled(page);
  const query = Number(await page.locator('[data-param="query"] input[type="number"]').inputValue());
  assert.ok(Math.abs(query - 4) < 0.05, `the query followed the pointer to x ≈ 4, got ${query}`);
  const formula = page.locator('[data-role="query-formula"]');
  assert.match(await shownText(formula), /f\(4\.\d\d\)/);
  const direct = await page.evaluate((q) => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const weights = window.directCore.attentionWeights([q], x, { kernel: 'gaussian', w: 1 });
    let strongest = 0;
    for (let i = 1; i < weights.length; i += 1) if (weights[i] > weights[strongest]) strongest = i;
    return { prediction: window.directCore.nadarayaWatson([q], x, y, { kernel: 'gaussian', w: 1 })[0], strongest };
  }, query);
  assert.equal(Number(await formula.getAttribute('data-prediction')), direct.prediction);
  // The largest dot and the tallest bar sit on the key with the largest weight.
  const radii = (await drawnPoints(page.locator('[data-figure="query"]'))).map(({ r }) => r);
  assert.equal(radii.indexOf(Math.max(...radii)), direct.strongest);
  const bars = await page.locator('[data-figure="weights"] .layer-stems line').evaluateAll((ls) =>
    ls.map((l) => Number(l.getAttribute('y1')) - Number(l.getAttribute('y2'))));
  assert.equal(bars.indexOf(Math.max(...bars)), direct.strongest);
  // The heatmap marks the query's row.
  const marker = await page.locator('#heatmap .row-marker').evaluate((line) => line.style.display !== 'none');
  assert.ok(marker);
});

// A drag rewrites a formula's digits in place (figures/formula.js) instead
// of typesetting it again: what shows must be what a fresh typeset of the
// same state shows, in the drawn part and in the MathML a screen reader reads.
test('a formula whose numbers follow a drag reads as the same formula typeset afresh', async () => {
  const formulas = ['[data-role="query-formula"] .katex', '#pooling .formula-strip .formula:last-child .katex'];
  // The first match of each: the pooling section's first strip holds its estimator's formulas.
  const typeset = (target) => target.evaluate((selectors) => selectors.map((selector) => document.querySelector(selector).outerHTML), formulas);
  await page.evaluate((selectors) => selectors.forEach((selector, i) => { document.querySelector(selector).dataset.kept = i; }), formulas);
  for (const [query, w] of [[1.37, 1.5], [3.08, 0.25], [0.4, 12]]) {
    await page.evaluate((state) => window.attentionLab.set(state), { query, w });
    await settled(page);
    const shown = await typeset(page);
    const kept = await page.evaluate((selectors) => selectors.map((selector, i) => document.querySelector(selector).dataset.kept === String(i)), formulas);
    assert.deepEqual(kept, [true, true], 'the drag updated the typeset formulas in place');
    // A page opened on the same state typesets each formula once.
    const fresh = await page.context().newPage();
    await fresh.goto(`${new URL(page.url()).origin}/#query=${query}&w=${w}`);
    await fresh.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    await fresh.evaluate(() => window.attentionLab.drawn());
    const expected = await typeset(fresh);
    await fresh.close();
    for (const [i, html] of expected.entries()) {
      assert.equal(shown[i].replace(/ data-kept="\d"/, ''), html, `${formulas[i]} at query ${query}, w ${w}`);
    }
    assert.ok(shown[0].includes(`f(${query.toFixed(2)})`), `the query formula reads f(${query.toFixed(2)})`);
    assert.ok(shown[1].includes(`w = ${w}`), `the distance formula reads w = ${w}`);
  }
});

test('queries with no key in the kernel\'s support are gaps, explained', async () => {
  await page.locator('[data-param="kernel"] [data-value="boxcar"]').click();
  await typeInto(page, 'w', 20);
  await settled(page);
  const missingRows = await page.evaluate(() => {
    const { x } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const queries = Array.from({ length: 50 }, (_, i) => i * 0.1);
    const weights = window.directCore.attentionWeights(queries, x, { kernel: 'boxcar', w: 20 });
    return queries.map((_, row) => row).filter((row) => Number.isNaN(weights[row * 50]));
  });
  assert.ok(missingRows.length > 0, 'this setting leaves some queries without keys');
  const note = page.locator('#pooling [data-role="nan-note"]');
  assert.equal(await note.isVisible(), true);
  assert.match(await shownText(note), new RegExp(`^${missingRows.length} of 50 test queries`));
  assert.ok(pathSegments(await predictionPath('pooling')).length > 1, 'the prediction curve is broken into pieces');
  const { data } = await canvasPixels(page, '#heatmap .heatmap-canvas');
  for (const row of missingRows) {
    assert.equal(data[(row * 50) * 4 + 3], 0, `row ${row} is left transparent (hatched)`);
  }
  const defined = [...Array(50).keys()].find((row) => !missingRows.includes(row));
  assert.equal(data[(defined * 50) * 4 + 3], 255);

  await page.locator('[data-param="kernel"] [data-value="gaussian"]').click();
  await typeInto(page, 'w', 1);
  await settled(page);
  assert.equal(await note.isVisible(), false, 'the note goes when every query has keys again');
  assert.deepEqual(problems, []);
});

// A training run redraws its maps at every chunk: only the cells are
// repainted (on the map's canvas), not the labels, titles or size, which a
// write of the same value still makes the browser lay out and paint again.
test('a map redrawn with new values repaints its cells only, not its labels or frame', async () => {
  const section = page.locator('#attention-training');
  const map = '#attention-training [data-figure="at-map-b1-h1"]';
  await scrollToRendered(section);
  await settled(page);
  await page.evaluate((selector) => {
    window.mapWrites = [];
    const figure = document.querySelector(selector);
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        const { target } = record;
        const node = target.nodeType === Node.ELEMENT_NODE ? target : target.parentElement;
        window.mapWrites.push(`${node.tagName}.${node.getAttribute('class')} ${record.attributeName ?? record.type}`);
      }
    });
    observer.observe(figure.querySelector('svg'), { subtree: true, attributes: true, childList: true, characterData: true });
    observer.observe(figure.querySelector('canvas.matrix-canvas'), { attributes: true });
  }, map);
  const stepShown = () => section.locator('[data-role="at-step"]').evaluate((node) => Number(node.dataset.value));
  let before = (await matrixCells(page, 'at-map-b1-h1')).map((cell) => cell.value);
  for (let step = 1; step <= 2; step += 1) {
    const shown = await stepShown();
    await section.locator('[data-action="at-step"]').click();
    await page.waitForFunction((count) => Number(document.querySelector('#attention-training [data-role="at-step"]').dataset.value) > count, shown);
    await settled(page);
    const cells = await matrixCells(page, 'at-map-b1-h1');
    const values = cells.map((cell) => cell.value);
    assert.notDeepEqual(values, before, `step ${step}: the map holds the step's weights`);
    assert.deepEqual(cells.map((cell) => cell.fill), values.map((weight) => rgb(interpolateViridis(weight)).toString()),
      `step ${step}: each cell painted in viridis of its new weight`);
    before = values;
  }
  assert.deepEqual(await page.evaluate(() => window.mapWrites), [], 'nothing but the canvas\'s pixels was written');
  assert.deepEqual(problems, []);
});
