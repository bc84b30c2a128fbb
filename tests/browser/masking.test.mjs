// Section 7, masked softmax: the scores, masked scores and weights are drawn
// from the core's numbers, react to the valid lengths (1-D and 2-D), to the
// seed and to typed scores; a fully masked row gives zeros here and d2l's
// uniform row beside it, explained; a core error shows at the guilty length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, numberValue, shownText } from './harness.mjs';
import { matrixCells, values } from './figure-readers.mjs';

let page;
let problems;
usePage({ section: '#masking', directCore: true, opened: (lab) => ({ page, problems } = lab) });

// The core's own answer: scores drawn with the seed (or given), masked softmax with the lengths.
async function direct({ seed = 0, lens, scores = null }) {
  return page.evaluate(({ seed, lens, scores }) => {
    const core = window.directCore;
    const s = scores ? Float64Array.from(scores) : core.randomNormal(16, { seed });
    const weights = core.maskedSoftmax(s, [2, 2, 4], lens);
    // d2l's version: -1e6 over the masked scores, then a plain softmax.
    const perRow = lens.length === 2 ? [lens[0], lens[0], lens[1], lens[1]] : lens;
    const masked = Float64Array.from(s, (value, i) => (i % 4 >= perRow[Math.floor(i / 4)] ? -1e6 : value));
    return { scores: Array.from(s), weights: Array.from(weights), book: Array.from(core.maskedSoftmax(masked, [2, 2, 4], null)) };
  }, { seed, lens, scores });
}

test('scores, masked scores and weights are drawn side by side from the core', async () => {
  const expected = await direct({ lens: [2, 3] });
  const scores = await matrixCells(page, 'mask-scores');
  const masked = await matrixCells(page, 'mask-masked');
  const weights = await matrixCells(page, 'mask-weights');
  assert.equal(scores.length, 16, 'the (2, 2, 4) scores, 16 cells');
  assert.deepEqual(values(scores), expected.scores);
  assert.deepEqual(values(weights), expected.weights);
  // Masked: keys at or beyond the valid length (2 for item 1, 3 for item 2) are -1e6, hatched.
  masked.forEach((cell) => {
    const length = cell.row < 2 ? 2 : 3;
    assert.equal(cell.masked, cell.col >= length, `cell ${cell.row},${cell.col}`);
    assert.equal(cell.value, cell.col >= length ? -1e6 : expected.scores[cell.row * 4 + cell.col]);
    if (cell.masked) assert.equal(cell.text, '−1e6'); // d2l's value=-1e6, legible at any size
  });
  // Really drawn: viridis fills, different for different values, numbers written in.
  assert.ok(new Set(scores.map((cell) => cell.fill)).size > 8, 'a field of colours');
  assert.ok(scores.every((cell) => /^#|^rgb/.test(cell.fill)));
  assert.equal(weights[0].text, expected.weights[0].toFixed(2));
  assert.deepEqual(values(await matrixCells(page, 'mask-book')), expected.book);
  assert.equal(await shownText(page.locator('[data-role="valid-lens"]')).then((text) => /\[2,\s*3\]/.test(text.replace(/\s+/g, ' '))), true);
});

test('the valid lengths mask in 1-D and in 2-D mode', async () => {
  await typeInto(page, 'maskLen2', 1);
  await settled(page);
  let expected = await direct({ lens: [2, 1] });
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), expected.weights);

  await page.locator('[data-param="maskMode"] [data-value="2d"]').click();
  await settled(page);
  assert.equal(await page.locator('[data-param="maskLen1"]').isVisible(), false, '1-D controls hidden in 2-D mode');
  assert.equal(await page.locator('[data-param="maskLen22"]').isVisible(), true);
  expected = await direct({ lens: [1, 3, 2, 4] });
  const weights = await matrixCells(page, 'mask-weights');
  assert.deepEqual(values(weights), expected.weights, 'the book\'s 2-D lengths [[1, 3], [2, 4]]');
  const masked = await matrixCells(page, 'mask-masked');
  assert.deepEqual(masked.filter((cell) => cell.masked).map((cell) => `${cell.row}${cell.col}`),
    ['01', '02', '03', '13', '22', '23'], 'row lengths 1, 3, 2, 4');
  // Every row sums to 1 over its valid keys (the core's numbers, summed here in the test).
  [1, 3, 2, 4].forEach((length, row) => {
    const sum = values(weights).slice(row * 4, row * 4 + length).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-12, `row ${row} sums to ${sum}`);
  });
  await typeInto(page, 'maskLen12', 0);
  await settled(page);
  expected = await direct({ lens: [1, 0, 2, 4] });
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), expected.weights);
  await typeInto(page, 'maskLen12', 3);
  await page.locator('[data-param="maskMode"] [data-value="1d"]').click();
  await typeInto(page, 'maskLen2', 3);
  await settled(page);
});

test('a fully masked row: zeros here, uniform in d2l, and the page says why', async () => {
  const note = page.locator('#masking [data-role="empty-row-note"]');
  const status = page.locator('#masking [data-role="empty-rows"]');
  assert.equal(await status.isVisible(), false);
  assert.doesNotMatch(await note.getAttribute('class'), /is-emphasised/);
  await typeInto(page, 'maskLen1', 0);
  await settled(page);
  const weights = values(await matrixCells(page, 'mask-weights'));
  const book = values(await matrixCells(page, 'mask-book'));
  assert.deepEqual(weights.slice(0, 8), [0, 0, 0, 0, 0, 0, 0, 0], 'both rows of item 1 are zeros');
  assert.deepEqual(book.slice(0, 8), [0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25], 'd2l spreads them evenly');
  assert.deepEqual(weights, (await direct({ lens: [0, 3] })).weights);
  assert.equal(await status.isVisible(), true);
  assert.match(await shownText(status), /b1 · q1, b1 · q2/);
  assert.match(await note.getAttribute('class'), /is-emphasised/);
  assert.match(await shownText(note), /uniform/);
  await typeInto(page, 'maskLen1', 2);
  await settled(page);
  assert.equal(await status.isVisible(), false);
});

test('typed scores and redrawn scores go through the core', async () => {
  await page.locator('#masking .score-editor summary').click();
  const cell = page.locator('#masking .score-input[data-index="1"]');
  await cell.fill('5');
  await cell.press('Enter');
  await settled(page);
  const drawn = await direct({ lens: [2, 3] });
  const edited = [...drawn.scores];
  edited[1] = 5;
  let expected = await direct({ lens: [2, 3], scores: edited });
  assert.deepEqual(values(await matrixCells(page, 'mask-scores')), edited);
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), expected.weights);
  assert.ok(expected.weights[1] > 0.9, 'a large score takes the row');
  // Out-of-range typing is kept within [-10, 10].
  await cell.fill('1e9');
  await cell.press('Enter');
  await settled(page);
  assert.equal((await matrixCells(page, 'mask-scores'))[1].value, 10);

  await page.locator('[data-action="mask-redraw"]').click();
  await settled(page);
  assert.equal(await numberValue(page, 'maskSeed'), 1);
  expected = await direct({ seed: 1, lens: [2, 3] });
  assert.deepEqual(values(await matrixCells(page, 'mask-scores')), expected.scores, 'new draws replace the typed score');
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), expected.weights);
  await typeInto(page, 'maskSeed', 0);
  await settled(page);
});

test('a length the core refuses shows next to its control; the page keeps working', async () => {
  const before = values(await matrixCells(page, 'mask-weights'));
  await page.evaluate(() => window.attentionLab.setUnchecked({ maskLen2: 7 }));
  await settled(page);
  const error = page.locator('[data-error-for="maskLen2"]');
  assert.equal(await error.isVisible(), true);
  assert.match(await shownText(error), /validLens/);
  assert.equal(await page.locator('[data-error-for="maskLen1"]').isVisible(), false);
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), before, 'the last good drawing stays');
  await typeInto(page, 'maskLen2', 4);
  await settled(page);
  assert.equal(await error.isVisible(), false);
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), (await direct({ lens: [2, 4] })).weights);
  // The table clamps typed lengths to [0, 4].
  await typeInto(page, 'maskLen2', 9);
  await settled(page);
  assert.equal(await numberValue(page, 'maskLen2'), 4);
  await typeInto(page, 'maskLen2', 3);
  await settled(page);
  assert.deepEqual(problems, []);
});

test('the weights save as CSV with the core\'s full-precision numbers', async () => {
  const figure = page.locator('[data-figure="mask-weights"]');
  await figure.locator('.figure-export summary').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    figure.locator('[data-export="csv"]').click(),
  ]);
  assert.match(download.suggestedFilename(), /mask-weights\.csv$/);
  const text = (await (await import('node:fs/promises')).readFile(await download.path(), 'utf8')).replace(/^\ufeff/, '');
  const lines = text.trim().split(/\r\n/);
  assert.equal(lines.length, 5, 'a header and four query rows');
  assert.deepEqual(lines[0].split(',').slice(1), ['k1', 'k2', 'k3', 'k4']);
  const numbers = lines.slice(1).flatMap((line) => line.split(',').slice(1).map(Number));
  assert.deepEqual(numbers, (await direct({ lens: [2, 3] })).weights);
});

test('the matrices are reached by keyboard: arrow keys move the cell, the read-out says it', async () => {
  const svg = page.locator('[data-figure="mask-weights"] svg.matrix-svg');
  await svg.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const text = await shownText(page.locator('#masking [data-role="mask-readout"]'));
  const expected = await direct({ lens: [2, 3] });
  // Row 2 = item 2, query 1 (valid length 3); column 1 = key 2.
  assert.match(text, /^item 2, query 1, key 2 \(valid length 3\)/);
  assert.ok(text.includes(`weight ${Number(expected.weights[2 * 4 + 1].toFixed(4))}`), text);
  assert.equal(await page.locator('[data-figure="mask-weights"] .hover-box').isVisible(), true);
});
