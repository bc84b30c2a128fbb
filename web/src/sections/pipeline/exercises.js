// The scoring framework's exercises, each aimed at a belief learners hold
// about the softmax between the scores and the weights: that adding the
// same number to every score changes the weights (a concept question: the
// softmax is shift invariant), that doubling every score leaves them alone
// or flattens them (predict what doubling q does), that the output moves
// by m when every value rises by 1 (the weights sum to 1: a number worked
// out from the table), and that the key nearest to q gets the most weight
// (drag q until a key drawn for the instance has most of it). Every number
// checked comes from the core's attention call for the live keys, values
// and scorer (pipeline/setup.js, as the figures draw them).
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { parameters } from '../../state.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { pipelineAttention, pipelineValues } from './setup.js';

const weightText = (value) => formatNumber(value, '.3f');
const outputText = (value) => formatNumber(value, '.4f');

// ---------------------------------------------------------------------------
// Adding a constant to every score: the softmax does not see it.

const shiftScores = conceptExercise({
  id: 'shift-scores',
  questionKey: 'pipeline.ex.shift.question',
  hintKey: 'pipeline.ex.shift.hint',
  right: 'same',
  options: [
    { id: 'grow', labelKey: 'pipeline.ex.shift.grow', explanationKey: 'pipeline.ex.shift.growWhy' },
    { id: 'same', labelKey: 'pipeline.ex.shift.same', explanationKey: 'pipeline.ex.shift.sameWhy' },
    { id: 'strongest', labelKey: 'pipeline.ex.shift.strongest', explanationKey: 'pipeline.ex.shift.strongestWhy' },
    { id: 'sum', labelKey: 'pipeline.ex.shift.sum', explanationKey: 'pipeline.ex.shift.sumWhy' },
  ],
});

// ---------------------------------------------------------------------------
// Predict doubling q under the scaled dot product: every score doubles.

// Weights that differ by less than this are the same (rounding of the softmax).
const SAME_WEIGHT = 1e-9;

// The largest weight and its key, for q and for 2q, from the core's scaled
// dot product on the live keys.
export function doubledQuery(core, inputs) {
  const q = [inputs.pipelineQ1, inputs.pipelineQ2];
  const now = pipelineAttention(core, inputs, { scoring: 'dot' }).weights;
  const doubled = pipelineAttention(core, inputs, { scoring: 'dot', queries: Float64Array.of(2 * q[0], 2 * q[1]) }).weights;
  const strongest = (weights) => weights.reduce((best, value, i) => (value > weights[best] ? i : best), 0);
  const [before, after] = [strongest(now), strongest(doubled)];
  let becomes;
  if (after !== before && doubled[after] - doubled[before] > SAME_WEIGHT) becomes = 'otherKey';
  else if (doubled[before] > now[before] + SAME_WEIGHT) becomes = 'peakier';
  else if (doubled[before] < now[before] - SAME_WEIGHT) becomes = 'flatter';
  else becomes = 'same';
  return {
    becomes,
    params: { key: `k${before + 1}`, before: weightText(now[before]), after: weightText(doubled[before]) },
  };
}

const DOUBLE_KEYS = Object.freeze({
  peakier: { label: 'pipeline.ex.double.peakier', why: 'pipeline.ex.double.peakierWhy', not: 'pipeline.ex.double.peakierNot' },
  same: { label: 'pipeline.ex.double.same', why: 'pipeline.ex.double.sameWhy', not: 'pipeline.ex.double.sameNot' },
  flatter: { label: 'pipeline.ex.double.flatter', why: 'pipeline.ex.double.flatterWhy', not: 'pipeline.ex.double.flatterNot' },
  otherKey: { label: 'pipeline.ex.double.otherKey', why: 'pipeline.ex.double.otherKeyWhy', not: 'pipeline.ex.double.otherKeyNot' },
});
const DOUBLE_OPTIONS = Object.freeze(Object.keys(DOUBLE_KEYS));

const doubleQuery = Object.freeze({
  id: 'double-query',
  kind: 'predict',
  tells: { en: ['inverse temperature'], zh: ['温度的倒数'] },
  questionKey: 'pipeline.ex.double.question',
  hintKey: 'pipeline.ex.double.hint',
  options: DOUBLE_OPTIONS.map((id) => ({ id, labelKey: DOUBLE_KEYS[id].label, explanationKey: DOUBLE_KEYS[id].why })),
  check(core, inputs, answer) {
    if (!DOUBLE_OPTIONS.includes(answer)) return { verdict: 'wrong', key: 'exercises.pickFirst' };
    const { becomes, params } = doubledQuery(core, inputs);
    if (answer === becomes) return { verdict: 'right', key: DOUBLE_KEYS[becomes].why, params };
    return { verdict: 'wrong', key: DOUBLE_KEYS[answer].not, params };
  },
  solution(core, inputs) {
    const { becomes, params } = doubledQuery(core, inputs);
    return { key: DOUBLE_KEYS[becomes].why, params };
  },
});

// ---------------------------------------------------------------------------
// Every value raised by 1: the output rises by 1, since the weights sum to 1.

export const OUTPUT_TOLERANCE = 0.01;

export function raisedOutputs(core, inputs) {
  const values = pipelineValues(core, inputs);
  const now = pipelineAttention(core, inputs, { values }).output;
  return {
    now,
    raised: pipelineAttention(core, inputs, { values: Float64Array.from(values, (v) => v + 1) }).output,
    // 1 added once per key, whatever its weight: the mistake of forgetting the weights.
    perKey: now + inputs.pipelineKeys,
  };
}

const raisedValues = Object.freeze({
  id: 'raised-values',
  kind: 'compute',
  questionKey: 'pipeline.ex.raised.question',
  hintKey: 'pipeline.ex.raised.hint',
  questionParams: () => ({ tolerance: OUTPUT_TOLERANCE }),
  check(core, inputs, answer) {
    const { now, raised, perKey } = raisedOutputs(core, inputs);
    const params = { output: outputText(now), raised: outputText(raised), m: inputs.pipelineKeys };
    const verdict = judgeNumber(answer, raised, OUTPUT_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'pipeline.ex.raised.right', params };
    if (judgeNumber(answer, now, OUTPUT_TOLERANCE) === 'right') return mistake('pipeline.ex.raised.unchanged', params);
    if (judgeNumber(answer, perKey, OUTPUT_TOLERANCE) === 'right') return mistake('pipeline.ex.raised.perKey', params);
    if (verdict === 'close') return { verdict, key: 'pipeline.ex.raised.close', params };
    return { verdict, key: answer > raised ? 'pipeline.ex.raised.tooHigh' : 'pipeline.ex.raised.tooLow', params };
  },
  solution(core, inputs) {
    const { now, raised } = raisedOutputs(core, inputs);
    return { key: 'pipeline.ex.raised.solution', params: { output: outputText(now), raised: outputText(raised) } };
  },
});

// ---------------------------------------------------------------------------
// Give one key most of the weight by moving q, under the scaled dot product
// (the additive scorer's small seeded weights keep every weight near 1/m):
// the key is drawn among those some query of the controls' range can give
// GOAL_WEIGHT (a grid of queries, one core call), so the task can be done.

export const GOAL_WEIGHT = 0.8;
const REACH_MARGIN = 0.05; // a key counts as reachable with this much to spare
const GRID_STEPS = 24;

// Queries on a grid over the controls' range, flattened pairs.
function queryGrid() {
  const low = parameters.pipelineQ1.min;
  const high = parameters.pipelineQ1.max;
  const line = Array.from({ length: GRID_STEPS + 1 }, (_, i) => low + ((high - low) * i) / GRID_STEPS);
  return Float64Array.from(line.flatMap((a) => line.flatMap((b) => [a, b])));
}

// For each key, the query of the grid that gives it the most weight, and that weight.
export function bestQueries(core, inputs) {
  const grid = queryGrid();
  const m = inputs.pipelineKeys;
  const { weights } = pipelineAttention(core, inputs, { queries: grid, scoring: 'dot' });
  const best = Array.from({ length: m }, () => ({ weight: -1, q: null }));
  for (let row = 0; row < grid.length / 2; row += 1) {
    for (let key = 0; key < m; key += 1) {
      const weight = weights[row * m + key];
      if (weight > best[key].weight) best[key] = { weight, q: [grid[2 * row], grid[2 * row + 1]] };
    }
  }
  return best;
}

export function targetKey(core, inputs, instance) {
  const best = bestQueries(core, inputs);
  const reachable = best.map((_, key) => key).filter((key) => best[key].weight >= GOAL_WEIGHT + REACH_MARGIN);
  const pool = reachable.length > 0 ? reachable : best.map((_, key) => key);
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'pipelineTargets'), low: 0, high: pool.length });
  return { key: pool[Math.min(pool.length - 1, Math.floor(u))] };
}

const goalParams = (key) => ({ key: `k${key + 1}`, goal: GOAL_WEIGHT });

const keyWeight = Object.freeze({
  id: 'key-weight',
  kind: 'achieve',
  questionKey: 'pipeline.ex.goal.question',
  hintKey: 'pipeline.ex.goal.hint',
  draw: (core, inputs, instance) => targetKey(core, inputs, instance),
  questionParams: (instance) => goalParams(instance?.key ?? NaN),
  check(core, inputs, answer, { key }) {
    const { weights, keys } = pipelineAttention(core, inputs);
    const params = { ...goalParams(key), weight: weightText(weights[key]) };
    if (inputs.pipelineScoring !== 'dot') return { verdict: 'wrong', key: 'pipeline.ex.goal.additive', params };
    if (weights[key] >= GOAL_WEIGHT) return { verdict: 'right', key: 'pipeline.ex.goal.right', params };
    // The belief aimed at: that the key nearest to q gets the most weight.
    const q = [inputs.pipelineQ1, inputs.pipelineQ2];
    const distance = (i) => Math.hypot(keys[2 * i] - q[0], keys[2 * i + 1] - q[1]);
    let nearest = 0;
    for (let i = 1; i < weights.length; i += 1) if (distance(i) < distance(nearest)) nearest = i;
    if (nearest === key) return { verdict: 'wrong', key: 'pipeline.ex.goal.nearest', params };
    if (weights[key] >= (1 - 0.1) * GOAL_WEIGHT) return { verdict: 'close', key: 'pipeline.ex.goal.close', params };
    return { verdict: 'wrong', key: 'pipeline.ex.goal.wrong', params };
  },
  solution(core, inputs, { key }) {
    const { weight, q } = bestQueries(core, inputs)[key];
    return {
      key: 'pipeline.ex.goal.solution',
      params: { ...goalParams(key), q1: formatNumber(q[0], '.2f'), q2: formatNumber(q[1], '.2f'), weight: weightText(weight) },
    };
  },
  mark(view, instance) {
    view.markKey?.(instance ? instance.key : null);
  },
});

export const PIPELINE_EXERCISES = Object.freeze([shiftScores, doubleQuery, raisedValues, keyWeight]);
