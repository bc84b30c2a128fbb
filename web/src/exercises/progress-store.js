// Where the learner's progress on the exercises is kept: one key of the
// page's storage (localStorage in the page, a fake in tests), versioned,
// holding each exercise's entry (exercise-state.js) under "<section>.<id>".
// Nothing is sent anywhere, and the URL hash never carries it.
//
// Storage may refuse (a sandboxed iframe, a file:// page with storage off,
// a full quota): reading or writing then throws, and the store carries on
// in memory without a word. What is read is checked entry by entry: a
// garbled or hostile value is ignored, never trusted. What is read is
// bounded too: a stored text longer than any the lab writes is not parsed
// at all, only the lab's own exercises are kept (named "<section>.<id>" by
// a section of the lab), and a write puts back only those.
//
// A prediction has one try (exercise-state.js): an entry the page reads as
// a prediction's (get(name, { once: true })) is taken as its check left it,
// a "wrong" or "close" as revealed, and written back so.
import { STATUSES, MAX_TRIES, initialEntry, reachable } from './exercise-state.js';
import { validGiven } from './given-settings.js';
import { SECTION_IDS } from '../sections/section-loaders.js';

export const STORAGE_KEY = 'attention-lab:exercises';
export const VERSION = 1;
// An instance is a counter of "try another"; beyond this it is no counter.
const MAX_INSTANCE = 2 ** 31 - 1;
// The longest stored text read, in characters: every exercise of the lab
// at its longest takes a few kilobytes, so anything near this is not the
// lab's (text of another program, or junk), and is not parsed.
export const MAX_STORED_CHARACTERS = 256 * 1024;
// "<section>.<id>", both in kebab case as the lab names them (a test checks every exercise's).
const NAME = /^([a-z][a-z0-9-]{0,63})\.([a-z][a-z0-9-]{0,63})$/;

// Whether `name` can be one of the lab's exercises: "<section>.<id>", the
// section one of the lab's, by its own id (no "__proto__.x", no "constructor.x").
export function isExerciseName(name) {
  const match = typeof name === 'string' ? NAME.exec(name) : null;
  return match !== null && SECTION_IDS.includes(match[1]);
}

// An option's id as the lab names them; a prediction of several picks at most this many.
const OPTION_ID = /^[A-Za-z][\w-]{0,63}$/;
const MAX_PICKED = 16;

// A committed answer as stored (exercise-state.js: commit), or undefined:
// an option's id, the ids of several, or a finite number. The exercise
// checks it is one of its own answers before it shows it.
export function validCommitted(value) {
  if (typeof value === 'string') return OPTION_ID.test(value) ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_PICKED) return undefined;
  return value.every((id) => typeof id === 'string' && OPTION_ID.test(id)) ? Object.freeze([...value]) : undefined;
}

// An entry as stored, or null when it is not one. Its `given` settings and
// its committed answer are kept only when they are valid (and an answer
// only on an open entry); without them it is still an entry.
export function validEntry(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { status, attempts, instance } = value;
  if (!STATUSES.includes(status)) return null;
  if (!Number.isInteger(attempts) || attempts < 0 || attempts > MAX_TRIES) return null;
  if (!Number.isInteger(instance) || instance < 0 || instance > MAX_INSTANCE) return null;
  if (status === 'open' && attempts !== 0) return null;
  const entry = { status, attempts, instance };
  const given = Object.hasOwn(value, 'given') ? validGiven(value.given) : null;
  if (given) entry.given = given;
  const committed = status === 'open' && Object.hasOwn(value, 'committed') ? validCommitted(value.committed) : undefined;
  if (committed !== undefined) entry.committed = committed;
  return Object.freeze(entry);
}

// An entry read from storage as the page takes it, or null: of valid shape,
// one the state machine could have made (exercise-state.js: reachable; a
// prediction's, `once`, as its one check left it), and with an instance
// "Try another" can still count on from.
export function readEntry(value, { once = false } = {}) {
  const entry = validEntry(value);
  return entry && entry.instance < MAX_INSTANCE ? reachable(entry, { once }) : null;
}

const NOTHING = Object.freeze(Object.create(null));

// The valid entries of the lab's exercises (`known` names) in a stored text,
// in a frozen object without a prototype; nothing for text longer than the lab writes.
function parse(text, known) {
  if (typeof text !== 'string' || text.length > MAX_STORED_CHARACTERS) return NOTHING;
  let stored;
  try {
    stored = JSON.parse(text);
  } catch {
    return NOTHING;
  }
  if (typeof stored !== 'object' || stored === null || stored.version !== VERSION) return NOTHING;
  const saved = stored.exercises;
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return NOTHING;
  const entries = Object.create(null);
  for (const [name, value] of Object.entries(saved)) {
    const entry = known(name) ? readEntry(value) : null;
    if (entry) entries[name] = entry;
  }
  return Object.freeze(entries);
}

// openStorage: returns the Storage to use; it may throw (reading
// window.localStorage does in a sandboxed iframe). known(name): whether a
// stored name is one of the exercises kept (the lab's, unless told).
/**
 * @param {() => Pick<Storage, 'getItem' | 'setItem'>} [openStorage]
 * @param {{ known?: (name: string) => boolean }} [options]
 */
export function createProgressStore(openStorage = () => globalThis.localStorage, { known = isExerciseName } = {}) {
  let storage = null;
  try {
    storage = openStorage() ?? null;
  } catch {
    storage = null;
  }
  let memory = Object.create(null); // what is kept when storage refuses
  // The last text read and its entries: a page asks for every exercise's
  // entry as it builds, and the same text is parsed once.
  let last = { text: null, entries: NOTHING };
  // The exercises read as predictions: their entries are written as read.
  const predictions = new Set();

  function read() {
    if (!storage) return memory;
    try {
      const text = storage.getItem(STORAGE_KEY);
      if (typeof text !== 'string' || text.length > MAX_STORED_CHARACTERS) return NOTHING;
      if (text !== last.text) last = { text, entries: parse(text, known) };
      return last.entries;
    } catch {
      storage = null;
      return memory;
    }
  }

  function write(entries) {
    memory = entries;
    if (!storage) return;
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify({ version: VERSION, exercises: entries }));
    } catch {
      storage = null; // from now on in memory: memory already holds it
    }
  }

  // Read before every write: another lab of the page (an element beside
  // it) may have saved its own exercises meanwhile. Written: the lab's
  // entries only, each prediction's as the page reads it.
  function update(change) {
    const entries = Object.assign(Object.create(null), read());
    change(entries);
    for (const name of predictions) {
      if (entries[name]) entries[name] = reachable(entries[name], { once: true });
    }
    write(entries);
  }

  return Object.freeze({
    // once: the exercise is a prediction (one try); remembered for the writes.
    get(name, { once = false } = {}) {
      if (once && known(name)) predictions.add(name);
      const entry = read()[name];
      return entry ? reachable(entry, { once: once || predictions.has(name) }) : initialEntry();
    },
    set(name, entry) {
      const valid = validEntry(entry);
      if (!valid) throw new Error(`${name}: not an exercise entry`);
      update((entries) => {
        entries[name] = valid;
      });
    },
    // Forgets the given exercises (a section's "Reset my answers").
    clear(names) {
      update((entries) => {
        for (const name of names) delete entries[name];
      });
    },
  });
}
