// Where the learner's progress on the exercises is kept: one key of the
// page's storage (localStorage in the page, a fake in tests), versioned,
// holding each exercise's entry (exercise-state.js) under "<section>.<id>".
// Nothing is sent anywhere, and the URL hash never carries it.
//
// Storage may refuse (a sandboxed iframe, a file:// page with storage off,
// a full quota): reading or writing then throws, and the store carries on
// in memory without a word. What is read is checked entry by entry: a
// garbled or hostile value is ignored, never trusted.
import { STATUSES, MAX_TRIES, initialEntry, reachable } from './exercise-state.js';

export const STORAGE_KEY = 'attention-lab:exercises';
export const VERSION = 1;
// An instance is a counter of "try another"; beyond this it is no counter.
const MAX_INSTANCE = 2 ** 31 - 1;

// An entry as stored, or null when it is not one.
export function validEntry(value) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { status, attempts, instance } = value;
  if (!STATUSES.includes(status)) return null;
  if (!Number.isInteger(attempts) || attempts < 0 || attempts > MAX_TRIES) return null;
  if (!Number.isInteger(instance) || instance < 0 || instance > MAX_INSTANCE) return null;
  if (status === 'open' && attempts !== 0) return null;
  return Object.freeze({ status, attempts, instance });
}

// An entry read from storage as the page takes it, or null: of valid shape,
// one the state machine could have made (exercise-state.js: reachable), and
// with an instance "Try another" can still count on from.
export function readEntry(value) {
  const entry = validEntry(value);
  return entry && entry.instance < MAX_INSTANCE ? reachable(entry) : null;
}

// The valid entries of a stored text, in an object without a prototype.
function parse(text) {
  const entries = Object.create(null);
  if (typeof text !== 'string') return entries;
  let stored;
  try {
    stored = JSON.parse(text);
  } catch {
    return entries;
  }
  if (typeof stored !== 'object' || stored === null || stored.version !== VERSION) return entries;
  const saved = stored.exercises;
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return entries;
  for (const [name, value] of Object.entries(saved)) {
    const entry = readEntry(value);
    if (entry && /^[\w-]+\.[\w-]+$/.test(name)) entries[name] = entry;
  }
  return entries;
}

// openStorage: returns the Storage to use; it may throw (reading
// window.localStorage does in a sandboxed iframe).
export function createProgressStore(openStorage = () => globalThis.localStorage) {
  let storage = null;
  try {
    storage = openStorage() ?? null;
  } catch {
    storage = null;
  }
  let memory = Object.create(null); // what is kept when storage refuses

  function read() {
    if (!storage) return memory;
    try {
      return parse(storage.getItem(STORAGE_KEY));
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
  // it) may have saved its own exercises meanwhile.
  function update(change) {
    const entries = Object.assign(Object.create(null), read());
    change(entries);
    write(entries);
  }

  return Object.freeze({
    get: (name) => read()[name] ?? initialEntry(),
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
