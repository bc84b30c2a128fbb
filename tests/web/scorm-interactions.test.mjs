// The answers' records a SCORM package writes into cmi.interactions
// (web/src/scorm/interactions.js, interaction-writer.js): the mapping of an
// exercise and an answer to each version's interaction type, result,
// response, latency and time; the checks and reveals found between two
// sets of entries; and the records as npm scorm-again's 1.2 and 2004
// run-times (what LMSs embed) keep them, through the package's own
// sessions and storage. The page's side (the answer on the card, the time
// taken) is tests/browser/scorm-grading.test.mjs's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { createProgressStore } from '../../web/src/exercises/progress-store.js';
import { afterCheck, reveal, another, bound, commit, initialEntry } from '../../web/src/exercises/exercise-state.js';
import {
  interactionType, interactionResult, responseText, latencyText, timeText, decimalText, answerEvents, MAX_INTERACTIONS,
} from '../../web/src/scorm/interactions.js';
import { createInteractionWriter } from '../../web/src/scorm/interaction-writer.js';
import { connectScorm12 } from '../../web/src/scorm/scorm12.js';
import { connectScorm2004 } from '../../web/src/scorm/scorm2004.js';
import { createSuspendDataStorage } from '../../web/src/scorm/suspend-data-storage.js';
import { exerciseNames, predictionNames } from '../../web/src/scorm/package-exercises.js';
import { hostileLms, lmsCmi } from './hostile-lms.mjs';

const VERSIONS = ['1.2', '2004'];
const connect = (version, api) => (version === '1.2' ? connectScorm12(api) : connectScorm2004(api));
const exercisesOf = () => SECTIONS.flatMap(({ id, exercises = [] }) => exercises.map((exercise) => ({ name: `${id}.${exercise.id}`, exercise })));

test('every exercise of the lab has an interaction type: choice for options, numeric for a number, performance for a task', () => {
  const types = {};
  for (const { name, exercise } of exercisesOf()) {
    const type = interactionType(exercise);
    types[type] = (types[type] ?? 0) + 1;
    if (exercise.options) assert.equal(type, 'choice', name);
    else if (exercise.kind === 'achieve') assert.equal(type, 'performance', name);
    else assert.equal(type, 'numeric', name);
  }
  assert.deepEqual(Object.keys(types).sort(), ['choice', 'numeric', 'performance']);
  assert.throws(() => interactionType({ kind: 'essay' }), /no interaction type/);
});

test('results: right is correct; wrong and close are wrong (1.2) or incorrect (2004); an answer shown is neutral', () => {
  assert.deepEqual(['right', 'wrong', 'close', 'revealed'].map((event) => interactionResult(event, '1.2')), ['correct', 'wrong', 'wrong', 'neutral']);
  assert.deepEqual(['right', 'wrong', 'close', 'revealed'].map((event) => interactionResult(event, '2004')), ['correct', 'incorrect', 'incorrect', 'neutral']);
  assert.throws(() => interactionResult('open', '2004'), /not an answer's event/);
  assert.throws(() => interactionResult('right', '3'), /not a SCORM version/);
});

test('responses, as each version writes them: choice ids, a plain decimal, a task\'s settings', () => {
  assert.equal(responseText('choice', 'ignores', '1.2'), 'ignores');
  assert.equal(responseText('choice', 'ignores', '2004'), 'ignores');
  assert.equal(responseText('choice', ['a', 'b-2'], '1.2'), 'a,b-2');
  assert.equal(responseText('choice', ['a', 'b-2'], '2004'), 'a[,]b-2');
  assert.equal(responseText('choice', ['a', 'a'], '2004'), 'a', 'unique ids');
  assert.equal(responseText('choice', ['a b'], '2004'), null, 'no short identifier');
  assert.equal(responseText('numeric', 0.5, '2004'), '0.5');
  assert.equal(responseText('numeric', 1e-7, '1.2'), '0.0000001', 'no exponent');
  assert.equal(responseText('numeric', -2.25, '2004'), '-2.25');
  assert.equal(responseText('numeric', 1e12, '2004'), null, 'past 10 digits: none');
  assert.equal(responseText('numeric', Number.NaN, '1.2'), null);
  assert.equal(responseText('performance', { peDim: 48, maskMode: '2d', atCausal: true }, '1.2'), 'peDim:48,maskMode:2d,atCausal:1');
  assert.equal(responseText('performance', { peDim: 48, maskMode: '2d' }, '2004'), 'peDim[.]48[,]maskMode[.]2d');
  assert.equal(responseText('performance', {}, '2004'), null, 'done at the defaults: nothing to say');
  assert.equal(responseText('choice', null, '2004'), null);
  const long = Array.from({ length: 40 }, (_, i) => `option-number-${i}`);
  assert.ok(responseText('choice', long, '1.2').length <= 255, "1.2's CMIString255");
  assert.equal(responseText('choice', long, '1.2').split(',').length, Math.floor(256 / 17));
  assert.equal(decimalText(-0), '0');
  assert.equal(decimalText(3), '3');
});

test('latency: 1.2\'s HH:MM:SS.SS, 2004\'s PT…S; time: 1.2\'s time of day, 2004\'s timestamp', () => {
  assert.equal(latencyText(1.5, '1.2'), '00:00:01.50');
  assert.equal(latencyText(3725.257, '1.2'), '01:02:05.26');
  assert.equal(latencyText(1.5, '2004'), 'PT1.5S');
  assert.equal(latencyText(-3, '2004'), 'PT0S');
  const at = new Date(Date.UTC(2026, 11, 1, 20, 7, 9, 456));
  assert.equal(timeText(at, '2004'), '2026-12-01T20:07:09.45Z');
  assert.match(timeText(at, '1.2'), /^\d{2}:07:09$/);
});

test('answerEvents: a check (right, wrong, close; a last try that shows the answer is wrong), "Show answer", fresh starts', () => {
  const names = ['s.a'];
  const open = initialEntry();
  const events = (before, after) => answerEvents({ 's.a': before }, { 's.a': after }, names).map(({ event }) => event);
  const wrong = afterCheck(open, 'wrong');
  assert.deepEqual(events(open, afterCheck(open, 'right')), ['right']);
  assert.deepEqual(events(open, wrong), ['wrong']);
  assert.deepEqual(events(open, afterCheck(open, 'close')), ['close']);
  const third = afterCheck(afterCheck(wrong, 'close'), 'close');
  assert.equal(third.status, 'revealed');
  assert.deepEqual(events(afterCheck(wrong, 'close'), third), ['wrong'], 'the last try: its answer shown, its result wrong');
  assert.deepEqual(events(open, afterCheck(open, 'close', { once: true })), ['wrong'], "a prediction's one try");
  assert.deepEqual(events(wrong, reveal(wrong)), ['revealed']);
  assert.deepEqual(events(open, reveal(open)), ['revealed']);
  assert.deepEqual(events(reveal(open), another(reveal(open))), ['fresh']);
  assert.deepEqual(events(wrong, initialEntry(wrong.instance)), ['fresh'], 'a fresh try at the current settings');
  assert.deepEqual(events(open, commit(open, 'x')), [], 'a prediction committed before its run: not yet checked');
  assert.deepEqual(events(afterCheck(open, 'right'), bound(afterCheck(open, 'right'), { peDim: 48 })), [], 'no new answer');
  assert.deepEqual(answerEvents({ 's.a': wrong }, {}, names).map(({ event }) => event), ['fresh'], 'answers reset');
  assert.deepEqual(answerEvents({}, { 's.b': wrong }, names), [], 'only the package\'s exercises');
});

// A record as the page makes it (answer-records.js).
const record = (id, type, event, answer, latency = 2.5) => ({ id, type, event, answer, latency, at: new Date(Date.UTC(2026, 11, 1, 10, 0, 0)) });

for (const version of VERSIONS) {
  test(`SCORM ${version}: right, wrong and shown answers as scorm-again keeps them`, () => {
    const api = hostileLms(version);
    const session = connect(version, api);
    const outcome = { score: 0, completed: false, success: 'unknown', finished: 0, total: 3 };
    assert.ok(session.report({ suspendData: '1', outcome, interactions: [
      record('pooling.average-query', 'choice', 'right', 'ignores'),
      record('masking.masked-weight', 'choice', 'wrong', 'score', 61.25),
      record('pooling.read-prediction', 'numeric', 'close', 0.42),
    ] }));
    assert.ok(session.report({ suspendData: '1', outcome, interactions: [
      record('masking.masked-weight', 'choice', 'revealed', null, 1),
      record('positional.some-task', 'performance', 'right', { peDim: 48 }),
    ] }));
    const { interactions } = lmsCmi(api);
    const kept = Object.values(interactions.childArray ?? interactions).map((one) => (version === '1.2'
      ? [one.id, one.type, one.result, one.student_response, one.latency, one.time]
      : [one.id, one.type, one.result, one.learner_response, one.latency, one.timestamp]));
    const wrong = version === '1.2' ? 'wrong' : 'incorrect';
    const time = version === '1.2' ? timeText(new Date(Date.UTC(2026, 11, 1, 10, 0, 0)), '1.2') : '2026-12-01T10:00:00.00Z';
    // As scorm-again keeps them: 1.2's written 00:00:02.50, kept without the trailing zero.
    const latency = (seconds) => (version === '1.2' ? { 2.5: '00:00:02.5', 61.25: '00:01:01.25', 1: '00:00:01' } : { 2.5: 'PT2.5S', 61.25: 'PT61.25S', 1: 'PT1S' })[seconds];
    assert.deepEqual(kept, [
      ['pooling.average-query', 'choice', 'correct', 'ignores', latency(2.5), time],
      ['masking.masked-weight', 'choice', wrong, 'score', latency(61.25), time],
      ['pooling.read-prediction', 'numeric', wrong, '0.42', latency(2.5), time],
      ['masking.masked-weight', 'choice', 'neutral', '', latency(1), time],
      ['positional.some-task', 'performance', 'correct', version === '1.2' ? 'peDim:48' : 'peDim[.]48', latency(2.5), time],
    ]);
  });

  test(`SCORM ${version}: records go on from the LMS's count, stop at ${MAX_INTERACTIONS}, and stop at a refusal without alarming the learner`, () => {
    const writes = [];
    let count = '3';
    const writer = createInteractionWriter({ version, count: () => count, write: (element, value) => writes.push([element, value]) > 0 });
    writer.write([record('a.b', 'choice', 'right', 'x')]);
    assert.equal(writes[0][0], 'cmi.interactions.3.id', 'after the earlier sessions\' records');
    writes.length = 0;
    count = String(MAX_INTERACTIONS);
    const full = createInteractionWriter({ version, count: () => count, write: (element, value) => writes.push([element, value]) > 0 });
    full.write([record('a.b', 'choice', 'right', 'x')]);
    assert.deepEqual(writes, [], 'bounded');
    const refusing = createInteractionWriter({ version, count: () => '0', write: (element, value) => writes.push([element, value]) && false });
    refusing.write([record('a.b', 'choice', 'right', 'x'), record('a.c', 'choice', 'right', 'x')]);
    assert.deepEqual(writes.map(([element]) => element), ['cmi.interactions.0.id'], 'an LMS that keeps none is asked once');
    const throwing = createInteractionWriter({ version, count: () => { throw new Error('no count'); }, write: () => true });
    assert.doesNotThrow(() => throwing.write([record('a.b', 'choice', 'right', 'x')]));
  });

  test(`SCORM ${version}: the storage records each check and answer shown, one each, none for other changes, and takes the package's mastery`, () => {
    const api = hostileLms(version);
    const session = connect(version, api);
    const names = exerciseNames(SECTIONS);
    const seen = [];
    const storage = createSuspendDataStorage({
      session,
      names,
      predictions: predictionNames(SECTIONS),
      mastery: 0.01,
      describe: (events) => {
        seen.push(...events.map(({ name, event }) => `${name}:${event}`));
        return events.filter(({ event }) => event !== 'fresh').map(({ name, event }) => record(name, 'choice', event, event === 'revealed' ? null : 'ignores'));
      },
    });
    const store = createProgressStore(() => storage, { known: (name) => names.includes(name) });
    const name = 'pooling.average-query';
    store.set(name, afterCheck(store.get(name), 'wrong'));
    store.set(name, afterCheck(store.get(name), 'right'));
    store.set('masking.masked-weight', reveal(store.get('masking.masked-weight')));
    store.set('masking.masked-weight', another(store.get('masking.masked-weight')));
    assert.deepEqual(seen, [`${name}:wrong`, `${name}:right`, 'masking.masked-weight:revealed', 'masking.masked-weight:fresh']);
    const cmi = lmsCmi(api);
    assert.equal(Object.values(cmi.interactions.childArray ?? cmi.interactions).length, 3);
    // One right of the lab's exercises passes at a 1 % mastery (the LMS sets none here).
    assert.equal(version === '1.2' ? cmi.core.lesson_status : cmi.success_status, 'passed');
  });
}
