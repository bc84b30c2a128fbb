// The masked-softmax section's exercises, each aimed at a belief learners
// hold: that a masked key keeps some weight (d2l's −10⁶ is a score, not a
// weight) or that the visible weights no longer sum to 1 (a concept
// question); that a row's weights stay put when its valid length changes,
// or that masked keys count in the sum (one weight predicted for another
// length, from the drawn scores); and that a 1-D valid length can
// differ between the rows of an item (set the lengths); and, before the
// masked figures show it, which weights of a row become 0. Every number
// checked comes from the core for the live state: a new seed gives new
// scores, so a new right answer.
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { MASK_SHAPE, validLens, seededScores } from './setup.js';

const [, ROWS, KEYS] = MASK_SHAPE;
export const WEIGHT_TOLERANCE = 0.01;

const masking = (core, inputs) => core.maskScores(seededScores(core, inputs), MASK_SHAPE, validLens(inputs));

// The question: one row of the drawn scores given another valid length than
// it has now, and a key within that length. The weight shown in ③ is the
// current length's, so the answer must be worked out from the scores in ①
// (what the notes ask: predict a row after changing its valid length).
// Among every such question, those whose answer differs from the weight
// shown now and from the softmax over all four keys (each a mistake the
// feedback names) by more than a few tolerances; one of them picked by the
// core's seeded draw for the instance.
export function exerciseCell(core, inputs, instance) {
  const drawn = drawnWeights(core, inputs);
  const questions = [];
  drawn.rowLengths.forEach((now, row) => {
    for (let length = 1; length <= KEYS; length += 1) {
      if (length === now) continue;
      for (let key = 0; key < length; key += 1) questions.push({ cell: row * KEYS + key, length, now });
    }
  });
  const apart = (a, b) => Math.abs(a - b) > 3 * WEIGHT_TOLERANCE;
  const telling = questions.filter((question) => {
    const { right, shown, unmasked } = weighed(core, drawn, question);
    return apart(right, shown) && (question.length === KEYS || apart(right, unmasked));
  });
  const pool = telling.length > 0 ? telling : questions;
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'maskCells'), low: 0, high: pool.length });
  return pool[Math.min(pool.length - 1, Math.floor(u))];
}

// A cell's place as the figure names it (item, query, key, counted from 1).
const placeOf = (cell) => ({
  batch: Math.floor(cell / (ROWS * KEYS)) + 1, row: (Math.floor(cell / KEYS) % ROWS) + 1, key: (cell % KEYS) + 1,
});

// The cell's weight with its row's valid length set to `length` (every other
// row as now), the weight shown now, and the plain softmax over all four
// keys: all three the core's masked softmax of the drawn scores.
// The state's tensors, asked of the core once for every question weighed.
function drawnWeights(core, inputs) {
  const scores = seededScores(core, inputs);
  return {
    scores,
    rowLengths: core.maskScores(scores, MASK_SHAPE, validLens(inputs)).rowLengths,
    shown: core.maskedSoftmax(scores, MASK_SHAPE, validLens(inputs)),
    unmasked: core.maskedSoftmax(scores, MASK_SHAPE, null),
  };
}

function weighed(core, drawn, { cell, length }) {
  const lens = Int32Array.from(drawn.rowLengths);
  lens[Math.floor(cell / KEYS)] = length;
  return {
    right: core.maskedSoftmax(drawn.scores, MASK_SHAPE, lens)[cell],
    shown: drawn.shown[cell],
    unmasked: drawn.unmasked[cell],
  };
}

export const weightsAt = (core, inputs, question) => weighed(core, drawnWeights(core, inputs), question);

const decimals = (value) => formatNumber(value, '.3f');

const maskedWeight = Object.freeze({
  id: 'masked-weight-value',
  kind: 'compute',
  tolerance: WEIGHT_TOLERANCE,
  questionKey: 'masking.ex.weight.question',
  hintKey: 'masking.ex.weight.hint',
  looksAt: ['mask-weights'], // its hint and feedback send the learner there
  // The typed scores are the view's own state, which no declaration sees:
  // the question asks about the drawn scores, and says so.
  draw: (core, inputs, instance) => exerciseCell(core, inputs, instance),
  questionParams: (instance) => ({
    ...(instance ? { ...placeOf(instance.cell), length: instance.length, now: instance.now }
      : { batch: '–', row: '–', key: '–', length: '–', now: '–' }),
    tolerance: WEIGHT_TOLERANCE,
  }),
  check(core, inputs, answer, instance) {
    const { right, shown, unmasked } = weightsAt(core, inputs, instance);
    const { length, now } = instance;
    const params = { ...placeOf(instance.cell), length, now, weight: decimals(right) };
    const verdict = judgeNumber(answer, right, WEIGHT_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'masking.ex.weight.right', params };
    // The mistakes aimed at: the weight of the length the row has now (read
    // off ③), and a sum over all four keys, the masked ones included.
    if (judgeNumber(answer, shown, WEIGHT_TOLERANCE) === 'right') return mistake('masking.ex.weight.shown', params);
    if (length < KEYS && judgeNumber(answer, unmasked, WEIGHT_TOLERANCE) === 'right') {
      return mistake('masking.ex.weight.unmasked', params);
    }
    if (judgeNumber(answer, 0, WEIGHT_TOLERANCE) === 'right') return mistake('masking.ex.weight.zero', params);
    if (verdict === 'close') return { verdict, key: 'masking.ex.weight.close', params };
    return { verdict, key: answer > right ? 'masking.ex.weight.tooHigh' : 'masking.ex.weight.tooLow', params };
  },
  // The cell's place in the scores: outlined in ①.
  mark(view, instance) {
    view.markCell(instance?.cell ?? null);
  },
  solution(core, inputs, instance) {
    const { right } = weightsAt(core, inputs, instance);
    return { key: 'masking.ex.weight.solution', params: { ...placeOf(instance.cell), length: instance.length, weight: decimals(right) } };
  },
});

// "Which weights become 0?", answered before figures ② and ③ show it: one
// row of the drawn scores, drawn by the core for the instance; the right
// keys are those whose weight the core's masked softmax makes exactly 0
// for the live valid lengths. A row of valid length 0 has all four (the
// lab's rule; d2l's code would make it uniform), one of length 4 none.
const KEY_OPTIONS = Object.freeze([...Array(KEYS).keys()].map((key) => `k${key + 1}`));
const NONE = 'none';

export function zeroRow(core, instance) {
  const rows = MASK_SHAPE[0] * ROWS;
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'maskRows'), low: 0, high: rows });
  return Math.min(rows - 1, Math.floor(u));
}

export function zeroKeys(core, inputs, row) {
  const scores = seededScores(core, inputs);
  const lens = validLens(inputs);
  const weights = core.maskedSoftmax(scores, MASK_SHAPE, lens);
  const zeros = KEY_OPTIONS.filter((key, k) => weights[row * KEYS + k] === 0);
  return { zeros, length: core.maskScores(scores, MASK_SHAPE, lens).rowLengths[row] };
}

const rowPlace = (row) => ({ batch: Math.floor(row / ROWS) + 1, query: (row % ROWS) + 1 });
const keyList = (keys) => (keys.length > 0 ? keys.join(', ') : '–');

const zeroWeights = Object.freeze({
  id: 'zero-weights',
  kind: 'predict',
  tells: { en: ['kept weights still sum to 1'], zh: ['保留下来的权重之和仍为 1'] },
  multiple: true,
  questionKey: 'masking.ex.zeros.question',
  hintKey: 'masking.ex.zeros.hint',
  options: [
    { id: 'k1', labelKey: 'masking.ex.zeros.k1' }, { id: 'k2', labelKey: 'masking.ex.zeros.k2' },
    { id: 'k3', labelKey: 'masking.ex.zeros.k3' }, { id: 'k4', labelKey: 'masking.ex.zeros.k4' },
    { id: NONE, labelKey: 'masking.ex.zeros.none' },
  ],
  // Everything else that shows the row's weights is covered too: d2l's
  // masked_softmax below them, the note naming fully masked rows, and the
  // read-out that hovering ① fills with the masked score and the weight.
  hides: ['mask-masked', 'mask-weights', 'mask-book', 'mask-empty-rows', 'mask-readout'],
  draw: (core, inputs, instance) => ({ row: zeroRow(core, instance) }),
  questionParams: (instance) => (instance ? rowPlace(instance.row) : { batch: '–', query: '–' }),
  check(core, inputs, answer, { row }) {
    const { zeros, length } = zeroKeys(core, inputs, row);
    const chosen = answer.filter((id) => id !== NONE);
    const saidNone = answer.includes(NONE);
    const params = { ...rowPlace(row), length, zeros: keyList(zeros) };
    if (saidNone && chosen.length > 0) return { verdict: 'wrong', key: 'masking.ex.zeros.noneAndKeys', params };
    const right = chosen.length === zeros.length && chosen.every((id) => zeros.includes(id));
    if (right) return { verdict: 'right', key: length === 0 ? 'masking.ex.zeros.rightEmpty' : 'masking.ex.zeros.right', params };
    if (length === 0) return { verdict: 'wrong', key: 'masking.ex.zeros.lengthZero', params };
    // Masking the first keys instead of the last: the valid length counts from the left.
    const kept = KEY_OPTIONS.filter((id) => !zeros.includes(id));
    if (chosen.length === kept.length && chosen.every((id) => kept.includes(id)) && chosen.length > 0) {
      return { verdict: 'wrong', key: 'masking.ex.zeros.kept', params };
    }
    return { verdict: 'wrong', key: 'masking.ex.zeros.wrong', params };
  },
  solution(core, inputs, { row }) {
    const { zeros, length } = zeroKeys(core, inputs, row);
    return { key: length === 0 ? 'masking.ex.zeros.solutionEmpty' : 'masking.ex.zeros.solution', params: { ...rowPlace(row), length, zeros: keyList(zeros) } };
  },
});

// Item 1's two queries with different numbers of keys: only a 2-D
// valid_lens can say that.
export const LENGTHS_GOAL = Object.freeze({ first: 3, second: 2 });

const setLengths = Object.freeze({
  id: 'row-lengths',
  kind: 'achieve',
  questionKey: 'masking.ex.lengths.question',
  hintKey: 'masking.ex.lengths.hint',
  questionParams: () => ({ firstGoal: LENGTHS_GOAL.first, secondGoal: LENGTHS_GOAL.second }),
  check(core, inputs) {
    const [first, second] = masking(core, inputs).rowLengths;
    const params = { first, second, firstGoal: LENGTHS_GOAL.first, secondGoal: LENGTHS_GOAL.second };
    if (first === LENGTHS_GOAL.first && second === LENGTHS_GOAL.second) return { verdict: 'right', key: 'masking.ex.lengths.right', params };
    if (inputs.maskMode === '1d') return { verdict: 'wrong', key: 'masking.ex.lengths.oneD', params };
    if (first === LENGTHS_GOAL.first || second === LENGTHS_GOAL.second) return { verdict: 'close', key: 'masking.ex.lengths.close', params };
    return { verdict: 'wrong', key: 'masking.ex.lengths.wrong', params };
  },
  solution: () => ({ key: 'masking.ex.lengths.solution', params: { firstGoal: LENGTHS_GOAL.first, secondGoal: LENGTHS_GOAL.second } }),
});

const weightAfterMasking = conceptExercise({
  id: 'masked-weight',
  questionKey: 'masking.ex.concept.question',
  hintKey: 'masking.ex.concept.hint',
  looksAt: ['mask-weights'], // its hint and feedback send the learner there
  right: 'zero',
  options: [
    { id: 'score', labelKey: 'masking.ex.concept.score', explanationKey: 'masking.ex.concept.scoreWhy' },
    { id: 'zero', labelKey: 'masking.ex.concept.zero', explanationKey: 'masking.ex.concept.zeroWhy' },
    { id: 'leftover', labelKey: 'masking.ex.concept.leftover', explanationKey: 'masking.ex.concept.leftoverWhy' },
    { id: 'keep', labelKey: 'masking.ex.concept.keep', explanationKey: 'masking.ex.concept.keepWhy' },
  ],
});

export const MASKING_EXERCISES = Object.freeze([weightAfterMasking, zeroWeights, maskedWeight, setLengths]);
