// The attention weights. The n_test x n_train heatmap reads out
// query, key and weight under the pointer; a query dragged along x shows its
// row of weights on the training points and its prediction as the weighted
// sum, with the live numbers in the formula.
import { max } from 'd3-array';
import { scaleLinear, scaleSqrt } from 'd3-scale';
import { createHeatmap } from '../../figures/heatmap.js';
import { createLinePlot } from '../../figures/line-plot.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber, texNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import {
  setup, curveQueries, testQueries, estimatorFigures, predict, effectiveKernel, dataYDomain,
  DATASET_INPUTS, ESTIMATOR_INPUTS,
} from '../shared/kernel-regression.js';
import { poolingSnippet } from '../shared/kernel-regression-pytorch.js';
import { HEATMAP_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const TERMS_SHOWN = 3;

function create({ frame, store, controls }) {
  const settings = element('p', { className: 'settings-echo', dataset: { role: 'settings' } });

  let current = null; // what the hover read-out needs: the data set and the weights shown
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'heatmap-readout' } });
  const heatmapBody = figureCell(frame.figures, { captionKey: 'heatmap.caption', className: 'cell-heatmap' });
  const heatmap = createHeatmap(heatmapBody, {
    labels: { x: 'heatmap.axisX', y: 'heatmap.axisY' },
    colorLabelKey: 'heatmap.colorbar',
    ariaKey: 'heatmap.label',
    onHover: (cell) => {
      if (!cell || !current) {
        readout.textContent = t('heatmap.hoverHint');
        return;
      }
      const params = {
        query: formatNumber(testQueries[cell.row], '.2f'),
        index: cell.col + 1,
        key: formatNumber(current.data.x[cell.col], '.3f'),
        weight: formatNumber(cell.value, '.4~g'),
      };
      readout.textContent = t(Number.isNaN(cell.value) ? 'heatmap.readoutUndefined' : 'heatmap.readout', params);
    },
  });
  heatmap.element.dataset.figure = 'pooling-heatmap';
  heatmapBody.append(readout);
  const rowOf = scaleLinear().domain([0, setup.xMax]).range([0, testQueries.length]);

  const queryBody = figureCell(frame.figures, { captionKey: 'heatmap.queryCaption', className: 'cell-query' });
  queryBody.append(controls.numberControl('query', { labelKey: 'heatmap.query', hintKey: 'heatmap.queryHint' }), settings);
  const queryPlot = createLinePlot(queryBody, {
    xDomain: [0, setup.xMax], yDomain: setup.plotY, layers: ['truth', 'prediction', 'rule', 'points', 'answer'],
    labels: { y: 'axis.y' }, ariaKey: 'heatmap.queryLabel', aspect: 0.5, minHeight: 200, maxHeight: 300,
    legend: [
      { key: 'legend.prediction', className: 'prediction', kind: 'line' },
      { key: 'legend.weightedPoints', className: 'weighted-points', kind: 'point' },
      { key: 'legend.query', className: 'query', kind: 'line' },
    ],
  });
  queryPlot.element.dataset.figure = 'query';
  const weightPlot = createLinePlot(queryBody, {
    xDomain: [0, setup.xMax], yDomain: [0, 1], layers: ['rule', 'stems', 'exercise'],
    labels: { x: 'axis.x', y: 'axis.weight' }, ariaKey: 'heatmap.weightsLabel',
    aspect: 0.22, minHeight: 110, maxHeight: 150, yTicks: 3,
  });
  weightPlot.element.dataset.figure = 'weights';
  const formula = createFormula(queryBody);
  formula.element.dataset.role = 'query-formula';
  note(queryBody, { key: 'heatmap.formulaNote', className: 'note note-muted' });
  const queryNote = note(queryBody, { className: 'note note-warning' });
  queryNote.hidden = true;
  const dragTo = (x) => store.set({ query: x });
  queryPlot.enableDrag(dragTo);
  weightPlot.enableDrag(dragTo);

  function drawFormula(query, data, row) {
    if (Number.isNaN(row.weights[0])) {
      formula.set(`f(${texNumber(query, '.2f')}) = \\sum_i \\alpha(x, x_i)\\,y_i,\\quad \\alpha = \\tfrac{0}{0}`);
      queryNote.hidden = false;
      queryNote.textContent = t('heatmap.noWeights');
      return;
    }
    queryNote.hidden = true;
    // The terms of the weighted sum with the largest weights (ties keep key
    // order: the sort is stable), picked (not computed) from the core's weights.
    // Keys outside a compact kernel have weight 0: they are no terms of the sum.
    const order = Array.from(row.weights.keys()).filter((i) => row.weights[i] > 0)
      .sort((a, b) => row.weights[b] - row.weights[a]);
    const terms = order.slice(0, TERMS_SHOWN)
      .map((i) => `${texNumber(row.weights[i])} \\cdot ${texNumber(data.y[i], '.2f')}`);
    const more = order.length > TERMS_SHOWN ? ' + \\cdots' : '';
    formula.set(`\\begin{aligned} f(${texNumber(query, '.2f')}) &= ${terms.join(' + ')}${more} \\\\ &= \\mathbf{${texNumber(row.prediction)}} \\end{aligned}`);
  }

  return {
    heatmap, readout, settings, queryPlot, weightPlot, rowOf, formula,
    drawFormula,
    setCurrent: (value) => {
      current = value;
    },
  };
}

function compute(core, inputs) {
  const figures = estimatorFigures(core, inputs);
  const { data } = figures;
  return {
    ...figures,
    // The dragged query's row of weights and its prediction.
    row: {
      weights: core.attentionWeights([inputs.query], data.x, { kernel: effectiveKernel(inputs), w: inputs.w }),
      prediction: predict(core, [inputs.query], data, inputs)[0],
    },
  };
}

function draw(view, { data, truthCurve, prediction, weights, row }, inputs, changed) {
  const { heatmap, readout, queryPlot, weightPlot } = view;
  // Average pooling has no kernel choice and no width: naming them would
  // describe settings that do not enter the weights.
  view.settings.textContent = inputs.estimator === 'average'
    ? t('heatmap.settingsAverage', { n: inputs.n })
    : t('heatmap.settings', {
      estimator: t(`estimator.${inputs.estimator}`),
      kernel: t(`kernel.${inputs.kernel}`),
      w: formatNumber(inputs.w, '.3~f'),
    });
  view.setCurrent({ data });
  heatmap.setMatrix({ values: weights, rows: testQueries.length, cols: data.x.length, rowValues: testQueries, colValues: data.x });
  if (!readout.textContent || changed.has('language')) readout.textContent = t('heatmap.hoverHint');
  heatmap.setRowMarker(view.rowOf(inputs.query));

  queryPlot.setDomains({ y: dataYDomain(data) });
  queryPlot.set('truth', { kind: 'line', xs: curveQueries, ys: truthCurve, className: 'truth faint' });
  queryPlot.set('prediction', { kind: 'line', xs: curveQueries, ys: prediction, className: 'prediction' });
  const rule = { kind: 'rule', x: inputs.query, className: 'query-rule' };
  queryPlot.set('rule', rule);
  weightPlot.set('rule', rule);
  queryPlot.setHandle({ x: inputs.query });
  weightPlot.setHandle({ x: inputs.query });
  const top = max(/** @type {Float64Array} */ (row.weights)) || 1; // NaN rows have no maximum
  const radius = scaleSqrt().domain([0, top]).range([1.2, inputs.n > 300 ? 6 : 10]);
  queryPlot.set('points', {
    kind: 'points', xs: data.x, ys: data.y, className: 'point weighted',
    r: (i) => (Number.isNaN(row.weights[i]) ? 1.2 : radius(row.weights[i])),
  });
  queryPlot.set('answer', { kind: 'dots', xs: [inputs.query], ys: [row.prediction], className: 'answer', r: 6 });
  // A nice top (0.05, 0.1, ...) changes seldom while dragging: fewer full redraws.
  weightPlot.setDomains({ y: scaleLinear().domain([0, top]).nice(4).domain() });
  weightPlot.set('stems', { kind: 'stems', xs: data.x, ys: row.weights, className: 'stem' });
  view.drawFormula(inputs.query, data, row);
  // The core's prediction in full precision, for comparison with the book.
  view.formula.element.dataset.prediction = String(row.prediction);
}

export const heatmapSection = {
  id: 'heatmap',
  order: 40,
  book: {
    en: bookSubsection('attention-pooling', 'attention-pooling-via-nadarayawatson-regression', '11.2.2', 'Attention Pooling via Nadaraya–Watson Regression'),
    zh: bookSubsection('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  // No side panel: the heatmap and the query's figure share the full width.
  frame: { titleKey: 'heatmap.title', leadKeys: ['heatmap.lead'], controls: false },
  inputs: [...DATASET_INPUTS, ...ESTIMATOR_INPUTS, 'query'],
  arguments: { queries: 'query' },
  create,
  compute,
  draw,
  pytorch: poolingSnippet,
  exercises: HEATMAP_EXERCISES,
  teacherNoteKey: 'heatmap.ex.teacherNote',
};
