// The course notes' way into self-attention: a noisy series, each point
// replaced by an average of all the points weighted by how close they are in
// time. Every point is a query, and all the points are the keys and values:
// self-attention over one sequence, and Nadaraya–Watson with the queries
// being the keys themselves (the core's nadarayaWatson and attentionWeights
// with queries = keys). The width w is the only knob; nothing is learned.
//
// Beside it, the notes' own recipe, w_ij = softmax_j(x_i x_j): the dot product
// of the values, which for a scalar series makes every point attend to the
// largest (or, below zero, the smallest) values rather than to its
// neighbours; and its repair within the same recipe, the dot product of the
// points' positional encodings, which compares positions. Both from the
// core's scaled dot-product attention (d = 1 for the values).
import { createLinePlot } from '../../figures/line-plot.js';
import { createHeatmap } from '../../figures/heatmap.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note, subsection } from '../shared/frame.js';
import { setup, curveQueries, dataYDomain } from '../shared/kernel-regression.js';

export const SERIES_INPUTS = Object.freeze(['seriesPoints', 'seriesNoise', 'seriesSeed', 'seriesWidth', 'seriesWeights']);
// The positional encodings compared: d2l's sinusoids of this many dimensions.
// Scaled by sqrt(d) as d2l scales its dot products, their softmax sharpens as d
// grows (its largest score is sqrt(d) / 2): with 512 the band is about as
// narrow as the Gaussian kernel's at the default width (squared error against
// the noiseless curve 0.30 at 40 points, the kernel's 0.27, the noisy points' 0.52).
export const SERIES_ENCODING_DIM = 512;
const WEIGHT_KEYS = { time: 'series.weights.time', values: 'series.weights.values', positions: 'series.weights.positions' };
// The core's arguments, named as the panel's parameters, for the error router.
export const SERIES_ARGUMENTS = Object.freeze({ n: 'seriesPoints', noise: 'seriesNoise', w: 'seriesWidth' });

const TEX = 'y_i = \\sum_{j=1}^{n} \\operatorname{softmax}_j\\!\\Big(-\\tfrac12\\big((t_i - t_j)\\,w\\big)^2\\Big)\\, x_j';
const NOTES_TEX = 'y_i = \\sum_{j=1}^{n} \\operatorname{softmax}_j\\big(x_i\\, x_j\\big)\\, x_j';
const POSITIONS_TEX = 'y_i = \\sum_{j=1}^{n} \\operatorname{softmax}_j\\big(\\mathbf p_i^\\top \\mathbf p_j / \\sqrt{d}\\big)\\, x_j';

export function createSeriesPanel(parent, { controls }) {
  const block = subsection(parent, { role: 'series-panel', titleKey: 'series.title', leadKeys: ['series.lead1', 'series.lead2'] });
  const formulas = element('div', { className: 'formula-strip' });
  block.append(formulas);
  createFormula(formulas).set(TEX);
  createFormula(formulas).set(NOTES_TEX);
  createFormula(formulas).set(POSITIONS_TEX);
  block.append(element('div', { className: 'inline-controls' }, [
    controls.numberControl('seriesWidth', { labelKey: 'series.width' }),
    controls.numberControl('seriesPoints', { labelKey: 'series.points' }),
    controls.numberControl('seriesNoise', { labelKey: 'series.noise' }),
    controls.numberControl('seriesSeed', { labelKey: 'series.seed', slider: false }),
    controls.choiceControl('seriesWeights', { labelKey: 'series.weights', optionKeys: WEIGHT_KEYS }),
  ]));

  const grid = element('div', { className: 'figure-grid' });
  block.append(grid);
  const plot = createLinePlot(figureCell(grid, { captionKey: 'series.plotCaption' }), {
    xDomain: [0, setup.xMax],
    yDomain: setup.plotY,
    layers: ['truth', 'points', 'byValues', 'byPositions', 'smoothed', 'smoothedDots', 'exercise'],
    labels: { x: 'series.axisTime', y: 'series.axisValue' },
    ariaKey: 'series.plotLabel',
    aspect: 0.62, maxHeight: 320,
    csv: { layers: ['points', 'smoothedDots'], columns: ['t', 'value'] },
    legend: [
      { key: 'series.legendNoisy', className: 'points', kind: 'point' },
      { key: 'series.legendSmoothed', className: 'prediction', kind: 'line' },
      { key: 'series.legendByValues', className: 'by-values', kind: 'line', layer: 'byValues' },
      { key: 'series.legendByPositions', className: 'by-positions', kind: 'line' },
      { key: 'legend.truth', className: 'truth', kind: 'line' },
    ],
  });
  plot.element.dataset.figure = 'series';

  const heatmapBody = figureCell(grid, { captionKey: 'series.weightsCaption' });
  const weightsTitle = element('p', { className: 'readout', dataset: { role: 'series-weights-title' } });
  heatmapBody.append(weightsTitle);
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'series-readout' } });
  let shown = null; // the points last drawn, for the read-out
  const heatmap = createHeatmap(heatmapBody, {
    labels: { x: 'series.axisKeys', y: 'series.axisQueries' },
    colorLabelKey: 'heatmap.colorbar',
    ariaKey: 'series.weightsLabel',
    aspect: 0.85,
    maxHeight: 320,
    onHover: (cell) => {
      readout.textContent = cell && shown
        ? t('series.readout', {
          query: cell.row + 1, key: cell.col + 1, queryTime: formatNumber(shown.x[cell.row], '.2f'),
          keyTime: formatNumber(shown.x[cell.col], '.2f'), weight: formatNumber(cell.value, '.4f'),
        })
        : t('series.hoverHint');
    },
  });
  heatmap.element.dataset.figure = 'series-weights';
  heatmapBody.append(readout);
  // Why the notes' dot product fails on a scalar series, and what repairs it.
  note(block, { key: 'series.notesNote', className: 'note note-callout' }).dataset.role = 'series-notes-note';

  return {
    // The point an exercise asks about: a dotted rule at its time (null: none).
    mark(time) {
      plot.set('exercise', Number.isFinite(time) ? { kind: 'rule', x: time, className: 'exercise-rule' } : null);
    },
    draw({ data, truthCurve, smoothed, weights, byValues, byPositions }, { seriesPoints: n, seriesWeights: shownWeights }, changed) {
      shown = data;
      plot.setDomains({ y: dataYDomain(data) });
      plot.set('truth', { kind: 'line', xs: curveQueries, ys: truthCurve, className: 'truth faint' });
      plot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: n > 150 ? 2 : 3, className: 'point' });
      plot.set('smoothed', { kind: 'line', xs: data.x, ys: smoothed, className: 'prediction' });
      plot.set('smoothedDots', { kind: 'dots', xs: data.x, ys: smoothed, r: n > 150 ? 1.5 : 2.5, className: 'prediction-dot' });
      plot.set('byValues', { kind: 'line', xs: data.x, ys: byValues.output, className: 'by-values' });
      plot.set('byPositions', { kind: 'line', xs: data.x, ys: byPositions.output, className: 'by-positions' });
      const values = { time: weights, values: byValues.weights, positions: byPositions.weights }[shownWeights];
      heatmap.setMatrix({ values, rows: n, cols: n, rowValues: data.x, colValues: data.x });
      heatmap.element.dataset.weights = shownWeights;
      weightsTitle.textContent = t(WEIGHT_KEYS[shownWeights]);
      if (!readout.textContent || changed.has('language')) readout.textContent = t('series.hoverHint');
    },
  };
}

// The series is the toy data set of the data section, read as a time series
// (sorted times on [0, 5), irregularly spaced); every number from the core.
export const seriesDataset = (core, { seriesPoints: n, seriesNoise: noise, seriesSeed: seed }) =>
  core.makeDataset({ n, noise, seed, xMax: setup.xMax });

// The series attending to itself, the values of its points averaged, with
// the scores the dot products of `vectors` (one of size d per point).
const seriesSelfAttention = (core, data, vectors, d) => core.dotProductAttention({
  queries: vectors, keys: vectors, values: data.y, shape: { batch: 1, nq: data.y.length, nk: data.y.length, d, dv: 1 }, validLens: null,
});

// The notes' weights: the values' own dot products (d = 1, so no scaling).
export const valuesSelfAttention = (core, data) => seriesSelfAttention(core, data, data.y, 1);

export function computeSeries(core, inputs) {
  const { seriesPoints: n, seriesWidth: w } = inputs;
  const data = seriesDataset(core, inputs);
  return {
    data,
    truthCurve: core.truth(curveQueries),
    smoothed: core.nadarayaWatson(data.x, data.x, data.y, { kernel: 'gaussian', w }),
    weights: core.attentionWeights(data.x, data.x, { kernel: 'gaussian', w }),
    byValues: valuesSelfAttention(core, data),
    // The points' positions (their index in time order) encoded as d2l does.
    byPositions: seriesSelfAttention(core, data, core.positionalEncoding(n, SERIES_ENCODING_DIM), SERIES_ENCODING_DIM),
  };
}
