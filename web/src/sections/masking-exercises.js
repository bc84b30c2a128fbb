// The masked-softmax section's exercises, each aimed at a belief learners
// hold: that a masked key keeps some weight (d2l's −10⁶ is a score, not a
// weight) or that the visible weights no longer sum to 1 (a concept
// question); that the masked keys still count in the softmax's sum (one
// weight computed from the drawn scores); and that a 1-D valid length can
// differ between the rows of an item (set the lengths). Every number
// checked comes from the core for the live state: a new seed gives new
// scores, so a new right answer.
import { conceptExercise, judgeNumber } from '../exercises/judging.js';
import { formatNumber } from '../format.js';
import { streamSeed } from './seeded-draws.js';
import { MASK_SHAPE, validLens, seededScores } from './masking-setup.js';

const [, ROWS, KEYS] = MASK_SHAPE;
export const WEIGHT_TOLERANCE = 0.01;

const masking = (core, inputs) => core.maskScores(seededScores(core, inputs), MASK_SHAPE, validLens(inputs));

// The cell asked about: one of the visible (unmasked) cells of the live
// lengths, picked by the core's seeded draw for the instance; null when
// every row is fully masked.
export function exerciseCell(core, inputs, instance) {
  const { masked } = masking(core, inputs);
  const visible = Array.from(masked.keys()).filter((index) => !masked[index]);
  if (visible.length === 0) return null;
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'maskCells'), low: 0, high: visible.length });
  return visible[Math.min(visible.length - 1, Math.floor(u))];
}

// A cell's place as the figure names it (item, query, key, counted from 1).
const placeOf = (cell) => ({
  batch: Math.floor(cell / (ROWS * KEYS)) + 1, row: (Math.floor(cell / KEYS) % ROWS) + 1, key: (cell % KEYS) + 1,
});

// The lab's masked softmax of the drawn scores, and the plain softmax of
// the same scores (no lengths): what summing over all four keys gives.
export function weightsAt(core, inputs, cell) {
  const scores = seededScores(core, inputs);
  return {
    right: core.maskedSoftmax(scores, MASK_SHAPE, validLens(inputs))[cell],
    unmasked: core.maskedSoftmax(scores, MASK_SHAPE, null)[cell],
    length: masking(core, inputs).rowLengths[Math.floor(cell / KEYS)],
  };
}

const decimals = (value) => formatNumber(value, '.3f');

const maskedWeight = Object.freeze({
  id: 'masked-weight-value',
  kind: 'compute',
  tolerance: WEIGHT_TOLERANCE,
  questionKey: 'masking.ex.weight.question',
  hintKey: 'masking.ex.weight.hint',
  // The typed scores are the view's own state, which no declaration sees:
  // the question asks about the drawn scores, and says so.
  draw: (core, inputs, instance) => ({ cell: exerciseCell(core, inputs, instance) }),
  questionParams: (instance) => ({
    ...(instance?.cell == null ? { batch: '–', row: '–', key: '–' } : placeOf(instance.cell)), tolerance: WEIGHT_TOLERANCE,
  }),
  check(core, inputs, answer, { cell }) {
    if (cell == null) return { verdict: 'wrong', key: 'masking.ex.weight.none' };
    const { right, unmasked, length } = weightsAt(core, inputs, cell);
    const params = { ...placeOf(cell), length, weight: decimals(right) };
    const verdict = judgeNumber(answer, right, WEIGHT_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'masking.ex.weight.right', params };
    // Summing over all four keys, the masked ones included, is the mistake aimed at.
    if (length < KEYS && judgeNumber(answer, unmasked, WEIGHT_TOLERANCE) === 'right') {
      return { verdict, key: 'masking.ex.weight.unmasked', params };
    }
    if (judgeNumber(answer, 0, WEIGHT_TOLERANCE) === 'right') return { verdict, key: 'masking.ex.weight.zero', params };
    if (verdict === 'close') return { verdict, key: 'masking.ex.weight.close', params };
    return { verdict, key: answer > right ? 'masking.ex.weight.tooHigh' : 'masking.ex.weight.tooLow', params };
  },
  // The cell's place in the scores: outlined in ①.
  mark(view, instance) {
    view.markCell(instance?.cell ?? null);
  },
  solution(core, inputs, { cell }) {
    if (cell == null) return { key: 'masking.ex.weight.solutionNone' };
    const { right, length } = weightsAt(core, inputs, cell);
    return { key: 'masking.ex.weight.solution', params: { ...placeOf(cell), length, weight: decimals(right) } };
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
  right: 'zero',
  options: [
    { id: 'score', labelKey: 'masking.ex.concept.score', explanationKey: 'masking.ex.concept.scoreWhy' },
    { id: 'zero', labelKey: 'masking.ex.concept.zero', explanationKey: 'masking.ex.concept.zeroWhy' },
    { id: 'leftover', labelKey: 'masking.ex.concept.leftover', explanationKey: 'masking.ex.concept.leftoverWhy' },
    { id: 'keep', labelKey: 'masking.ex.concept.keep', explanationKey: 'masking.ex.concept.keepWhy' },
  ],
});

export const MASKING_EXERCISES = Object.freeze([weightAfterMasking, maskedWeight, setLengths]);
