// The heatmap section's exercises, each aimed at a belief learners hold:
// that a column of the heatmap is a query (a concept question: a row is);
// where the bright cells lie once the estimator is switched (predicted
// before it is: nowhere for average pooling, on the diagonal for a kernel
// of the distance, with sorted inputs); which way the
// band goes when w grows (predicted before w is changed); and that a
// weight is its kernel value alone (the ratio of two weights of one row,
// in which the row's normalising sum cancels). Every answer that depends
// on the state is the core's for the live data, settings and query.
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { parameters } from '../../state.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { dataset, effectiveKernel, testQueries } from '../shared/kernel-regression.js';

const rowIsQuery = conceptExercise({
  id: 'row-is-query',
  questionKey: 'heatmap.ex.row.question',
  hintKey: 'heatmap.ex.row.hint',
  right: 'query',
  options: [
    { id: 'key', labelKey: 'heatmap.ex.row.key', explanationKey: 'heatmap.ex.row.keyWhy' },
    { id: 'query', labelKey: 'heatmap.ex.row.query', explanationKey: 'heatmap.ex.row.queryWhy' },
    { id: 'pair', labelKey: 'heatmap.ex.row.pair', explanationKey: 'heatmap.ex.row.pairWhy' },
    { id: 'width', labelKey: 'heatmap.ex.row.width', explanationKey: 'heatmap.ex.row.widthWhy' },
  ],
});

// The test queries' weights for the live state (the heatmap's matrix), its rows.
const testWeights = (core, inputs, w = inputs.w) =>
  core.attentionWeights(testQueries, dataset(core, inputs).x, { kernel: effectiveKernel(inputs), w });
const rowsOf = (weights, cols) => Array.from(testQueries, (_, i) => weights.subarray(i * cols, (i + 1) * cols));
const UNIFORM = 1e-12;

// The shape of the heatmap's bright cells: uniform (every weight of a row
// equal), or where each row's largest weight lies, from the first row with
// weights to the last: a diagonal, an anti-diagonal, or one column.
export function bandShape(core, inputs) {
  const cols = inputs.n;
  const rows = rowsOf(testWeights(core, inputs), cols).filter((row) => !Number.isNaN(row[0]));
  if (rows.length === 0) return 'uniform';
  if (rows.every((row) => row.every((weight) => Math.abs(weight - row[0]) <= UNIFORM))) return 'uniform';
  const largestAt = (row) => row.indexOf(Math.max(...row));
  const [first, last] = [largestAt(rows[0]), largestAt(rows.at(-1))];
  if (last > first) return 'diagonal';
  return last < first ? 'antiDiagonal' : 'column';
}

// Each shape: its option, what it means when it is the core's (its
// explanation), and why it is not, when the core's heatmap has a band elsewhere.
const BAND_OPTIONS = Object.freeze([
  { id: 'diagonal', labelKey: 'heatmap.ex.band.diagonal', explanationKey: 'heatmap.ex.band.diagonalRight', wrongKey: 'heatmap.ex.band.diagonalWrong' },
  { id: 'antiDiagonal', labelKey: 'heatmap.ex.band.antiDiagonal', explanationKey: 'heatmap.ex.band.antiDiagonalRight', wrongKey: 'heatmap.ex.band.antiDiagonalWrong' },
  { id: 'column', labelKey: 'heatmap.ex.band.column', explanationKey: 'heatmap.ex.band.columnRight', wrongKey: 'heatmap.ex.band.columnWrong' },
  { id: 'uniform', labelKey: 'heatmap.ex.band.uniform', explanationKey: 'heatmap.ex.band.uniformRight', wrongKey: 'heatmap.ex.band.uniformWrong' },
]);
const bandOption = (id) => BAND_OPTIONS.find((option) => option.id === id);

// The estimator the prediction switches to: average pooling from
// Nadaraya–Watson, Nadaraya–Watson (with the kernel chosen) from average pooling.
export const switchedEstimator = (estimator) => (estimator === 'average' ? 'nadaraya-watson' : 'average');

const band = Object.freeze({
  id: 'band-shape',
  kind: 'predict',
  tells: { en: ['bright cells make a band along the diagonal'], zh: ['亮格就沿对角线形成一条亮带'] },
  questionKey: 'heatmap.ex.band.question',
  hintKey: 'heatmap.ex.band.hint',
  options: BAND_OPTIONS.map(({ id, labelKey, explanationKey }) => ({ id, labelKey, explanationKey })),
  draw: (core, inputs) => ({ estimator: switchedEstimator(inputs.estimator) }),
  // The estimator's name as the settings line above the query plot writes it.
  questionParams: (instance) => ({ estimator: instance ? t(`estimator.${instance.estimator}`) : '–' }),
  check(core, inputs, answer, { estimator }) {
    const shape = bandShape(core, { ...inputs, estimator });
    if (answer === shape) return { verdict: 'right', key: bandOption(shape).explanationKey };
    // The prediction made, explained against the core's heatmap: no band
    // at all (uniform rows), or why the band is not where it was put.
    return { verdict: 'wrong', key: shape === 'uniform' ? 'heatmap.ex.band.flat' : bandOption(answer).wrongKey };
  },
  solution: (core, inputs, { estimator }) => {
    const { labelKey, explanationKey } = bandOption(bandShape(core, { ...inputs, estimator }));
    return { labelKey, explanationKey };
  },
});

// How wide the band is: each test query's weighted mean distance to the
// keys, Σ α_i |x − x_i|, averaged over the rows with weights. Each row's
// sum is the core's Nadaraya–Watson estimate with the distances as values.
// Fifty core calls: remembered for the last few data sets and widths, as a
// shown answer is written again on every redraw (a dragged query among them).
const bandWidths = [];
const BAND_WIDTHS_KEPT = 4;

function bandWidth(core, inputs, w) {
  const { x } = dataset(core, inputs);
  const kernel = effectiveKernel(inputs);
  const known = bandWidths.find((entry) => entry.x === x && entry.kernel === kernel && Object.is(entry.w, w));
  if (known) return known.width;
  const width = measureBandWidth(core, x, kernel, w);
  bandWidths.push({ x, kernel, w, width });
  if (bandWidths.length > BAND_WIDTHS_KEPT) bandWidths.shift();
  return width;
}

function measureBandWidth(core, x, kernel, w) {
  const widths = Array.from(testQueries, (query) =>
    core.nadarayaWatson([query], x, Float64Array.from(x, (key) => Math.abs(query - key)), { kernel, w })[0])
    .filter(Number.isFinite);
  return widths.length === 0 ? NaN : core.averagePool(Float64Array.from(widths), 1)[0];
}

// The w the prediction is about: doubled, or halved where doubling leaves the control's range.
const W_MAX = parameters.w.max;
export const changedWidth = (w) => (2 * w <= W_MAX ? 2 * w : w / 2);
const SAME_WIDTH = 1e-9;

export function bandChange(core, inputs, to) {
  const [before, after] = [bandWidth(core, inputs, inputs.w), bandWidth(core, inputs, to)];
  if (!(Math.abs(after - before) > SAME_WIDTH * before)) return { change: 'same', before, after };
  return { change: after < before ? 'narrower' : 'wider', before, after };
}

// Each change: its option and what it means when it is the core's; why a
// prediction is not, by the prediction made (the way it goes, no change,
// a move off the diagonal).
const WIDTH_OPTIONS = Object.freeze([
  { id: 'narrower', labelKey: 'heatmap.ex.width.narrower', explanationKey: 'heatmap.ex.width.narrowerRight', wrongKey: 'heatmap.ex.width.direction' },
  { id: 'wider', labelKey: 'heatmap.ex.width.wider', explanationKey: 'heatmap.ex.width.widerRight', wrongKey: 'heatmap.ex.width.direction' },
  { id: 'same', labelKey: 'heatmap.ex.width.same', explanationKey: 'heatmap.ex.width.sameRight', wrongKey: 'heatmap.ex.width.sameWrong' },
  { id: 'shifts', labelKey: 'heatmap.ex.width.shifts', explanationKey: 'heatmap.ex.width.shiftsWrong', wrongKey: 'heatmap.ex.width.shiftsWrong' },
]);
const widthOption = (id) => WIDTH_OPTIONS.find((option) => option.id === id);
const width = (value) => formatNumber(value, '.3~f');

const growW = Object.freeze({
  id: 'band-width',
  kind: 'predict',
  tells: { en: ['gathers on the nearest'], zh: ['集中到最近的几个键上'] },
  questionKey: 'heatmap.ex.width.question',
  hintKey: 'heatmap.ex.width.hint',
  options: WIDTH_OPTIONS.map(({ id, labelKey, explanationKey }) => ({ id, labelKey, explanationKey })),
  draw: (core, inputs) => ({ from: inputs.w, to: changedWidth(inputs.w) }),
  questionParams: (instance) => ({ from: width(instance?.from ?? NaN), to: width(instance?.to ?? NaN) }),
  check(core, inputs, answer, { from, to }) {
    const { change, before, after } = bandChange(core, { ...inputs, w: from }, to);
    const params = { from: width(from), to: width(to), before: width(before), after: width(after) };
    if (answer === change) return { verdict: 'right', key: widthOption(change).explanationKey, params };
    // Why not: w enters no weight (uniform rows), or the prediction's own mistake.
    if (change === 'same') return { verdict: 'wrong', key: 'heatmap.ex.width.noWidth', params };
    return { verdict: 'wrong', key: widthOption(answer).wrongKey, params };
  },
  solution(core, inputs, { from, to }) {
    const { change, before, after } = bandChange(core, { ...inputs, w: from }, to);
    const params = { before: width(before), after: width(after) };
    return { key: widthOption(change).explanationKey, params };
  },
});

// The compute exercise: two keys of the live query's row, the heaviest and
// one drawn by the core among those whose weight ratio is neither near 1
// nor huge and differs from the usual mistakes (the ratio turned round,
// the ratio of the distances), so each mistake reads as itself.
export const RATIO_TOLERANCE = 0.05;
const RATIO_RANGE = Object.freeze({ low: 1.5, high: 8 });

function queryRow(core, inputs) {
  const { x } = dataset(core, inputs);
  return { x, weights: core.attentionWeights([inputs.query], x, { kernel: effectiveKernel(inputs), w: inputs.w }) };
}

export function exerciseKeys(core, inputs, index) {
  const { x, weights } = queryRow(core, inputs);
  if (Number.isNaN(weights[0])) return { query: inputs.query, gap: true };
  const heaviest = weights.indexOf(Math.max(...weights));
  const apart = (a, b) => Math.abs(a - b) > 3 * RATIO_TOLERANCE;
  const positive = Array.from(x.keys()).filter((i) => i !== heaviest && weights[i] > 0);
  const telling = positive.filter((i) => {
    const ratio = weights[heaviest] / weights[i];
    const distances = Math.abs(inputs.query - x[i]) / Math.abs(inputs.query - x[heaviest]);
    return ratio >= RATIO_RANGE.low && ratio <= RATIO_RANGE.high && apart(ratio, 1 / ratio) && apart(ratio, distances);
  });
  const pool = telling.length > 0 ? telling : positive;
  if (pool.length === 0) return { query: inputs.query, gap: true };
  const [u] = core.randomUniform(1, { seed: streamSeed(index, 'heatmapKeys'), low: 0, high: pool.length });
  const other = pool[Math.min(pool.length - 1, Math.floor(u))];
  return { query: inputs.query, a: heaviest, b: other, xa: x[heaviest], xb: x[other], wa: weights[heaviest], wb: weights[other] };
}

// The two keys' weights for the live state and query, from the core.
function ratioNow(core, inputs, { a, b }) {
  const { x, weights } = queryRow(core, inputs);
  return { ratio: weights[a] / weights[b], x, weights };
}

const decimals = (value) => formatNumber(value, '.2f');
const keyParams = (instance) => ({
  query: decimals(instance.query), a: instance.a + 1, b: instance.b + 1, xa: formatNumber(instance.xa, '.3f'), xb: formatNumber(instance.xb, '.3f'),
});

const weightRatio = Object.freeze({
  id: 'weight-ratio',
  kind: 'compute',
  tolerance: RATIO_TOLERANCE,
  questionKey: 'heatmap.ex.ratio.question',
  hintKey: 'heatmap.ex.ratio.hint',
  draw: (core, inputs, index) => exerciseKeys(core, inputs, index),
  questionParams: (instance) => (instance && !instance.gap
    ? { ...keyParams(instance), tolerance: RATIO_TOLERANCE }
    : { query: decimals(instance?.query ?? NaN), a: 'a', b: 'b', xa: '–', xb: '–', tolerance: RATIO_TOLERANCE }),
  check(core, inputs, answer, instance) {
    if (instance.gap) return { verdict: 'wrong', key: 'heatmap.ex.ratio.gap', params: { query: decimals(instance.query) } };
    const { ratio, x } = ratioNow(core, inputs, instance);
    const params = { ...keyParams(instance), ratio: decimals(ratio) };
    const verdict = judgeNumber(answer, ratio, RATIO_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'heatmap.ex.ratio.right', params };
    // The mistakes aimed at: the ratio turned round, and the ratio of the
    // distances (as if a weight fell like 1 / distance).
    if (judgeNumber(answer, 1 / ratio, RATIO_TOLERANCE) === 'right') return mistake('heatmap.ex.ratio.inverse', params);
    const distances = Math.abs(inputs.query - x[instance.b]) / Math.abs(inputs.query - x[instance.a]);
    if (judgeNumber(answer, distances, RATIO_TOLERANCE) === 'right') return mistake('heatmap.ex.ratio.distances', params);
    if (verdict === 'close') return { verdict, key: 'heatmap.ex.ratio.close', params };
    return { verdict, key: answer > ratio ? 'heatmap.ex.ratio.tooHigh' : 'heatmap.ex.ratio.tooLow', params };
  },
  solution(core, inputs, instance) {
    if (instance.gap) return { key: 'heatmap.ex.ratio.solutionGap', params: { query: decimals(instance.query) } };
    const { ratio } = ratioNow(core, inputs, instance);
    return { key: 'heatmap.ex.ratio.solution', params: { ...keyParams(instance), ratio: decimals(ratio) } };
  },
  // The two keys' bars in the weights plot: a dotted ring at the top of each.
  mark(view, instance) {
    const marked = instance && !instance.gap;
    view?.weightPlot.set('exercise', marked ? { kind: 'dots', xs: [instance.xa, instance.xb], ys: [instance.wa, instance.wb], r: 7, className: 'exercise-ring' } : null);
  },
});

export const HEATMAP_EXERCISES = Object.freeze([rowIsQuery, band, growW, weightRatio]);
