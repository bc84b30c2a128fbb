// The SCORM package's memory (web/src/scorm/): the compact suspend_data
// text (suspend-data.js), what it adds up to (outcome.js), and the progress
// store kept through an LMS session (suspend-data-storage.js) with the real
// progress store over it. The exercises are the registry's, however many it
// holds when this runs: SCORM 1.2 keeps at most 4096 characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { createProgressStore } from '../../web/src/exercises/progress-store.js';
import { MAX_TRIES } from '../../web/src/exercises/exercise-state.js';
import { encodeSuspendData, decodeSuspendData } from '../../web/src/scorm/suspend-data.js';
import { outcome, MASTERY } from '../../web/src/scorm/outcome.js';
import { createSuspendDataStorage } from '../../web/src/scorm/suspend-data-storage.js';
import { exerciseNames } from '../../web/src/scorm/package-exercises.js';

const SCORM12_SUSPEND_DATA_LIMIT = 4096;
const ALL = exerciseNames(SECTIONS);
const entry = (status, attempts, instance = 0) => ({ status, attempts, instance });
const plain = (entries) => Object.fromEntries(Object.entries(entries).map(([name, value]) => [name, { ...value }]));

test('the lab has exercises, named "<section>.<id>" once each, in the registry\'s order', () => {
  assert.ok(ALL.length > 0);
  assert.equal(new Set(ALL).size, ALL.length);
  for (const name of ALL) assert.match(name, /^[\w-]+\.[\w-]+$/);
  assert.deepEqual(exerciseNames(SECTIONS.filter(({ id }) => id === 'pooling')), SECTIONS.find(({ id }) => id === 'pooling').exercises.map(({ id }) => `pooling.${id}`));
});

test('every exercise of the lab answered, at its longest, fits SCORM 1.2\'s suspend_data, and reads back the same', () => {
  // The longest an entry can be written: revealed after every try, on a far instance.
  const longest = Object.fromEntries(ALL.map((name) => [name, entry('revealed', MAX_TRIES, 2 ** 31 - 1)]));
  const text = encodeSuspendData(longest);
  console.log(`suspend_data for all ${ALL.length} exercises at their longest: ${text.length} characters (typical: ${encodeSuspendData(Object.fromEntries(ALL.map((name) => [name, entry('right', 1)]))).length})`);
  assert.ok(text.length <= SCORM12_SUSPEND_DATA_LIMIT, `${text.length} characters`);
  assert.deepEqual(plain(decodeSuspendData(text)), longest);
  // Headroom: three times as many exercises, with names as long as the lab's, still fit.
  const tripled = Object.fromEntries([0, 1, 2].flatMap((copy) => ALL.map((name) => [name.replace('.', `${copy}.`), entry('right', 1, 12)])));
  assert.ok(encodeSuspendData(tripled).length <= SCORM12_SUSPEND_DATA_LIMIT);
});

test('the text is compact and keyed by name; untouched entries are left out', () => {
  const text = encodeSuspendData({
    'pooling.average-query': entry('right', 1),
    'pooling.read-prediction': entry('revealed', 3, 11),
    'masking.masked-weight': entry('wrong', 2),
    'masking.row-lengths': entry('open', 0),
    'masking.masked-weight-value': entry('open', 0, 2),
  });
  assert.equal(text, '1;pooling:average-query=r1,read-prediction=v3.b;masking:masked-weight=w2,masked-weight-value=o0.2');
  assert.deepEqual(plain(decodeSuspendData(text)), {
    'pooling.average-query': entry('right', 1),
    'pooling.read-prediction': entry('revealed', 3, 11),
    'masking.masked-weight': entry('wrong', 2),
    'masking.masked-weight-value': entry('open', 0, 2),
  });
  assert.equal(encodeSuspendData({}), '1');
});

test('text from the LMS that is not ours, or garbled, gives nothing it cannot parse', () => {
  for (const text of ['', 'viewed=1,2,3|last=4', '2;pooling:average-query=r1', null, undefined, 42]) {
    assert.deepEqual(plain(decodeSuspendData(text)), {}, String(text));
  }
  const mixed = decodeSuspendData('1;pooling:average-query=r1,bad=x9,=r1,ok=q1;:x=r1;pool ing:a=r1;masking:masked-weight=c2.zz;x:y=r1.ABC');
  assert.deepEqual(plain(mixed), {
    'pooling.average-query': entry('right', 1),
    'masking.masked-weight': entry('close', 2, 35 * 36 + 35),
  });
  assert.equal(Object.getPrototypeOf(mixed), null);
  assert.deepEqual(plain(decodeSuspendData('1;__proto__:constructor=r1')), { '__proto__.constructor': entry('right', 1) });
});

test('score, completion and success: revealed is finished but not right; passed at the mastery threshold', () => {
  const names = ['a.one', 'a.two', 'b.three', 'b.four', 'b.five'];
  assert.equal(MASTERY, 0.8);
  assert.deepEqual({ ...outcome({}, names) }, { right: 0, finished: 0, total: 5, score: 0, completed: false, success: 'unknown' });
  const some = { 'a.one': entry('right', 1), 'a.two': entry('revealed', 3), 'b.three': entry('wrong', 1), 'x.other': entry('right', 1) };
  assert.deepEqual({ ...outcome(some, names) }, { right: 1, finished: 2, total: 5, score: 0.2, completed: false, success: 'unknown' });
  const fourRight = Object.fromEntries(names.slice(0, 4).map((name) => [name, entry('right', 2)]));
  assert.deepEqual({ ...outcome(fourRight, names) }, { right: 4, finished: 4, total: 5, score: 0.8, completed: false, success: 'passed' });
  const allButRevealed = { ...fourRight, 'b.five': entry('revealed', 0) };
  assert.equal(outcome(allButRevealed, names).completed, true);
  assert.equal(outcome(allButRevealed, names).success, 'passed');
  const threeRight = { ...allButRevealed, 'b.four': entry('revealed', 3) };
  assert.deepEqual({ ...outcome(threeRight, names) }, { right: 3, finished: 5, total: 5, score: 0.6, completed: true, success: 'failed' });
  assert.equal(outcome(threeRight, names, 0.6).success, 'passed'); // the LMS's own threshold
  assert.deepEqual({ ...outcome({}, []) }, { right: 0, finished: 0, total: 0, score: null, completed: true, success: 'unknown' });
});

// An LMS session as scorm12.js and scorm2004.js give it, recording what it is told.
function fakeSession({ suspendData = '', mastery = null } = {}) {
  const reports = [];
  return {
    reports,
    suspendData: () => suspendData,
    mastery: () => mastery,
    suspendDataLimit: SCORM12_SUSPEND_DATA_LIMIT,
    report: (what) => reports.push(what) > 0,
  };
}

test('the progress store kept in suspend_data: read at launch, each change written and reported with its score', () => {
  const names = exerciseNames(SECTIONS);
  const session = fakeSession({ suspendData: '1;pooling:average-query=r1' });
  const storage = createSuspendDataStorage({ session, names });
  // Reported at launch: what the LMS held, scored over every exercise.
  assert.equal(session.reports.length, 1);
  assert.equal(session.reports[0].outcome.right, 1);
  assert.equal(session.reports[0].outcome.score, 1 / names.length);
  const store = createProgressStore(() => storage);
  assert.deepEqual({ ...store.get('pooling.average-query') }, entry('right', 1));
  assert.deepEqual({ ...store.get('masking.masked-weight') }, entry('open', 0));

  store.set('masking.masked-weight', entry('wrong', 1));
  assert.equal(session.reports.length, 2);
  assert.equal(session.reports[1].suspendData, '1;pooling:average-query=r1;masking:masked-weight=w1');
  assert.deepEqual({ ...session.reports[1].outcome }, {
    right: 1, finished: 1, total: names.length, score: 1 / names.length, completed: false, success: 'unknown',
  });
  store.clear(['pooling.average-query']); // "Reset my answers"
  assert.equal(session.reports.at(-1).suspendData, '1;masking:masked-weight=w1');
  assert.equal(session.reports.at(-1).outcome.right, 0);
  // A second store over the same storage (the next launch reads the LMS's copy).
  const next = createProgressStore(() => createSuspendDataStorage({ session: fakeSession({ suspendData: session.reports.at(-1).suspendData }), names }));
  assert.deepEqual({ ...next.get('masking.masked-weight') }, entry('wrong', 1));
});

test('the LMS\'s mastery threshold is followed, and hostile suspend_data is dropped by the store', () => {
  const names = ['pooling.average-query', 'masking.masked-weight'];
  const session = fakeSession({ suspendData: '1;pooling:average-query=r1;masking:masked-weight=o3', mastery: 0.5 });
  const store = createProgressStore(() => createSuspendDataStorage({ session, names }));
  assert.equal(session.reports[0].outcome.success, 'passed'); // 1 of 2 right reaches the LMS's 50 %
  // "open" after three tries is no entry the engine makes: the store ignores it.
  assert.deepEqual({ ...store.get('masking.masked-weight') }, entry('open', 0));
});

test('the settings an answer was given for and a committed prediction are written compactly and read back; a text too long drops the settings before any answer', () => {
  const given = { peDim: 48, peColumn: 7, leaveOneOut: false, maskMode: '2d' };
  const entries = {
    'positional.entry-value': { ...entry('right', 1), given },
    'translation.where-eight-looks': { ...entry('open', 0), committed: 'eighty' },
    'attention-training.head-pattern': { ...entry('open', 0), committed: ['antiDiagonal', 'diagonal'] },
    'pooling.read-prediction': { ...entry('open', 0), committed: -1.5 },
    'masking.zero-weights': { ...entry('revealed', 1), given: {} }, // at the defaults: "~" alone
  };
  const text = encodeSuspendData(entries);
  assert.match(text, /entry-value=r1~peDim:48\+peColumn:7\+leaveOneOut:0\+maskMode:2d/);
  assert.match(text, /where-eight-looks=o0@eighty/);
  assert.match(text, /zero-weights=v1~(,|;|$)/);
  assert.deepEqual(plain(decodeSuspendData(text)), entries);
  // Read through the store: a setting the table would not hold as it is, or of no parameter, drops the settings, not the answer.
  for (const bad of ['peDim:48.5', 'peDim:9999', 'nothing:1', 'maskMode:3d', 'leaveOneOut:yes', 'peDim:', '__proto__:1']) {
    const storage = createSuspendDataStorage({
      session: {
        mastery: () => null, suspendDataLimit: 4096, suspendData: () => `1;positional:entry-value=r1~${bad}`, report: () => true,
      },
      names: ALL,
    });
    const store = createProgressStore(() => storage);
    assert.deepEqual({ ...store.get('positional.entry-value') }, entry('right', 1), bad);
  }
  // Every exercise answered at settings far from the defaults: SCORM 1.2 keeps every answer, without their settings.
  const far = Object.fromEntries(ALL.map((name) => [name, { ...entry('right', 1), given: { peDim: 48, peColumn: 7, w: 12.5, n: 500, seed: 4294967295, noise: 1.25, epochs: 1000, lr: 0.125 } }]));
  let saved = null;
  createSuspendDataStorage({
    session: {
      mastery: () => null, suspendDataLimit: SCORM12_SUSPEND_DATA_LIMIT, suspendData: () => encodeSuspendData(far),
      report: ({ suspendData }) => { saved = suspendData; return true; },
    },
    names: ALL,
  });
  assert.ok(saved.length <= SCORM12_SUSPEND_DATA_LIMIT);
  assert.equal(Object.keys(decodeSuspendData(saved)).length, ALL.length, 'every answer kept');
});
