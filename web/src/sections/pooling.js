// Section 3: average pooling against Nadaraya-Watson, with five kernels and
// a width slider. Truth, prediction and points share one plot (x in [0, 5],
// y in [-1, 5] like the book); the kernel's shape is drawn beside it.
import { max } from 'd3-array';
import { setup, KERNELS } from '../state.js';
import { curveQueries, testQueries } from '../computations.js';
import { createLinePlot } from '../figures/line-plot.js';
import { createFormula } from '../figures/formula.js';
import { createErrorScope } from '../errors.js';
import { element } from '../controls.js';
import { t } from '../i18n/index.js';
import { texNumber } from '../format.js';
import { createSectionFrame, figureCell, note } from './frame.js';
import { kernelTex, averageTex, averageWeightTex, nadarayaWatsonTex, weightTex, undefinedRows } from './kernel-formulas.js';

const KERNEL_KEYS = Object.fromEntries(KERNELS.map((kernel) => [kernel, `kernel.${kernel}`]));

export function createPoolingSection({ root, store, controls }) {
  const frame = createSectionFrame(root, { titleKey: 'pooling.title', leadKeys: ['pooling.lead1', 'pooling.lead2'] });
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
    layers: ['truth', 'points', 'prediction'],
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
  const formula = createFormula(formulas);
  const weightFormula = createFormula(formulas);
  const kernelFormula = createFormula(formulas);
  const distanceFormula = createFormula(formulas);
  const nanNote = note(frame.figures, { className: 'note note-warning' });
  nanNote.dataset.role = 'nan-note';
  nanNote.hidden = true;

  const errors = createErrorScope(controls, frame.errorSlot);
  const poolingArguments = { n: 'n', noise: 'noise', seed: 'seed', w: 'w', kernel: 'kernel' };
  const watched = ['n', 'noise', 'seed', 'estimator', 'kernel', 'w', 'language'];

  return {
    update(state, changed, lab) {
      if (!watched.some((name) => changed.has(name))) return;
      const average = state.estimator === 'average';
      kernelControl.classList.toggle('is-disabled', average);
      widthControl.classList.toggle('is-disabled', average);
      presets.classList.toggle('is-disabled', average);
      const shown = lab.effectiveKernel(state);
      formula.set(average ? averageTex : nadarayaWatsonTex);
      weightFormula.set(average ? averageWeightTex : weightTex);
      kernelFormula.set(kernelTex[shown]);
      distanceFormula.set(`d = (x - x_i)\\,w,\\quad w = ${texNumber(state.w, '.3~f')}`);
      for (const part of [kernelFormula, distanceFormula]) part.element.hidden = average;
      kernelNote.textContent = average ? t('pooling.averageNote') : t(`kernel.${state.kernel}.note`);

      errors.clear();
      const data = errors.run(() => lab.dataset(state), poolingArguments);
      const truth = errors.run(() => lab.truth());
      const prediction = errors.run(() => lab.poolingCurve(state), poolingArguments);
      const weights = errors.run(() => lab.poolingWeights(state), poolingArguments);
      const shape = errors.run(() => lab.kernelShape(shown), poolingArguments);
      if (truth) plot.set('truth', { kind: 'line', xs: curveQueries, ys: truth, className: 'truth' });
      if (data) plot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: state.n > 300 ? 2 : 3.5, className: 'point' });
      if (prediction) plot.set('prediction', { kind: 'line', xs: curveQueries, ys: prediction, className: 'prediction' });
      if (shape) {
        shapePlot.setDomains({ y: [0, max(shape.weights) || 1] });
        shapePlot.set('shape', { kind: 'line', xs: shape.distances, ys: shape.weights, className: 'kernel-shape' });
      }
      if (data && weights) {
        const missing = undefinedRows(weights, data.x.length);
        nanNote.hidden = missing === 0;
        nanNote.textContent = missing === 0 ? '' : t('pooling.nanNote', { count: missing, total: testQueries.length });
      }
    },
  };
}
