// One kind of figure: a dense matrix as a heatmap. The cells are the pixels
// of a small canvas (one pixel per cell) that CSS scales without smoothing;
// D3 draws the axes, a colour bar and the hover outline in SVG around it.
// NaN cells stay transparent over a hatched background: they read as gaps.
import { select } from 'd3-selection';
import { scaleLinear, scaleSequential } from 'd3-scale';
import { axisBottom, axisLeft, axisRight } from 'd3-axis';
import { interpolateViridis } from 'd3-scale-chromatic';
import { rgb } from 'd3-color';
import { max as maxOf } from 'd3-array';
import { attachFigureExport } from '../export/figure-menu.js';
import { matrixTable } from '../export/csv.js';
import { t } from '../i18n/index.js';
import { formatNumber } from '../format.js';
import { observeWidth } from './width-observer.js';

const MARGIN = { top: 10, right: 64, bottom: 44, left: 52 };
const COLORBAR_WIDTH = 12;
let nextId = 0;

// Viridis is sequential, perceptually uniform and readable with every common
// colour-vision deficiency; a 256-entry table keeps the per-cell cost at a lookup.
const LUT = (() => {
  const table = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i += 1) {
    const color = rgb(interpolateViridis(i / 255));
    table.set([color.r, color.g, color.b], i * 3);
  }
  return table;
})();

export function createHeatmap(container, options) {
  // firstIndex: the number of the first row and column on the axes, as the
  // section's read-out numbers them: 1 (x_1, ..., x_n as in the book) or 0
  // (positions, as in P[i, j]).
  const {
    labels = {}, aspect = 0.8, minHeight = 220, maxHeight = 460, ariaKey, colorLabelKey, onHover, firstIndex = 1,
  } = options;
  const id = `heatmap-${(nextId += 1)}`;
  const figure = select(container).append('div').attr('class', 'heatmap');
  // The canvas lies under the SVG; the SVG lets pointer events through to it.
  const canvas = figure.append('canvas').attr('class', 'heatmap-canvas').node();
  // Small and read back (tests, and figure export later): keep it on the CPU.
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const svg = figure.append('svg').attr('class', 'heatmap-svg').attr('role', 'img');
  if (ariaKey) svg.attr('data-i18n-aria', ariaKey);
  const gradient = svg.append('defs').append('linearGradient').attr('id', `${id}-gradient`)
    .attr('x1', 0).attr('x2', 0).attr('y1', 1).attr('y2', 0);
  for (let i = 0; i <= 10; i += 1) {
    gradient.append('stop').attr('offset', `${i * 10}%`).attr('stop-color', interpolateViridis(i / 10));
  }
  const axisX = svg.append('g').attr('class', 'axis axis-x');
  const axisY = svg.append('g').attr('class', 'axis axis-y');
  const labelX = svg.append('text').attr('class', 'axis-label').attr('text-anchor', 'middle');
  const labelY = svg.append('text').attr('class', 'axis-label').attr('text-anchor', 'middle');
  if (labels.x) labelX.attr('data-i18n', labels.x);
  if (labels.y) labelY.attr('data-i18n', labels.y);
  const bar = svg.append('g').attr('class', 'colorbar');
  const barRect = bar.append('rect').attr('width', COLORBAR_WIDTH).attr('fill', `url(#${id}-gradient)`);
  const barAxis = bar.append('g').attr('class', 'axis');
  const barLabel = bar.append('text').attr('class', 'axis-label colorbar-label').attr('text-anchor', 'middle');
  if (colorLabelKey) barLabel.attr('data-i18n', colorLabelKey);
  const marks = svg.append('g').attr('class', 'heatmap-marks');
  const rowMarker = marks.append('line').attr('class', 'row-marker').style('display', 'none');
  const hoverBox = marks.append('rect').attr('class', 'hover-box').style('display', 'none');
  // Keyboard and screen readers: a focusable ARIA grid over the cells with one
  // virtual cell (aria-rowindex / aria-colindex, aria-activedescendant). The
  // arrow keys move the active cell, outlined like a hovered one; its text is
  // read, and onHover gets it as from the pointer (the sections' read-outs).
  const grid = figure.append('div').attr('class', 'heatmap-grid').attr('role', 'grid').attr('tabindex', 0)
    .attr('aria-describedby', `${id}-keys`);
  if (ariaKey) grid.attr('data-i18n-aria', ariaKey).attr('aria-label', t(ariaKey));
  const gridRow = grid.append('div').attr('role', 'row').attr('class', 'visually-hidden');
  const gridCell = gridRow.append('div').attr('role', 'gridcell').attr('id', `${id}-cell`);
  figure.append('span').attr('id', `${id}-keys`).attr('class', 'visually-hidden')
    .attr('data-i18n', 'a11y.heatmapKeys').text(t('a11y.heatmapKeys'));
  let active = null; // { row, col } of the keyboard's cell


  const x = scaleLinear().domain([0, 1]);
  const y = scaleLinear().domain([0, 1]);
  const color = scaleSequential(interpolateViridis).domain([0, 1]);
  let matrix = null;
  let width = 0;
  let height = 0;
  let rowMarkerAt = null;
  let axesDrawn = null; // the shape and colour domain the axes were last drawn for

  function layout() {
    const available = Math.max(260, container.clientWidth || 480);
    const nextHeight = Math.round(Math.min(maxHeight, Math.max(minHeight, available * aspect)));
    if (available === width && nextHeight === height) return false;
    width = available;
    height = nextHeight;
    const innerWidth = width - MARGIN.left - MARGIN.right;
    const innerHeight = height - MARGIN.top - MARGIN.bottom;
    svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    x.range([0, innerWidth]);
    y.range([0, innerHeight]);
    for (const node of [canvas, grid.node()]) {
      Object.assign(node.style, {
        left: `${MARGIN.left}px`, top: `${MARGIN.top}px`, width: `${innerWidth}px`, height: `${innerHeight}px`,
      });
    }
    marks.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    labelX.attr('x', MARGIN.left + innerWidth / 2).attr('y', height - 6);
    labelY.attr('transform', `translate(14,${MARGIN.top + innerHeight / 2}) rotate(-90)`);
    bar.attr('transform', `translate(${MARGIN.left + innerWidth + 12},${MARGIN.top})`);
    barRect.attr('height', innerHeight);
    barLabel.attr('transform', `translate(${COLORBAR_WIDTH + 40},${innerHeight / 2}) rotate(90)`);
    return true;
  }

  function drawAxes() {
    const innerWidth = width - MARGIN.left - MARGIN.right;
    const innerHeight = height - MARGIN.top - MARGIN.bottom;
    // A tick stands at the centre of the cell it names (index i spans [i, i + 1)).
    const cellTicks = (scale, count) => {
      const cells = scale.domain()[1];
      const names = scaleLinear().domain([firstIndex, firstIndex + Math.max(0, cells - 1)]).ticks(count)
        .filter(Number.isInteger);
      return names.map((name) => name - firstIndex + 0.5);
    };
    const cellName = (position) => String(position - 0.5 + firstIndex);
    axisX.attr('transform', `translate(${MARGIN.left},${MARGIN.top + innerHeight})`)
      .call(axisBottom(x).tickValues(cellTicks(x, Math.max(2, Math.floor(innerWidth / 60)))).tickFormat(cellName));
    axisY.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`)
      .call(axisLeft(y).tickValues(cellTicks(y, 6)).tickFormat(cellName));
    const barScale = scaleLinear().domain(color.domain()).range([innerHeight, 0]);
    barAxis.attr('transform', `translate(${COLORBAR_WIDTH},0)`).call(axisRight(barScale).ticks(5, '~g'));
  }

  function drawCells() {
    if (!matrix) return;
    const { values, rows, cols } = matrix;
    if (canvas.width !== cols || canvas.height !== rows) {
      canvas.width = cols;
      canvas.height = rows;
    }
    const image = context.createImageData(cols, rows);
    const pixels = image.data;
    const [low, high] = color.domain();
    const scale = high > low ? 255 / (high - low) : 0;
    for (let i = 0; i < values.length; i += 1) {
      const value = values[i];
      if (Number.isNaN(value)) continue; // transparent: the hatched background shows a gap
      const index = Math.max(0, Math.min(255, Math.round((value - low) * scale))) * 3;
      const p = i * 4;
      pixels[p] = LUT[index];
      pixels[p + 1] = LUT[index + 1];
      pixels[p + 2] = LUT[index + 2];
      pixels[p + 3] = 255;
    }
    context.putImageData(image, 0, 0);
  }

  function drawMarker() {
    if (rowMarkerAt === null || !matrix) {
      rowMarker.style('display', 'none');
      return;
    }
    rowMarker.style('display', null)
      .attr('x1', 0).attr('x2', width - MARGIN.left - MARGIN.right)
      .attr('y1', y(rowMarkerAt)).attr('y2', y(rowMarkerAt));
  }

  function cellAt(event) {
    if (!matrix) return null;
    const box = canvas.getBoundingClientRect();
    const col = Math.floor(((event.clientX - box.left) / box.width) * matrix.cols);
    const row = Math.floor(((event.clientY - box.top) / box.height) * matrix.rows);
    if (col < 0 || row < 0 || col >= matrix.cols || row >= matrix.rows) return null;
    return { row, col, value: matrix.values[row * matrix.cols + col] };
  }

  function outline(cell) {
    if (cell) {
      hoverBox.style('display', null)
        .attr('x', x(cell.col)).attr('y', y(cell.row))
        .attr('width', Math.max(2, x(1) - x(0))).attr('height', Math.max(2, y(1) - y(0)));
    } else {
      hoverBox.style('display', 'none');
    }
  }

  const readCell = (event) => {
    const cell = cellAt(event);
    outline(cell);
    onHover?.(cell);
  };
  canvas.addEventListener('pointermove', readCell);
  // A finger has no hover: a tap reads the cell out, and the read-out stays
  // until the next tap (a finger leaves the canvas as soon as it lifts).
  canvas.addEventListener('pointerdown', readCell);

  function activate(row, col) {
    if (!matrix) return;
    const r = Math.max(0, Math.min(matrix.rows - 1, row));
    const c = Math.max(0, Math.min(matrix.cols - 1, col));
    active = { row: r, col: c };
    const cell = { row: r, col: c, value: matrix.values[r * matrix.cols + c] };
    outline(cell);
    gridRow.attr('aria-rowindex', r + 1);
    gridCell.attr('aria-colindex', c + 1).text(t(Number.isNaN(cell.value) ? 'a11y.cellUndefined' : 'a11y.cell', {
      row: r + 1, col: c + 1, value: formatNumber(cell.value, '.4~g'),
    }));
    grid.attr('aria-activedescendant', `${id}-cell`);
    onHover?.(cell);
  }
  grid.on('focus', () => {
    const markerRow = rowMarkerAt === null ? 0 : Math.floor(rowMarkerAt);
    activate(active?.row ?? markerRow, active?.col ?? 0);
  });
  grid.on('blur', () => {
    grid.attr('aria-activedescendant', null);
    outline(null);
    onHover?.(null);
  });
  grid.on('keydown', (event) => {
    if (!matrix || !active) return;
    const { row, col } = active;
    const page = Math.max(1, Math.round(matrix.rows / 10));
    const moves = {
      ArrowUp: [row - 1, col], ArrowDown: [row + 1, col], ArrowLeft: [row, col - 1], ArrowRight: [row, col + 1],
      PageUp: [row - page, col], PageDown: [row + page, col],
      Home: event.ctrlKey ? [0, 0] : [row, 0],
      End: event.ctrlKey ? [matrix.rows - 1, matrix.cols - 1] : [row, matrix.cols - 1],
    };
    const next = moves[event.key];
    if (!next) return;
    event.preventDefault();
    activate(next[0], next[1]);
  });
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType === 'touch') return;
    hoverBox.style('display', 'none');
    onHover?.(null);
  });

  observeWidth(container, () => {
    if (layout()) {
      drawAxes();
      drawMarker();
    }
  });
  layout();
  drawAxes();
  attachFigureExport(figure.node(), {
    svg: svg.node(),
    canvas,
    table: () => matrix && matrixTable(matrix, { xLabel: labelX.text() || 'column', yLabel: labelY.text() || 'row' }),
  });

  return {
    element: figure.node(),
    canvas,
    // values: row-major Float64Array of rows x cols; the colour domain runs
    // from 0 to the largest finite value unless `domain` fixes it.
    // rowValues / colValues (optional): what each row and column stands for
    // (e.g. the query and key inputs), written into the CSV export.
    // The same array again (the core's results are never changed in place):
    // its pixels and axes stand, as a redraw for another input (a dragged
    // query) would repaint 5,000 pixels and rebuild three axes for nothing.
    /**
     * @param {{ values: ArrayLike<number> & Iterable<number>, rows: number, cols: number, domain?: number[] | null,
     *   rowValues?: ArrayLike<number | string>, colValues?: ArrayLike<number | string> }} matrix
     */
    setMatrix({ values, rows, cols, domain, rowValues, colValues }) {
      const same = matrix !== null && matrix.values === values && matrix.rows === rows && matrix.cols === cols &&
        matrix.domain?.[0] === domain?.[0] && matrix.domain?.[1] === domain?.[1];
      matrix = { values, rows, cols, domain, rowValues, colValues };
      if (same) return;
      grid.attr('aria-rowcount', rows).attr('aria-colcount', cols);
      x.domain([0, cols]);
      y.domain([0, rows]);
      const top = domain ? domain[1] : maxOf(values, (v) => (Number.isNaN(v) ? undefined : v));
      color.domain(domain ?? [0, top > 0 ? top : 1]);
      // The axes and the colour bar's ticks change with the shape and the
      // colour domain only (and the size, which redraws them itself).
      const axes = `${rows} ${cols} ${color.domain()}`;
      if (axes !== axesDrawn) drawAxes();
      axesDrawn = axes;
      drawCells();
      drawMarker();
      if (active && grid.node() === /** @type {Document | ShadowRoot} */ (grid.node().getRootNode()).activeElement) activate(active.row, active.col);
    },
    // A horizontal rule at a (fractional) row position, e.g. the dragged query.
    setRowMarker(rowPosition) {
      rowMarkerAt = Number.isFinite(rowPosition) ? rowPosition : null;
      drawMarker();
    },
  };
}
