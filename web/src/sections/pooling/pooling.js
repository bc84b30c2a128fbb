// Average pooling against Nadaraya-Watson, with five kernels and
// a width slider. Truth, prediction and points share one plot (x in [0, 5],
// y in [-1, 5] like the book unless the points reach beyond); the kernel's
// shape is drawn beside it. Below, the consistency study (pooling/consistency-panel.js),
// then the exercises (pooling/exercises.js).
import { max } from 'd3-array';
import { KERNELS } from '../../state.js';
import { createLinePlot } from '../../figures/line-plot.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { texNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { kernelTex, averageTex, averageWeightTex, nadarayaWatsonTex, weightTex, undefinedRows } from './kernel-formulas.js';
import {
  setup, curveQueries, testQueries, estimatorFigures, kernelShape, effectiveKernel, dataYDomain,
  DATASET_INPUTS, ESTIMATOR_INPUTS,
} from '../shared/kernel-regression.js';
import { poolingSnippet } from '../shared/kernel-regression-pytorch.js';
import { createConsistencyPanel } from './consistency-panel.js';
import { POOLING_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const KERNEL_KEYS = Object.fromEntries(KERNELS.map((kernel) => [kernel, `kernel.${kernel}`]));

function create({ frame, store, controls, core, alone }) {
  const panel = frame.controlsPanel;
  const kernelControl = controls.choiceControl('kernel', { labelKey: 'pooling.kernel', optionKeys: KERNEL_KEYS });
  const widthControl = controls.numberControl('w', { labelKey: 'pooling.w', hintKey: 'pooling.wHint' });
  const presets = element('div', { className: 'presets' }, [
    element('span', { className: 'presets-label', dataset: { i18n: 'pooling.bookWidths' } }),
    ...setup.bookWidths.map((sigma, i) => {
      const button = element('button', { type: 'button', className: 'chip', dataset: { w: setup.bookWidthW[i] } }, [`σ = ${sigma}`]);
      button.addEventListener('click', () => store.set({ w: setup.bookWidthW[i] }));
      return button;
    }),
  ]);
  panel.append(
    controls.choiceControl('estimator', {
      labelKey: 'pooling.estimator',
      optionKeys: { average: 'estimator.average', 'nadaraya-watson': 'estimator.nadaraya-watson' },
    }),
    kernelControl,
    widthControl,
    presets,
  );
  const kernelNote = note(panel, { className: 'note note-muted' });

  const shapeBody = figureCell(panel, { captionKey: 'pooling.shapeCaption', className: 'cell-small' });
  const shapePlot = createLinePlot(shapeBody, {
    xDomain: [-3, 3], yDomain: [0, 1], layers: ['shape'], labels: { x: 'axis.d' },
    aspect: 0.45, minHeight: 130, maxHeight: 170, yTicks: 0, xTicks: 7, ariaKey: 'pooling.shapeLabel',
  });
  shapePlot.element.dataset.figure = 'kernel-shape';

  const plot = createLinePlot(figureCell(frame.figures, { captionKey: 'pooling.caption', className: 'cell-wide' }), {
    xDomain: [0, setup.xMax],
    yDomain: setup.plotY,
    // exercise: where an exercise points (the query it asks about).
    layers: ['truth', 'points', 'prediction', 'exercise'],
    labels: { x: 'axis.x', y: 'axis.y' },
    ariaKey: 'pooling.plotLabel',
    legend: [
      { key: 'legend.truth', className: 'truth', kind: 'line' },
      { key: 'legend.prediction', className: 'prediction', kind: 'line' },
      { key: 'legend.points', className: 'points', kind: 'point' },
    ],
  });
  plot.element.dataset.figure = 'pooling';
  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  const nanNote = note(frame.figures, { className: 'note note-warning' });
  nanNote.dataset.role = 'nan-note';
  nanNote.hidden = true;
  const consistency = createConsistencyPanel(frame.figures, { controls, core, alone });
  return {
    disabledUnderAverage: [kernelControl, widthControl, presets],
    kernelNote, shapePlot, plot, nanNote, consistency,
    dispose: () => consistency.dispose(),
    formula: createFormula(formulas),
    weightFormula: createFormula(formulas),
    kernelFormula: createFormula(formulas),
    distanceFormula: createFormula(formulas),
  };
}

const compute = (core, inputs) =>
  ({ ...estimatorFigures(core, inputs), shape: kernelShape(core, effectiveKernel(inputs)) });

function draw(view, { data, truthCurve, prediction, weights, shape }, inputs, changed) {
  const average = inputs.estimator === 'average';
  for (const node of view.disabledUnderAverage) node.classList.toggle('is-disabled', average);
  view.formula.set(average ? averageTex : nadarayaWatsonTex);
  view.weightFormula.set(average ? averageWeightTex : weightTex);
  view.kernelFormula.set(kernelTex[effectiveKernel(inputs)]);
  view.distanceFormula.set(`d = (x - x_i)\\,w,\\quad w = ${texNumber(inputs.w, '.3~f')}`);
  for (const part of [view.kernelFormula, view.distanceFormula]) part.element.hidden = average;
  view.kernelNote.textContent = average ? t('pooling.averageNote') : t(`kernel.${inputs.kernel}.note`);

  view.plot.setDomains({ y: dataYDomain(data) });
  view.plot.set('truth', { kind: 'line', xs: curveQueries, ys: truthCurve, className: 'truth' });
  view.plot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: inputs.n > 300 ? 2 : 3.5, className: 'point' });
  view.plot.set('prediction', { kind: 'line', xs: curveQueries, ys: prediction, className: 'prediction' });
  view.shapePlot.setDomains({ y: [0, max(shape.weights) || 1] });
  view.shapePlot.set('shape', { kind: 'line', xs: shape.distances, ys: shape.weights, className: 'kernel-shape' });
  const missing = undefinedRows(weights, data.x.length);
  view.nanNote.hidden = missing === 0;
  view.nanNote.textContent = missing === 0 ? ''
    : t(missing === 1 ? 'pooling.nanNoteOne' : 'pooling.nanNote', { count: missing, total: testQueries.length });
  view.consistency.update(inputs, changed);
}

export const poolingSection = {
  id: 'pooling',
  order: 30,
  book: {
    en: bookSubsection('attention-pooling', 'attention-pooling-via-nadarayawatson-regression', '11.2.2', 'Attention Pooling via Nadaraya–Watson Regression'),
    zh: bookSubsection('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  frame: { titleKey: 'pooling.title', leadKeys: ['pooling.lead1', 'pooling.lead2'] },
  inputs: [...DATASET_INPUTS, ...ESTIMATOR_INPUTS],
  create,
  compute,
  draw,
  exercises: POOLING_EXERCISES,
  teacherNoteKey: 'pooling.ex.teacherNote',
  pytorch: poolingSnippet,
};
