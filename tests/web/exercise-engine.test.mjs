// The exercise engine's pure parts (web/src/exercises/): an exercise's
// state machine, how numbers and goals are judged, and concept questions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  initialEntry, afterCheck, reveal, another, hintShown, answerShown, isFinished, MAX_TRIES,
} from '../../web/src/exercises/exercise-state.js';
import {
  judgeNumber, judgeAtMost, conceptExercise, mistake, verdictOf,
} from '../../web/src/exercises/judging.js';

test('a right answer ends the instance; tries before it are counted', () => {
  let entry = initialEntry();
  assert.deepEqual({ ...entry }, { status: 'open', attempts: 0, instance: 0 });
  assert.equal(hintShown(entry), false, 'no hint before a try');
  entry = afterCheck(entry, 'wrong');
  assert.deepEqual([entry.status, entry.attempts, hintShown(entry), answerShown(entry)], ['wrong', 1, true, false]);
  entry = afterCheck(entry, 'close');
  assert.deepEqual([entry.status, entry.attempts, hintShown(entry)], ['close', 2, true]);
  entry = afterCheck(entry, 'right');
  assert.deepEqual([entry.status, entry.attempts, hintShown(entry), isFinished(entry)], ['right', 3, false, true]);
  assert.equal(afterCheck(entry, 'wrong'), entry, 'a finished instance takes no more checks');
  assert.equal(reveal(entry), entry, 'nothing to reveal once right');
});

test('a prediction has one try: not right, its answer shows at once', () => {
  for (const verdict of ['wrong', 'close']) {
    const entry = afterCheck(initialEntry(2), verdict, { once: true });
    assert.deepEqual({ ...entry }, { status: 'revealed', attempts: 1, instance: 2 }, verdict);
    assert.equal(answerShown(entry), true);
    assert.equal(hintShown(entry), false, `${verdict}: no hint once the one try is made`);
  }
  assert.equal(afterCheck(initialEntry(), 'right', { once: true }).status, 'right');
});

test(`the answer shows after ${MAX_TRIES} tries that are not right, or on request`, () => {
  let entry = initialEntry();
  for (let i = 0; i < MAX_TRIES - 1; i += 1) entry = afterCheck(entry, 'wrong');
  assert.equal(entry.status, 'wrong');
  entry = afterCheck(entry, 'close');
  assert.deepEqual([entry.status, entry.attempts, answerShown(entry), isFinished(entry)], ['revealed', MAX_TRIES, true, true]);
  assert.equal(hintShown(entry), false, 'no hint beside the answer shown');
  const asked = reveal(initialEntry());
  assert.deepEqual([asked.status, asked.attempts, answerShown(asked)], ['revealed', 0, true]);
  assert.equal(afterCheck(initialEntry(), 'right').status, 'right', 'right at the first try');
  assert.throws(() => afterCheck(initialEntry(), 'maybe'), /not a verdict/);
});

test('"try another" starts the next instance afresh', () => {
  const tried = afterCheck(afterCheck(initialEntry(4), 'wrong'), 'wrong');
  const next = another(tried);
  assert.deepEqual({ ...next }, { status: 'open', attempts: 0, instance: 5 });
  assert.deepEqual({ ...another(reveal(next)) }, { status: 'open', attempts: 0, instance: 6 });
  assert.ok(Object.isFrozen(next), 'entries are values');
});

test('a number is right within the tolerance, close within 10 %, else wrong', () => {
  assert.equal(judgeNumber(2.05, 2, 0.1), 'right');
  assert.equal(judgeNumber(1.9, 2, 0.1), 'right', 'the tolerance\'s edge is right');
  assert.equal(judgeNumber(2.15, 2, 0.1), 'close');
  assert.equal(judgeNumber(1.8, 2, 0.1), 'close', '10 % is close');
  assert.equal(judgeNumber(1.75, 2, 0.1), 'wrong');
  assert.equal(judgeNumber(-2.15, -2, 0.1), 'close', 'negative values by their size');
  assert.equal(judgeNumber(0.2, 0, 0.1), 'wrong', 'near zero, close has no room');
  assert.equal(judgeNumber(Number.NaN, 2, 0.1), 'wrong');
  assert.equal(judgeNumber(2, Number.NaN, 0.1), 'wrong', 'no right value: nothing is right');
  assert.equal(judgeNumber(Infinity, Infinity, 0.1), 'wrong');
});

test('a goal of at most a limit is close within 10 % above it', () => {
  assert.equal(judgeAtMost(0.5, 0.5), 'right');
  assert.equal(judgeAtMost(0.2, 0.5), 'right');
  assert.equal(judgeAtMost(0.54, 0.5), 'close');
  assert.equal(judgeAtMost(0.56, 0.5), 'wrong');
  assert.equal(judgeAtMost(Number.NaN, 0.5), 'wrong');
  assert.equal(judgeAtMost(Infinity, 0.5), 'wrong');
});

test('a concept question: a fixed right option, each option explained by its own text', () => {
  const options = [
    { id: 'a', labelKey: 'q.a', explanationKey: 'q.aWhy' },
    { id: 'b', labelKey: 'q.b', explanationKey: 'q.bWhy' },
  ];
  const exercise = conceptExercise({ id: 'q', questionKey: 'q.question', hintKey: 'q.hint', right: 'b', options });
  assert.equal(exercise.kind, 'concept');
  assert.deepEqual(exercise.check(null, {}, 'a'), { verdict: 'wrong', key: 'q.aWhy' });
  assert.deepEqual(exercise.check(null, {}, 'b'), { verdict: 'right', key: 'q.bWhy' });
  assert.equal(exercise.check(null, {}, 'c').verdict, 'wrong', 'an unknown option is not right');
  assert.deepEqual(exercise.solution(), { labelKey: 'q.b', explanationKey: 'q.bWhy' });
  assert.throws(() => conceptExercise({ id: 'q', right: 'z', options }), /not an option/);
});

test('a recognised mistake is "not yet" with its explanation, never close, however near its number is', () => {
  const named = mistake('masking.ex.weight.shown', { weight: '0.836' });
  assert.deepEqual([named.verdict, named.key, named.params.weight, verdictOf(named)], ['wrong', 'masking.ex.weight.shown', '0.836', 'wrong']);
  // A section that says both is graded by the engine's rule.
  assert.equal(verdictOf({ verdict: 'close', key: 'x', mistake: true }), 'wrong');
  assert.equal(verdictOf({ verdict: 'close', key: 'x' }), 'close', 'a near number that names no mistake is close');
});
