// The exercises' progress store (web/src/exercises/progress-store.js) over
// a Map-backed fake of localStorage: one versioned key for the page, entries
// checked on read, and storage that refuses degrading to memory silently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeStorage } from './fake-storage.mjs';
import {
  createProgressStore, isExerciseName, STORAGE_KEY, VERSION, MAX_STORED_CHARACTERS,
} from '../../web/src/exercises/progress-store.js';
import { afterCheck, initialEntry, another, reveal, isFinished, STATUSES, VERDICTS, MAX_TRIES } from '../../web/src/exercises/exercise-state.js';
import { SECTIONS } from '../../web/src/sections/registry.js';

const wrongOnce = afterCheck(initialEntry(), 'wrong');

test('entries are kept under one versioned key and read back by a new store (a reload)', () => {
  const storage = fakeStorage();
  const progress = createProgressStore(() => storage);
  assert.deepEqual({ ...progress.get('pooling.read-prediction') }, { ...initialEntry() }, 'nothing kept: open');
  progress.set('pooling.read-prediction', wrongOnce);
  progress.set('pooling.average-query', afterCheck(initialEntry(), 'right'));
  assert.deepEqual([...storage.items.keys()], [STORAGE_KEY], 'one key for the page');
  const stored = JSON.parse(storage.getItem(STORAGE_KEY));
  assert.equal(stored.version, VERSION);
  assert.deepEqual(stored.exercises['pooling.read-prediction'], { status: 'wrong', attempts: 1, instance: 0 });
  const reloaded = createProgressStore(() => storage);
  assert.equal(reloaded.get('pooling.average-query').status, 'right');
  assert.deepEqual({ ...reloaded.get('pooling.read-prediction') }, { ...wrongOnce });
});

test('"Reset my answers" forgets a section\'s exercises and no others', () => {
  const storage = fakeStorage();
  const progress = createProgressStore(() => storage);
  progress.set('pooling.a', wrongOnce);
  progress.set('pooling.b', another(wrongOnce));
  progress.set('data.c', wrongOnce);
  progress.clear(['pooling.a', 'pooling.b']);
  assert.equal(progress.get('pooling.a').status, 'open');
  assert.equal(progress.get('pooling.b').instance, 0);
  assert.equal(createProgressStore(() => storage).get('data.c').status, 'wrong');
});

test('two labs of one page keep each other\'s entries (each write reads first)', () => {
  const storage = fakeStorage();
  const one = createProgressStore(() => storage);
  const other = createProgressStore(() => storage);
  one.set('pooling.a', wrongOnce);
  other.set('data.b', wrongOnce);
  assert.equal(createProgressStore(() => storage).get('pooling.a').status, 'wrong');
});

test('garbled or hostile storage is ignored, entry by entry', () => {
  const cases = {
    'not JSON': '{"version":1,',
    'another version': JSON.stringify({ version: 99, exercises: { 'pooling.a': { status: 'right', attempts: 1, instance: 0 } } }),
    'a list': JSON.stringify([1, 2]),
    'null': 'null',
    'exercises a string': JSON.stringify({ version: VERSION, exercises: 'right' }),
  };
  for (const [label, text] of Object.entries(cases)) {
    const progress = createProgressStore(() => fakeStorage({ [STORAGE_KEY]: text }));
    assert.equal(progress.get('pooling.a').status, 'open', label);
  }
  const mixed = JSON.stringify({
    version: VERSION,
    exercises: {
      'pooling.good': { status: 'close', attempts: 2, instance: 3 },
      'pooling.status': { status: 'winner', attempts: 1, instance: 0 },
      'pooling.attempts': { status: 'wrong', attempts: 1e9, instance: 0 },
      'pooling.fraction': { status: 'wrong', attempts: 1.5, instance: 0 },
      'pooling.instance': { status: 'wrong', attempts: 1, instance: -1 },
      'pooling.open': { status: 'open', attempts: 2, instance: 0 },
      'pooling.text': '<img src=x onerror=alert(1)>',
      'not a name': { status: 'right', attempts: 1, instance: 0 },
    },
  }).replace('{"pooling.good"', '{"__proto__":{"status":"right","attempts":1,"instance":0},"pooling.good"');
  assert.match(mixed, /"__proto__"/);
  const progress = createProgressStore(() => fakeStorage({ [STORAGE_KEY]: mixed }));
  assert.deepEqual({ ...progress.get('pooling.good') }, { status: 'close', attempts: 2, instance: 3 });
  for (const name of ['status', 'attempts', 'fraction', 'instance', 'open', 'text']) {
    assert.equal(progress.get(`pooling.${name}`).status, 'open', name);
  }
  assert.equal(progress.get('not a name').status, 'open');
  assert.equal(({}).status, undefined, 'no prototype was touched');
  assert.throws(() => progress.set('pooling.x', { status: 'right', attempts: 9, instance: 0 }), /not an exercise entry/);
});

// What a transition of an entry read from storage must give: an entry the store saves.
function everyTransitionSaves(progress, name, label) {
  const entry = progress.get(name);
  const nexts = [...VERDICTS.flatMap((verdict) => [afterCheck(entry, verdict), afterCheck(entry, verdict, { once: true })]),
    reveal(entry), another(entry)];
  for (const next of nexts) {
    assert.doesNotThrow(() => progress.set(name, next), `${label}: ${JSON.stringify(next)}`);
    progress.set(name, entry); // back to the entry as read, for the next transition
  }
}

test('an entry the exercise state machine cannot make is read as one it can; Check and Show answer then save', () => {
  const tampered = (value) => JSON.stringify({ version: VERSION, exercises: { 'pooling.average-query': value } });
  const cases = [
    [{ status: 'wrong', attempts: 3, instance: 0 }, { status: 'revealed', attempts: 3, instance: 0 }],
    [{ status: 'close', attempts: 3, instance: 4 }, { status: 'revealed', attempts: 3, instance: 4 }],
    [{ status: 'right', attempts: 0, instance: 2 }, { status: 'open', attempts: 0, instance: 2 }],
    [{ status: 'wrong', attempts: 0, instance: 0 }, { status: 'open', attempts: 0, instance: 0 }],
    // "Try another" from the largest instance would make one the store refuses.
    [{ status: 'right', attempts: 1, instance: 2 ** 31 - 1 }, { status: 'open', attempts: 0, instance: 0 }],
  ];
  for (const [stored, read] of cases) {
    const storage = fakeStorage({ [STORAGE_KEY]: tampered(stored) });
    const progress = createProgressStore(() => storage);
    assert.deepEqual({ ...progress.get('pooling.average-query') }, read, JSON.stringify(stored));
    everyTransitionSaves(progress, 'pooling.average-query', JSON.stringify(stored));
  }
});

// The fuzzer's class: every entry of valid shape, as tampered storage may hold it.
test('fuzz: whatever entry storage holds, every transition of it as read is one the store saves', () => {
  let cases = 0;
  for (const status of [...STATUSES, 'winner']) {
    for (let attempts = -1; attempts <= MAX_TRIES + 1; attempts += 1) {
      for (const instance of [0, 1, 2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31]) {
        const value = { status, attempts, instance };
        const storage = fakeStorage({ [STORAGE_KEY]: JSON.stringify({ version: VERSION, exercises: { 'pooling.b': value } }) });
        everyTransitionSaves(createProgressStore(() => storage), 'pooling.b', JSON.stringify(value));
        cases += 1;
      }
    }
  }
  assert.equal(cases, 6 * 6 * 5);
});

test('storage that throws (a sandboxed iframe, storage disabled, a full quota) degrades to memory silently', () => {
  const refusing = () => {
    throw new DOMException('The document is sandboxed', 'SecurityError');
  };
  const noAccess = createProgressStore(refusing);
  noAccess.set('pooling.a', wrongOnce);
  assert.equal(noAccess.get('pooling.a').status, 'wrong', 'kept in memory');
  noAccess.clear(['pooling.a']);
  assert.equal(noAccess.get('pooling.a').status, 'open');

  const full = fakeStorage();
  full.setItem = () => {
    throw new DOMException('quota', 'QuotaExceededError');
  };
  const fullStore = createProgressStore(() => full);
  fullStore.set('pooling.a', wrongOnce);
  assert.equal(fullStore.get('pooling.a').status, 'wrong', 'kept in memory when writing fails');

  const unreadable = fakeStorage();
  unreadable.getItem = () => {
    throw new Error('denied');
  };
  const unreadableStore = createProgressStore(() => unreadable);
  assert.equal(unreadableStore.get('pooling.a').status, 'open');
  unreadableStore.set('pooling.a', wrongOnce);
  assert.equal(unreadableStore.get('pooling.a').status, 'wrong');

  const none = createProgressStore(() => undefined);
  none.set('pooling.a', wrongOnce);
  assert.equal(none.get('pooling.a').status, 'wrong', 'no storage at all (Node): memory');
});

const stored = (storage) => JSON.parse(storage.getItem(STORAGE_KEY)).exercises;
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

test('every exercise of the lab has a name the store keeps; names of no section of the lab are not kept', () => {
  const names = SECTIONS.flatMap(({ id, exercises = [] }) => exercises.map((exercise) => `${id}.${exercise.id}`));
  assert.ok(names.length > 40, `${names.length} exercises`);
  for (const name of names) assert.ok(isExerciseName(name), name);
  for (const name of ['other.x', 'pooling', 'pooling.', '.x', 'pooling.x.y', 'Pooling.x', `pooling.${'x'.repeat(65)}`, 42, null,
    ...PROTOTYPE_NAMES, ...PROTOTYPE_NAMES.flatMap((member) => [`${member}.x`, `pooling.${member}`, `${member}.${member}`])]) {
    if (name !== 'pooling.constructor') assert.equal(isExerciseName(name), false, String(name));
  }
});

test('stored names after members of Object.prototype are no exercises: read as nothing, not written back', () => {
  const good = { status: 'right', attempts: 1, instance: 0 };
  const hostile = Object.fromEntries([...PROTOTYPE_NAMES, ...PROTOTYPE_NAMES.map((member) => `${member}.x`),
    ...PROTOTYPE_NAMES.map((member) => `pooling.${member}`), 'toString.valueOf'].map((name) => [name, good]));
  const text = JSON.stringify({ version: VERSION, exercises: { ...hostile, 'pooling.average-query': good } })
    .replace('{"constructor"', '{"__proto__":{"status":"right","attempts":1,"instance":0},"constructor"');
  assert.match(text, /"__proto__":/);
  const storage = fakeStorage({ [STORAGE_KEY]: text });
  const progress = createProgressStore(() => storage);
  for (const name of [...PROTOTYPE_NAMES, ...Object.keys(hostile)]) {
    if (name === 'pooling.constructor') continue; // a name the lab could give: kept as any other
    assert.deepEqual({ ...progress.get(name) }, { ...initialEntry() }, name);
    assert.deepEqual({ ...progress.get(name, { once: true }) }, { ...initialEntry() }, `${name} as a prediction`);
  }
  assert.equal(progress.get('pooling.average-query').status, 'right');
  progress.set('pooling.read-prediction', wrongOnce);
  assert.deepEqual(Object.keys(stored(storage)).sort(), ['pooling.average-query', 'pooling.constructor', 'pooling.read-prediction']);
  assert.equal(({}).status, undefined, 'no prototype was touched');
  // In memory (storage refused) the same names are the same nothing.
  const memory = createProgressStore(() => undefined);
  for (const name of PROTOTYPE_NAMES) assert.deepEqual({ ...memory.get(name) }, { ...initialEntry() }, `memory: ${name}`);
});

test('a prediction stored as wrong or close is read as its one check left it, revealed, and written back so', () => {
  for (const status of ['wrong', 'close']) {
    const storage = fakeStorage({
      [STORAGE_KEY]: JSON.stringify({
        version: VERSION,
        exercises: {
          'pooling.narrower-kernel': { status, attempts: 1, instance: 0 },
          'pooling.average-query': { status, attempts: 1, instance: 2 },
        },
      }),
    });
    const progress = createProgressStore(() => storage);
    const prediction = progress.get('pooling.narrower-kernel', { once: true });
    assert.deepEqual({ ...prediction }, { status: 'revealed', attempts: 1, instance: 0 }, status);
    assert.ok(isFinished(prediction), `${status}: nothing left to check`);
    // Asked again without saying so (the contents bar of another lab): the same.
    assert.equal(progress.get('pooling.narrower-kernel').status, 'revealed');
    // An exercise of several tries keeps them.
    assert.deepEqual({ ...progress.get('pooling.average-query') }, { status, attempts: 1, instance: 2 });
    // The next write stores the prediction as read.
    progress.set('pooling.average-query', afterCheck(progress.get('pooling.average-query'), 'right'));
    assert.deepEqual(stored(storage)['pooling.narrower-kernel'], { status: 'revealed', attempts: 1, instance: 0 });
    assert.deepEqual(stored(storage)['pooling.average-query'], { status: 'right', attempts: 2, instance: 2 });
    // A new instance ("Try another") of the prediction starts open.
    progress.set('pooling.narrower-kernel', another(prediction));
    assert.deepEqual({ ...progress.get('pooling.narrower-kernel', { once: true }) }, { status: 'open', attempts: 0, instance: 1 });
  }
});

// Counts JSON.parse's calls while `run` runs.
function countingParses(run) {
  const parse = JSON.parse;
  let calls = 0;
  JSON.parse = (...args) => {
    calls += 1;
    return parse(...args);
  };
  try {
    run();
  } finally {
    JSON.parse = parse;
  }
  return calls;
}

test('what a load reads is bounded: text longer than the lab writes is not parsed, a text is parsed once, and only the lab\'s is written back', () => {
  const lab = { 'pooling.average-query': { status: 'right', attempts: 1, instance: 0 } };
  // 4 MB under the lab's key: a record with the lab's entry and megabytes of others.
  const junk = Object.fromEntries(Array.from({ length: 60000 }, (_, i) => [`other.exercise-${i}`, { status: 'right', attempts: 1, instance: 0 }]));
  const huge = JSON.stringify({ version: VERSION, exercises: { ...lab, ...junk } });
  assert.ok(huge.length > 4e6, `${huge.length} characters`);
  const storage = fakeStorage({ [STORAGE_KEY]: huge });
  const progress = createProgressStore(() => storage);
  const names = SECTIONS.flatMap(({ id, exercises = [] }) => exercises.map((exercise) => `${id}.${exercise.id}`));
  assert.equal(countingParses(() => {
    for (const name of names) assert.equal(progress.get(name).status, 'open', name);
  }), 0, 'never parsed');
  progress.set('pooling.read-prediction', wrongOnce);
  assert.ok(storage.getItem(STORAGE_KEY).length < 200, 'written back: the lab\'s entries alone');
  assert.deepEqual(Object.keys(stored(storage)), ['pooling.read-prediction']);

  // Within the bound: parsed once for every exercise's read, others' entries dropped on the next write.
  const some = Object.fromEntries(Object.entries(junk).slice(0, 3000));
  const within = JSON.stringify({ version: VERSION, exercises: { ...lab, ...some } });
  assert.ok(within.length > 100000 && within.length < MAX_STORED_CHARACTERS, `${within.length} characters`);
  const second = fakeStorage({ [STORAGE_KEY]: within });
  const reading = createProgressStore(() => second);
  assert.equal(countingParses(() => {
    for (const name of names) reading.get(name);
  }), 1, 'parsed once');
  assert.equal(reading.get('pooling.average-query').status, 'right');
  reading.set('pooling.read-prediction', wrongOnce);
  assert.deepEqual(Object.keys(stored(second)).sort(), ['pooling.average-query', 'pooling.read-prediction']);
  assert.ok(countingParses(() => reading.get('pooling.average-query')) <= 1, 'a text written since is read again');
});

test('an entry keeps the settings it was given for and an open prediction its committed answer; hostile values of either are dropped, the entry kept', () => {
  const storage = fakeStorage();
  const store = createProgressStore(() => storage);
  const given = Object.freeze({ peDim: 48, maskMode: '2d', leaveOneOut: false });
  store.set('positional.entry-value', { ...afterCheck(initialEntry(), 'right'), given });
  store.set('translation.where-eight-looks', { ...initialEntry(), committed: 'eighty' });
  const again = createProgressStore(() => storage);
  assert.deepEqual({ ...again.get('positional.entry-value').given }, given);
  assert.equal(again.get('translation.where-eight-looks', { once: true }).committed, 'eighty');
  // Checked or shown, the committed answer is gone and the settings stay.
  const checked = afterCheck({ ...initialEntry(), committed: 'eighty', given }, 'wrong', { once: true });
  assert.equal(checked.committed, undefined);
  assert.deepEqual(checked.given, given);
  assert.equal(reveal({ ...initialEntry(), committed: 3 }).committed, undefined);
  for (const [given, committed] of [
    [{ peDim: '48' }, 'constructor x'], [{ peDim: null }, Number.NaN], [{ language: 'zh' }, []],
    [{ peDim: 48.5 }, { length: 1, 0: 'eighty' }], [[48], Array(17).fill('a')], [{ nothing: 1 }, [1]],
    [Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`x${i}`, i])), Infinity],
  ]) {
    storage.setItem(STORAGE_KEY, JSON.stringify({
      version: VERSION,
      exercises: {
        'positional.entry-value': { status: 'right', attempts: 1, instance: 0, given },
        'translation.where-eight-looks': { status: 'open', attempts: 0, instance: 0, committed },
      },
    }));
    const read = createProgressStore(() => storage);
    assert.deepEqual({ ...read.get('positional.entry-value') }, { status: 'right', attempts: 1, instance: 0 }, JSON.stringify(given));
    assert.deepEqual({ ...read.get('translation.where-eight-looks', { once: true }) }, initialEntry(), String(committed));
  }
  // A committed answer is an open prediction's only.
  storage.setItem(STORAGE_KEY, JSON.stringify({ version: VERSION, exercises: { 'translation.where-eight-looks': { status: 'right', attempts: 1, instance: 0, committed: 'eighty' } } }));
  assert.equal(createProgressStore(() => storage).get('translation.where-eight-looks').committed, undefined);
});
