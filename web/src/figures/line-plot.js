// One kind of figure: an x-y plot in SVG with D3 scales and axes, drawn as
// named layers (lines with gaps, points, stems, vertical rules, dots). It
// sizes itself to its container, keeps the last data of every layer and
// redraws on resize. It knows nothing of attention: sections feed it arrays.
//
// A data set's points (up to a thousand, moved by every noise or n change)
// are painted on one canvas under the SVG, in the colours their CSS class
// gives a circle, not as one SVG circle each: a redraw then neither styles,
// lays out nor paints a node per point. The SVG file, the PNG and the
// printed page draw them as circles (vector), drawn into the SVG only for
// as long as those take.
import { select } from 'd3-selection';
import { scaleLinear, scaleLog } from 'd3-scale';
import { axisBottom, axisLeft } from 'd3-axis';
import { line as lineShape } from 'd3-shape';
import { attachFigureExport } from '../export/figure-menu.js';
import { plotTable } from '../export/csv.js';
import { observeWidth } from './width-observer.js';
import { repaintOnColourScheme } from './colour-scheme.js';

const MARGIN = { top: 14, right: 16, bottom: 44, left: 52 };
let nextId = 0;

const CANVAS_KINDS = new Set(['points']);

export function createLinePlot(container, options) {
  const {
    xDomain, yDomain, layers, labels = {}, aspect = 0.62, minHeight = 200, maxHeight = 400,
    ariaKey, legend = [], xTicks = 6, yTicks = 6, xScale = 'linear', yScale = 'linear',
    csv = {}, // export: { layers: [names], columns: [headers] } for plain columns of one layer
  } = options;
  const id = `plot-${(nextId += 1)}`;
  // 'log' for quantities spanning decades (e.g. d from 1 to 512).
  const x = (xScale === 'log' ? scaleLog().base(2) : scaleLinear()).domain(xDomain);
  const y = (yScale === 'log' ? scaleLog() : scaleLinear()).domain(yDomain);

  const figure = select(container).append('div').attr('class', 'plot');
  const svg = figure.append('svg').attr('class', 'plot-svg').attr('role', 'img');
  if (ariaKey) svg.attr('data-i18n-aria', ariaKey);
  svg.append('defs').append('clipPath').attr('id', `${id}-clip`).append('rect');
  const frame = svg.append('rect').attr('class', 'plot-frame');
  const gridY = svg.append('g').attr('class', 'grid grid-y');
  const axisX = svg.append('g').attr('class', 'axis axis-x');
  const axisY = svg.append('g').attr('class', 'axis axis-y');
  const labelX = svg.append('text').attr('class', 'axis-label axis-label-x').attr('text-anchor', 'middle');
  const labelY = svg.append('text').attr('class', 'axis-label axis-label-y').attr('text-anchor', 'middle');
  if (labels.x) labelX.attr('data-i18n', labels.x);
  if (labels.y) labelY.attr('data-i18n', labels.y);
  const area = svg.append('g').attr('clip-path', `url(#${id}-clip)`);
  const groups = new Map(layers.map((name) => [name, area.append('g').attr('class', `layer layer-${name}`)]));
  const overlay = svg.append('rect').attr('class', 'plot-overlay');
  const handles = svg.append('g').attr('class', 'handles'); // above the overlay: grabbable

  if (legend.length > 0) {
    const list = figure.append('ul').attr('class', 'legend');
    for (const item of legend) {
      // The entry (its swatch too) says its key, as the layer it names.
      const entry = list.append('li').attr('class', `legend-item ${item.className}`).attr('data-says', item.key);
      const swatch = entry.append('svg').attr('class', 'swatch').attr('width', 22).attr('height', 12)
        .attr('aria-hidden', 'true');
      if (item.kind === 'point') swatch.append('circle').attr('cx', 11).attr('cy', 6).attr('r', 4);
      else if (item.kind === 'bar') swatch.append('rect').attr('x', 8).attr('y', 1).attr('width', 6).attr('height', 10);
      else swatch.append('line').attr('x1', 1).attr('x2', 21).attr('y1', 6).attr('y2', 6);
      entry.append('span').attr('data-i18n', item.key);
      // The layer a legend entry names says what the entry says: a
      // prediction that withholds the entry withholds the line.
      if (item.layer) groups.get(item.layer)?.attr('data-says', item.key);
    }
  }

  const specs = new Map();
  let width = 0;
  let height = 0;
  let dragHandler = null;

  // Positions as drawn: within a million pixels of the plot, far outside
  // its clip but within what SVG parses (a value scaled by a domain it has
  // outgrown, say a diverging loss, would otherwise be 1e44 pixels away and
  // break the path), so what shows is the same.
  const bound = (pixel) => Math.max(-1e6, Math.min(1e6, pixel));
  const drawX = (value) => bound(x(value));
  const drawY = (value) => bound(y(value));

  // Each layer kind draws its spec. Setting an SVG attribute costs even when
  // the value is the same, so positions are only rewritten when the data or
  // the scales changed (`moved`); a drag only rewrites radii or bar heights.
  const draw = {
    line(group, spec) {
      const path = lineShape()
        .defined((_, i) => Number.isFinite(spec.ys[i]))
        .x((value) => drawX(value))
        .y((_, i) => drawY(spec.ys[i]));
      group.selectAll('path').data([spec.xs]).join('path')
        .attr('class', spec.className ?? '')
        .attr('d', path);
    },
    points(group, spec, moved) {
      if (!vector && !group.attr('data-says')) {
        if (moved || typeof spec.r === 'function') paintCanvas();
        return;
      }
      const circles = group.selectAll('circle').data(spec.xs).join('circle');
      if (moved) {
        circles.attr('class', spec.className ?? '')
          .attr('cx', (value) => drawX(value))
          .attr('cy', (_, i) => drawY(spec.ys[i]));
      }
      if (moved || typeof spec.r === 'function') circles.attr('r', (_, i) => radiusOf(spec)(i));
    },
    stems(group, spec, moved) {
      const base = drawY(spec.baseline ?? 0);
      const lines = group.selectAll('line').data(spec.xs).join('line');
      if (moved) {
        lines.attr('class', spec.className ?? '')
          .attr('x1', (value) => drawX(value)).attr('x2', (value) => drawX(value))
          .attr('y1', base);
      }
      lines.attr('y2', (_, i) => (Number.isFinite(spec.ys[i]) ? drawY(spec.ys[i]) : base));
    },
    rule(group, spec) {
      const data = spec === null || !Number.isFinite(spec.x) ? [] : [spec];
      group.selectAll('line').data(data).join('line')
        .attr('class', (d) => d.className ?? '')
        .attr('x1', (d) => drawX(d.x)).attr('x2', (d) => drawX(d.x))
        .attr('y1', 0).attr('y2', height - MARGIN.top - MARGIN.bottom);
    },
    dots(group, spec) {
      // Array.from: a typed array's own map would turn the objects into NaN.
      const data = Array.from(spec.xs, (value, i) => ({ x: value, y: spec.ys[i] }))
        .filter((d) => Number.isFinite(d.x) && Number.isFinite(d.y));
      group.selectAll('circle').data(data).join('circle')
        .attr('class', spec.className ?? '')
        .attr('cx', (d) => drawX(d.x)).attr('cy', (d) => drawY(d.y)).attr('r', spec.r ?? 5);
    },
  };

  const radiusOf = (spec) => (typeof spec.r === 'function' ? spec.r : () => spec.r ?? 3.5);

  // The points' canvas, made with the first points drawn. `vector`: the
  // points drawn as SVG circles instead, while a file is made or the page
  // printed. A layer a legend entry names (data-says) stays SVG: a
  // prediction may withhold it, and the canvas could not hide it.
  let canvas = null;
  let vector = false;
  const onCanvas = (name) => CANVAS_KINDS.has(specs.get(name)?.kind) && !groups.get(name).attr('data-says');
  const probes = svg.append('g').attr('class', 'style-probes').style('display', 'none');
  // className -> how a circle of that class is painted, read from a circle
  // never shown. Read once, and again when the colour scheme changes: a read
  // during a redraw would make the browser style the page twice in a frame.
  const pointStyles = new Map();
  function pointStyle(className) {
    if (pointStyles.has(className)) return pointStyles.get(className);
    const probe = probes.append('circle').attr('class', className);
    const style = getComputedStyle(probe.node());
    const lineWidth = parseFloat(style.strokeWidth);
    const outlined = style.stroke !== 'none' && lineWidth > 0;
    const painted = {
      fill: style.fill, fillOpacity: Number(style.fillOpacity), outlined,
      stroke: outlined ? style.stroke : 'transparent', lineWidth: outlined ? lineWidth : 0, strokeOpacity: Number(style.strokeOpacity),
    };
    // A plot not yet in the document has no styles: read again next time.
    if (probe.node().isConnected) pointStyles.set(className, painted);
    else probe.remove();
    return painted;
  }

  // Each point as an SVG circle of its class would be: fill at its
  // fill-opacity, then its outline.
  function paintCanvas() {
    if (!canvas) {
      canvas = figure.insert('canvas', 'svg').attr('class', 'plot-canvas').attr('aria-hidden', 'true').node();
      figure.classed('has-canvas', true).attr('data-canvas-layers', '');
      repaintOnColourScheme(repaint);
    }
    const innerWidth = width - MARGIN.left - MARGIN.right;
    const innerHeight = height - MARGIN.top - MARGIN.bottom;
    const ratio = window.devicePixelRatio || 1;
    const pixels = [Math.round(innerWidth * ratio), Math.round(innerHeight * ratio)];
    if (canvas.width !== pixels[0] || canvas.height !== pixels[1]) {
      [canvas.width, canvas.height] = pixels;
      Object.assign(canvas.style, { left: `${MARGIN.left}px`, top: `${MARGIN.top}px`, width: `${innerWidth}px`, height: `${innerHeight}px` });
    }
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, innerWidth, innerHeight);
    let count = 0;
    for (const name of groups.keys()) {
      if (!onCanvas(name)) continue;
      const spec = specs.get(name);
      const { fill, fillOpacity, outlined, stroke, lineWidth, strokeOpacity } = pointStyle(spec.className ?? '');
      context.fillStyle = fill;
      context.strokeStyle = stroke;
      context.lineWidth = lineWidth;
      const radius = radiusOf(spec);
      for (let i = 0; i < spec.xs.length; i += 1) {
        const r = radius(i);
        if (!Number.isFinite(spec.xs[i]) || !Number.isFinite(spec.ys[i]) || !(r > 0)) continue;
        context.beginPath();
        context.arc(drawX(spec.xs[i]), drawY(spec.ys[i]), r, 0, 2 * Math.PI);
        context.globalAlpha = fillOpacity;
        context.fill();
        if (outlined) {
          context.globalAlpha = strokeOpacity;
          context.stroke();
        }
        count += 1;
      }
    }
    context.globalAlpha = 1;
    canvas.dataset.points = String(count);
  }

  // For a file or the printed page: the canvas's points as SVG circles
  // (drawn by the same layer code, from the same specs), or back on canvas.
  function drawVector(on) {
    if (!canvas || vector === on) return;
    vector = on;
    canvas.hidden = on;
    figure.classed('has-canvas', !on);
    for (const name of groups.keys()) {
      if (!onCanvas(name)) continue;
      if (on) draw[specs.get(name).kind](groups.get(name), specs.get(name), true);
      else groups.get(name).selectAll('*').remove();
    }
    if (!on) paintCanvas();
  }
  figure.on('figure-vector', (event) => drawVector(Boolean(event.detail)));
  const repaint = () => {
    pointStyles.clear();
    probes.selectAll('*').remove();
    if (!vector) paintCanvas();
  };

  const drawn = new Map(); // layer -> the spec last drawn, to know what moved

  function drawLayer(name, rescaled = false) {
    const spec = specs.get(name);
    const group = groups.get(name);
    const previous = drawn.get(name);
    if (!spec) {
      group.selectAll('*').remove();
      if (drawn.delete(name) && canvas) paintCanvas();
      return;
    }
    const moved = rescaled || !previous || previous.kind !== spec.kind || previous.xs !== spec.xs ||
      previous.ys !== spec.ys || previous.className !== spec.className ||
      (typeof spec.r !== 'function' && previous.r !== spec.r);
    draw[spec.kind](group, spec, moved);
    drawn.set(name, spec);
  }

  function layout() {
    const available = Math.max(200, container.clientWidth || 560);
    const nextHeight = Math.round(Math.min(maxHeight, Math.max(minHeight, available * aspect)));
    if (available === width && nextHeight === height) return false;
    width = available;
    height = nextHeight;
    const innerWidth = width - MARGIN.left - MARGIN.right;
    const innerHeight = height - MARGIN.top - MARGIN.bottom;
    svg.attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
    x.range([0, innerWidth]);
    y.range([innerHeight, 0]);
    svg.select(`#${id}-clip rect`).attr('width', innerWidth).attr('height', innerHeight);
    for (const selection of [frame, overlay]) {
      selection.attr('x', MARGIN.left).attr('y', MARGIN.top).attr('width', innerWidth).attr('height', innerHeight);
    }
    area.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    handles.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    labelX.attr('x', MARGIN.left + innerWidth / 2).attr('y', height - 6);
    labelY.attr('transform', `translate(14,${MARGIN.top + innerHeight / 2}) rotate(-90)`);
    return true;
  }

  function drawAxes() {
    const innerWidth = width - MARGIN.left - MARGIN.right;
    const innerHeight = height - MARGIN.top - MARGIN.bottom;
    const xCount = Math.max(2, Math.min(xTicks, Math.floor(innerWidth / 70)));
    axisX.attr('transform', `translate(${MARGIN.left},${MARGIN.top + innerHeight})`).call(axisBottom(x).ticks(xCount));
    // yTicks = 0: a shape without a scale (e.g. a kernel drawn up to a constant).
    // A log scale's labels as plain numbers (0.02, 0.1), not SI prefixes (20m, 100m).
    axisY.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`)
      .call(axisLeft(y).ticks(yTicks, yScale === 'log' ? '~g' : undefined).tickValues(yTicks === 0 ? [] : null));
    gridY.attr('transform', `translate(${MARGIN.left},${MARGIN.top})`)
      .call(axisLeft(y).ticks(yTicks).tickSize(-innerWidth).tickFormat(() => ''));
  }

  function drawAll() {
    drawAxes();
    for (const name of groups.keys()) drawLayer(name, true);
    drawHandle();
  }

  // The draggable handle of a vertical rule: a knob on top of the plot area.
  let handleSpec = null;
  function drawHandle() {
    const data = handleSpec && Number.isFinite(handleSpec.x) ? [handleSpec] : [];
    const knob = handles.selectAll('g.knob').data(data).join((enter) => {
      const g = enter.append('g').attr('class', 'knob');
      g.append('rect').attr('class', 'knob-hit').attr('x', -12).attr('width', 24);
      g.append('circle').attr('class', 'knob-dot').attr('r', 7);
      return g;
    });
    const innerHeight = height - MARGIN.top - MARGIN.bottom;
    knob.attr('transform', (d) => `translate(${x(d.x)},0)`);
    knob.select('rect').attr('y', 0).attr('height', innerHeight);
    knob.select('circle').attr('cy', 0);
  }

  function pointerToX(event) {
    const box = overlay.node().getBoundingClientRect();
    const px = event.clientX - box.left;
    return x.invert(Math.max(0, Math.min(box.width, px)));
  }

  function enableDrag(onDrag) {
    dragHandler = onDrag;
    overlay.classed('draggable', true);
    figure.classed('plot-draggable', true);
    const start = (event) => {
      if (!dragHandler) return;
      event.preventDefault();
      const target = event.currentTarget; // null once the event is dispatched
      target.setPointerCapture?.(event.pointerId);
      // A finger landing on the plot may be starting to scroll the page: it
      // moves the query once it moves sideways (an up-and-down swipe is the
      // browser's, which cancels the pointer) or lifts where it landed (a tap).
      const finger = event.pointerType === 'touch';
      let moved = !finger;
      if (!finger) dragHandler(pointerToX(event));
      const move = (moveEvent) => {
        const sideways = Math.abs(moveEvent.clientX - event.clientX) > Math.abs(moveEvent.clientY - event.clientY);
        if (!moved && !sideways) return; // perhaps a scroll the browser has not claimed yet
        moved = true;
        dragHandler(pointerToX(moveEvent));
      };
      const end = (endEvent) => {
        for (const [type, listener] of listeners) target.removeEventListener(type, listener);
        if (!moved && endEvent.type === 'pointerup') dragHandler(pointerToX(endEvent));
        figure.classed('dragging', false);
      };
      const listeners = [['pointermove', move], ['pointerup', end], ['pointercancel', end]];
      figure.classed('dragging', true);
      for (const [type, listener] of listeners) target.addEventListener(type, listener);
    };
    overlay.on('pointerdown', start);
    handles.on('pointerdown', start);
  }

  observeWidth(container, () => {
    if (layout()) drawAll();
  });
  layout();
  drawAll();
  attachFigureExport(figure.node(), {
    svg: svg.node(),
    table: () => plotTable(specs, csv),
    asVector: (make) => {
      const wasVector = vector;
      drawVector(true);
      try {
        return make();
      } finally {
        drawVector(wasVector);
      }
    },
  });

  return {
    element: figure.node(),
    svg: svg.node(),
    x,
    y,
    set(name, spec) {
      if (!groups.has(name)) throw new Error(`${name}: no such layer`);
      if (spec === null) specs.delete(name);
      else specs.set(name, spec);
      drawLayer(name);
    },
    setHandle(spec) {
      handleSpec = spec;
      drawHandle();
    },
    /** @param {{ x?: number[], y?: number[] }} domains either or both: the other axis keeps its domain */
    setDomains({ x: xNext, y: yNext }) {
      const same = (scale, next) => !next || (scale.domain()[0] === next[0] && scale.domain()[1] === next[1]);
      if (same(x, xNext) && same(y, yNext)) return; // redrawing every layer is not free
      if (xNext) x.domain(xNext);
      if (yNext) y.domain(yNext);
      drawAll();
    },
    enableDrag,
  };
}
