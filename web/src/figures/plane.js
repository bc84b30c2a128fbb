// One kind of figure: a 2-D plane with a draggable query and keys whose dots
// grow with the weight the query gives them. Lines from the query to each key
// are as thick as that weight. The query moves by pointer (drag, or click to
// jump) and by the arrow keys when focused. It draws what it is given; the
// weights come from the core through the section.
import { select } from 'd3-selection';
import { scaleLinear, scaleSqrt } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { attachFigureExport } from '../export/figure-menu.js';
import { observeWidth } from './width-observer.js';

const MARGIN = { top: 12, right: 14, bottom: 34, left: 38 };
// The key labels' size in px (styles: .plane-key-label), to keep them apart
// without measuring the text (which would force a layout on every drag).
const LABEL = { height: 12, charWidth: 7, gap: 3 };

// Where a key's label goes: the first place beside its dot (right, left,
// above, below) that covers no other label and no dot, else the place that
// covers least. `dots`: [{cx, cy, r, label}] in pixels, largest first.
function placeLabels(dots, query) {
  const placed = []; // the labels placed so far
  const circles = dots.map((d) => ({ x0: d.cx - d.r, x1: d.cx + d.r, y0: d.cy - d.r, y1: d.cy + d.r }));
  const queryBox = { x0: query.cx - 10, x1: query.cx + 24, y0: query.cy - 22, y1: query.cy + 10 }; // with its "q"
  const overlap = (a, b) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) *
    Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  return dots.map((d, own) => {
    const obstacles = [...placed, queryBox, ...circles.filter((_, i) => i !== own)];
    const width = d.label.length * LABEL.charWidth;
    const side = d.r + LABEL.gap;
    // [left edge of the text, its baseline] relative to the dot's centre
    const candidates = [
      [side, -4], [side, LABEL.height - 2], [-side - width, -4], [-side - width, LABEL.height - 2],
      [-width / 2, -side], [-width / 2, side + LABEL.height - 2],
    ];
    let best = null;
    for (const [dx, dy] of candidates) {
      const box = { x0: d.cx + dx, x1: d.cx + dx + width, y0: d.cy + dy - LABEL.height + 2, y1: d.cy + dy + 2 };
      const cost = obstacles.reduce((sum, o) => sum + overlap(box, o), 0);
      if (!best || cost < best.cost) best = { dx, dy, box, cost };
      if (cost === 0) break;
    }
    placed.push(best.box);
    return { dx: best.dx, dy: best.dy };
  });
}

/**
 * @param {HTMLElement} container
 * @param {{ domain?: number[], ariaKey?: string, queryLabelKey?: string, onMove?: (x: number, y: number) => void, step?: number }} [options]
 */
export function createPlane(container, { domain = [-3, 3], ariaKey, queryLabelKey, onMove, step = 0.1 } = {}) {
  const x = scaleLinear().domain(domain);
  const y = scaleLinear().domain(domain);
  const radius = scaleSqrt().domain([0, 1]).range([3, 17]).clamp(true);
  const figure = select(container).append('div').attr('class', 'plane');
  const svg = figure.append('svg').attr('class', 'plane-svg').attr('role', 'group');
  if (ariaKey) svg.attr('data-i18n-aria', ariaKey);
  const frame = svg.append('rect').attr('class', 'plot-frame');
  const gridX = svg.append('g').attr('class', 'grid');
  const gridY = svg.append('g').attr('class', 'grid');
  const axisX = svg.append('g').attr('class', 'axis axis-x');
  const axisY = svg.append('g').attr('class', 'axis axis-y');
  const origin = svg.append('g').attr('class', 'plane-origin');
  const links = svg.append('g').attr('class', 'plane-links');
  const keys = svg.append('g').attr('class', 'plane-keys');
  const query = svg.append('g').attr('class', 'plane-query').attr('tabindex', 0).attr('role', 'slider');
  if (queryLabelKey) query.attr('data-i18n-aria', queryLabelKey);
  query.append('circle').attr('class', 'plane-query-halo').attr('r', 16);
  query.append('path').attr('class', 'plane-query-mark').attr('d', 'M0,-9L9,0L0,9L-9,0Z');
  query.append('text').attr('class', 'plane-query-label').attr('x', 12).attr('y', -10).text('q');

  let size = 0;
  let spec = null;
  // Where the arrow keys last sent the query, until the figure is drawn there: two keys pressed
  // within one frame (a held key, a slow machine) each move on from the last, not from the drawing.
  let sent = null;
  const clampToDomain = (value) => Math.max(domain[0], Math.min(domain[1], value));

  // Sized by the ResizeObserver (after layout, before paint), never by
  // reading the container's width, which would force a layout of the page.
  function layout(width) {
    const available = Math.max(220, Math.min(420, width || 320));
    if (available === size) return false;
    size = available;
    const inner = size - MARGIN.left - MARGIN.right;
    svg.attr('width', size).attr('height', inner + MARGIN.top + MARGIN.bottom)
      .attr('viewBox', `0 0 ${size} ${inner + MARGIN.top + MARGIN.bottom}`);
    x.range([MARGIN.left, MARGIN.left + inner]);
    y.range([MARGIN.top + inner, MARGIN.top]);
    frame.attr('x', MARGIN.left).attr('y', MARGIN.top).attr('width', inner).attr('height', inner);
    axisX.attr('transform', `translate(0,${MARGIN.top + inner})`).call(axisBottom(x).ticks(6));
    axisY.attr('transform', `translate(${MARGIN.left},0)`).call(axisLeft(y).ticks(6));
    gridX.attr('transform', `translate(0,${MARGIN.top + inner})`).call(axisBottom(x).ticks(6).tickSize(-inner).tickFormat(() => ''));
    gridY.attr('transform', `translate(${MARGIN.left},0)`).call(axisLeft(y).ticks(6).tickSize(-inner).tickFormat(() => ''));
    origin.selectAll('line').data([0, 1]).join('line')
      .attr('x1', (d) => (d ? x(0) : x(domain[0]))).attr('x2', (d) => (d ? x(0) : x(domain[1])))
      .attr('y1', (d) => (d ? y(domain[0]) : y(0))).attr('y2', (d) => (d ? y(domain[1]) : y(0)));
    return true;
  }

  function draw() {
    if (!spec) return;
    const { points, query: q } = spec;
    links.selectAll('line').data(points).join('line')
      .attr('x1', x(q.x)).attr('y1', y(q.y))
      .attr('x2', (d) => x(d.x)).attr('y2', (d) => y(d.y))
      .attr('stroke-width', (d) => (Number.isFinite(d.weight) ? 0.5 + 7 * d.weight : 0.5));
    const dots = keys.selectAll('g.plane-key').data(points).join((enter) => {
      const g = enter.append('g').attr('class', 'plane-key');
      g.append('circle');
      g.append('text').attr('class', 'plane-key-label');
      return g;
    });
    dots.attr('transform', (d) => `translate(${x(d.x)},${y(d.y)})`);
    dots.select('circle').attr('r', (d) => radius(Number.isFinite(d.weight) ? d.weight : 0))
      .attr('data-weight', (d) => String(d.weight));
    const pixels = points.map((d, index) =>
      ({ index, cx: x(d.x), cy: y(d.y), r: radius(Number.isFinite(d.weight) ? d.weight : 0), label: d.label }));
    // The heaviest keys choose their label's place first.
    const order = [...pixels].sort((a, b) => b.r - a.r);
    const places = new Array(points.length);
    placeLabels(order, { cx: x(q.x), cy: y(q.y) }).forEach((place, i) => {
      places[order[i].index] = place;
    });
    dots.select('text').attr('x', (_, i) => places[i].dx).attr('y', (_, i) => places[i].dy)
      .text((d) => d.label);
    query.attr('transform', `translate(${x(q.x)},${y(q.y)})`)
      .attr('aria-valuetext', `q = (${q.x}, ${q.y})`);
  }

  // The pointer in the SVG's own coordinates, whatever CSS does to its box.
  function toData(event) {
    const node = svg.node();
    const point = node.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const local = point.matrixTransform(node.getScreenCTM().inverse());
    const px = local.x;
    const py = local.y;
    return { x: clampToDomain(x.invert(px)), y: clampToDomain(y.invert(py)) };
  }

  svg.on('pointerdown', (event) => {
    if (!onMove) return;
    event.preventDefault();
    const target = svg.node();
    target.setPointerCapture?.(event.pointerId);
    query.node().focus({ preventScroll: true });
    const moveTo = (e) => {
      const point = toData(e);
      onMove(point.x, point.y);
    };
    moveTo(event);
    const end = () => {
      target.removeEventListener('pointermove', moveTo);
      figure.classed('dragging', false);
    };
    figure.classed('dragging', true);
    target.addEventListener('pointermove', moveTo);
    target.addEventListener('pointerup', end, { once: true });
    target.addEventListener('pointercancel', end, { once: true });
  });
  query.on('keydown', (event) => {
    const delta = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
    if (!delta || !spec || !onMove) return;
    event.preventDefault();
    const factor = event.shiftKey ? 5 : 1;
    const from = sent ?? spec.query;
    sent = { x: clampToDomain(from.x + delta[0] * step * factor), y: clampToDomain(from.y + delta[1] * step * factor) };
    onMove(sent.x, sent.y);
  });

  observeWidth(container, (width) => {
    if (layout(width)) draw();
  });
  layout(320);
  // PNG and SVG; no CSV: the keys and their weights are in the section's table beside it.
  attachFigureExport(figure.node(), { svg: svg.node(), table: null });

  return {
    element: figure.node(),
    svg: svg.node(),
    // points: [{x, y, weight, label}], query: {x, y}
    set(next) {
      spec = next;
      sent = null;
      draw();
    },
  };
}
