// The progress store's storage (exercises/progress-store.js takes any
// {getItem, setItem}) kept in the LMS: the store's one key is read from
// cmi.suspend_data at launch and written back on every change, together
// with the score and statuses it adds up to (outcome.js), committed at
// once. Wrapping the storage is how the package hears of every answer,
// "Reset my answers" included, without a hook in the exercise engine.
//
// What the LMS holds is read as the page reads it: only the package's own
// exercises, each entry as the progress store takes it (readEntry; a
// prediction's as its one check left it, revealed after a wrong or close
// answer), so the score and completion never count an answer other than
// the page shows, and text the page would not keep (another package's
// entries, impossible entries) is not written back. The text is fitted to
// the version's limit (1.2: 4,096 characters); when the LMS refuses a
// value, throws, or the answers do not fit, `onUnsaved` tells the page,
// which tells the learner.
//
// Each check and each answer shown is also told to the LMS as a record of
// it (cmi.interactions: interactions.js): the storage sees the entries
// before and after every change, and `describe` (the page's: the
// learner's answer on screen, the time taken) makes the records of the
// checks, reveals and fresh starts found between them.
import { STORAGE_KEY, VERSION, readEntry } from '../exercises/progress-store.js';
import { isFinished } from '../exercises/exercise-state.js';
import { decodeSuspendData, encodeSuspendData } from './suspend-data.js';
import { outcome, MASTERY } from './outcome.js';
import { answerEvents } from './interactions.js';

// The entries the package keeps, of `stored` (any object): its exercises'
// valid ones, the predictions' (`once`) as their one check left them.
function keptEntries(stored, known, once) {
  const kept = Object.create(null);
  if (typeof stored !== 'object' || stored === null) return kept;
  for (const [name, value] of Object.entries(stored)) {
    const entry = known.has(name) ? readEntry(value, { once: once.has(name) }) : null;
    if (entry) kept[name] = entry;
  }
  return kept;
}

// The most entries whose text fits `limit`, the finished ones first (the
// score stands on them), then the package's order: {entries, text, all}.
// Each entry's share of the text is counted once: a section's first entry
// brings ";section:", the others a ",".
// The settings an answer was given for go first: an answer kept without
// them still counts (it then follows the settings the page opens with).
function fitted(allEntries, names, limit) {
  const text = encodeSuspendData(allEntries);
  if (text.length <= limit) return { entries: allEntries, text, all: true };
  const entries = withoutSettings(allEntries);
  const bare = encodeSuspendData(entries);
  if (bare.length <= limit) return { entries, text: bare, all: true };
  const present = names.filter((name) => entries[name]);
  const order = [...present.filter((name) => isFinished(entries[name])), ...present.filter((name) => !isFinished(entries[name]))];
  const kept = Object.create(null);
  const sections = new Set();
  const empty = encodeSuspendData(kept).length;
  let length = empty;
  for (const name of order) {
    const alone = encodeSuspendData({ [name]: entries[name] }).length - empty; // ";section:id=..."
    if (alone <= 0) continue; // an entry at its start is not written
    const section = name.slice(0, name.indexOf('.'));
    const cost = sections.has(section) ? alone - section.length - 1 : alone;
    if (length + cost > limit) continue;
    kept[name] = entries[name];
    sections.add(section);
    length += cost;
  }
  return { entries: kept, text: encodeSuspendData(kept), all: false };
}

function withoutSettings(entries) {
  const bare = Object.create(null);
  for (const [name, entry] of Object.entries(entries)) {
    const rest = { ...entry };
    delete rest.given;
    bare[name] = Object.freeze(rest);
  }
  return bare;
}

// session: scorm12.js's or scorm2004.js's; names: the package's exercises;
// predictions: those of them that are predictions (one try each);
// mastery: the package's threshold, a share (the LMS's own wins);
// describe(events): the records (interaction-writer.js) of answerEvents' events.
// A session that throws while the storage is made (its first report
// included) throws here: launch.js then opens the plain lab.
export function createSuspendDataStorage({
  session, names, predictions = [], onUnsaved = () => {}, mastery: packageMastery = MASTERY, describe = /** @type {(events: object[]) => object[]} */ (() => []),
}) {
  const mastery = session.mastery() ?? packageMastery;
  const known = new Set(names);
  const once = new Set(predictions);
  let entries = keptEntries(decodeSuspendData(session.suspendData()), known, once);
  // The score of what is stored: an answer that did not fit is not counted.
  const report = (interactions = []) => {
    const fit = fitted(entries, names, session.suspendDataLimit);
    const saved = session.report({ suspendData: fit.text, outcome: outcome(fit.entries, names, mastery), interactions });
    if (!saved || !fit.all) onUnsaved();
  };
  // At launch too: a first launch turns "not attempted" into "incomplete",
  // and a package whose exercises changed reports what now holds.
  report();
  return Object.freeze({
    getItem: (key) => (key === STORAGE_KEY ? JSON.stringify({ version: VERSION, exercises: entries }) : null),
    setItem(key, value) {
      if (key !== STORAGE_KEY) return;
      const before = entries;
      entries = keptEntries(JSON.parse(value)?.exercises, known, once);
      // The records are the teacher's: one that cannot be made is left out, the answer stored all the same.
      let records = [];
      try {
        records = describe(answerEvents(before, entries, names));
      } catch {
        records = [];
      }
      // The learner keeps working whatever the LMS does now: its throw is an unsaved answer.
      try {
        report(records);
      } catch {
        onUnsaved();
      }
    },
  });
}
