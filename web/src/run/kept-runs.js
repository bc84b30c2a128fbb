// Runs a learner keeps to compare with the next ones ("Keep this run"):
// what a trained section pins of a run, and where it is kept. A kept run is
// its settings (those not at their defaults, as an exercise's answer binds
// them: exercises/given-settings.js), its held-out accuracy curve, its last
// loss, the time it took per step where it trained, and one attention map of
// its first example as the run ended. Every number is one the core gave the
// run (the time is the page's clock); nothing is recomputed here but which
// evaluation first reached the goal.
//
// Kept in the page's storage (localStorage), per section, at most MOST_KEPT
// each, so they survive a reload without training again: a run is
// deterministic from its settings and seed, but retraining three runs of
// thousands of steps would cost the learner seconds at every visit. The URL
// never carries them (a link shares the live settings; see the README).
// Storage may refuse (a sandboxed iframe, a full quota): the runs are then
// kept in memory for the visit. What is read is checked field by field, and
// a stored text longer than the lab writes is not parsed: tampered storage
// brings no run, never a wrong one's numbers in another's place.
import { givenOf, validGiven } from '../exercises/given-settings.js';

export const KEPT_STORAGE_KEY = 'attention-lab:kept-runs';
export const KEPT_VERSION = 1;
export const MOST_KEPT = 3;
// The held-out accuracy whose first reaching the comparison reports.
export const GOAL_ACCURACY = 0.95;
// Bounds of what the lab writes: the longest run (10,000 steps, an
// evaluation every 50, or more often for a short one) and the largest map.
const MOST_EVALUATIONS = 2000;
const MOST_MAP_SIDE = 64;
const MOST_NAME_CHARACTERS = 40;
const MOST_STORED_CHARACTERS = 512 * 1024;
const SECTION_ID = /^[a-z][a-z0-9-]{0,63}$/;

// The step of the first evaluation at or above `goal`, or null when none reached it.
export function stepsToReach(evaluatedAt, accuracy, goal = GOAL_ACCURACY) {
  const index = accuracy.findIndex((value) => value >= goal);
  return index < 0 ? null : evaluatedAt[index];
}

// A run's milliseconds a step where it trained (model-run.js's trainingMs), or null before a timed step.
export const msPerStepOf = ({ step, trainingMs }) => (step > 0 && trainingMs > 0 ? trainingMs / step : null);

// A run to keep. `inputs`: the section's inputs it trained for; `run`: the
// run view's state (model-run.js); `map`: { rows, cols, values, rowNames,
// colNames }, the attention map the section keeps of it.
export function keptRunOf({ inputs, run, map }) {
  return validKeptRun({
    given: givenOf(inputs),
    step: run.step,
    loss: run.losses.length > 0 ? run.losses[run.losses.length - 1] : null,
    evaluatedAt: Array.from(run.evaluatedAt),
    accuracy: Array.from(run.accuracy),
    msPerStep: msPerStepOf(run),
    map: { ...map, values: Array.from(map.values), rowNames: Array.from(map.rowNames), colNames: Array.from(map.colNames) },
  });
}

const isCount = (value, most) => Number.isInteger(value) && value >= 0 && value <= most;
const isShare = (value) => typeof value === 'number' && value >= 0 && value <= 1;
const isName = (value) => typeof value === 'string' && value.length <= MOST_NAME_CHARACTERS;
const orNull = (value, valid) => value === null || valid(value);

function validMap(value) {
  if (typeof value !== 'object' || value === null) return null;
  const { rows, cols, values, rowNames, colNames } = value;
  if (!isCount(rows, MOST_MAP_SIDE) || !isCount(cols, MOST_MAP_SIDE) || rows === 0 || cols === 0) return null;
  if (!Array.isArray(values) || values.length !== rows * cols || !values.every(isShare)) return null;
  if (!Array.isArray(rowNames) || rowNames.length !== rows || !rowNames.every(isName)) return null;
  if (!Array.isArray(colNames) || colNames.length !== cols || !colNames.every(isName)) return null;
  return Object.freeze({ rows, cols, values: Object.freeze([...values]), rowNames: Object.freeze([...rowNames]), colNames: Object.freeze([...colNames]) });
}

// A kept run as the page takes it, or null when it is not one the lab
// could have written: settings a control could hold, evaluations in order
// within the steps trained, accuracies and weights in [0, 1].
export function validKeptRun(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const given = validGiven(value.given);
  const { step, loss, evaluatedAt, accuracy, msPerStep } = value;
  if (!given || !isCount(step, 1e6) || step === 0) return null;
  if (!orNull(loss, Number.isFinite) || !orNull(msPerStep, (ms) => Number.isFinite(ms) && ms >= 0)) return null;
  if (!Array.isArray(evaluatedAt) || !Array.isArray(accuracy) || evaluatedAt.length !== accuracy.length) return null;
  if (evaluatedAt.length > MOST_EVALUATIONS || !accuracy.every(isShare)) return null;
  if (!evaluatedAt.every((at, i) => isCount(at, step) && at > 0 && (i === 0 || at > evaluatedAt[i - 1]))) return null;
  const map = validMap(value.map);
  if (!map) return null;
  return Object.freeze({
    given, step, loss, msPerStep, map,
    evaluatedAt: Object.freeze([...evaluatedAt]), accuracy: Object.freeze([...accuracy]),
    heldOut: accuracy.length > 0 ? accuracy[accuracy.length - 1] : null,
    stepsToGoal: stepsToReach(evaluatedAt, accuracy),
  });
}

// What is written of a run (its derived fields are derived again on reading).
const stored = ({ given, step, loss, msPerStep, map, evaluatedAt, accuracy }) => ({
  given, step, loss, msPerStep, map, evaluatedAt, accuracy,
});

// The kept runs of every section in a stored text, valid ones only.
function parse(text) {
  if (typeof text !== 'string' || text.length > MOST_STORED_CHARACTERS) return {};
  let saved;
  try {
    saved = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof saved !== 'object' || saved === null || saved.version !== KEPT_VERSION) return {};
  const { sections } = saved;
  if (typeof sections !== 'object' || sections === null || Array.isArray(sections)) return {};
  const runs = {};
  for (const [id, list] of Object.entries(sections)) {
    if (!SECTION_ID.test(id) || !Array.isArray(list)) continue;
    const valid = list.slice(0, MOST_KEPT).map(validKeptRun).filter(Boolean);
    if (valid.length > 0) runs[id] = valid;
  }
  return runs;
}

// The kept runs of section `sectionId`. openStorage: returns the Storage to
// use; it may throw (reading window.localStorage does in a sandboxed iframe).
/** @param {string} sectionId @param {() => Pick<Storage, 'getItem' | 'setItem'>} [openStorage] */
export function createKeptRunStore(sectionId, openStorage = () => globalThis.localStorage) {
  let storage = null;
  try {
    storage = openStorage() ?? null;
  } catch {
    storage = null;
  }
  let memory = {}; // every section's, when storage refuses
  // The last text read and its runs: a playing run asks at every frame.
  let last = { text: undefined, runs: {} };

  function readAll() {
    if (!storage) return memory;
    try {
      const text = storage.getItem(KEPT_STORAGE_KEY);
      if (text !== last.text) last = { text, runs: parse(text) };
      return last.runs;
    } catch {
      storage = null;
      return memory;
    }
  }
  // Read before every write: another lab of the page may have kept its own meanwhile.
  function update(change) {
    const all = { ...readAll() };
    all[sectionId] = change(all[sectionId] ?? []);
    if (all[sectionId].length === 0) delete all[sectionId];
    memory = all;
    if (!storage) return;
    const sections = Object.fromEntries(Object.entries(all).map(([id, list]) => [id, list.map(stored)]));
    try {
      storage.setItem(KEPT_STORAGE_KEY, JSON.stringify({ version: KEPT_VERSION, sections }));
    } catch {
      storage = null; // from now on in memory: memory already holds it
    }
  }

  return Object.freeze({
    list: () => readAll()[sectionId] ?? [],
    // Keeps a run (keptRunOf's); refused, with the reason, past MOST_KEPT.
    keep(run) {
      const valid = validKeptRun(run);
      if (!valid) throw new Error('run: not a run the lab can keep');
      if ((readAll()[sectionId] ?? []).length >= MOST_KEPT) throw new Error(`run: at most ${MOST_KEPT} runs are kept`);
      update((list) => [...list, valid]);
    },
    remove(index) {
      update((list) => list.filter((_, i) => i !== index));
    },
  });
}
