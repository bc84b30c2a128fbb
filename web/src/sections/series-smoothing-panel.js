// The course notes' way into self-attention: a noisy series, each point
// replaced by an average of all the points weighted by how close they are in
// time. Every point is a query, and all the points are the keys and values:
// self-attention over one sequence, and Nadaraya–Watson with the queries
// being the keys themselves (the core's nadarayaWatson and attentionWeights
// with queries = keys). The width w is the only knob; nothing is learned.
import { createLinePlot } from '../figures/line-plot.js';
import { createHeatmap } from '../figures/heatmap.js';
import { createFormula } from '../figures/formula.js';
import { element } from '../dom.js';
import { t } from '../i18n/index.js';
import { formatNumber } from '../format.js';
import { figureCell, subsection } from './frame.js';
import { setup, curveQueries, dataYDomain } from './kernel-regression.js';

export const SERIES_INPUTS = Object.freeze(['seriesPoints', 'seriesNoise', 'seriesSeed', 'seriesWidth']);
// The core's arguments, named as the panel's parameters, for the error router.
export const SERIES_ARGUMENTS = Object.freeze({ n: 'seriesPoints', noise: 'seriesNoise', w: 'seriesWidth' });

const TEX = 'y_i = \\sum_{j=1}^{n} \\operatorname{softmax}_j\\!\\Big(-\\tfrac12\\big((t_i - t_j)\\,w\\big)^2\\Big)\\, x_j';

export function createSeriesPanel(parent, { controls }) {
  const block = subsection(parent, { role: 'series-panel', titleKey: 'series.title', leadKeys: ['series.lead1', 'series.lead2'] });
  const formulas = element('div', { className: 'formula-strip' });
  block.append(formulas);
  createFormula(formulas).set(TEX);
  block.append(element('div', { className: 'inline-controls' }, [
    controls.numberControl('seriesWidth', { labelKey: 'series.width' }),
    controls.numberControl('seriesPoints', { labelKey: 'series.points' }),
    controls.numberControl('seriesNoise', { labelKey: 'series.noise' }),
    controls.numberControl('seriesSeed', { labelKey: 'series.seed', slider: false }),
  ]));

  const grid = element('div', { className: 'figure-grid' });
  block.append(grid);
  const plot = createLinePlot(figureCell(grid, { captionKey: 'series.plotCaption' }), {
    xDomain: [0, setup.xMax],
    yDomain: setup.plotY,
    layers: ['truth', 'points', 'smoothed', 'smoothedDots'],
    labels: { x: 'series.axisTime', y: 'series.axisValue' },
    ariaKey: 'series.plotLabel',
    aspect: 0.62, maxHeight: 320,
    csv: { layers: ['points', 'smoothedDots'], columns: ['t', 'value'] },
    legend: [
      { key: 'series.legendNoisy', className: 'points', kind: 'point' },
      { key: 'series.legendSmoothed', className: 'prediction', kind: 'line' },
      { key: 'legend.truth', className: 'truth', kind: 'line' },
    ],
  });
  plot.element.dataset.figure = 'series';

  const heatmapBody = figureCell(grid, { captionKey: 'series.weightsCaption' });
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

  return {
    draw({ data, truthCurve, smoothed, weights }, { seriesPoints: n }, changed) {
      shown = data;
      plot.setDomains({ y: dataYDomain(data) });
      plot.set('truth', { kind: 'line', xs: curveQueries, ys: truthCurve, className: 'truth faint' });
      plot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: n > 150 ? 2 : 3, className: 'point' });
      plot.set('smoothed', { kind: 'line', xs: data.x, ys: smoothed, className: 'prediction' });
      plot.set('smoothedDots', { kind: 'dots', xs: data.x, ys: smoothed, r: n > 150 ? 1.5 : 2.5, className: 'prediction-dot' });
      heatmap.setMatrix({ values: weights, rows: n, cols: n, rowValues: data.x, colValues: data.x });
      if (!readout.textContent || changed.has('language')) readout.textContent = t('series.hoverHint');
    },
  };
}

// The series is the toy data set of the data section, read as a time series
// (sorted times on [0, 5), irregularly spaced); every number from the core.
export function computeSeries(core, { seriesPoints: n, seriesNoise: noise, seriesSeed: seed, seriesWidth: w }) {
  const data = core.makeDataset({ n, noise, seed, xMax: setup.xMax });
  return {
    data,
    truthCurve: core.truth(curveQueries),
    smoothed: core.nadarayaWatson(data.x, data.x, data.y, { kernel: 'gaussian', w }),
    weights: core.attentionWeights(data.x, data.x, { kernel: 'gaussian', w }),
  };
}
