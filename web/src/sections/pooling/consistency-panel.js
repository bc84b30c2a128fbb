// The "more data, closer to the truth" panel of the pooling section:
// Nadaraya-Watson is a nonparametric estimator, and it is consistent (d2l
// 10.2): with enough data its prediction converges to the true f, provided
// the kernel narrows as n grows. The core's consistencyStudy measures the
// mean squared error against f on the book's problem for n = 10 ... 2000,
// with the section's width w held fixed (the error stalls at the kernel's
// bias) and with w growing as n^(1/5) (it keeps falling). Each n is one
// core call, run in short tasks (a study queue), so the page never freezes
// while the study fills in; it starts when the panel comes near the screen.
import { createLinePlot } from '../../figures/line-plot.js';
import { createFormula } from '../../figures/formula.js';
import { createErrorRouter } from '../../section-errors.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note, subsection } from '../shared/frame.js';
import { createStudyProgress, createStudyQueue, createStudyTrigger, queueStudy } from '../shared/study-runner.js';

// The data set's noise and seed (the data section's) and the section's width.
export const CONSISTENCY_INPUTS = Object.freeze(['noise', 'seed', 'w']);
const REPEATS = 20;

export function createConsistencyPanel(parent, { controls, core, alone = false }) {
  const sizes = core.defaults.consistencyStudy.sizes;
  const xs = Float64Array.from(sizes);
  const block = subsection(parent, { role: 'consistency-panel', titleKey: 'consistency.title', leadKeys: ['consistency.lead'] });
  const formulas = element('div', { className: 'formula-strip' });
  block.append(formulas);
  const formula = createFormula(formulas);

  const errorSlot = element('p', { className: 'section-error', role: 'alert' });
  errorSlot.hidden = true;
  const progress = createStudyProgress(sizes.length, 'consistency-status');
  block.append(progress.element, errorSlot);

  const plot = createLinePlot(figureCell(block, { captionKey: 'consistency.caption' }), {
    xDomain: [sizes[0], sizes[sizes.length - 1]], yDomain: [0.01, 1], xScale: 'log', yScale: 'log',
    layers: ['fixed', 'growing', 'fixedDots', 'growingDots'],
    labels: { x: 'consistency.axisN', y: 'consistency.axisError' }, ariaKey: 'consistency.plotLabel',
    aspect: 0.5, maxHeight: 300, xTicks: 8, yTicks: 5,
    legend: [
      { key: 'consistency.legendFixed', className: 'fixed-width', kind: 'line' },
      { key: 'consistency.legendGrowing', className: 'growing-width', kind: 'line' },
    ],
  });
  plot.element.dataset.figure = 'consistency';
  const verdict = note(block, { className: 'note note-callout' });
  verdict.dataset.role = 'consistency-verdict';

  const tableBody = element('tbody');
  block.append(element('details', { className: 'epoch-log scaling-log' }, [
    element('summary', { dataset: { i18n: 'consistency.tableTitle' } }),
    element('div', { className: 'log-scroll' }, [element('table', { dataset: { role: 'consistency-table' } }, [
      element('thead', {}, [element('tr', {}, ['consistency.colN', 'consistency.colFixed', 'consistency.colGrowingW', 'consistency.colGrowing']
        .map((key) => element('th', { dataset: { i18n: key } })))]),
      tableBody,
    ])]),
  ]));

  const errors = createErrorRouter({ controls, slot: errorSlot, routes: { arguments: { w: 'w', noise: 'noise', seed: 'seed' } } });
  const queue = createStudyQueue();
  let study = null; // { key, w, rows: [row | undefined per n] }

  function drawStudy() {
    const { rows } = study;
    const column = (name) => Float64Array.from(rows, (row) => (row ? row[name] : NaN));
    const fixed = column('fixedError');
    const growing = column('growingError');
    const found = [...fixed, ...growing].filter(Number.isFinite);
    if (found.length > 0) {
      // Decades that hold every error measured so far.
      const low = 10 ** Math.floor(Math.log10(Math.min(...found)));
      const high = 10 ** Math.ceil(Math.log10(Math.max(...found)));
      plot.setDomains({ y: [low, high > low ? high : low * 10] });
    }
    plot.set('fixed', { kind: 'line', xs, ys: fixed, className: 'fixed-width' });
    plot.set('growing', { kind: 'line', xs, ys: growing, className: 'growing-width' });
    plot.set('fixedDots', { kind: 'dots', xs, ys: fixed, className: 'fixed-width-dot', r: 3 });
    plot.set('growingDots', { kind: 'dots', xs, ys: growing, className: 'growing-width-dot', r: 3 });
    const done = rows.filter(Boolean).length;
    progress.show(done, done === rows.length
      ? t('consistency.done', { count: rows.length, repeats: REPEATS })
      : t('consistency.running', { done, count: rows.length }));
    const first = rows[0];
    const last = rows[rows.length - 1];
    // A sentence is there from the start, so the panel keeps its height as the numbers arrive.
    verdict.textContent = first && last ? t('consistency.verdict', {
      from: sizes[0], to: sizes[sizes.length - 1],
      fixedFrom: formatNumber(first.fixedError, '.3f'), fixedTo: formatNumber(last.fixedError, '.3f'),
      growingFrom: formatNumber(first.growingError, '.3f'), growingTo: formatNumber(last.growingError, '.3f'),
    }) : t('consistency.pending');
    tableBody.replaceChildren(...rows.map((row, i) => element('tr', row ? {
      dataset: { n: sizes[i], fixedError: String(row.fixedError), growingW: String(row.growingW), growingError: String(row.growingError) },
    } : {}, [
      element('td', {}, [String(sizes[i])]),
      ...['fixedError', 'growingW', 'growingError'].map((name) => element('td', {}, [row ? formatNumber(row[name], '.4~f') : '…'])),
    ])));
  }

  function start(inputs) {
    const { noise, seed, w } = inputs;
    const key = CONSISTENCY_INPUTS.map((name) => inputs[name]).join('|');
    if (study && study.key === key) {
      drawStudy(); // the language changed: re-label the status
      return;
    }
    errors.clear();
    const current = { key, rows: sizes.map(() => undefined) };
    study = current;
    drawStudy();
    queueStudy(queue, sizes, {
      measure: (n) => errors.run(() => core.consistencyStudy({ sizes: [n], repeats: REPEATS, w, noise, seed })[0]),
      found(i, row) {
        current.rows[i] = row;
        drawStudy();
      },
      current: () => study === current,
    });
  }

  const trigger = createStudyTrigger(block, CONSISTENCY_INPUTS, start, { eager: alone });
  return {
    update(inputs, changed) {
      // Written at once, seen or not: the panel has its final height before the study runs.
      formula.set(`\\text{MSE}(n) = \\frac{1}{m}\\sum_{i=1}^{m}\\big(\\hat f_n(x_i) - f(x_i)\\big)^2,\\qquad w_n = ${formatNumber(inputs.w, '.3~f')}\\,(n/50)^{1/5}`);
      if (!study) verdict.textContent = t('consistency.pending');
      trigger(inputs, changed);
    },
    // The section is going away: no study work stays queued.
    dispose() {
      queue.clear();
    },
  };
}
