// "The dot product is cheaper than additive attention", measured: the
// core's additiveAttention and dotProductAttention timed in this browser on
// the same seeded queries, keys and values, at a few sizes. The timings are
// a measurement of the page's own calls (like its redraw timings), not a
// result of the lesson: the numbers of the attention itself stay the core's.
// Every call gets fresh copies of its arrays: the mount's memo (core-memo.js)
// answers a repeated call from its cache, which would time nothing.
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { subsection } from '../shared/frame.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { createStudyProgress, createStudyQueue, createStudyTrigger } from '../shared/study-runner.js';
import { normalDraws, linearDraws } from '../shared/seeded-draws.js';

// Queries = keys = n, every vector of size D, additive's hidden layer h = D.
export const COST_SIZES = Object.freeze([8, 32, 128]);
// Calls per timing: browsers round performance.now() to 0.1 ms or coarser,
// so a small call is timed as a run of several, each on its own copies.
const CALLS = Object.freeze({ 8: 32, 32: 4, 128: 1 });
const D = 32;
const REPEATS = 9; // timed calls per function and size, after one untimed warm-up call
const SEED = 0;

const copy = (array) => Float64Array.from(array);
const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

function inputsOf(core, n) {
  return {
    queries: normalDraws(core, n * D, SEED, 'queries'),
    keys: normalDraws(core, n * D, SEED, 'keys'),
    values: normalDraws(core, n * D, SEED, 'values'),
    Wq: linearDraws(core, D * D, D, SEED, 'wq'),
    Wk: linearDraws(core, D * D, D, SEED, 'wk'),
    wv: linearDraws(core, D, D, SEED, 'wv'),
  };
}

// The arguments of one call of `kind` at size n, on fresh copies.
function argumentsOf(kind, n, data) {
  const inputs = { queries: copy(data.queries), keys: copy(data.keys), values: copy(data.values), validLens: null };
  return kind === 'additive'
    ? { ...inputs, shape: { batch: 1, nq: n, nk: n, dq: D, dk: D, dv: D, h: D }, Wq: copy(data.Wq), Wk: copy(data.Wk), wv: copy(data.wv) }
    : { ...inputs, shape: { batch: 1, nq: n, nk: n, d: D, dv: D } };
}

// The time of one call of `kind` at size n, in ms: a run of CALLS[n] calls
// (their arguments copied before the clock starts), over their number.
function timeCall(core, kind, n, data) {
  const calls = Array.from({ length: CALLS[n] }, () => argumentsOf(kind, n, data));
  const layer = kind === 'additive' ? core.additiveAttention : core.dotProductAttention;
  const started = performance.now();
  for (const args of calls) layer(args);
  return (performance.now() - started) / calls.length;
}

export function createScoringCostPanel(parent, { core, alone = false }) {
  const block = subsection(parent, { role: 'cost-panel', titleKey: 'cost.title', leadKeys: ['cost.lead'] });
  const formulas = element('div', { className: 'formula-strip' });
  block.append(formulas);
  createFormula(formulas).set(`\\text{additive: } \\mathbf w_v^\\top \\tanh(\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k)\\ \\ \\sim n_q n_k h,\\qquad \\text{dot product: } \\mathbf q^\\top \\mathbf k / \\sqrt d\\ \\ \\sim n_q n_k d`);

  const parts = COST_SIZES.flatMap((n) => Array.from({ length: REPEATS + 1 }, (_, repeat) =>
    ['additive', 'dot'].map((kind) => ({ n, kind, repeat })))).flat();
  const progress = createStudyProgress(parts.length, 'cost-status');
  const again = element('button', { type: 'button', className: 'button button-quiet', dataset: { action: 'cost-measure', i18n: 'cost.measure' } });
  block.append(element('div', { className: 'inline-controls' }, [progress.element, again]));

  const tableBody = element('tbody');
  block.append(element('div', { className: 'log-scroll' }, [element('table', { className: 'cost-table', dataset: { role: 'cost-table' } }, [
    element('thead', {}, [element('tr', {}, ['cost.colSize', 'cost.colAdditive', 'cost.colDot', 'cost.colRatio']
      .map((key) => element('th', { dataset: { i18n: key } })))]),
    tableBody,
  ])]));
  block.append(element('p', { className: 'note note-muted', dataset: { i18nRich: 'cost.note' } }));

  const queue = createStudyQueue();
  let times = null; // size -> { additive: [ms], dot: [ms] }
  let done = 0;
  let marked = null; // the size an exercise asks about, its row outlined
  const measuredListeners = new Set(); // told each time the table is complete

  // The medians at size n once all its calls are timed, else null.
  function medians(n) {
    const row = times?.get(n);
    if (!row || row.additive.length < REPEATS || row.dot.length < REPEATS) return null;
    return { additive: median(row.additive), dot: median(row.dot) };
  }

  function show() {
    progress.show(done, done === parts.length
      ? t('cost.done', { repeats: REPEATS })
      : t('cost.running', { done, count: parts.length }));
    tableBody.replaceChildren(...COST_SIZES.map((n) => {
      const measured = medians(n);
      const complete = measured !== null;
      const { additive, dot } = measured ?? {};
      const marks = n === marked ? { className: 'is-marked' } : {};
      return element('tr', complete ? { ...marks, dataset: { size: n, additive: String(additive), dot: String(dot) } } : marks, [
        element('td', {}, [`${n} × ${n}`]),
        element('td', {}, [complete ? formatNumber(additive, '.3f') : '…']),
        element('td', {}, [complete ? formatNumber(dot, '.3f') : '…']),
        element('td', {}, [complete ? `${formatNumber(additive / dot, '.1f')}×` : '…']),
      ]);
    }));
  }

  function measure() {
    times = new Map(COST_SIZES.map((n) => [n, { additive: [], dot: [] }]));
    done = 0;
    const data = new Map(COST_SIZES.map((n) => [n, inputsOf(core, n)]));
    show();
    queue.replace(parts.map(({ n, kind, repeat }) => () => {
      const ms = timeCall(core, kind, n, data.get(n));
      if (repeat > 0) times.get(n)[kind].push(ms); // the first call of each warms the code up
      done += 1;
      if (done % 2 === 0 || done === parts.length) show();
      if (done === parts.length) for (const listener of measuredListeners) listener();
    }));
  }
  again.addEventListener('click', measure);

  // The first measurement once the panel nears the screen; a language switch re-labels it.
  const update = createStudyTrigger(block, [], () => (times ? show() : measure()), { eager: alone });
  return {
    update,
    dispose() {
      measuredListeners.clear();
      queue.clear();
    },
    // Measured now, seen or not, and measured() called each time the table
    // is complete (the teacher's answer key gives the ratios).
    measureNow(measured) {
      measuredListeners.add(measured);
      if (!times) measure();
    },
    // Read-only, for an exercise: the medians timed at size n (null while
    // they are being timed), and the row of size n outlined (null: none).
    measured: medians,
    mark(n) {
      marked = n ?? null;
      if (times) show();
    },
  };
}
