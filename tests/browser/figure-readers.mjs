// What the figures draw, read back from the page: an SVG path's points, a
// heatmap canvas's pixels, a plot's points, an annotated matrix's cells; and the colour the
// heatmaps paint for a value, to compare pixels with the core's numbers.
import { rgb } from 'd3-color';
import { interpolateViridis } from 'd3-scale-chromatic';
import { parseCsv, saveFigure } from './downloads.mjs';

// The numbers of an SVG path's d attribute, as [x, y] pairs per subpath.
export function pathSegments(d) {
  return (d ?? '').split('M').filter(Boolean).map((part) => {
    const numbers = part.split(/[^0-9eE.+-]+/).filter(Boolean).map(Number);
    const points = [];
    for (let i = 0; i + 1 < numbers.length; i += 2) points.push([numbers[i], numbers[i + 1]]);
    return points;
  });
}

// The pixels of a canvas heatmap: { width, height, data } (RGBA per cell, row-major).
export async function canvasPixels(page, selector) {
  return page.evaluate((css) => {
    const canvas = document.querySelector(css);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    return { width: canvas.width, height: canvas.height, data: Array.from(data) };
  }, selector);
}

// A plot's points as drawn (figures/line-plot.js): painted on its canvas,
// whose paint counts them (data-points), and drawn as SVG circles from the
// same data for a file or the printed page, which is how they are read here:
// { cx, cy, r } in the plot area's pixels. `plot`: a locator of the plot or
// of what holds it.
export function paintedPointCount(plot) {
  return plot.locator('.plot-canvas').evaluate((canvas) => Number(canvas.dataset.points));
}
export function drawnPoints(plot, layer = 'points') {
  return plot.evaluate((node, name) => {
    const figure = node.matches('.plot') ? node : node.querySelector('.plot');
    const vector = (on) => figure.dispatchEvent(new CustomEvent('figure-vector', { detail: on }));
    vector(true);
    try {
      return [...figure.querySelectorAll(`.layer-${name} circle`)].map((circle) => ({
        cx: Number(circle.getAttribute('cx')), cy: Number(circle.getAttribute('cy')), r: Number(circle.getAttribute('r')),
      }));
    } finally {
      vector(false);
    }
  }, layer);
}

// The colour heatmap.js paints for a value on [low, high]: 256 steps of
// viridis, the step rounded from the same arithmetic (a value halfway
// between two steps goes where the heatmap's rounding puts it).
export function viridisPixel(value, [low, high]) {
  const index = Math.max(0, Math.min(255, Math.round((value - low) * (255 / (high - low)))));
  const colour = rgb(interpolateViridis(index / 255));
  return [colour.r, colour.g, colour.b, 255];
}

// The cells of an annotated matrix (figures/matrix.js), row-major: the full
// value in data-value, the masked flag, the text written in the cell, the fill.
// A matrix whose cells are on a canvas is read as a learner reads it: the
// values from its CSV (the save menu), the fill from the pixel at each
// cell's centre, masked where that pixel is grey (the hatching; viridis has
// no grey), and no text.
export async function matrixCells(page, figure) {
  const root = page.locator(`[data-figure="${figure}"]`);
  if (await root.locator('canvas.matrix-canvas').count()) return canvasMatrixCells(page, root);
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

async function canvasMatrixCells(page, root) {
  const menu = root.locator('.figure-export').first();
  const { bytes } = await saveFigure(page, root, 'csv');
  await menu.evaluate((details) => {
    details.open = false;
  });
  const [header, ...rows] = parseCsv(bytes.toString('utf8'));
  const cols = header.length - 1;
  const numbers = rows.map((row) => row.slice(-cols).map(Number));
  const pixels = await root.locator('canvas.matrix-canvas').evaluate((canvas, shape) => {
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const cell = canvas.getBoundingClientRect().width / shape.cols;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const centre = (k) => Math.floor((k * cell + (cell - 1) / 2) * ratio);
    const out = [];
    for (let r = 0; r < shape.rows; r += 1) {
      for (let c = 0; c < shape.cols; c += 1) {
        const at = (centre(r) * canvas.width + centre(c)) * 4;
        out.push([data[at], data[at + 1], data[at + 2]]);
      }
    }
    return out;
  }, { rows: rows.length, cols });
  return numbers.flatMap((row, r) => row.map((value, c) => {
    const [red, green, blue] = pixels[r * cols + c];
    return {
      row: r, col: c, value, masked: Math.max(red, green, blue) - Math.min(red, green, blue) < 24, text: '', fill: `rgb(${red}, ${green}, ${blue})`,
    };
  }));
}

export const values = (cells) => cells.map((cell) => cell.value);
