// One kind of figure: a small matrix drawn as an annotated heatmap in SVG.
// Every cell is a viridis rectangle with its number written in it, rows and
// columns carry names, groups of rows (batch items) are set apart, and cells
// can be marked as masked (hatched, with their own text). For matrices of a
// few dozen cells, where reading the numbers matters more than density; the
// canvas heatmap (heatmap.js) draws the large ones.
//
// Maps that never write their numbers (the many small maps of heads, redrawn
// while a model trains) take `canvasCells`: their cells are painted on one
// canvas under the SVG (names, hover and the marked cell stay SVG), one DOM
// node where a cell took four, so a redraw neither lays out nor paints
// hundreds of nodes. Hover, the keyboard, the export and the read-outs work
// the same way in both.
import { select } from 'd3-selection';
import { scaleSequential } from 'd3-scale';
import { interpolateViridis } from 'd3-scale-chromatic';
import { rgb } from 'd3-color';
import { extent } from 'd3-array';
import { formatNumber } from '../format.js';
import { attachFigureExport } from '../export/figure-menu.js';
import { matrixTable } from '../export/csv.js';
import { t } from '../i18n/index.js';
import { setAttributes, setText } from '../dom.js';
import { observeWidth } from './width-observer.js';
import { repaintOnColourScheme } from './colour-scheme.js';

// A space after each label and inside each cell, where SVG draws nothing:
// the figure's text (copied, read out, its textContent) keeps its numbers
// apart ("−1.586 −3.655", not "−1.586−3.655"). A label's space is its
// group's loose text: each drawing puts them anew, so a label the data no
// longer has leaves none behind.
function spaceLabelsApart(group, labels) {
  for (const node of [...group.node().childNodes]) if (node.nodeType === Node.TEXT_NODE) node.remove();
  labels.each(/** @this {Element} */ function addSpace() {
    this.after(' ');
  });
}

let nextId = 0;
const GROUP_GAP = 8;
// Long column names stand slanted above their column.
const SLANT_DEGREES = 50;
const SLANT = (SLANT_DEGREES * Math.PI) / 180;

// The width of a label at 11 px, near enough for layout: CJK characters are
// about twice as wide as Latin ones.
function labelWidthOf(text) {
  let width = 0;
  for (const char of String(text)) width += char.codePointAt(0) >= 0x2e80 ? 11.5 : 6.6;
  return width;
}

// Dark cells get white text, bright ones dark text (both pass WCAG AA on viridis).
function textColour(fill) {
  const { r, g, b } = rgb(fill);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 ? '#1d2330' : '#ffffff';
}

export function createMatrix(container, options = {}) {
  const {
    ariaKey, maxCell = 58, minCell = 14, format = '.2f', onHover, rowTitleKey, colTitleKey,
    labelWidth = null, textMinCell = 30, rotateColumns = false, canvasCells = false,
  } = options;
  const id = `matrix-${(nextId += 1)}`;
  const figure = select(container).append('div').attr('class', canvasCells ? 'matrix has-canvas' : 'matrix');
  const canvas = canvasCells ? figure.append('canvas').attr('class', 'matrix-canvas').attr('aria-hidden', 'true').node() : null;
  // Small and read back (the export, tests): kept on the CPU, as the heatmaps' are.
  const canvasContext = canvas?.getContext('2d', { willReadFrequently: true }) ?? null;
  if (canvas) repaintOnColourScheme(draw); // its hatching is the theme's
  const svg = figure.append('svg').attr('class', 'matrix-svg').attr('role', 'img');
  if (ariaKey) svg.attr('data-i18n-aria', ariaKey);
  const pattern = svg.append('defs').append('pattern').attr('id', `${id}-hatch`)
    .attr('patternUnits', 'userSpaceOnUse').attr('width', 6).attr('height', 6).attr('patternTransform', 'rotate(45)');
  const hatchBackground = pattern.append('rect').attr('width', 6).attr('height', 6).attr('class', 'hatch-bg').node();
  const hatchLine = pattern.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6).attr('class', 'hatch-line').node();
  const colTitle = svg.append('text').attr('class', 'axis-label matrix-col-title').attr('text-anchor', 'middle');
  if (colTitleKey) colTitle.attr('data-i18n', colTitleKey);
  const rowTitle = svg.append('text').attr('class', 'axis-label matrix-row-title').attr('text-anchor', 'middle');
  if (rowTitleKey) rowTitle.attr('data-i18n', rowTitleKey);
  const colLabels = svg.append('g').attr('class', 'matrix-col-labels');
  const rowLabels = svg.append('g').attr('class', 'matrix-row-labels');
  const cells = svg.append('g').attr('class', 'matrix-cells');
  const markBox = canvasCells ? svg.append('rect').attr('class', 'mark-box').style('display', 'none') : null;
  const hoverBox = svg.append('rect').attr('class', 'hover-box').style('display', 'none');

  const color = scaleSequential(interpolateViridis);
  let data = null;
  let width = 0;
  let marked = null; // a cell an exercise asks about (row-major index), outlined

  function geometry() {
    const { rows, cols, rowNames, groupRows } = data;
    const longest = Math.max(6, ...rowNames.map(labelWidthOf));
    const left = labelWidth ?? Math.min(130, 12 + longest) + (rowTitleKey ? 18 : 0);
    // Long column names (tokens) stand at an angle above their column.
    const longestCol = Math.max(6, ...data.colNames.map(labelWidthOf));
    // A slanted name rises by its length and its 11 px height, from 5 px above the cells.
    const slanted = 8 + longestCol * Math.sin(SLANT) + 11 * Math.cos(SLANT);
    const top = (rotateColumns ? Math.ceil(slanted) : 18) + (colTitleKey ? 18 : 0);
    const groups = groupRows ? Math.ceil(rows / groupRows) : 1;
    const cell = Math.max(minCell, Math.min(maxCell, Math.floor((width - left - 6) / cols)));
    const y = (row) => top + row * cell + (groupRows ? Math.floor(row / groupRows) * GROUP_GAP : 0);
    const height = top + rows * cell + (groups - 1) * GROUP_GAP + 4;
    return { left, top, cell, y, height, right: left + cols * cell };
  }

  // The container's width comes from the ResizeObserver, which reports it
  // after layout and before the first paint: reading clientWidth here would
  // force a layout of the whole page for every matrix drawn.
  let available = null;
  let lastPlacement = null; // the cells' geometry last drawn
  let lastFrame = null; // the size, titles' places and labels last drawn
  function draw() {
    if (!data) return;
    width = Math.max(160, available || 320);
    const { rows, cols, values, rowNames, colNames, masked, maskedText } = data;
    const { left, top, cell, y, height, right } = geometry();
    // Room on the right for what the last column's name reaches past its cell
    // ("grammar"): slanted at 50 degrees from the cell's centre (its length
    // and its 11 px height both reach right), or level and centred.
    const last = labelWidthOf(colNames[cols - 1]);
    const reach = rotateColumns ? last * Math.cos(SLANT) + 11 * Math.sin(SLANT) : last / 2;
    const spill = Math.max(0, reach - cell / 2);
    const showText = cell >= textMinCell;
    const fontSize = Math.max(9, Math.min(13, cell * 0.3));
    // The frame, titles and labels change with the width, the shape and the names only.
    const frame = JSON.stringify([left, top, cell, height, spill, rowNames, colNames]);
    if (frame !== lastFrame) {
      lastFrame = frame;
      svg.attr('width', right + 4 + spill).attr('height', height).attr('viewBox', `0 0 ${right + 4 + spill} ${height}`);
      colTitle.attr('x', left + (cols * cell) / 2).attr('y', 12);
      rowTitle.attr('transform', `translate(10,${top + (height - top) / 2}) rotate(-90)`);
      spaceLabelsApart(colLabels, colLabels.selectAll('text').data(colNames).join('text')
        .attr('x', (_, c) => left + c * cell + cell / 2).attr('y', top - 5)
        .attr('text-anchor', rotateColumns ? 'start' : 'middle').attr('class', 'matrix-label')
        .attr('transform', (_, c) => (rotateColumns ? `rotate(${-SLANT_DEGREES},${left + c * cell + cell / 2},${top - 5})` : null))
        .text((name) => name));
      spaceLabelsApart(rowLabels, rowLabels.selectAll('text').data(rowNames).join('text')
        .attr('x', left - 6).attr('y', (_, r) => y(r) + cell / 2).attr('dy', '0.35em')
        .attr('text-anchor', 'end').attr('class', 'matrix-label')
        .text((name) => name));
    }

    if (canvas) {
      paintCells({ left, top, cell, y, height });
      hoverBox.style('display', 'none');
      if (active && (active.row >= data.rows || active.col >= data.cols)) active = null;
      return;
    }
    const items = [];
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const index = r * cols + c;
        const value = values[index];
        const isMasked = masked ? Boolean(masked[index]) : false;
        const fill = isMasked || !Number.isFinite(value) ? `url(#${id}-hatch)` : color(value);
        items.push({ r, c, value, isMasked, fill });
      }
    }
    let entered = false;
    const groups = cells.selectAll('g.cell').data(items).join((enter) => {
      entered = !enter.empty();
      const g = enter.append('g').attr('class', 'cell');
      g.append('rect');
      g.append('text').attr('text-anchor', 'middle').attr('dy', '0.35em');
      g.each(function addSpace() {
        this.append(' ');
      });
      return g;
    });
    // Where the cells stand and how big they are changes with the width and
    // the shape only: a redraw of new values (a slider's) sets their colour,
    // number and data alone, not some 2,000 attributes that stay the same.
    const placement = `${left} ${top} ${cell} ${fontSize} ${rows} ${cols} ${data.groupRows}`;
    const placed = entered || placement !== lastPlacement;
    lastPlacement = placement;
    if (placed) groups.attr('transform', (d) => `translate(${left + d.c * cell},${y(d.r)})`);
    const rects = groups.select('rect');
    if (placed) {
      rects.attr('width', cell - 1).attr('height', cell - 1)
        .attr('data-row', (d) => d.r).attr('data-col', (d) => d.c);
    }
    const texts = groups.select('text');
    if (placed) texts.attr('x', (cell - 1) / 2).attr('y', (cell - 1) / 2).style('font-size', `${fontSize}px`);
    groups.each(function setCell(d) {
      const node = /** @type {Element} */ (this);
      node.classList.toggle('is-masked', d.isMasked);
      node.classList.toggle('is-marked', d.r * cols + d.c === marked);
      const [rect, text] = /** @type {[Element, Element]} */ ([node.firstElementChild, node.lastElementChild]);
      setAttributes(rect, { fill: d.fill, 'data-value': String(d.value), 'data-masked': d.isMasked ? 'true' : null });
      setAttributes(text, { fill: d.isMasked || !Number.isFinite(d.value) ? '#4a5263' : textColour(d.fill) });
      let shown = '';
      if (showText) shown = d.isMasked ? (maskedText ?? '') : formatNumber(d.value, data.format ?? format);
      setText(text, shown);
    });
    hoverBox.style('display', 'none');
    if (active && (active.row >= data.rows || active.col >= data.cols)) active = null;
  }

  // The canvas's cells: each cell - 1 px square as the SVG's rects, at the
  // screen's pixel ratio; masked and undefined cells hatched as there.
  let lastCanvasPlacement = null;
  let hatch = null; // [pattern, the colours it was made with]
  function hatchPattern(context) {
    const background = getComputedStyle(hatchBackground).fill;
    const line = getComputedStyle(hatchLine).stroke;
    const colours = `${background} ${line}`;
    if (hatch?.[1] !== colours) {
      const tile = document.createElement('canvas');
      tile.width = 6;
      tile.height = 6;
      const tileContext = /** @type {CanvasRenderingContext2D} */ (tile.getContext('2d'));
      tileContext.fillStyle = background;
      tileContext.fillRect(0, 0, 6, 6);
      tileContext.strokeStyle = line;
      tileContext.lineWidth = 2.5;
      // The SVG pattern's vertical line turned by 45 degrees: diagonals that tile.
      for (const shift of [-6, 0, 6]) {
        tileContext.beginPath();
        tileContext.moveTo(shift, 6);
        tileContext.lineTo(shift + 6, 0);
        tileContext.stroke();
      }
      hatch = [context.createPattern(tile, 'repeat'), colours];
    }
    return hatch[0];
  }
  function paintCells({ left, top, cell, y, height }) {
    const { rows, cols, values, masked } = data;
    const cssWidth = cols * cell;
    const cssHeight = height - 4 - top;
    const ratio = window.devicePixelRatio || 1;
    const placement = `${left} ${top} ${cssWidth} ${cssHeight} ${ratio}`;
    if (placement !== lastCanvasPlacement) {
      lastCanvasPlacement = placement;
      canvas.width = Math.round(cssWidth * ratio);
      canvas.height = Math.round(cssHeight * ratio);
      Object.assign(canvas.style, { left: `${left}px`, top: `${top}px`, width: `${cssWidth}px`, height: `${cssHeight}px` });
    }
    const context = /** @type {CanvasRenderingContext2D} */ (canvasContext);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, cssWidth, cssHeight);
    let hatchFill = null; // read from the page's styles once a paint, and only if a cell needs it
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const index = r * cols + c;
        const value = values[index];
        const isMasked = Boolean(masked?.[index]);
        if (isMasked || !Number.isFinite(value)) context.fillStyle = hatchFill ??= hatchPattern(context);
        else context.fillStyle = color(value);
        context.fillRect(c * cell, y(r) - top, cell - 1, cell - 1);
      }
    }
    const shown = marked !== null && marked < rows * cols;
    markBox.style('display', shown ? null : 'none');
    if (shown) {
      markBox.attr('x', left + (marked % cols) * cell).attr('y', y(Math.floor(marked / cols)))
        .attr('width', cell - 1).attr('height', cell - 1);
    }
  }

  // The cell under the pointer: its SVG group, or on the canvas, where the
  // pointer stands in the cells' geometry (the gaps between them: none).
  function cellOf(event) {
    if (canvas) {
      if (!data) return null;
      const { left, cell, y } = geometry();
      const box = svg.node().getBoundingClientRect();
      const x = event.clientX - box.left;
      const top = event.clientY - box.top;
      const col = Math.floor((x - left) / cell);
      let row = -1;
      for (let r = 0; r < data.rows; r += 1) if (top >= y(r) && top < y(r) + cell) row = r;
      if (row < 0 || col < 0 || col >= data.cols) return null;
      const index = row * data.cols + col;
      return { row, col, value: data.values[index], masked: Boolean(data.masked?.[index]) };
    }
    const target = event.target.closest?.('g.cell');
    if (!target) return null;
    const d = select(target).datum();
    return d ? { row: d.r, col: d.c, value: d.value, masked: d.isMasked, node: target } : null;
  }

  function outline(cell) {
    if (!cell || !data) {
      hoverBox.style('display', 'none');
      return;
    }
    const { left, cell: size, y } = geometry();
    hoverBox.style('display', null).attr('x', left + cell.col * size).attr('y', y(cell.row))
      .attr('width', size - 1).attr('height', size - 1);
  }

  // On the canvas the SVG above it takes the pointer, and a pointer off the cells reads none.
  const pointerMoved = (event) => {
    const cell = cellOf(event);
    if (cell && data) {
      outline(cell);
      onHover?.(cell);
    } else if (canvas) {
      outline(null);
      onHover?.(null);
    }
  };
  const pointerLeft = () => {
    outline(null);
    onHover?.(null);
  };
  if (canvas) svg.on('pointermove', pointerMoved).on('pointerleave', pointerLeft);
  else cells.on('pointermove', pointerMoved).on('pointerleave', pointerLeft);

  // Keyboard: a matrix with a read-out is focusable and its cells are reached
  // with the arrow keys (Home / End: first / last column); the section's
  // read-out (aria-live) says the cell's value, as for the pointer.
  let active = null;
  if (onHover) {
    svg.attr('tabindex', 0).attr('focusable', 'true');
    const announce = () => {
      if (!data || !active) return;
      const index = active.row * data.cols + active.col;
      const cell = { row: active.row, col: active.col, value: data.values[index], masked: Boolean(data.masked?.[index]) };
      outline(cell);
      onHover(cell);
    };
    svg.on('focus', () => {
      active ??= { row: 0, col: 0 };
      announce();
    });
    svg.on('blur', () => {
      outline(null);
      onHover(null);
    });
    svg.on('keydown', (event) => {
      if (!data) return;
      const moves = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
      const move = moves[event.key];
      if (!move && event.key !== 'Home' && event.key !== 'End') return;
      event.preventDefault();
      active ??= { row: 0, col: 0 };
      if (event.key === 'Home') active.col = 0;
      else if (event.key === 'End') active.col = data.cols - 1;
      else {
        active.row = Math.max(0, Math.min(data.rows - 1, active.row + move[0]));
        active.col = Math.max(0, Math.min(data.cols - 1, active.col + move[1]));
      }
      announce();
    });
  }

  // PNG, SVG and CSV like every figure of the page (export/figure-menu.js); the CSV holds
  // the full-precision values, masked cells included as the values drawn.
  attachFigureExport(figure.node(), {
    svg: svg.node(),
    ...(canvas ? { canvas, gapsShowPaper: true } : {}),
    table: () => (data ? matrixTable(
      { values: data.values, rows: data.rows, cols: data.cols, rowValues: data.rowNames, colValues: data.colNames },
      { xLabel: colTitleKey ? t(colTitleKey) : 'column', yLabel: rowTitleKey ? t(rowTitleKey) : 'row' },
    ) : null),
  });

  // A matrix out of the document or hidden reports a width of 0: it keeps
  // the width it was drawn at, so put back (a card of heads shown again) it
  // is not drawn a second time in the frame for the same width.
  observeWidth(container, (width) => {
    if (width === available || (width === 0 && available !== null)) return;
    available = width;
    draw();
  });

  return {
    element: figure.node(),
    svg: svg.node(),
    // values: row-major rows x cols; masked: optional flags per cell; the
    // colour domain runs over the finite unmasked values unless given.
    /**
     * @param {{ values: ArrayLike<number> & Iterable<number>, rows: number, cols: number, rowNames?: string[], colNames?: string[],
     *   masked?: ArrayLike<number | boolean> | null, maskedText?: string | null, domain?: number[] | null,
     *   groupRows?: number | null, format?: string }} matrix
     */
    set({ values, rows, cols, rowNames, colNames, masked = null, maskedText = null, domain = null, groupRows = null, format: cellFormat }) {
      data = {
        values, rows, cols, masked, maskedText, groupRows, format: cellFormat,
        rowNames: rowNames ?? Array.from({ length: rows }, (_, r) => String(r)),
        colNames: colNames ?? Array.from({ length: cols }, (_, c) => String(c)),
      };
      let scale = domain;
      if (!scale) {
        const shown = Array.from(values).filter((value, i) => Number.isFinite(value) && !(masked && masked[i]));
        const [low, high] = extent(shown);
        scale = low === undefined ? [0, 1] : [low, high > low ? high : low + 1];
      }
      color.domain(scale);
      // Drawn at once, before its width is known (320 px): drawn first from
      // the width observer's report, its new height could resize others in
      // the same frame, which browsers report as a ResizeObserver loop.
      draw();
    },
    domain: () => color.domain(),
    // Outlines one cell (row-major index) until marked again; null: none.
    mark(index) {
      marked = index ?? null;
      draw();
    },
  };
}
