// What the exercises of both sections that train a model in the page
// (attention-training, translation) read their answers through: the run the
// section's view holds, and the core's answers about one model, kept.
import { t } from '../../i18n/index.js';

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
