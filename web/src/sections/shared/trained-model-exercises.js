// What the exercises of both sections that train a model in the page
// (attention-training, translation) read their answers through: the run the
// section's view holds, a kept run raced against it, and the core's answers
// about one model, kept.
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
// other setting the same but `idle` (those that only pace or end a run).
// Returns which reached the goal (95 % held-out, run-view's stepsToGoal) in
// fewer steps ('kept', 'live' or 'same'), and both runs; thrown, what to do
// first: `keys` { setUp, keepFirst, keptShort (quotes {steps}), trainOn
// (quotes {steps}) } and trainedRunFor's { pressPlay, trainLonger }.
export function raceWithKept(inputs, view, { setting, kept: keptValue, live: liveValue, idle, keys }) {
  if (inputs[setting] !== liveValue) throw new Error(t(keys.setUp));
  const free = new Set([...idle, setting]);
  const kept = (view?.keptRuns?.() ?? []).find((run) => {
    const settings = givenInputs(run.given, inputs);
    return settings[setting] === keptValue && changedSettings(inputs, settings).every((name) => free.has(name));
  });
  if (!kept) throw new Error(t(keys.keepFirst));
  if (kept.stepsToGoal === null) throw new Error(t(keys.keptShort, { steps: kept.step }));
  const live = trainedRunFor(inputs, view, { idle, keys });
  // Not there yet, and not yet past the kept run's step: the race is still on.
  if (live.stepsToGoal === null && live.step < kept.stepsToGoal) throw new Error(t(keys.trainOn, { steps: kept.stepsToGoal }));
  let faster = 'kept';
  if (live.stepsToGoal !== null && live.stepsToGoal <= kept.stepsToGoal) faster = live.stepsToGoal < kept.stepsToGoal ? 'live' : 'same';
  return { faster, kept, live };
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
