// The pooling section's exercises, each aimed at a belief learners hold:
// that average pooling looks at the query (a concept question), that the
// curve can be read without knowing which curve is the prediction (a
// number read off the plot at a query drawn for the instance), and what a
// narrow kernel does (make the fit chase the noise). Every number checked
// comes from the core for the state on screen: a new seed, kernel or width
// gives a new right answer. And before the learner narrows the kernel, a
// prediction of what that does to the fit at the points.
import { conceptExercise, judgeNumber, judgeAtMost, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { dataset, predict, setup } from '../shared/kernel-regression.js';

// The compute exercise's query: drawn by the core for the instance, kept
// off the plot's edges and put on the axis' tenths, where it is read.
const QUERY_RANGE = Object.freeze({ low: 0.3, high: setup.xMax - 0.3 });
export const READ_TOLERANCE = 0.1;

export function exerciseQuery(core, instance) {
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'exerciseQueries'), ...QUERY_RANGE });
  return Math.round(u * 10) / 10;
}

// The estimator's prediction at x for the live data and settings: the height
// of the curve drawn.
export const predictionAt = (core, inputs, x) => predict(core, Float64Array.of(x), dataset(core, inputs), inputs)[0];

const decimals = (value) => formatNumber(value, '.2f');

const readPrediction = Object.freeze({
  id: 'read-prediction',
  kind: 'compute',
  tolerance: READ_TOLERANCE,
  questionKey: 'pooling.ex.read.question',
  hintKey: 'pooling.ex.read.hint',
  draw: (core, inputs, instance) => ({ x: exerciseQuery(core, instance) }),
  questionParams: (instance) => ({ x: formatNumber(instance?.x ?? NaN, '.1f'), tolerance: READ_TOLERANCE }),
  check(core, inputs, answer, { x }) {
    const right = predictionAt(core, inputs, x);
    const at = formatNumber(x, '.1f');
    if (!Number.isFinite(right)) return { verdict: 'wrong', key: 'pooling.ex.read.gap', params: { x: at } };
    const verdict = judgeNumber(answer, right, READ_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'pooling.ex.read.right', params: { x: at, y: decimals(right) } };
    // The blue truth is the curve most often read by mistake.
    const [truth] = core.truth([x]);
    if (judgeNumber(answer, truth, READ_TOLERANCE) === 'right') {
      return mistake('pooling.ex.read.truth', { x: at });
    }
    if (verdict === 'close') return { verdict, key: 'pooling.ex.read.close', params: { x: at } };
    return { verdict, key: answer > right ? 'pooling.ex.read.tooHigh' : 'pooling.ex.read.tooLow', params: { x: at } };
  },
  solution(core, inputs, { x }) {
    const right = predictionAt(core, inputs, x);
    const at = formatNumber(x, '.1f');
    return Number.isFinite(right)
      ? { key: 'pooling.ex.read.solution', params: { x: at, y: decimals(right) } }
      : { key: 'pooling.ex.read.solutionGap', params: { x: at } };
  },
  // The query's place in the plot: a dotted rule at x.
  mark(view, instance) {
    view.plot.set('exercise', instance ? { kind: 'rule', x: instance.x, className: 'exercise-rule' } : null);
  },
});

// "Chase the noise": the curve closer to the noisy training points than
// the noiseless truth is, its squared error at the points at most
// CHASE_RATIO of the truth's. Only noise lets a curve beat the truth there.
export const CHASE_RATIO = 0.5;
// The widths the shown answer tries, widest kernel first (w = 1/σ).
const CANDIDATE_WIDTHS = Object.freeze([2, 3, 5, 7, 10, 15, 20, 30, 50]);

// The curve's squared error at the training points over the truth's (both
// sums from the core): below 1, the curve fits the points better than f
// does, so it fits their noise.
export function chaseRatio(core, inputs) {
  const data = dataset(core, inputs);
  return core.sumSquaredError(predict(core, data.x, data, inputs), data.y) / core.sumSquaredError(core.truth(data.x), data.y);
}

const percent = (share) => formatNumber(share, '.0%');

const chaseNoise = Object.freeze({
  id: 'chase-noise',
  kind: 'achieve',
  questionKey: 'pooling.ex.chase.question',
  hintKey: 'pooling.ex.chase.hint',
  check(core, inputs) {
    if (inputs.estimator === 'average') return { verdict: 'wrong', key: 'pooling.ex.chase.average' };
    if (inputs.kernel === 'constant') return { verdict: 'wrong', key: 'pooling.ex.chase.constant' };
    if (inputs.noise === 0) return { verdict: 'wrong', key: 'pooling.ex.chase.noNoise' };
    const ratio = chaseRatio(core, inputs);
    const verdict = judgeAtMost(ratio, CHASE_RATIO);
    const key = { right: 'pooling.ex.chase.right', close: 'pooling.ex.chase.close', wrong: 'pooling.ex.chase.tooWide' }[verdict];
    return { verdict, key, params: { ratio: percent(ratio), w: formatNumber(inputs.w, '.3~f') } };
  },
  // The widest of the candidate widths that does it, with the kernel chosen
  // (the Gaussian in place of the constant one, which never can).
  solution(core, inputs) {
    if (inputs.noise === 0) return { key: 'pooling.ex.chase.solutionNoNoise' };
    const kernel = inputs.kernel === 'constant' ? 'gaussian' : inputs.kernel;
    let ratio = NaN;
    for (const w of CANDIDATE_WIDTHS) {
      ratio = chaseRatio(core, { ...inputs, estimator: 'nadaraya-watson', kernel, w });
      if (ratio <= CHASE_RATIO) {
        return {
          key: kernel === inputs.kernel ? 'pooling.ex.chase.solution' : 'pooling.ex.chase.solutionGaussian',
          params: { w, ratio: percent(ratio) },
        };
      }
    }
    return { key: 'pooling.ex.chase.solutionNone', params: { w: CANDIDATE_WIDTHS.at(-1), ratio: percent(ratio), n: inputs.n } };
  },
});

// "Predict, then try": what a kernel five times narrower does to the
// curve's squared error at the training points. Down for Nadaraya–Watson
// (each point listens more to itself), the same for average pooling and the
// constant kernel, which w does not reach: the right answer is the core's
// for the live settings, so the belief "w always matters" is caught too.
const NARROWING = 5;
const narrowerWidth = (w, max) => (w * NARROWING <= max ? w * NARROWING : w / NARROWING);

export function narrowingOutcome(core, inputs, to) {
  const data = dataset(core, inputs);
  const error = (w) => core.sumSquaredError(predict(core, data.x, data, { ...inputs, w }), data.y);
  const before = error(inputs.w);
  const after = error(to);
  if (!Number.isFinite(before) || !Number.isFinite(after)) return { answer: null, before, after };
  const same = Math.abs(after - before) <= 1e-9 * Math.max(1, before);
  return { answer: same ? 'same' : after < before ? 'down' : 'up', before, after };
}

const narrowerKernel = Object.freeze({
  id: 'narrower-kernel',
  kind: 'predict',
  tells: { en: ['bends towards every point'], zh: ['曲线向每个点弯去'] },
  questionKey: 'pooling.ex.narrow.question',
  hintKey: 'pooling.ex.narrow.hint',
  options: [
    { id: 'down', labelKey: 'pooling.ex.narrow.down' },
    { id: 'up', labelKey: 'pooling.ex.narrow.up' },
    { id: 'same', labelKey: 'pooling.ex.narrow.same' },
  ],
  // The width asked about follows the live w (five times it, or a fifth
  // of it at the slider's end).
  draw: (core, inputs) => ({ from: inputs.w, to: narrowerWidth(inputs.w, 50) }),
  questionParams: (instance) => ({
    from: formatNumber(instance?.from ?? NaN, '.3~f'), to: formatNumber(instance?.to ?? NaN, '.3~f'),
  }),
  check(core, inputs, answer, { to }) {
    const outcome = narrowingOutcome(core, inputs, to);
    if (outcome.answer === null) return { verdict: 'wrong', key: 'pooling.ex.narrow.gap' };
    return { verdict: answer === outcome.answer ? 'right' : 'wrong', ...narrowingExplanation(inputs, to, outcome) };
  },
  solution(core, inputs, { to }) {
    const outcome = narrowingOutcome(core, inputs, to);
    return outcome.answer === null ? { key: 'pooling.ex.narrow.gap' } : narrowingExplanation(inputs, to, outcome);
  },
});

function narrowingExplanation(inputs, to, { answer, before, after }) {
  const params = { to: formatNumber(to, '.3~f'), before: decimals(before), after: decimals(after) };
  if (answer === 'same') {
    return { key: inputs.estimator === 'average' ? 'pooling.ex.narrow.whyAverage' : 'pooling.ex.narrow.whyConstant', params };
  }
  return { key: answer === 'down' ? 'pooling.ex.narrow.whyDown' : 'pooling.ex.narrow.whyUp', params };
}

const averageIgnoresQuery = conceptExercise({
  id: 'average-query',
  questionKey: 'pooling.ex.average.question',
  hintKey: 'pooling.ex.average.hint',
  right: 'ignores',
  options: [
    { id: 'nearer', labelKey: 'pooling.ex.average.nearer', explanationKey: 'pooling.ex.average.nearerWhy' },
    { id: 'ignores', labelKey: 'pooling.ex.average.ignores', explanationKey: 'pooling.ex.average.ignoresWhy' },
    { id: 'nearest', labelKey: 'pooling.ex.average.nearest', explanationKey: 'pooling.ex.average.nearestWhy' },
    { id: 'learned', labelKey: 'pooling.ex.average.learned', explanationKey: 'pooling.ex.average.learnedWhy' },
  ],
});

export const POOLING_EXERCISES = Object.freeze([averageIgnoresQuery, narrowerKernel, readPrediction, chaseNoise]);
