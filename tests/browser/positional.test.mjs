// Section 10, positional encoding: the 60 x 32 heatmap paints the core's
// positionalEncoding cell by cell, the curves of columns 6-9 follow its
// columns, the dimension, length and column controls redraw both, the hover
// read-out gives P[i, j], and the binary-counting table counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, scrollToRendered, shownText } from './harness.mjs';
import { pathSegments, matrixCells, canvasPixels, viridisPixel } from './figure-readers.mjs';

let page;
let problems;
usePage({ section: '#positional', directCore: true, opened: (lab) => ({ page, problems } = lab) });

const encoding = (length, dim) => page.evaluate(([l, d]) => Array.from(window.directCore.positionalEncoding(l, d)), [length, dim]);
const curve = async (i) => pathSegments(await page.locator(`[data-figure="pe-curves"] .layer-col${i} path`).getAttribute('d'))[0] ?? [];

test('the 60 x 32 heatmap paints the core\'s encoding, one viridis cell per entry', async () => {
  const { width, height, data } = await canvasPixels(page, '[data-figure="pe-heatmap"] .heatmap-canvas');
  assert.equal(width, 32, 'd = 32 columns');
  assert.equal(height, 60, '60 positions');
  const P = await encoding(60, 32);
  for (let cell = 0; cell < P.length; cell += 1) {
    assert.deepEqual(data.slice(cell * 4, cell * 4 + 4), viridisPixel(P[cell], [-1, 1]), `cell ${Math.floor(cell / 32)},${cell % 32}`);
  }
  // Row 0 is sin(0) = 0, cos(0) = 1 alternately: two colours only.
  const row0 = new Set(Array.from({ length: 32 }, (_, j) => data.slice(j * 4, j * 4 + 3).join()));
  assert.equal(row0.size, 2);
});

test('columns 6 to 9 over position follow the core\'s columns', async () => {
  const P = await encoding(60, 32);
  assert.equal(await page.locator('[data-figure="pe-curves"]').getAttribute('data-columns'), '6,7,8,9');
  const curves = await Promise.all([0, 1, 2, 3].map(curve));
  curves.forEach((points) => assert.equal(points.length, 60, 'one point per position'));
  // Pixel y is a linear function of the value: check it against the core on every point.
  const [y0, y1] = [curves[0][0][1], curves[1][0][1]]; // P[0, 6] = 0 and P[0, 7] = 1
  assert.ok(Math.abs(P[6]) < 1e-15 && Math.abs(P[7] - 1) < 1e-15);
  const pixelOf = (value) => y0 + (y1 - y0) * value;
  curves.forEach((points, c) => points.forEach(([, y], i) => {
    assert.ok(Math.abs(y - pixelOf(P[i * 32 + 6 + c])) < 0.05, `column ${6 + c}, position ${i}`);
  }));
  const legend = await page.locator('#positional .legend-item:not([hidden])').allTextContents();
  assert.deepEqual(legend, ['column 6', 'column 7', 'column 8', 'column 9']);
  assert.match(await shownText(page.locator('#positional [data-role="pe-frequencies"]')), /ω\s*3/);
});

test('the dimension, length and column controls redraw both figures', async () => {
  await typeInto(page, 'peDim', 16);
  await typeInto(page, 'peLength', 100);
  await settled(page);
  let pixels = await canvasPixels(page, '[data-figure="pe-heatmap"] .heatmap-canvas');
  assert.equal(pixels.width, 16);
  assert.equal(pixels.height, 100);
  const P = await encoding(100, 16);
  assert.deepEqual(pixels.data.slice(0, 16 * 4), P.slice(0, 16).flatMap((value) => viridisPixel(value, [-1, 1])));
  assert.equal((await curve(0)).length, 100);

  // Columns past d are not drawn, and the page says so.
  await typeInto(page, 'peColumn', 14);
  await settled(page);
  assert.equal(await page.locator('[data-figure="pe-curves"]').getAttribute('data-columns'), '14,15');
  assert.equal(await page.locator('[data-figure="pe-curves"] .layer-col2 path').count(), 0, 'no curve for column 16');
  const note = page.locator('#positional [data-role="pe-column-note"]');
  assert.equal(await note.isVisible(), true);
  assert.match(await shownText(note), /0 to 15/);

  // Hover a cell: the read-out gives P[i, j] from the core.
  const canvas = page.locator('[data-figure="pe-heatmap"] .heatmap-canvas');
  await scrollToRendered(canvas); // the column control typed into last may have scrolled it away
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + (box.width * 3.5) / 16, box.y + (box.height * 20.5) / 100);
  const text = await shownText(page.locator('#positional [data-role="pe-readout"]'));
  assert.equal(text, `P[20, 3] = ${Number(P[20 * 16 + 3].toFixed(4)).toString().replace('-', '−')}`);

  for (const [name, value] of [['peDim', 32], ['peLength', 60], ['peColumn', 6]]) await typeInto(page, name, value);
  await settled(page);
  pixels = await canvasPixels(page, '[data-figure="pe-heatmap"] .heatmap-canvas');
  assert.equal(pixels.width, 32);
  assert.equal(await note.isVisible(), false);
  // Bounds: clamped by the parameter table.
  await typeInto(page, 'peDim', 4096);
  await settled(page);
  assert.equal(Number(await page.locator('[data-param="peDim"] input[type="number"]').inputValue()), 128);
  await typeInto(page, 'peDim', 32);
  await settled(page);
});

test('the binary-counting analogy counts 0 to 7', async () => {
  const cells = await matrixCells(page, 'pe-binary');
  assert.equal(cells.length, 24);
  const rows = Array.from({ length: 8 }, (_, i) => cells.slice(i * 3, i * 3 + 3).map((cell) => cell.text).join(''));
  assert.deepEqual(rows, ['000', '001', '010', '011', '100', '101', '110', '111']);
  assert.match(await shownText(page.locator('#positional')), /Counting in binary/);
  assert.deepEqual(problems, []);
});
