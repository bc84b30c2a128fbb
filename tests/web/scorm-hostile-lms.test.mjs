// The SCORM package against hostile LMSs (hostile-lms.mjs: scorm-again's
// run-times that throw, or hand back what the package never wrote, or keep
// SCORM 1.2's 4,096 characters strictly), through the package's own
// sessions (scorm12.js, scorm2004.js), storage and progress store: the
// score the LMS is told is what the page shows, never more; what the LMS
// refuses or throws on is told to the learner; a throw at launch is the
// launch's to catch (launch.js, in tests/browser/scorm.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { createProgressStore } from '../../web/src/exercises/progress-store.js';
import { afterCheck, reveal, another, VERDICTS, isFinished } from '../../web/src/exercises/exercise-state.js';
import { connectScorm12 } from '../../web/src/scorm/scorm12.js';
import { connectScorm2004 } from '../../web/src/scorm/scorm2004.js';
import { createSuspendDataStorage } from '../../web/src/scorm/suspend-data-storage.js';
import { decodeSuspendData, encodeSuspendData } from '../../web/src/scorm/suspend-data.js';
import { exerciseNames, predictionNames } from '../../web/src/scorm/package-exercises.js';
import { hostileLms, lmsCmi, SCORM12_SUSPEND_DATA_LIMIT } from './hostile-lms.mjs';

const ALL = exerciseNames(SECTIONS);
const VERSIONS = ['1.2', '2004'];
const connect = (version, api) => (version === '1.2' ? connectScorm12(api) : connectScorm2004(api));

// A launch of the package on `api`: its session, storage and store, and how often it said "unsaved".
// The store keeps the package's exercises (the lab's, or a larger package's made-up ones).
function launch(version, api, names = ALL) {
  const session = connect(version, api);
  assert.ok(session, 'the LMS initialised');
  const unsaved = [];
  const storage = createSuspendDataStorage({ session, names, predictions: predictionNames(SECTIONS), onUnsaved: () => unsaved.push(true) });
  const known = new Set(names);
  return { session, storage, store: createProgressStore(() => storage, { known: (name) => known.has(name) }), unsaved };
}

// The score and statuses the LMS holds.
function reported(version, api) {
  const cmi = lmsCmi(api);
  return version === '1.2'
    ? { raw: cmi.core.score.raw, status: cmi.core.lesson_status, suspendData: cmi.suspend_data }
    : { raw: cmi.score.raw, status: cmi.success_status, suspendData: cmi.suspend_data };
}

// What the page shows right, over the package's exercises.
const shownRight = (store, names = ALL) => names.filter((name) => store.get(name).status === 'right').length;

const percent = (share) => Math.round(share * 10000) / 100;

for (const version of VERSIONS) {
  test(`SCORM ${version}: suspend_data the page does not accept is not scored, and not written back`, () => {
    const cases = {
      'nine tries': '1;pooling:average-query=r9',
      'an instance past 2^31 - 1': '1;pooling:average-query=r1.zzzzzzz',
      'every exercise right after nine tries': `1;${SECTIONS.filter(({ exercises = [] }) => exercises.length > 0)
        .map(({ id, exercises }) => `${id}:${exercises.map((e) => `${e.id}=r9`).join(',')}`).join(';')}`,
    };
    for (const [what, stored] of Object.entries(cases)) {
      const api = hostileLms(version, { stored });
      const { store } = launch(version, api);
      assert.equal(shownRight(store), 0, `${what}: the page shows every exercise open`);
      const lms = reported(version, api);
      assert.equal(Number(lms.raw), 0, `${what}: score.raw ${lms.raw}, the page shows none right`);
      assert.notEqual(lms.status, 'passed', what);
      assert.equal(lms.suspendData, '1', `${what}: written back as it was`);
    }
  });

  test(`SCORM ${version}: an entry the exercise machine cannot make (w3) is read as revealed; Check and Show answer then save`, () => {
    const api = hostileLms(version, { stored: '1;pooling:average-query=w3,read-prediction=r0' });
    const { store } = launch(version, api);
    assert.deepEqual({ ...store.get('pooling.average-query') }, { status: 'revealed', attempts: 3, instance: 0 });
    assert.deepEqual({ ...store.get('pooling.read-prediction') }, { status: 'open', attempts: 0, instance: 0 });
    for (const name of ['pooling.average-query', 'pooling.read-prediction']) {
      const entry = store.get(name);
      for (const next of [...VERDICTS.map((verdict) => afterCheck(entry, verdict)), reveal(entry), another(entry)]) {
        store.set(name, next); // throws "not an exercise entry" for an entry the store refuses
      }
    }
    assert.equal(Number(reported(version, api).raw), 0);
  });

  test(`SCORM ${version}: a prediction the LMS holds as wrong or close (one try made) is read as revealed, counted finished, and stored so`, () => {
    // pooling.narrower-kernel is a prediction (one try); pooling.average-query is not.
    assert.ok(predictionNames(SECTIONS).includes('pooling.narrower-kernel'));
    assert.ok(!predictionNames(SECTIONS).includes('pooling.average-query'));
    for (const letter of ['w', 'c']) {
      const api = hostileLms(version, { stored: `1;pooling:narrower-kernel=${letter}1,average-query=${letter}1` });
      const { store } = launch(version, api);
      const prediction = store.get('pooling.narrower-kernel', { once: true });
      assert.deepEqual({ ...prediction }, { status: 'revealed', attempts: 1, instance: 0 }, letter);
      assert.ok(isFinished(prediction), `${letter}: nothing left to check`);
      assert.equal(store.get('pooling.average-query').status, letter === 'w' ? 'wrong' : 'close', `${letter}: tries left`);
      const lms = reported(version, api);
      assert.equal(lms.suspendData, `1;pooling:narrower-kernel=v1,average-query=${letter}1`, `${letter}: written back as the page shows it`);
      if (version === '2004') assert.equal(Number(lmsCmi(api).progress_measure), Math.round(10000 / ALL.length) / 10000, 'one finished');
    }
  });

  test(`SCORM ${version}: suspend_data named after members of Object.prototype, or megabytes long, gives nothing`, () => {
    const members = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    const named = members.flatMap((member) => [`${member}:${member}=r1`, `pooling:${member}=r1`, `${member}:average-query=r1`]);
    for (const stored of [`1;${named.join(';')}`, `1;pooling:average-query=r1;${'other:x=r1;'.repeat(30000)}`]) {
      const api = hostileLms(version, { stored });
      const { store } = launch(version, api);
      for (const name of [...members, ...members.map((member) => `pooling.${member}`)]) assert.equal(store.get(name).status, 'open', name);
      assert.equal(shownRight(store), 0, `${stored.length} characters: nothing right`);
      assert.equal(reported(version, api).suspendData, '1', 'nothing written back');
      assert.equal(({}).status, undefined, 'no prototype was touched');
    }
  });

  test(`SCORM ${version}: an LMS whose later calls throw: the learner keeps working and is told the answers are unsaved`, () => {
    for (const throws of ['set', 'commit']) {
      // The launch's report goes through; every call after it throws.
      const api = hostileLms(version, { throws, after: throws === 'set' ? 10 : 1 });
      const { store, unsaved } = launch(version, api);
      assert.equal(unsaved.length, 0, `${throws}: nothing unsaved at launch`);
      store.set('pooling.average-query', { status: 'right', attempts: 1, instance: 0 });
      assert.deepEqual({ ...store.get('pooling.average-query') }, { status: 'right', attempts: 1, instance: 0 }, throws);
      assert.ok(unsaved.length >= 1, `${throws}: the learner is told`);
    }
  });

  test(`SCORM ${version}: a throwing LMS or a lying value throws at launch, for launch.js to open the plain lab`, () => {
    for (const throws of ['initialize', 'get', 'toString', 'set', 'commit']) {
      const api = hostileLms(version, { throws });
      assert.throws(() => launch(version, api), /hostile LMS|not text/, throws);
    }
  });
}

test('SCORM 1.2 on an LMS that keeps 4,096 characters: another package\'s entries are dropped and the answer is stored', () => {
  // 4,073 characters of another package's exercises, as the issue found them.
  const foreign = Array.from({ length: 400 }, (_, i) => `x${i}=r1`);
  let stored = `1;other-package:${foreign.join(',')}`;
  while (stored.length < 4073) stored += ',y=r1';
  stored = stored.slice(0, 4073).replace(/,[^,]*$/, '');
  const api = hostileLms('1.2', { stored, strict: true });
  const { store, unsaved } = launch('1.2', api);
  store.set('pooling.average-query', { status: 'right', attempts: 1, instance: 0 });
  assert.deepEqual(api.hostile.refusals, [], 'no suspend_data over the limit was sent');
  assert.deepEqual(unsaved, []);
  const kept = decodeSuspendData(lmsCmi(api).suspend_data);
  assert.deepEqual(Object.keys(kept), ['pooling.average-query']);
  assert.equal(Number(lmsCmi(api).core.score.raw), percent(1 / ALL.length));
});

test('SCORM 1.2: answers that cannot fit 4,096 characters are fitted, finished first, scored as stored, and the learner is told', () => {
  // A package far larger than the lab (200 exercises of long names): its answers cannot all fit.
  const names = Array.from({ length: 200 }, (_, i) => `a-section-of-a-long-name.exercise-number-${i}`);
  const api = hostileLms('1.2', { strict: true });
  const { store, unsaved } = launch('1.2', api, names);
  for (const [i, name] of names.entries()) store.set(name, { status: i % 2 ? 'right' : 'wrong', attempts: 1, instance: 0 });
  assert.deepEqual(api.hostile.refusals, [], 'nothing over the limit was sent');
  assert.ok(unsaved.length > 0, 'the learner is told');
  const text = lmsCmi(api).suspend_data;
  assert.ok(text.length <= SCORM12_SUSPEND_DATA_LIMIT && text.length > 3000, `${text.length} characters`);
  const kept = decodeSuspendData(text);
  const right = Object.values(kept).filter(isFinished).length;
  assert.equal(right, names.length / 2, 'every finished answer is kept before an unfinished one');
  assert.ok(Object.keys(kept).length < names.length, 'not all of them fit');
  assert.equal(Number(lmsCmi(api).core.score.raw), percent(right / names.length), 'the score is what is stored');
});

// The fuzzer's class: any suspend_data the LMS hands back. The score
// reported never counts more than the page shows right, and what is written
// back reads as the page reads it (every entry the store accepts, of the package's exercises).
test('fuzz: random suspend_data from the LMS is never scored above what the page shows', () => {
  let seed = 0x2545f491;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const ids = [...ALL.slice(0, 12).map((name) => name.split('.')), ['other', 'thing'], ['pooling', 'nope']];
  const cases = 300;
  for (let c = 0; c < cases; c += 1) {
    const items = Array.from({ length: 1 + Math.floor(random() * 10) }, () => {
      const [section, id] = pick(ids);
      const instance = pick(['', '.1', '.zzzzzz', '.zik0zj', '.zik0zk', '.zzzzzzz']);
      return `${section}:${id}=${pick('owcrv')}${Math.floor(random() * 10)}${instance}`;
    });
    const version = pick(VERSIONS);
    const api = hostileLms(version, { stored: `1;${items.join(';')}` });
    const { store } = launch(version, api);
    const lms = reported(version, api);
    const label = `${version} ${items.join(';')}`;
    assert.equal(Number(lms.raw), percent(shownRight(store) / ALL.length), label);
    const written = decodeSuspendData(lms.suspendData);
    for (const [name, entry] of Object.entries(written)) {
      assert.ok(ALL.includes(name), `${label}: ${name} written back`);
      assert.deepEqual({ ...store.get(name) }, { ...entry }, `${label}: ${name} as the page shows it`);
    }
    assert.equal(encodeSuspendData(written), lms.suspendData, label);
  }
});
