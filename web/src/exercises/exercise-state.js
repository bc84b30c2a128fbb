// One exercise's progress as a state machine, without the DOM: its status
// (open, wrong, close, right, revealed), the tries made on this instance and
// which instance it is ("try another" draws the next). The hint shows after
// a try that was not right, while the question is still open to another
// (wrong or close): once the answer is shown, or a prediction's one try is
// made, it has nothing left to help with. The answer shows on request or after
// MAX_TRIES tries. A prediction is committed once: its first check that is
// not right shows the answer at once (the figure it hid now gives it away,
// so a second try would teach nothing). Every transition returns a new entry.
//
// An entry may also hold `given`: the settings its first check or its
// shown answer was for (given-settings.js), kept by every transition until
// a fresh start; and, on an open prediction, `committed`: the answer made
// before the run it is about, checked once the run has trained.
export const STATUSES = Object.freeze(['open', 'wrong', 'close', 'right', 'revealed']);
export const KINDS = Object.freeze(['predict', 'compute', 'achieve', 'concept']);
export const VERDICTS = Object.freeze(['right', 'close', 'wrong']);
export const MAX_TRIES = 3;

export const initialEntry = (instance = 0) => Object.freeze({ status: 'open', attempts: 0, instance });

// Right or revealed: nothing left to check on this instance.
export const isFinished = ({ status }) => status === 'right' || status === 'revealed';

// A check's verdict ('right', 'close' or 'wrong') applied to the entry;
// `once`: a prediction's, which has one try.
export function afterCheck(entry, verdict, { once = false } = {}) {
  if (!VERDICTS.includes(verdict)) throw new Error(`${verdict}: not a verdict`);
  if (isFinished(entry)) return entry;
  const attempts = entry.attempts + 1;
  let status = verdict;
  if (verdict !== 'right' && (once || attempts >= MAX_TRIES)) status = 'revealed';
  return Object.freeze({ ...withoutCommitted(entry), status, attempts });
}

// A stored entry (of valid shape: progress-store.js) as one this machine
// could have made, for storage that was tampered with or written by
// something else: a check counts one try, so "right" has at least one and
// "wrong" or "close" fewer than MAX_TRIES (the last try reveals). Past
// them it is revealed, never credited; a right without a try was never
// checked, and starts again. Without this an impossible entry gets stuck:
// its next transition makes an entry the store refuses. `once`: the entry
// is a prediction's, which has one try: "wrong" or "close" is read as its
// check left it, revealed (afterCheck with once), never as a try to repeat.
export function reachable(entry, { once = false } = {}) {
  const { status, attempts, instance } = entry;
  const given = entry.given ? { given: entry.given } : {};
  if ((status === 'wrong' || status === 'close') && attempts >= MAX_TRIES) return Object.freeze({ status: 'revealed', attempts: MAX_TRIES, instance, ...given });
  if ((status === 'wrong' || status === 'close' || status === 'right') && attempts === 0) return initialEntry(instance);
  if ((status === 'wrong' || status === 'close') && once) return Object.freeze({ status: 'revealed', attempts, instance, ...given });
  if (status !== 'open' && entry.committed !== undefined) return Object.freeze(withoutCommitted(entry));
  return entry;
}

export const reveal = (entry) => (entry.status === 'right' ? entry : Object.freeze({ ...withoutCommitted(entry), status: 'revealed' }));

// The entry bound to the settings `given` (given-settings.js's givenOf),
// unless it already is: the first binding stays.
export const bound = (entry, given) => (entry.given ? entry : Object.freeze({ ...entry, given }));

// An open prediction's answer made before its run (an option's id, the
// ids of several, or a number), kept until it is checked.
export const commit = (entry, answer) => Object.freeze({ ...entry, committed: answer });

function withoutCommitted(entry) {
  const rest = { ...entry };
  delete rest.committed;
  return rest;
}

// "Try another": a fresh start on the next instance.
export const another = (entry) => initialEntry(entry.instance + 1);

export const hintShown = ({ status, attempts }) => attempts >= 1 && (status === 'wrong' || status === 'close');

export const answerShown = ({ status }) => status === 'revealed';
