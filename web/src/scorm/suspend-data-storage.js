// The progress store's storage (exercises/progress-store.js takes any
// {getItem, setItem}) kept in the LMS: the store's one key is read from
// cmi.suspend_data at launch and written back on every change, together
// with the score and statuses it adds up to (outcome.js), committed at
// once. Wrapping the storage is how the package hears of every answer,
// "Reset my answers" included, without a hook in the exercise engine.
import { STORAGE_KEY, VERSION } from '../exercises/progress-store.js';
import { decodeSuspendData, encodeSuspendData } from './suspend-data.js';
import { outcome, MASTERY } from './outcome.js';

// session: scorm12.js's or scorm2004.js's; names: the package's exercises.
export function createSuspendDataStorage({ session, names }) {
  const mastery = session.mastery() ?? MASTERY;
  let entries = decodeSuspendData(session.suspendData());
  const report = () => session.report({ suspendData: encodeSuspendData(entries), outcome: outcome(entries, names, mastery) });
  // At launch too: a first launch turns "not attempted" into "incomplete",
  // and a package whose exercises changed reports what now holds.
  report();
  return Object.freeze({
    getItem: (key) => (key === STORAGE_KEY ? JSON.stringify({ version: VERSION, exercises: entries }) : null),
    setItem(key, value) {
      if (key !== STORAGE_KEY) return;
      const stored = JSON.parse(value);
      entries = stored?.exercises && typeof stored.exercises === 'object' ? stored.exercises : Object.create(null);
      report();
    },
  });
}
