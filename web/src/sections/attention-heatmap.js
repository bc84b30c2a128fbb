// Section 4: the attention weights. The n_test x n_train heatmap reads out
// query, key and weight under the pointer; a query dragged along x shows its
// row of weights on the training points and its prediction as the weighted
// sum, with the live numbers in the formula.
import { max } from 'd3-array';
import { scaleLinear, scaleSqrt } from 'd3-scale';
import { setup } from '../state.js';
import { curveQueries, testQueries } from '../computations.js';
import { createHeatmap } from '../figures/heatmap.js';
import { createLinePlot } from '../figures/line-plot.js';
import { createFormula } from '../figures/formula.js';
import { createErrorScope } from '../errors.js';
import { element } from '../controls.js';
import { t } from '../i18n/index.js';
import { formatNumber, texNumber } from '../format.js';
import { createSectionFrame, figureCell, note } from './frame.js';

const TERMS_SHOWN = 3;

export function createAttentionHeatmapSection({ root, store, controls }) {
  const frame = createSectionFrame(root, { titleKey: 'heatmap.title', leadKeys: ['heatmap.lead'] });
  // No side panel: the heatmap and the query's figure share the full width.
  frame.root.classList.add('section-no-controls');
  frame.controlsPanel.remove();
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
    xDomain: [0, setup.xMax], yDomain: [0, 1], layers: ['rule', 'stems'],
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

  const errors = createErrorScope(controls, frame.errorSlot);
  const poolingArguments = { n: 'n', noise: 'noise', seed: 'seed', w: 'w', kernel: 'kernel', queries: 'query' };
  const watched = ['n', 'noise', 'seed', 'estimator', 'kernel', 'w', 'query', 'language'];

  function drawFormula(state, data, row) {
    if (Number.isNaN(row.weights[0])) {
      formula.set(`f(${texNumber(state.query, '.2f')}) = \\sum_i \\alpha(x, x_i)\\,y_i,\\quad \\alpha = \\tfrac{0}{0}`);
      queryNote.hidden = false;
      queryNote.textContent = t('heatmap.noWeights');
      return;
    }
    queryNote.hidden = true;
    // The largest terms of the weighted sum, picked (not computed) from the core's weights.
    // Keys outside a compact kernel have weight 0: they are no terms of the sum.
    const order = Array.from(row.weights.keys()).filter((i) => row.weights[i] > 0)
      .sort((a, b) => row.weights[b] - row.weights[a]);
    const terms = order.slice(0, TERMS_SHOWN)
      .map((i) => `${texNumber(row.weights[i])} \\cdot ${texNumber(data.y[i], '.2f')}`);
    const more = order.length > TERMS_SHOWN ? ' + \\cdots' : '';
    formula.set(`\\begin{aligned} f(${texNumber(state.query, '.2f')}) &= ${terms.join(' + ')}${more} \\\\ &= \\mathbf{${texNumber(row.prediction)}} \\end{aligned}`);
  }

  return {
    update(state, changed, lab) {
      if (!watched.some((name) => changed.has(name))) return;
      settings.textContent = t('heatmap.settings', {
        estimator: t(`estimator.${state.estimator}`),
        kernel: t(`kernel.${lab.effectiveKernel(state)}`),
        w: formatNumber(state.w, '.3~f'),
      });
      errors.clear();
      const data = errors.run(() => lab.dataset(state), poolingArguments);
      if (!data) return;
      const truth = errors.run(() => lab.truth());
      const prediction = errors.run(() => lab.poolingCurve(state), poolingArguments);
      const weights = errors.run(() => lab.poolingWeights(state), poolingArguments);
      const row = errors.run(() => lab.queryRow(state), poolingArguments);

      if (weights) {
        current = { data };
        heatmap.setMatrix({ values: weights, rows: testQueries.length, cols: data.x.length, rowValues: testQueries, colValues: data.x });
        if (!readout.textContent || changed.has('language')) readout.textContent = t('heatmap.hoverHint');
      }
      heatmap.setRowMarker(rowOf(state.query));

      if (truth) queryPlot.set('truth', { kind: 'line', xs: curveQueries, ys: truth, className: 'truth faint' });
      if (prediction) queryPlot.set('prediction', { kind: 'line', xs: curveQueries, ys: prediction, className: 'prediction' });
      const rule = { kind: 'rule', x: state.query, className: 'query-rule' };
      queryPlot.set('rule', rule);
      weightPlot.set('rule', rule);
      queryPlot.setHandle({ x: state.query });
      weightPlot.setHandle({ x: state.query });
      if (!row) return;
      const top = max(row.weights) || 1; // NaN rows have no maximum
      const radius = scaleSqrt().domain([0, top]).range([1.2, state.n > 300 ? 6 : 10]);
      queryPlot.set('points', {
        kind: 'points', xs: data.x, ys: data.y, className: 'point weighted',
        r: (i) => (Number.isNaN(row.weights[i]) ? 1.2 : radius(row.weights[i])),
      });
      queryPlot.set('answer', { kind: 'dots', xs: [state.query], ys: [row.prediction], className: 'answer', r: 6 });
      // A nice top (0.05, 0.1, ...) changes seldom while dragging: fewer full redraws.
      weightPlot.setDomains({ y: scaleLinear().domain([0, top]).nice(4).domain() });
      weightPlot.set('stems', { kind: 'stems', xs: data.x, ys: row.weights, className: 'stem' });
      drawFormula(state, data, row);
      // The core's prediction in full precision, for comparison with the book.
      formula.element.dataset.prediction = String(row.prediction);
    },
  };
}
