// The toy data set. n, noise and seed go to the core's seeded
// generator; the same seed always gives the same picture.
import { createLinePlot } from '../../figures/line-plot.js';
import { createFormula } from '../../figures/formula.js';
import { texNumber } from '../../format.js';
import { figureCell } from '../shared/frame.js';
import { setup, curveQueries, dataset, dataYDomain, truth, DATASET_INPUTS } from '../shared/kernel-regression.js';
import { poolingSnippet } from '../shared/kernel-regression-pytorch.js';
import { DATA_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

function create({ frame, controls }) {
  frame.controlsPanel.append(
    controls.numberControl('n', { labelKey: 'data.n' }),
    controls.numberControl('noise', { labelKey: 'data.noise' }),
    controls.numberControl('seed', { labelKey: 'data.seed', slider: false }),
    controls.nextSeedButton('seed', { labelKey: 'data.newSample', action: 'new-sample', className: 'button' }),
  );

  const plot = createLinePlot(figureCell(frame.figures, { captionKey: 'data.caption', className: 'cell-wide' }), {
    xDomain: [0, setup.xMax],
    yDomain: setup.plotY,
    layers: ['truth', 'points', 'exercise'],
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
  return { plot, formula: createFormula(formulaStrip) };
}

function draw({ plot, formula }, { data, truthCurve }, { n, noise }) {
  formula.set(`y_i = 2\\sin(x_i) + x_i^{0.8} + \\epsilon_i,\\quad \\epsilon_i \\sim \\mathcal{N}(0,\\, ${texNumber(noise, '.2f')}^2),\\quad i = 1, \\dots, ${n}`);
  plot.setDomains({ y: dataYDomain(data) });
  plot.set('truth', { kind: 'line', xs: curveQueries, ys: truthCurve, className: 'truth' });
  plot.set('points', { kind: 'points', xs: data.x, ys: data.y, r: n > 300 ? 2 : 3.5, className: 'point' });
}

export const dataSection = {
  id: 'data',
  order: 20,
  book: {
    en: bookSubsection('attention-pooling', 'kernels-and-data', '11.2.1', 'Kernels and Data'),
    zh: bookSubsection('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  frame: { titleKey: 'data.title', leadKeys: ['data.lead'] },
  inputs: DATASET_INPUTS,
  create,
  compute: (core, inputs) => ({ data: dataset(core, inputs), truthCurve: truth(core) }),
  draw,
  pytorch: poolingSnippet,
  exercises: DATA_EXERCISES,
  teacherNoteKey: 'data.ex.teacherNote',
};
