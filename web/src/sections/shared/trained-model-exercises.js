// What the exercises of both sections that train a model in the page
// (attention-training, translation) read their answers through: the run the
// section's view holds, a kept run raced against it, and the core's answers
// about one model, kept.
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { changedSettings, givenInputs } from '../../exercises/given-settings.js';

// The run the section's view holds (view.trainedRun()) when it trains for
// these inputs (all but `idle`, the ones that only pace or end the run) and
// has trained `minSteps` (step 0 allowed with `minSteps` 0); otherwise a
// sentence saying what to do first, thrown (the engine shows it and counts
// no try). `keys`: { pressPlay, trainLonger }, the sentences' catalogue
// keys (trainLonger quotes {steps} and {step}).
export function trainedRunFor(inputs, view, { idle, minSteps = 1, keys }) {
  const run = view?.trainedRun?.() ?? null;
  if (!run) throw new Error(t(keys.pressPlay));
  const same = Object.keys(inputs).every((name) => idle.includes(name) || Object.is(inputs[name], run.inputs[name]));
  if (!same || run.step < Math.min(1, minSteps)) throw new Error(t(keys.pressPlay));
  if (run.step < minSteps) throw new Error(t(keys.trainLonger, { steps: minSteps, step: run.step }));
  return run;
}

// The book's "what if" questions, raced on the runs on screen: a kept run
// with `setting` at `kept` and the live run with it at `live`, in every
// other setting the same but `idle` (those that only pace or end a run),
// where `applies(inputs)` (the section's model has the setting). Returns
// which reached the goal (95 % held-out, run-view's stepsToGoal) in fewer
// steps ('kept', 'live' or 'same'), and both runs; thrown, what to do
// first: `texts` { setUp, keepFirst, keptShort (quotes {steps}), trainOn
// (quotes {steps}), pressPlay, trainLonger (trainedRunFor's) }.
/**
 * @param {Record<string, *>} inputs
 * @param {*} view
 * @param {{ setting: string, kept: string, live: string, idle: string[], applies?: (inputs: Record<string, *>) => boolean, texts: Record<string, string> }} race
 */
export function raceWithKept(inputs, view, race) {
  const { setting, kept: keptValue, live: liveValue, idle, applies = () => true, texts } = race;
  if (inputs[setting] !== liveValue || !applies(inputs)) throw new Error(t(texts.setUp));
  const free = new Set([...idle, setting]);
  const kept = (view?.keptRuns?.() ?? []).find((run) => {
    const settings = givenInputs(run.given, inputs);
    return settings[setting] === keptValue && changedSettings(inputs, settings).every((name) => free.has(name));
  });
  if (!kept) throw new Error(t(texts.keepFirst));
  if (kept.stepsToGoal === null) throw new Error(t(texts.keptShort, { steps: kept.step }));
  const live = trainedRunFor(inputs, view, { idle, keys: texts });
  // Not there yet, and not yet past the kept run's step: the race is still on.
  if (live.stepsToGoal === null && live.step < kept.stepsToGoal) throw new Error(t(texts.trainOn, { steps: kept.stepsToGoal }));
  let faster = 'kept';
  if (live.stepsToGoal !== null && live.stepsToGoal <= kept.stepsToGoal) faster = live.stepsToGoal < kept.stepsToGoal ? 'live' : 'same';
  return { faster, kept, live };
}

const msText = (ms) => (ms === null ? '—' : formatNumber(ms, '.3~g'));

// A what-if prediction on raceWithKept: before Play, which of the two
// reaches 95 % in fewer steps (the options kept, live, same). `texts`
// holds raceWithKept's and question, hint, solutionUntrained, `options`
// and `faster` (keyed kept, live, same: the option labels, and the
// feedback by the faster, quoting each run's steps to 95 % as {<value>},
// its ms a step as {<value>Ms} and the live run's {step}); `figures` are
// the curve and comparison it covers, `play` the actions that start a run.
/**
 * @typedef {import('../../exercises/exercise-declaration.js').ExerciseDeclaration} ExerciseDeclaration
 * @param {{ id: string, tells: ExerciseDeclaration['tells'], setting: string, kept: string, live: string,
 *   idle: string[], applies?: (inputs: Record<string, *>) => boolean, texts: *, figures: string[], play: string[] }} race
 * @returns {Readonly<ExerciseDeclaration>}
 */
export function raceExercise(race) {
  const { id, tells, setting, kept, live, idle, applies = () => true, texts, figures, play } = race;
  const names = { kept, live, same: 'same' };
  const compared = (inputs, view) => {
    const race = raceWithKept(inputs, view, { setting, kept, live, idle, applies, texts });
    const params = { step: race.live.step };
    for (const side of ['kept', 'live']) {
      params[names[side]] = race[side].stepsToGoal ?? t('runs.notReached');
      params[`${names[side]}Ms`] = msText(race[side].msPerStep);
    }
    return { key: texts.faster[race.faster], answer: names[race.faster], params };
  };
  return Object.freeze({
    id,
    kind: 'predict',
    tells,
    questionKey: texts.question,
    hintKey: texts.hint,
    // The comparison and the live curve answer it once the live run trains.
    hides: figures,
    startedBy: play,
    startedWhen: (inputs) => inputs[setting] === live && applies(inputs),
    // The figures show its answer only beside a run of its live variant:
    // the live run (its curve), or a kept one (the comparison). Before, the
    // learner watches the baseline's curve to know when to keep it.
    coversWhen: (inputs, view) => [inputs, ...(view?.keptRuns?.() ?? []).map((run) => givenInputs(run.given, inputs))]
      .some((settings) => settings[setting] === live && applies(settings)),
    options: ['kept', 'live', 'same'].map((side) => ({ id: names[side], labelKey: texts.options[side] })),
    check(core, inputs, answer, instance, view) {
      const { key, answer: right, params } = compared(inputs, view);
      return { verdict: answer === right ? 'right' : 'wrong', key, params };
    },
    solution(core, inputs, instance, view) {
      try {
        const { key, params } = compared(inputs, view);
        return { key, params };
      } catch {
        return { key: texts.solutionUntrained };
      }
    },
  });
}

// What the core says of a model, kept per model object: the section's run
// hands out the same object until it trains again, and solution() is asked
// on every redraw while an answer is shown.
const memo = new WeakMap();
export function remembered(model, name, compute) {
  if (!memo.has(model)) memo.set(model, new Map());
  const known = memo.get(model);
  if (!known.has(name)) known.set(name, compute());
  return known.get(name);
}
