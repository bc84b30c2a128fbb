// The cues section's exercises, each aimed at a belief learners hold: that
// whatever catches the eye is the query (a new scene: a friend in a crowd),
// that learned weights are what makes attention (a concept question), that
// attention pooling returns the key it matched rather than its value (the
// identity heatmap's output for drawn values), and what a row-wise softmax
// guarantees (d2l 10.1 exercise 2, predicted before the figure shows it).
// Every number checked comes from the core: a new draw gives a new answer.
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { CUE_SIZE, identityRow, randomSoftmax } from './matrices.js';

export const VALUE_TOLERANCE = 0.01;

const friendInCrowd = conceptExercise({
  id: 'friend-in-crowd',
  questionKey: 'cues.ex.crowd.question',
  hintKey: 'cues.ex.crowd.hint',
  right: 'wish',
  options: [
    { id: 'costume', labelKey: 'cues.ex.crowd.costume', explanationKey: 'cues.ex.crowd.costumeWhy' },
    { id: 'wish', labelKey: 'cues.ex.crowd.wish', explanationKey: 'cues.ex.crowd.wishWhy' },
    { id: 'coats', labelKey: 'cues.ex.crowd.coats', explanationKey: 'cues.ex.crowd.coatsWhy' },
    { id: 'friend', labelKey: 'cues.ex.crowd.friend', explanationKey: 'cues.ex.crowd.friendWhy' },
  ],
});

const whatSetsApart = conceptExercise({
  id: 'depends-on-query',
  questionKey: 'cues.ex.apart.question',
  hintKey: 'cues.ex.apart.hint',
  right: 'attention',
  options: [
    { id: 'dense', labelKey: 'cues.ex.apart.dense', explanationKey: 'cues.ex.apart.denseWhy' },
    { id: 'max', labelKey: 'cues.ex.apart.max', explanationKey: 'cues.ex.apart.maxWhy' },
    { id: 'attention', labelKey: 'cues.ex.apart.attention', explanationKey: 'cues.ex.apart.attentionWhy' },
    { id: 'average', labelKey: 'cues.ex.apart.average', explanationKey: 'cues.ex.apart.averageWhy' },
  ],
});

// The pooling exercise's instance: ten values on [0, 10) (one decimal, as
// the question writes them) and the query asked about, both drawn by the
// core. The query is one whose value, own index, the values' mean and the
// value before it are all far apart (the right answer and the typical
// mistakes), so that each mistake reads as itself.
export function poolingInstance(core, index) {
  const draws = core.randomUniform(CUE_SIZE + 1, { seed: streamSeed(index, 'cueValues'), low: 0, high: 10 });
  const values = Float64Array.from(draws.subarray(0, CUE_SIZE), (v) => Math.round(v * 10) / 10);
  const [mean] = core.averagePool(values, 1);
  const apart = (a, b) => Math.abs(a - b) > 3 * VALUE_TOLERANCE;
  const telling = [];
  for (let query = 1; query < CUE_SIZE; query += 1) {
    const answers = [values[query], query, mean, values[query - 1]];
    if (answers.every((a, i) => answers.slice(i + 1).every((b) => apart(a, b)))) telling.push(query);
  }
  const pool = telling.length > 0 ? telling : [1];
  return { values, query: pool[Math.min(pool.length - 1, Math.floor((draws[CUE_SIZE] / 10) * pool.length))] };
}

// The output of `query` with the identity's weights: its row times the
// values, the core's matrix product (a 1 x 10 row by a 10 x 1 column).
export function identityOutput(core, { values, query }) {
  const product = core.batchMatrixProduct(identityRow(query), values, { shapeX: [1, 1, CUE_SIZE], shapeY: [1, CUE_SIZE, 1] });
  return product.values[0];
}

const oneDecimal = (value) => formatNumber(value, '.1f');
const listed = (values) => Array.from(values, oneDecimal).join(', ');

const identityPooling = Object.freeze({
  id: 'identity-output',
  kind: 'compute',
  tolerance: VALUE_TOLERANCE,
  questionKey: 'cues.ex.output.question',
  hintKey: 'cues.ex.output.hint',
  draw: (core, inputs, index) => poolingInstance(core, index),
  questionParams: (instance) => ({
    values: instance ? listed(instance.values) : '–', query: instance?.query ?? '–', tolerance: VALUE_TOLERANCE,
  }),
  check(core, inputs, answer, instance) {
    const right = identityOutput(core, instance);
    const { query } = instance;
    const params = { query, value: oneDecimal(right) };
    const verdict = judgeNumber(answer, right, VALUE_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'cues.ex.output.right', params };
    // The mistakes aimed at, wrong even within 10 %: the key's index (what is matched, not what
    // comes back), the mean of the values (average pooling, which has no
    // query), and the value one place before (keys counted from 1).
    if (judgeNumber(answer, query, VALUE_TOLERANCE) === 'right') return mistake('cues.ex.output.key', params);
    const [mean] = core.averagePool(instance.values, 1);
    if (judgeNumber(answer, mean, VALUE_TOLERANCE) === 'right') return mistake('cues.ex.output.average', params);
    if (judgeNumber(answer, instance.values[query - 1], VALUE_TOLERANCE) === 'right') {
      return mistake('cues.ex.output.countedFromOne', params);
    }
    if (verdict === 'close') return { verdict, key: 'cues.ex.output.close', params };
    return { verdict, key: 'cues.ex.output.wrong', params };
  },
  solution: (core, inputs, instance) => ({
    key: 'cues.ex.output.solution', params: { query: instance.query, value: oneDecimal(identityOutput(core, instance)) },
  }),
  // The query's row in the identity heatmap: a rule across it.
  mark(view, instance) {
    view?.markIdentityRow(instance ? instance.query : null);
  },
});

// What holds of the softmax of each row of the random matrix: each
// statement judged on the core's weights for the instance. The sums are the
// core's products with a column (rows) or a row (columns) of ones. Each
// statement has its rule (a softmax row sums to 1 and is positive; nothing
// makes columns sum to 1, favours the diagonal, or lets one of ten scores
// on [0, 1) take nearly all), explained by its option; a matrix of the core
// that breaks the rule would be said to.
const STATEMENTS = Object.freeze([
  { id: 'rows', rule: true, labelKey: 'cues.ex.softmax.rows', explanationKey: 'cues.ex.softmax.rowsWhy' },
  { id: 'columns', rule: false, labelKey: 'cues.ex.softmax.columns', explanationKey: 'cues.ex.softmax.columnsWhy' },
  { id: 'positive', rule: true, labelKey: 'cues.ex.softmax.positive', explanationKey: 'cues.ex.softmax.positiveWhy' },
  { id: 'diagonal', rule: false, labelKey: 'cues.ex.softmax.diagonal', explanationKey: 'cues.ex.softmax.diagonalWhy' },
  { id: 'oneHot', rule: false, labelKey: 'cues.ex.softmax.oneHot', explanationKey: 'cues.ex.softmax.oneHotWhy' },
]);
const SUM_TOLERANCE = 1e-9;

export function softmaxFacts(core, weights) {
  const ones = new Float64Array(CUE_SIZE).fill(1);
  const rowSums = core.batchMatrixProduct(weights, ones, { shapeX: [1, CUE_SIZE, CUE_SIZE], shapeY: [1, CUE_SIZE, 1] }).values;
  const colSums = core.batchMatrixProduct(ones, weights, { shapeX: [1, 1, CUE_SIZE], shapeY: [1, CUE_SIZE, CUE_SIZE] }).values;
  const rowsOf = Array.from({ length: CUE_SIZE }, (_, i) => weights.subarray(i * CUE_SIZE, (i + 1) * CUE_SIZE));
  const largestAt = (row) => row.indexOf(Math.max(...row));
  const sumsToOne = (sums) => sums.every((sum) => Math.abs(sum - 1) <= SUM_TOLERANCE);
  return {
    truths: {
      rows: sumsToOne(rowSums),
      columns: sumsToOne(colSums),
      positive: weights.every((weight) => weight > 0),
      diagonal: rowsOf.every((row, i) => largestAt(row) === i),
      oneHot: rowsOf.every((row) => Math.max(...row) > 0.99),
    },
    low: Math.min(...weights),
    high: Math.max(...weights),
    colLow: Math.min(...colSums),
    colHigh: Math.max(...colSums),
  };
}

const threeDecimals = (value) => formatNumber(value, '.3f');
const factParams = (facts) => ({
  low: threeDecimals(facts.low), high: threeDecimals(facts.high),
  colLow: threeDecimals(facts.colLow), colHigh: threeDecimals(facts.colHigh),
});

const randomRows = Object.freeze({
  id: 'random-softmax',
  kind: 'predict',
  tells: { en: ['nothing favours the diagonal', 'no key is left out'], zh: ['对角线也没有特别亮', '没有哪个键被排除在外'] },
  multiple: true,
  hides: ['random-softmax'],
  questionKey: 'cues.ex.softmax.question',
  hintKey: 'cues.ex.softmax.hint',
  options: STATEMENTS.map(({ id, labelKey, explanationKey }) => ({ id, labelKey, explanationKey })),
  draw: (core, inputs, index) => ({ index, weights: randomSoftmax(core, index).weights }),
  // answer: the ids ticked, in the options' order.
  check(core, inputs, answer, instance) {
    const facts = softmaxFacts(core, instance.weights);
    const ticked = new Set(answer);
    const params = factParams(facts);
    const missed = STATEMENTS.find(({ id }) => facts.truths[id] !== ticked.has(id));
    if (missed === undefined) return { verdict: 'right', key: 'cues.ex.softmax.right', params };
    // The first statement judged wrongly, explained by its rule (or, should
    // the core's matrix break the rule, said so).
    return { verdict: 'wrong', key: facts.truths[missed.id] === missed.rule ? missed.explanationKey : 'cues.ex.softmax.unusual', params };
  },
  solution(core, inputs, instance) {
    const facts = softmaxFacts(core, instance.weights);
    if (STATEMENTS.every(({ id, rule }) => facts.truths[id] === rule)) return { key: 'cues.ex.softmax.solution', params: factParams(facts) };
    const numbers = STATEMENTS.flatMap(({ id }, i) => (facts.truths[id] ? [i + 1] : [])).join(', ');
    return { key: 'cues.ex.softmax.solutionList', params: { numbers: numbers || '–' } };
  },
  // The matrix asked about, drawn in its heatmap (covered until the prediction is made).
  mark(view, instance) {
    if (instance) view?.showRandom(instance.weights);
  },
});

export const CUES_EXERCISES = Object.freeze([friendInCrowd, identityPooling, randomRows, whatSetsApart]);
