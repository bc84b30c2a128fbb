// The "why divide by sqrt(d)" panel of the scoring-functions section. For random q and k with
// independent N(0, 1) entries, q.k has variance d: the core's scalingStudy
// samples it for d = 1 ... 512, with and without the 1/sqrt(d) scaling, and
// measures the mean largest softmax weight over m keys, which creeps towards
// 1 (the softmax collapses onto one key) unless the scores are scaled. Each d
// is one core call, run in short tasks (a study queue), so the page never
// freezes while the study fills in.
import { createLinePlot } from '../../figures/line-plot.js';
import { createFormula } from '../../figures/formula.js';
import { createErrorRouter } from '../../section-errors.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note, subsection } from '../shared/frame.js';
import { createStudyProgress, createStudyQueue, createStudyTrigger, queueStudy } from '../shared/study-runner.js';

// d from 1 to 512, one core call per d.
export const SCALING_DIMS = Object.freeze([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512]);
export const SCALING_INPUTS = Object.freeze(['scalingKeys', 'scalingSamples', 'scalingSeed']);
const DIMS = Float64Array.from(SCALING_DIMS);
const ONES = new Float64Array(SCALING_DIMS.length).fill(1);

export function createScalingPanel(parent, { controls, core, alone = false }) {
  const block = subsection(parent, { role: 'scaling-panel', titleKey: 'scaling.title', leadKeys: ['scaling.lead'] });
  const formulas = element('div', { className: 'formula-strip' });
  block.append(formulas);
  createFormula(formulas).set('\\operatorname{Var}(\\mathbf q^\\top \\mathbf k) = \\sum_{i=1}^{d} \\operatorname{Var}(q_i k_i) = d,\\qquad \\operatorname{Var}\\Big(\\frac{\\mathbf q^\\top \\mathbf k}{\\sqrt d}\\Big) = 1');

  const errorSlot = element('p', { className: 'section-error', role: 'alert' });
  errorSlot.hidden = true;
  const progress = createStudyProgress(SCALING_DIMS.length, 'scaling-status');
  block.append(element('div', { className: 'inline-controls' }, [
    controls.numberControl('scalingKeys', { labelKey: 'scaling.keys' }),
    controls.numberControl('scalingSamples', { labelKey: 'scaling.samples' }),
    controls.numberControl('scalingSeed', { labelKey: 'scaling.seed', slider: false }),
    progress.element,
  ]), errorSlot);

  const grid = element('div', { className: 'figure-grid' });
  block.append(grid);
  const variancePlot = createLinePlot(figureCell(grid, { captionKey: 'scaling.varianceCaption' }), {
    xDomain: [1, 512], yDomain: [0.5, 1000], xScale: 'log', yScale: 'log',
    layers: ['theory', 'theoryScaled', 'variance', 'scaledVariance', 'varianceDots', 'scaledDots'],
    labels: { x: 'scaling.axisD', y: 'scaling.axisVariance' }, ariaKey: 'scaling.varianceLabel',
    aspect: 0.62, maxHeight: 300, xTicks: 10, yTicks: 5,
    legend: [
      { key: 'scaling.legendUnscaled', className: 'unscaled', kind: 'line' },
      { key: 'scaling.legendScaled', className: 'scaled', kind: 'line' },
      { key: 'scaling.legendTheory', className: 'theory', kind: 'line' },
    ],
  });
  variancePlot.element.dataset.figure = 'scaling-variance';
  const weightPlot = createLinePlot(figureCell(grid, { captionKey: 'scaling.weightCaption' }), {
    xDomain: [1, 512], yDomain: [0, 1], xScale: 'log',
    layers: ['maxWeight', 'scaledMaxWeight', 'maxDots', 'scaledMaxDots'],
    labels: { x: 'scaling.axisD', y: 'scaling.axisMaxWeight' }, ariaKey: 'scaling.weightLabel',
    aspect: 0.62, maxHeight: 300, xTicks: 10, yTicks: 5,
    legend: [
      { key: 'scaling.legendUnscaled', className: 'unscaled', kind: 'line' },
      { key: 'scaling.legendScaled', className: 'scaled', kind: 'line' },
    ],
  });
  weightPlot.element.dataset.figure = 'scaling-weight';
  note(block, { key: 'scaling.collapseNote', className: 'note note-callout' });

  // The study's numbers, row by row as they arrive.
  const tableBody = element('tbody');
  block.append(element('details', { className: 'epoch-log scaling-log' }, [
    element('summary', { dataset: { i18n: 'scaling.tableTitle' } }),
    element('div', { className: 'log-scroll' }, [element('table', { dataset: { role: 'scaling-table' } }, [
      element('thead', {}, [element('tr', {}, ['scaling.colD', 'scaling.colVariance', 'scaling.colScaledVariance', 'scaling.colMax', 'scaling.colScaledMax']
        .map((key) => element('th', { dataset: { i18n: key } })))]),
      tableBody,
    ])]),
  ]));

  const errors = createErrorRouter({
    controls, slot: errorSlot,
    routes: { arguments: { keys: 'scalingKeys', samples: 'scalingSamples', seed: 'scalingSeed' } },
  });
  const queue = createStudyQueue();
  let study = null; // { key, rows: [row | undefined per d], done }

  function drawStudy() {
    const rows = study.rows;
    const column = (name) => Float64Array.from(rows, (row) => (row ? row[name] : NaN));
    const variance = column('variance');
    const scaledVariance = column('scaledVariance');
    const maxWeight = column('maxWeight');
    const scaledMaxWeight = column('scaledMaxWeight');
    variancePlot.set('variance', { kind: 'line', xs: DIMS, ys: variance, className: 'unscaled' });
    variancePlot.set('scaledVariance', { kind: 'line', xs: DIMS, ys: scaledVariance, className: 'scaled' });
    variancePlot.set('varianceDots', { kind: 'dots', xs: DIMS, ys: variance, className: 'unscaled-dot', r: 3 });
    variancePlot.set('scaledDots', { kind: 'dots', xs: DIMS, ys: scaledVariance, className: 'scaled-dot', r: 3 });
    weightPlot.set('maxWeight', { kind: 'line', xs: DIMS, ys: maxWeight, className: 'unscaled' });
    weightPlot.set('scaledMaxWeight', { kind: 'line', xs: DIMS, ys: scaledMaxWeight, className: 'scaled' });
    weightPlot.set('maxDots', { kind: 'dots', xs: DIMS, ys: maxWeight, className: 'unscaled-dot', r: 3 });
    weightPlot.set('scaledMaxDots', { kind: 'dots', xs: DIMS, ys: scaledMaxWeight, className: 'scaled-dot', r: 3 });
    const done = rows.filter(Boolean).length;
    progress.show(done, done === rows.length
      ? t('scaling.done', { count: rows.length })
      : t('scaling.running', { done, count: rows.length }));
    tableBody.replaceChildren(...rows.map((row, i) => element('tr', row ? {
      dataset: { d: SCALING_DIMS[i], variance: String(row.variance), scaledVariance: String(row.scaledVariance), maxWeight: String(row.maxWeight), scaledMaxWeight: String(row.scaledMaxWeight) },
    } : {}, [
      element('td', {}, [String(SCALING_DIMS[i])]),
      ...['variance', 'scaledVariance', 'maxWeight', 'scaledMaxWeight'].map((name) => element('td', {}, [row ? formatNumber(row[name], '.4~f') : '…'])),
    ])));
  }

  // The theory lines are the axes' own values: Var = d (the diagonal) and Var = 1.
  variancePlot.set('theory', { kind: 'line', xs: DIMS, ys: DIMS, className: 'theory' });
  variancePlot.set('theoryScaled', { kind: 'line', xs: DIMS, ys: ONES, className: 'theory' });

  function start(inputs) {
    const { scalingKeys: keys, scalingSamples: samples, scalingSeed: seed } = inputs;
    const key = SCALING_INPUTS.map((name) => inputs[name]).join('|');
    if (study && study.key === key) {
      drawStudy(); // the language changed: re-label the status
      return;
    }
    errors.clear();
    const current = { key, rows: SCALING_DIMS.map(() => undefined) };
    study = current;
    drawStudy();
    queueStudy(queue, SCALING_DIMS, {
      measure: (d) => errors.run(() => core.scalingStudy({ dims: [d], samples, keys, seed })[0]),
      found(i, row) {
        current.rows[i] = row;
        drawStudy();
      },
      current: () => study === current,
    });
  }

  // The study is the heaviest computation of the page (a few hundred ms, over
  // several tasks): it starts when the panel comes near the screen.
  return {
    update: createStudyTrigger(block, SCALING_INPUTS, start, { eager: alone }),
    // The section is going away: no study work stays queued.
    dispose: () => queue.clear(),
    // The core's row for d, if the study for these inputs has reached it
    // (read-only, for an exercise: it spares asking the core again).
    rowAt(d, inputs) {
      const i = SCALING_DIMS.indexOf(d);
      const key = SCALING_INPUTS.map((name) => inputs[name]).join('|');
      return study && study.key === key && i >= 0 ? study.rows[i] ?? null : null;
    },
  };
}
