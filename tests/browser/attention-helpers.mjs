// Helpers shared by the browser tests of the scoring, multi-head and
// positional-encoding sections (issue 4). The page's own harness.mjs does
// the browser, the server and the page; these read what those sections draw.
import { rgb } from 'd3-color';
import { interpolateViridis } from 'd3-scale-chromatic';

// The cells of an annotated matrix (figures/matrix.js), row-major: the full
// value in data-value, the masked flag, the text written in the cell, the fill.
export async function matrixCells(page, figure) {
  return page.locator(`[data-figure="${figure}"] g.cell`).evaluateAll((groups) => groups.map((g) => {
    const rect = g.querySelector('rect');
    return {
      row: Number(rect.dataset.row),
      col: Number(rect.dataset.col),
      value: Number(rect.dataset.value),
      masked: rect.dataset.masked === 'true',
      text: g.querySelector('text').textContent,
      fill: rect.getAttribute('fill'),
    };
  }));
}

export const values = (cells) => cells.map((cell) => cell.value);

// Sets a table-driven slider to a position of its 0-1000 range, as a drag would.
export async function slideTo(page, parameter, position) {
  await page.evaluate(([name, value]) => {
    const range = document.querySelector(`[data-param="${name}"] input[type="range"]`);
    range.value = String(value);
    range.dispatchEvent(new Event('input', { bubbles: true }));
  }, [parameter, position]);
}

export async function numberValue(page, parameter) {
  return Number(await page.locator(`[data-param="${parameter}"] input[type="number"]`).inputValue());
}

// The pixels of a canvas heatmap: { width, height, data } (RGBA per cell).
export async function canvasPixels(page, selector) {
  return page.evaluate((css) => {
    const canvas = document.querySelector(css);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    return { width: canvas.width, height: canvas.height, data: Array.from(data) };
  }, selector);
}

// The colour heatmap.js paints for a value on [low, high]: 256 steps of viridis.
export function viridisPixel(value, [low, high]) {
  const index = Math.max(0, Math.min(255, Math.round(((value - low) * 255) / (high - low))));
  const colour = rgb(interpolateViridis(index / 255));
  return [colour.r, colour.g, colour.b, 255];
}

export function closeTo(actual, expected, tolerance, message) {
  if (!(Math.abs(actual - expected) <= tolerance)) {
    throw new Error(`${message}: expected ${expected} ± ${tolerance}, got ${actual}`);
  }
}
