// The positional-encoding section's exercises, each aimed at a belief
// learners hold: that the columns further right oscillate faster, or that
// neighbouring columns pair up however they fall (a prediction about the
// columns drawn, the figures covered); that P is read off rather than
// computed (one entry past the positions drawn, from the formula); that
// the turn from position i to i + k depends on i (the angle a sin/cos pair
// turns); and that a larger d slows a given column down (make column 6
// repeat within 20 positions). Every number checked comes from the core's
// encoding for the live d and length.
import { judgeNumber, judgeAtMost, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { parameters } from '../../state.js';
import { streamSeed } from '../shared/seeded-draws.js';

const CURVES = 4; // the columns the curves figure draws, from peColumn on (positional-encoding.js)

// A column's angular frequency, from the core's encoding at position 1:
// P[1, 2j] = sin(w_j), P[1, 2j + 1] = cos(w_j), with 0 < w_j <= 1.
export function columnFrequencies(core, dim) {
  const second = core.positionalEncoding(2, dim).subarray(dim, 2 * dim);
  return Array.from(second, (value, column) => (column % 2 === 0 ? Math.asin(value) : Math.acos(value)));
}

export const drawnColumns = ({ peColumn, peDim }) =>
  Array.from({ length: Math.max(0, Math.min(CURVES, peDim - peColumn)) }, (_, i) => peColumn + i);

// The columns drawn whose frequency is the largest among them.
export function fastestDrawn(core, inputs) {
  const columns = drawnColumns(inputs);
  const frequencies = columnFrequencies(core, inputs.peDim);
  const top = Math.max(...columns.map((column) => frequencies[column]));
  return columns.filter((column) => frequencies[column] >= top * (1 - 1e-9));
}

// Each option as the set of drawn columns it names.
const FASTEST_SETS = Object.freeze({
  first: (columns) => columns.slice(0, 1),
  firstTwo: (columns) => columns.slice(0, 2),
  lastTwo: (columns) => columns.slice(-2),
  last: (columns) => columns.slice(-1),
  all: (columns) => columns,
});
const sameSet = (a, b) => a.length === b.length && a.every((value, i) => value === b[i]);
export const fastestOptions = (core, inputs) => {
  const columns = drawnColumns(inputs);
  const fastest = fastestDrawn(core, inputs);
  return Object.keys(FASTEST_SETS).filter((id) => sameSet(FASTEST_SETS[id](columns), fastest));
};

// Each option with the explanation of choosing it wrongly: a partner
// left out, columns paired however they fall, frequency rising with the
// column, one frequency for all.
const FASTEST_OPTIONS = Object.freeze([
  { id: 'first', labelKey: 'positional.ex.fastest.first', explanationKey: 'positional.ex.fastest.partner' },
  { id: 'firstTwo', labelKey: 'positional.ex.fastest.firstTwo', explanationKey: 'positional.ex.fastest.oddStart' },
  { id: 'lastTwo', labelKey: 'positional.ex.fastest.lastTwo', explanationKey: 'positional.ex.fastest.rising' },
  { id: 'last', labelKey: 'positional.ex.fastest.last', explanationKey: 'positional.ex.fastest.rising' },
  { id: 'all', labelKey: 'positional.ex.fastest.all', explanationKey: 'positional.ex.fastest.same' },
]);

const columnList = (columns) => columns.join(', ');

const fastestColumn = Object.freeze({
  id: 'fastest-column',
  kind: 'predict',
  tells: { en: ['leftmost pair drawn is the fastest', 'stripes narrow to the left'], zh: ['最左边一对最快', '条纹越往左越细'] },
  questionKey: 'positional.ex.fastest.question',
  hintKey: 'positional.ex.fastest.hint',
  // The binary note says the frequency falls from the left columns: covered too.
  hides: ['pe-heatmap', 'pe-curves', 'pe-binary-note'],
  options: FASTEST_OPTIONS,
  // The question names the columns drawn: it follows the controls.
  draw: (core, inputs) => ({ columns: drawnColumns(inputs) }),
  questionParams: (instance) => ({
    first: instance?.columns[0] ?? '–', last: instance?.columns.at(-1) ?? '–',
  }),
  check(core, inputs, answer) {
    const columns = drawnColumns(inputs);
    if (columns.length === 0) return { verdict: 'wrong', key: 'positional.ex.fastest.noColumns', params: { dim: inputs.peDim } };
    const fastest = fastestDrawn(core, inputs);
    const params = { fastest: columnList(fastest), first: columns[0], partner: columns[0] - 1 };
    if (fastestOptions(core, inputs).includes(answer)) return { verdict: 'right', key: 'positional.ex.fastest.right', params };
    const option = FASTEST_OPTIONS.find(({ id }) => id === answer);
    if (!option) return { verdict: 'wrong', key: 'exercises.pickFirst' };
    return { verdict: 'wrong', key: option.explanationKey, params };
  },
  solution(core, inputs) {
    const columns = drawnColumns(inputs);
    if (columns.length === 0) return { key: 'positional.ex.fastest.solutionNone', params: { dim: inputs.peDim } };
    return { key: 'positional.ex.fastest.solution', params: { fastest: columnList(fastestDrawn(core, inputs)) } };
  },
});

// One entry of P past the positions drawn (the heatmap cannot show it):
// drawn by the core for the instance among those whose answer differs from
// the mistakes the feedback names by more than a few tolerances.
export const ENTRY_TOLERANCE = 0.01;
const BEYOND = 30; // positions past the drawn ones the question may ask about

// The value of the mistakes, from the core's matrix where it holds them:
// sin and cos swapped (the pair's other column), and the column index
// taken for j in 10000^(2j/d) (the column 2j, or 2j + 1 for a cosine).
function entryValues(encoding, dim, row, col) {
  const at = (column) => (column < dim ? encoding[row * dim + column] : null);
  const indexColumn = 2 * col + (col % 2);
  return {
    right: at(col),
    swapped: at(col ^ 1),
    columnIndex: indexColumn === col ? null : at(indexColumn),
  };
}

const encodingPast = (core, { peLength, peDim }) => core.positionalEncoding(peLength + BEYOND, peDim);

export function entryQuestion(core, inputs, instance) {
  const { peLength: length, peDim: dim } = inputs;
  const encoding = encodingPast(core, inputs);
  const apart = (a, b) => b === null || Math.abs(a - b) > 3 * ENTRY_TOLERANCE;
  const questions = [];
  const telling = [];
  for (let row = length; row < length + BEYOND; row += 1) {
    for (let col = dim >= 4 ? 2 : 0; col < dim; col += 1) {
      questions.push({ row, col });
      const { right, swapped, columnIndex } = entryValues(encoding, dim, row, col);
      if (apart(right, swapped) && apart(right, columnIndex)) telling.push({ row, col });
    }
  }
  const pool = telling.length > 0 ? telling : questions;
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'peCells'), low: 0, high: pool.length });
  return pool[Math.min(pool.length - 1, Math.floor(u))];
}

export const entryAt = (core, inputs, { row, col }) => entryValues(encodingPast(core, inputs), inputs.peDim, row, col);

const decimals = (value) => formatNumber(value, '.3f');
const entryParams = (inputs, { row, col }) => ({
  row, col, dim: inputs.peDim, pair: Math.floor(col / 2), fn: col % 2 === 0 ? 'sin' : 'cos',
  exponent: 2 * Math.floor(col / 2), tolerance: ENTRY_TOLERANCE,
});

const entryValue = Object.freeze({
  id: 'entry-value',
  kind: 'compute',
  tolerance: ENTRY_TOLERANCE,
  questionKey: 'positional.ex.entry.question',
  hintKey: 'positional.ex.entry.hint',
  looksAt: ['pe-heatmap'], // its hint and feedback send the learner there
  draw: (core, inputs, instance) => ({ ...entryQuestion(core, inputs, instance), length: inputs.peLength, dim: inputs.peDim }),
  questionParams: (instance) => (instance
    ? { ...entryParams({ peDim: instance.dim }, instance), length: instance.length }
    : { row: '–', col: '–', dim: '–', pair: '–', fn: '–', exponent: '–', length: '–', tolerance: ENTRY_TOLERANCE }),
  check(core, inputs, answer, instance) {
    const { right, swapped, columnIndex } = entryAt(core, inputs, instance);
    const params = { ...entryParams(inputs, instance), value: decimals(right) };
    const verdict = judgeNumber(answer, right, ENTRY_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'positional.ex.entry.right', params };
    if (swapped !== null && judgeNumber(answer, swapped, ENTRY_TOLERANCE) === 'right') return mistake('positional.ex.entry.swapped', params);
    if (columnIndex !== null && judgeNumber(answer, columnIndex, ENTRY_TOLERANCE) === 'right') {
      return mistake('positional.ex.entry.columnIndex', params);
    }
    if (verdict === 'close') return { verdict, key: 'positional.ex.entry.close', params };
    return { verdict, key: answer > right ? 'positional.ex.entry.tooHigh' : 'positional.ex.entry.tooLow', params };
  },
  solution(core, inputs, instance) {
    const { right } = entryAt(core, inputs, instance);
    return { key: 'positional.ex.entry.solution', params: { ...entryParams(inputs, instance), value: decimals(right) } };
  },
});

// The turn of a sin/cos pair from position i to i + k: k w_j, whatever i.
export const TURN_TOLERANCE = 0.01;
const TURN_RANGE = Object.freeze({ low: 0.3, high: 3 }); // one answer in (0, pi): no turn past a half circle
const MOST_STEPS = 30;
const MOST_START = 100;

export function turnQuestion(core, inputs, instance) {
  const dim = inputs.peDim;
  const frequencies = columnFrequencies(core, dim);
  const questions = [];
  for (let pair = 0; 2 * pair + 1 < dim; pair += 1) {
    for (let steps = 1; steps <= MOST_STEPS; steps += 1) {
      const turn = steps * frequencies[2 * pair];
      if (turn >= TURN_RANGE.low && turn <= TURN_RANGE.high) questions.push({ pair, steps });
    }
  }
  // Past pair 0 where d allows: there the frequency is not 1, so the step count alone is not the answer.
  const later = questions.filter(({ pair }) => pair > 0);
  const pool = later.length > 0 ? later : questions;
  const [u, v] = core.randomUniform(2, { seed: streamSeed(instance, 'peTurns'), low: 0, high: 1 });
  const chosen = pool[Math.min(pool.length - 1, Math.floor(u * pool.length))];
  return { ...chosen, from: 1 + Math.floor(v * MOST_START) };
}

// The angle the point (P[i, 2j + 1], P[i, 2j]) turns from i = from to
// from + steps, from the core's rows; and the pair's frequency (position 1).
export function turnAt(core, dim, { pair, steps, from }) {
  const encoding = core.positionalEncoding(from + steps + 1, dim);
  const point = (row) => ({ x: encoding[row * dim + 2 * pair + 1], y: encoding[row * dim + 2 * pair] });
  const a = point(from);
  const b = point(from + steps);
  return {
    turn: Math.atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y),
    frequency: Math.asin(encoding[dim + 2 * pair]),
  };
}

// An angle as a point's angle, for comparing with a turn: within (-pi, pi].
const wrapped = (angle) => Math.atan2(Math.sin(angle), Math.cos(angle));
const DEGREES = 180 / Math.PI; // a unit, not data

const turnParams = (inputs, { pair, steps, from }) => ({
  pair, sin: 2 * pair, cos: 2 * pair + 1, from, to: from + steps, steps, dim: inputs.peDim, exponent: 2 * pair, tolerance: TURN_TOLERANCE,
});

const turnAngle = Object.freeze({
  id: 'turn-angle',
  kind: 'compute',
  tolerance: TURN_TOLERANCE,
  questionKey: 'positional.ex.turn.question',
  hintKey: 'positional.ex.turn.hint',
  draw: (core, inputs, instance) => ({ ...turnQuestion(core, inputs, instance), dim: inputs.peDim }),
  questionParams: (instance) => (instance
    ? turnParams({ peDim: instance.dim }, instance)
    : { pair: '–', sin: '–', cos: '–', from: '–', to: '–', steps: '–', dim: '–', exponent: '–', tolerance: TURN_TOLERANCE }),
  check(core, inputs, answer, instance) {
    const { turn, frequency } = turnAt(core, inputs.peDim, instance);
    const params = { ...turnParams(inputs, instance), angle: decimals(turn) };
    const verdict = judgeNumber(answer, turn, TURN_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'positional.ex.turn.right', params };
    // The mistakes aimed at: the angle of a position itself (i w_j, which
    // depends on i), one step's turn, and degrees for radians.
    const near = (value) => Math.abs(answer - value) <= TURN_TOLERANCE || Math.abs(wrapped(answer) - wrapped(value)) <= TURN_TOLERANCE;
    if (near(instance.from * frequency) || near((instance.from + instance.steps) * frequency)) {
      return mistake('positional.ex.turn.absolute', params);
    }
    if (instance.steps > 1 && near(frequency)) return mistake('positional.ex.turn.oneStep', params);
    if (Math.abs(answer - turn * DEGREES) <= TURN_TOLERANCE * DEGREES) return mistake('positional.ex.turn.degrees', params);
    if (verdict === 'close') return { verdict, key: 'positional.ex.turn.close', params };
    return { verdict, key: answer > turn ? 'positional.ex.turn.tooHigh' : 'positional.ex.turn.tooLow', params };
  },
  solution(core, inputs, instance) {
    const { turn } = turnAt(core, inputs.peDim, instance);
    return { key: 'positional.ex.turn.solution', params: { ...turnParams(inputs, instance), angle: decimals(turn) } };
  },
});

// Make the book's column 6 repeat within 20 positions: only d moves its
// frequency 1/10000^(6/d), and a larger d makes it faster.
export const PERIOD_GOAL = Object.freeze({ column: 6, period: 20 });

export function columnPeriod(core, dim) {
  if (dim <= PERIOD_GOAL.column) return NaN;
  return (2 * Math.PI) / columnFrequencies(core, dim)[PERIOD_GOAL.column];
}

const positions = (value) => formatNumber(value, '.1f');

const fastColumn = Object.freeze({
  id: 'column-period',
  kind: 'achieve',
  questionKey: 'positional.ex.period.question',
  hintKey: 'positional.ex.period.hint',
  looksAt: ['pe-curves'], // its hint and feedback send the learner there
  questionParams: () => ({ ...PERIOD_GOAL }),
  check(core, inputs) {
    const dim = inputs.peDim;
    const params = { ...PERIOD_GOAL, dim, book: parameters.peDim.default };
    if (dim <= PERIOD_GOAL.column) return { verdict: 'wrong', key: 'positional.ex.period.noColumn', params };
    const period = columnPeriod(core, dim);
    const verdict = judgeAtMost(period, PERIOD_GOAL.period);
    const found = { ...params, found: positions(period) };
    if (verdict === 'right') return { verdict, key: 'positional.ex.period.right', params: found };
    if (verdict === 'close') return { verdict, key: 'positional.ex.period.close', params: found };
    // Lowered d below the book's: the column got slower, not faster.
    return { verdict, key: dim < parameters.peDim.default ? 'positional.ex.period.lowered' : 'positional.ex.period.tooSlow', params: found };
  },
  // The smallest d that does it, from the core.
  solution(core) {
    for (let dim = PERIOD_GOAL.column + 1; dim <= parameters.peDim.max; dim += 1) {
      const period = columnPeriod(core, dim);
      if (period <= PERIOD_GOAL.period) return { key: 'positional.ex.period.solution', params: { ...PERIOD_GOAL, dim, found: positions(period) } };
    }
    return { key: 'positional.ex.period.solutionNone', params: { ...PERIOD_GOAL } };
  },
});

export const POSITIONAL_EXERCISES = Object.freeze([fastestColumn, entryValue, turnAngle, fastColumn]);
