// @ts-check
// What a section's exercise declares (its `exercises` list,
// sections/registry.js), for the engine of this folder to show, check and
// keep. Types only: tsc checks the sections' declarations against them
// (tests/web/declaration-types.test.mjs) and an editor shows them.

/**
 * The section's inputs (the parameters it lists, state.js), by name (any:
 * a declaration destructures the names it reads).
 * @typedef {any} ExerciseInputs
 */

/**
 * A check's result. A recognised mistake is made with mistake(key, params)
 * (judging.js): always 'wrong', with its explanation.
 * @typedef {object} CheckResult
 * @property {string} verdict 'right', 'close' or 'wrong'
 * @property {string} key the feedback's catalogue key
 * @property {Record<string, unknown>} [params] its placeholders
 * @property {boolean} [mistake] set by mistake()
 */

/**
 * The answer shown: a text, or for a choice the right option's label and explanation.
 * @typedef {{ key: string, params?: Record<string, unknown> } | { labelKey: string, explanationKey?: string }} Solution
 */

/**
 * One option of a choice (radios; checkboxes when `multiple`). A concept
 * option explains itself.
 * @typedef {object} ExerciseOption
 * @property {string} id
 * @property {string} labelKey
 * @property {string} [explanationKey]
 */

/**
 * An exercise, shown below its section's figures. `answer` is an option's id
 * (their ids, for several), a number (compute, predict without options), or
 * nothing for achieve (the section's state is the answer). `view` is the
 * section's view, for what it alone holds (a trained model). Every right
 * answer that depends on the data or the settings is asked of the core for
 * the inputs drawn; check() and solution() are cheap (a teacher's screen
 * calls solution() on every redraw) and never train. A concept question is
 * made with conceptExercise() (judging.js). A prediction has one try.
 * @typedef {object} ExerciseDeclaration
 * @property {string} id unique within its section
 * @property {string} kind 'concept', 'compute', 'achieve' or 'predict'
 *   (exercise-state.js's KINDS)
 * @property {string} questionKey
 * @property {string} hintKey
 * @property {readonly ExerciseOption[]} [options] a choice's options
 * @property {boolean} [multiple] true: checkboxes (a prediction of several)
 * @property {readonly string[]} [hides] a prediction's figures (their
 *   data-figure names), covered while it is open (it stands above the first)
 * @property {(inputs: ExerciseInputs, view: any) => boolean} [coversWhen]
 *   whether those figures can show its answer at these settings (and what
 *   the section view keeps, like kept runs); omitted, always. A question
 *   about one architecture leaves another's figures to the predictions
 *   about them.
 * @property {readonly string[]} [withholds] the catalogue keys of the texts
 *   that would answer a prediction (captions, notes, lists, tables,
 *   read-outs): every element saying one (data-i18n, data-i18n-rich or
 *   data-says) is withheld while it is open
 * @property {Readonly<Record<'en' | 'zh', readonly string[]>>} [tells] a
 *   prediction's give-away words and numbers, in each language: what its
 *   right option and right feedback say, which nothing outside its card and
 *   its covers may show while it is open (tests/browser/prediction-giveaways.test.mjs)
 * @property {readonly string[]} [looksAt] the figures (data-figure names)
 *   its hint and feedback send the learner to: while an open prediction
 *   covers one, they say so, and how to uncover it
 * @property {readonly string[]} [startedBy] the controls (data-action) that
 *   start what the text says to watch: they show the figures at once, the
 *   prediction marked skipped (and a prediction checked before its run is
 *   committed, checked once trained)
 * @property {(inputs: ExerciseInputs) => boolean} [startedWhen] when those
 *   controls start what the prediction asks about (the run without
 *   leave-one-out, not any run); omitted, always
 * @property {(core: any, inputs: ExerciseInputs, answer: any, instance: any, view: any) => CheckResult} check
 * @property {(core: any, inputs: ExerciseInputs, instance: any, view: any) => Solution} solution
 * @property {(core: any, inputs: ExerciseInputs, index: number) => any} [draw]
 *   "Try another": the instance of that index
 * @property {(instance: any, inputs: ExerciseInputs) => Record<string, unknown>} [questionParams]
 *   the question's, hint's and options' placeholders
 * @property {(view: any, instance: any) => void} [mark] points into the section's figures
 */

export {};
