// Section 9, self-attention and multi-head attention: one map per head with
// the core's weights, the output heatmap drawn, the heads slider over the
// head counts the core accepts for H with the live transpose_qkv shapes, a
// head switched off shows its share of the output (the core with
// complementary head masks), and a head count the core refuses anyway is
// explained in the page's language at its control, the old maps marked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rgb } from 'd3-color';
import { interpolateViridis } from 'd3-scale-chromatic';
import { typeInto, settled, usePage, numberValue, scrollToRendered, shownText } from './harness.mjs';
import { matrixCells, values, canvasPixels } from './figure-readers.mjs';
import { saveFigure, evaluateInBlankPage } from './downloads.mjs';
import { directMultiHead } from './multihead-direct.mjs';

let page;
let problems;
usePage({ section: '#multihead', directCore: true, opened: (lab) => ({ page, problems } = lab) });

// Self-attention of the six seeded token embeddings, called directly.
const direct = (options) => directMultiHead(page, options);

async function headWeights(count) {
  const all = [];
  for (let head = 1; head <= count; head += 1) all.push(...values(await matrixCells(page, `mha-head-${head}`)));
  return all;
}

// The value a heatmap's read-out gives for one cell, by hovering it.
async function hoverValue(figure, row, col, rows, cols) {
  const canvas = page.locator(`[data-figure="${figure}"] .heatmap-canvas`);
  await scrollToRendered(canvas);
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + (box.width * (col + 0.5)) / cols, box.y + (box.height * (row + 0.5)) / rows);
  return shownText(page.locator('#multihead [data-role="mha-output-readout"]'));
}

test('one attention map per head, with the core\'s weights, and the output drawn', async () => {
  const expected = await direct();
  assert.equal(await page.locator('#multihead .head-card').count(), 5, 'the book\'s 5 heads');
  assert.deepEqual(await headWeights(5), expected.weights, '5 heads x 6 queries x 6 keys');
  const cells = await matrixCells(page, 'mha-head-1');
  assert.equal(cells.length, 36);
  assert.ok(new Set(cells.map((cell) => cell.fill)).size > 10, 'a map of colours, not one colour');
  assert.equal(cells[0].text, expected.weights[0].toFixed(2), 'numbers written in the cells');
  const labels = await page.locator('[data-figure="mha-head-1"] .matrix-col-labels text').allTextContents();
  assert.deepEqual(labels, ['she', 'is', 'eating', 'a', 'green', 'apple']);

  const { width, height, data } = await canvasPixels(page, '[data-figure="mha-output-full"] .heatmap-canvas');
  assert.equal(width, 100, 'H = 100 columns');
  assert.equal(height, 6, 'one row per token');
  const colours = new Set();
  for (let i = 0; i < width * height; i += 1) colours.add(data.slice(i * 4, i * 4 + 3).join());
  assert.ok(colours.size > 100, `the output is a field of colours (${colours.size})`);
  const text = await hoverValue('mha-output-full', 2, 40, 6, 100);
  const value = expected.output[2 * 100 + 40];
  assert.ok(text.includes(`“eating”`) && text.includes('unit 41'), text);
  assert.ok(text.includes(Number(value.toFixed(4)).toString().replace('-', '−')), `${text} shows ${value}`);
  assert.equal(await page.locator('[data-figure="mha-output-dropped"]').isVisible(), false, 'nothing switched off yet');
});

test('the heads slider stops at the head counts the core accepts; the reshape diagram shows the live shapes', async () => {
  const slider = page.locator('#multihead [data-role="heads-slider"]');
  assert.equal(await slider.getAttribute('max'), '7', '100 has 9 divisors, and the core runs at most 64 heads: 8 counts');
  await slider.fill('7');
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 50, 'the last position: 50 heads, not 100');
  assert.match(await shownText(page.locator('#multihead [data-role="divisors"]')), /at most 64\): 1, 2, 4, 5, 10, 20, 25, 50$/);
  // A typed count the core would refuse: the nearest one it takes, no error.
  await typeInto(page, 'mhaHeads', 100);
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 50, '100 heads for H = 100: batch * heads > 64');
  await typeInto(page, 'mhaHeads', 7);
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 5, '7 does not divide 100: the nearest divisor');
  assert.equal(await page.locator('[data-error-for="mhaHeads"]').isVisible(), false);
  await slider.fill('4'); // 1, 2, 4, 5, 10: the fifth divisor
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 10);
  assert.equal(await page.locator('#multihead .head-card').count(), 10);
  assert.deepEqual(await headWeights(10), (await direct({ heads: 10 })).weights);
  const shapes = await page.locator('#multihead [data-role="reshape-summary"]').getAttribute('data-shapes');
  assert.equal(shapes, '(1, 6, 100) (1, 6, 10, 10) (1, 10, 6, 10) (10, 6, 10)');
  assert.match(await shownText(page.locator('#multihead .reshape-diagram')), /\(10, 6, 10\)/);
  assert.equal(await page.locator('#multihead .reshape-stage').nth(2).locator('rect').count(), 8, 'eight blocks drawn, then "+ 2"');

  // A hidden size the heads do not divide: the heads move to the nearest divisor, no error.
  await typeInto(page, 'mhaHidden', 12);
  await settled(page);
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 12, '10 does not divide 12: the nearest divisor is 12');
  assert.equal(await page.locator('[data-error-for="mhaHeads"]').isVisible(), false);
  assert.match(await shownText(page.locator('#multihead [data-role="divisors"]')), /1, 2, 3, 4, 6, 12/);
  assert.deepEqual(await headWeights(12), (await direct({ hidden: 12, heads: 12 })).weights);
  await typeInto(page, 'mhaHidden', 100);
  await typeInto(page, 'mhaHeads', 5);
  await settled(page);
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 5);
});

test('dragging the hidden size keeps the chosen heads as the wish: through primes and back to 5 at H = 65', async () => {
  assert.equal(await numberValue(page, 'mhaHidden'), 100);
  assert.equal(await numberValue(page, 'mhaHeads'), 5);
  const slider = page.locator('#multihead [data-param="mhaHidden"] input[type="range"]');
  await slider.focus();
  const seen = {};
  for (let hidden = 99; hidden >= 65; hidden -= 1) {
    // The slider's position for H (linear over [1, 128]), as a drag passes it.
    await slider.evaluate((range, h) => {
      range.value = String(Math.round(((h - 1) / 127) * Number(range.max)));
      range.dispatchEvent(new Event('input', { bubbles: true }));
    }, hidden);
    await settled(page);
    seen[hidden] = await numberValue(page, 'mhaHeads');
    assert.equal(await numberValue(page, 'mhaHidden'), hidden);
    assert.equal(hidden % seen[hidden], 0, `H = ${hidden}: ${seen[hidden]} heads divide it`);
  }
  assert.equal(seen[97], 1, '97 is prime');
  assert.equal(seen[67], 1, '67 is prime');
  assert.equal(seen[98], 7, 'the divisor of 98 nearest 5');
  assert.equal(seen[65], 5, 'back to the heads chosen');
  assert.equal(await page.locator('#multihead .head-card').count(), 5);
  assert.deepEqual(await headWeights(5), (await direct({ hidden: 65, heads: 5 })).weights);
  await typeInto(page, 'mhaHidden', 100);
  await settled(page);
  assert.equal(await numberValue(page, 'mhaHeads'), 5);
});

test('switching a head off: its share and the rest, both from the core', async () => {
  await page.locator('#multihead .head-card[data-head="1"] .switch').click();
  await settled(page);
  assert.equal(await page.evaluate(() => window.attentionLab.state.mhaHeadsOff), 2, 'bit 1: head 2 off');
  assert.match(await page.locator('#multihead .head-card[data-head="1"]').getAttribute('class'), /is-off/);
  assert.equal(await page.locator('[data-figure="mha-output-dropped"]').isVisible(), true);
  assert.equal(await page.locator('[data-figure="mha-output-kept"]').isVisible(), true);
  const full = await direct();
  const kept = await direct({ headMask: [1, 0, 1, 1, 1] });
  const dropped = await direct({ headMask: [0, 1, 0, 0, 0] });
  // The output is linear in the head mask: all heads = kept + dropped.
  full.output.forEach((value, i) => assert.ok(Math.abs(value - kept.output[i] - dropped.output[i]) < 1e-12));
  assert.deepEqual(kept.weights, full.weights, 'a switched-off head still attends; its output is dropped');
  for (const [figure, result] of [['mha-output-kept', kept], ['mha-output-dropped', dropped]]) {
    const text = await hoverValue(figure, 4, 7, 6, 100);
    const value = result.output[4 * 100 + 7];
    assert.ok(text.includes(Number(value.toFixed(4)).toString().replace('-', '−')), `${figure}: ${text} shows ${value}`);
  }
  // The kept output is drawn on the full output's colour scale, so it looks different.
  const fullPixels = await canvasPixels(page, '[data-figure="mha-output-full"] .heatmap-canvas');
  const keptPixels = await canvasPixels(page, '[data-figure="mha-output-kept"] .heatmap-canvas');
  assert.notDeepEqual(keptPixels.data, fullPixels.data);

  await page.locator('[data-action="mha-all-on"]').click();
  await settled(page);
  assert.equal(await page.evaluate(() => window.attentionLab.state.mhaHeadsOff), 0);
  assert.equal(await page.locator('[data-figure="mha-output-dropped"]').isVisible(), false);
  assert.equal(await page.locator('#multihead [data-role="mha-off-note"]').isVisible(), true);
});

test('ten heads: each small map painted on one canvas, read by pointer, keyboard and export as the detailed ones', async () => {
  await typeInto(page, 'mhaHeads', 10);
  await settled(page);
  const expected = await direct({ heads: 10 });
  assert.equal(await page.locator('#multihead .head-card').count(), 10);
  assert.equal(await page.locator('#multihead .head-card canvas.matrix-canvas').count(), 10, 'one canvas a map');
  assert.equal(await page.locator('#multihead .head-card g.cell').count(), 0, 'no node a cell');
  assert.deepEqual(await headWeights(10), expected.weights, 'the saved CSVs hold the core\'s weights');
  // Each cell's pixel is viridis of the core's weight on [0, 1], as the SVG's rects were.
  const cells = await matrixCells(page, 'mha-head-3');
  const third = expected.weights.slice(2 * 36, 3 * 36);
  assert.deepEqual(cells.map((cell) => cell.fill), third.map((weight) => rgb(interpolateViridis(weight)).toString()));
  assert.ok(cells.every((cell) => !cell.masked));

  // The pointer over row 2, column 4 of head 3, then the keyboard from the first cell.
  const readout = page.locator('#multihead [data-role="mha-readout"]');
  const canvas = page.locator('[data-figure="mha-head-3"] canvas.matrix-canvas');
  await scrollToRendered(canvas);
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + (box.width * 4.4) / 6, box.y + (box.height * 2.4) / 6);
  const weightText = (weight) => Number(weight.toFixed(4)).toString();
  assert.equal(await shownText(readout), `head 3: “eating” gives “green” weight ${weightText(third[2 * 6 + 4])}`);
  await page.locator('[data-figure="mha-head-3"] svg.matrix-svg').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  assert.equal(await shownText(readout), `head 3: “is” gives “apple” weight ${weightText(third[1 * 6 + 5])}`);

  // Saved as SVG: the cells are one image with the screen's pixels.
  const { bytes } = await saveFigure(page, page.locator('[data-figure="mha-head-3"]'), 'svg');
  const exported = await evaluateInBlankPage(page, async (source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const href = doc.querySelector('image')?.getAttribute('href');
    if (!href) return null;
    const bitmap = await createImageBitmap(await (await fetch(href)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    context.drawImage(bitmap, 0, 0);
    const cell = bitmap.width / 6;
    const pixel = (row, col) => Array.from(context.getImageData(Math.floor((col + 0.45) * cell), Math.floor((row + 0.45) * cell), 1, 1).data.slice(0, 3));
    return [pixel(0, 0), pixel(2, 4), pixel(5, 5)];
  }, bytes.toString('utf8'));
  assert.deepEqual(exported, [[0, 0], [2, 4], [5, 5]].map(([row, col]) => {
    const { r, g, b } = rgb(interpolateViridis(third[row * 6 + col]));
    return [r, g, b];
  }));
  await typeInto(page, 'mhaHeads', 5);
  await settled(page);
});

test('new projections with a new seed; a head count the core refuses anyway is explained and the old maps marked', async () => {
  await page.locator('[data-action="mha-new-draw"]').click();
  await settled(page);
  assert.equal(await numberValue(page, 'mhaSeed'), 1);
  assert.deepEqual(await headWeights(5), (await direct({ seed: 1 })).weights);

  const before = await headWeights(5);
  const error = page.locator('[data-error-for="mhaHeads"]');
  const stale = page.locator('#multihead .figures > .stale-note');
  // The store never hands the core such a count; setUnchecked passes it by.
  for (const [heads, reason] of [[3, 'not a divisor'], [100, 'batch * heads > 64']]) {
    await page.evaluate((count) => window.attentionLab.setUnchecked({ mhaHeads: count }), heads);
    await settled(page);
    assert.equal(await error.isVisible(), true, reason);
    assert.equal(await shownText(error),
      `The core refused this: H = 100 cannot be split into ${heads} heads: the heads must divide H, and the core runs at most 64. Possible: 1, 2, 4, 5, 10, 20, 25, 50.`, reason);
    assert.deepEqual(await headWeights(5), before, `${reason}: the last good maps stay...`);
    assert.equal(await stale.isVisible(), true, `${reason}: ...marked as out of date`);
    assert.match(await shownText(stale), /not from the ones set now/);
    assert.equal(await page.locator('#multihead .figures').evaluate((node) => getComputedStyle(node.querySelector('.figure-cell')).opacity), '0.4');
  }
  // In Chinese too: the explanation and the mark. (Any change through the
  // store, the language's too, repairs the count: it is set again after.)
  await page.locator('[data-param="language"] [data-value="zh"]').click();
  await page.evaluate(() => window.attentionLab.setUnchecked({ mhaHeads: 100 }));
  await settled(page);
  assert.match(await shownText(error), /^计算核心拒绝了这个值：H = 100 无法分成 100 个头/);
  assert.match(await shownText(stale), /已过时/);
  await page.locator('[data-param="language"] [data-value="en"]').click();
  await typeInto(page, 'mhaHeads', 4);
  await typeInto(page, 'mhaSeed', 0);
  await settled(page);
  assert.equal(await error.isVisible(), false);
  assert.equal(await stale.count(), 0, 'drawn again: the mark is gone');
  assert.deepEqual(await headWeights(4), (await direct({ heads: 4 })).weights);
  await typeInto(page, 'mhaHeads', 5);
  await settled(page);
  assert.deepEqual(problems, []);
});
