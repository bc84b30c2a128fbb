// Section 2: the toy data set. n, noise and seed go to the core's seeded
// generator; the same seed always gives the same picture.
import { setup, parameters } from '../state.js';
import { curveQueries } from '../computations.js';
import { createLinePlot } from '../figures/line-plot.js';
import { createFormula } from '../figures/formula.js';
import { createErrorScope } from '../errors.js';
import { texNumber } from '../format.js';
import { createSectionFrame, figureCell } from './frame.js';

export function createDataSection({ root, store, controls }) {
  const frame = createSectionFrame(root, { titleKey: 'data.title', leadKeys: ['data.lead'] });
  const newSample = controls.button({
    labelKey: 'data.newSample',
    action: 'new-sample',
    onClick: () => {
      const { seed } = store.get();
      store.set({ seed: seed >= parameters.seed.max ? 0 : seed + 1 });
    },
  });
  frame.controlsPanel.append(
    controls.numberControl('n', { labelKey: 'data.n' }),
    controls.numberControl('noise', { labelKey: 'data.noise' }),
    controls.numberControl('seed', { labelKey: 'data.seed', slider: false }),
    newSample,
  );

  const plot = createLinePlot(figureCell(frame.figures, { captionKey: 'data.caption', className: 'cell-wide' }), {
    xDomain: [0, setup.xMax],
    yDomain: setup.plotY,
    layers: ['truth', 'points'],
    labels: { x: 'axis.x', y: 'axis.y' },
    ariaKey: 'data.plotLabel',
    csv: { layers: ['points'], columns: ['x', 'y'] }, // the data set itself
    legend: [
      { key: 'legend.truth', className: 'truth', kind: 'line' },
      { key: 'legend.points', className: 'points', kind: 'point' },
    ],
  });
  plot.element.dataset.figure = 'data';
  const formulaStrip = document.createElement('div');
  formulaStrip.className = 'formula-strip';
  frame.figures.append(formulaStrip);
  const formula = createFormula(formulaStrip);

  const errors = createErrorScope(controls, frame.errorSlot);
  const dataArguments = { n: 'n', noise: 'noise', seed: 'seed' };

  return {
    update(state, changed, lab) {
      if (!['n', 'noise', 'seed', 'language'].some((name) => changed.has(name))) return;
      formula.set(`y_i = 2\\sin(x_i) + x_i^{0.8} + \\epsilon_i,\\quad \\epsilon_i \\sim \\mathcal{N}(0,\\, ${texNumber(state.noise, '.2f')}^2),\\quad i = 1, \\dots, ${state.n}`);
      errors.clear();
      const data = errors.run(() => lab.dataset(state), dataArguments);
      const truth = errors.run(() => lab.truth());
      if (truth) plot.set('truth', { kind: 'line', xs: curveQueries, ys: truth, className: 'truth' });
      if (data) plot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: state.n > 300 ? 2 : 3.5, className: 'point' });
    },
  };
}
