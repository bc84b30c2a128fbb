// @ts-check
// How an answer is judged. A number is right within the exercise's stated
// tolerance of the core's value, close within 10 % of it, else wrong; a
// choice is right when it is the right option, and each option brings its
// own explanation. The right value itself always comes from the core, for
// the state the learner sees (the section's declaration asks for it).
// A recognised mistake (an answer a named belief gives) is "not yet" with
// its explanation, never close, however near its number is: the check
// says so with mistake(), and the engine grades it by verdictOf().
/**
 * @typedef {import('./exercise-declaration.js').ExerciseDeclaration} ExerciseDeclaration
 * @typedef {import('./exercise-declaration.js').ExerciseOption} ExerciseOption
 * @typedef {import('./exercise-declaration.js').CheckResult} CheckResult
 * @typedef {ExerciseOption & { explanationKey: string }} ConceptOption a concept option explains itself
 */
export const CLOSE_SHARE = 0.1;
// A number typed at the tolerance's edge is right, whatever the rounding of the difference.
const EDGE = 1 + 1e-9;

/** @type {(answer: number, right: number, tolerance: number) => 'right' | 'close' | 'wrong'} */
export function judgeNumber(answer, right, tolerance) {
  if (!Number.isFinite(answer) || !Number.isFinite(right)) return 'wrong';
  const off = Math.abs(answer - right);
  if (off <= tolerance * EDGE) return 'right';
  return off <= CLOSE_SHARE * Math.abs(right) * EDGE ? 'close' : 'wrong';
}

// A check's result for a recognised mistake: its explanation, graded wrong.
/** @type {(key: string, params?: Record<string, unknown>) => Readonly<CheckResult>} */
export const mistake = (key, params = {}) => Object.freeze({ verdict: 'wrong', key, params, mistake: true });

// The verdict the engine records for a check's result.
/** @type {(result: CheckResult) => string} */
export const verdictOf = (result) => (result.mistake ? 'wrong' : result.verdict);

// A measure that must fall to `limit` (a make-it-happen goal): close within 10 % above it.
/** @type {(value: number, limit: number) => 'right' | 'close' | 'wrong'} */
export function judgeAtMost(value, limit) {
  if (Number.isNaN(value)) return 'wrong';
  if (value <= limit) return 'right';
  return value <= (1 + CLOSE_SHARE) * limit ? 'close' : 'wrong';
}

// A concept question: fixed options, one right, each with its explanation.
// Gives the declaration its check() and solution() from the options.
// Its type is the fields given and those it adds, so the declaration's
// typedef checks what a section wrote.
/**
 * @template {{ id: string, right: string, options: readonly ConceptOption[] }} Concept
 * @param {Concept} concept
 * @returns {Readonly<Concept & Pick<ExerciseDeclaration, 'kind' | 'check' | 'solution'>>}
 */
export function conceptExercise(concept) {
  const { id, right, options } = concept;
  /** @type {Map<string, ConceptOption>} */
  const byId = new Map(options.map((option) => [option.id, option]));
  const rightOption = byId.get(right);
  if (!rightOption) throw new Error(`${id}: the right option ${right} is not an option`);
  return Object.freeze({
    kind: 'concept',
    ...concept,
    check(core, inputs, answer) {
      const option = byId.get(answer);
      if (!option) return { verdict: 'wrong', key: 'exercises.pickFirst' };
      return { verdict: answer === right ? 'right' : 'wrong', key: option.explanationKey };
    },
    solution: () => ({ labelKey: rightOption.labelKey, explanationKey: rightOption.explanationKey }),
  });
}
