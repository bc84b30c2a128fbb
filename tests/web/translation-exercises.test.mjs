// The translation section's exercises (sections/translation/exercises.js),
// checked without a browser against the real core (dist/attention-core.mjs):
// models are trained here as the page's run trains them and handed to
// check() and solution() through a view that holds them; the right answers
// are worked out by this test from the core's own calls (a greedy
// translation of 4782, a forward pass on the held-out examples), never read
// from the module. A new seed or architecture gives a new right answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { memoizeCore } from '../../web/src/core-memo.js';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { setLanguage, loadCatalogue, t } from '../../web/src/i18n/index.js';
import { keptRunOf, stepsToReach } from '../../web/src/run/kept-runs.js';
import { EXAMPLES, modelConfig, trainingOptions } from '../../web/src/sections/translation/setup.js';
import {
  EIGHT_MIN_STEPS, EIGHT_OPTIONS, MATCH_GOAL, WEIGHT_TOLERANCE,
} from '../../web/src/sections/translation/exercises.js';

// The page loads a language's catalogue when it shows it; these tests read both.
await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);

const raw = await loadAttentionCore();
const core = memoizeCore(raw);
const section = SECTIONS.find(({ id }) => id === 'translation');
const exercise = (id) => section.exercises.find((candidate) => candidate.id === id);
const inputsOf = (patch = {}) => {
  const state = { ...defaultState(), ...patch };
  return Object.fromEntries(section.inputs.map((name) => [name, state[name]]));
};
setLanguage('en');

// A model trained as the page's run trains it (in chunks: the batches depend
// on the seed and the global step alone; the core bounds a call's work), with
// its last evaluation.
const CALL_STEPS = 25;
const trained = new Map();
function train(inputs, steps) {
  const name = JSON.stringify([inputs, steps]);
  if (!trained.has(name)) {
    let model = raw.seq2seqInit(modelConfig(inputs));
    let last = { accuracy: null, at: null };
    for (let done = 0; done < steps; done += CALL_STEPS) {
      const part = raw.seq2seqTrain(model, { ...trainingOptions(inputs, Math.min(CALL_STEPS, steps - done)), evaluateAtEnd: false });
      model = part.model;
      if (part.accuracy.length > 0) last = { accuracy: part.accuracy.at(-1), at: part.evaluatedAt.at(-1) };
    }
    trained.set(name, { model, ...last });
  }
  return trained.get(name);
}

// The section's view as check() sees it: the run's model, step, last evaluation and inputs.
const viewOf = (inputs, run, step) => ({
  trainedRun: () => ({ model: run.model, step, status: 'done', inputs, heldOut: run.accuracy, heldOutBleu: null, evaluatedAt: run.at }),
});

test('the section declares eight exercises of four kinds, a teacher\'s note, and the predictions hide what answers them', () => {
  assert.deepEqual(section.exercises.map(({ kind }) => kind), ['predict', 'concept', 'achieve', 'compute', 'compute', 'predict', 'predict', 'predict']);
  assert.equal(section.teacherNoteKey, 'translation.ex.teacherNote');
  assert.deepEqual(exercise('where-eight-looks').hides, ['tr-maps', 'tr-explain', 'tr-row-steps']);
  assert.deepEqual(exercise('dot-scoring').hides, ['tr-accuracy', 'tr-compare'], 'the comparison and the live curve');
  assert.deepEqual(exercise('head-scoring').hides, ['tr-accuracy', 'tr-compare'], 'the comparison and the live curve');
  assert.equal(exercise('shifted-map').right, 'prefix');
});

test('untrained, a check says to press Play (no try is counted) and the solutions say what the answer is made of', () => {
  const inputs = inputsOf();
  const none = { trainedRun: () => null };
  assert.throws(() => exercise('where-eight-looks').check(core, inputs, 'eighty', undefined, none), /Press \*\*Play\*\*/);
  assert.throws(() => exercise('exact-match').check(core, inputs, undefined, undefined, none), /Press \*\*Play\*\*/);
  assert.equal(exercise('where-eight-looks').solution(core, inputs, undefined, none).key, 'translation.ex.eight.solutionUntrained');
  assert.equal(exercise('read-weight').solution(core, inputs, exercise('read-weight').draw(core, inputs, 0), none).key, 'translation.ex.weight.solutionNone');
  // The prediction is about the bidirectional model on numbers: other settings are refused, said so.
  const run = train(inputs, 1);
  assert.throws(() => exercise('where-eight-looks').check(core, inputsOf({ trArchitecture: 'gru' }), 'eighty', undefined,
    viewOf(inputsOf({ trArchitecture: 'gru' }), run, 1)), /bidirectional GRU/);
  assert.throws(() => exercise('where-eight-looks').check(core, inputsOf({ trTask: 'dates' }), 'eighty', undefined,
    viewOf(inputsOf({ trTask: 'dates' }), run, 1)), /numbers, English → Chinese/);
  assert.throws(() => exercise('where-eight-looks').check(core, inputs, 'eighty', undefined, viewOf(inputs, run, 1)), /train at least/);
});

// Where the model looks writing 八 in its greedy translation of 4782: this test's own reading of the core.
function eightLooksAt(model) {
  const vocabulary = raw.seq2seqVocabulary('numbers-en-zh');
  const source = raw.seq2seqSourceFromText('numbers-en-zh', '4782');
  const translation = raw.seq2seqTranslate(model, source, { maxLength: model.config.targetLength });
  const words = Array.from(translation.tokens.subarray(0, translation.lengths[0]), (id) => vocabulary.target[id]);
  const row = words.indexOf('八');
  if (row < 0) return null;
  const weights = Array.from(translation.crossWeights.subarray(row * source.length, (row + 1) * source.length));
  return vocabulary.source[source[weights.indexOf(Math.max(...weights))]];
}

test('where 八 of 4782 looks: right is the source word of the core\'s largest weight in that row, whatever it is', () => {
  const inputs = inputsOf();
  const steps = Math.max(EIGHT_MIN_STEPS, 300);
  const run = train(inputs, steps);
  const word = eightLooksAt(run.model);
  assert.ok(word !== null, 'the default model writes 八 in its translation of 4782 by now');
  assert.ok(EIGHT_OPTIONS.includes(word), `${word} is one of the options`);
  const view = viewOf(inputs, run, steps);
  const predict = exercise('where-eight-looks');
  for (const option of EIGHT_OPTIONS) {
    assert.equal(predict.check(core, inputs, option, undefined, view).verdict, option === word ? 'right' : 'wrong', option);
  }
  assert.equal(predict.solution(core, inputs, undefined, view).params.word, word);
  console.log(`bidirectional, ${steps} steps: writing 八 of 4782 the decoder looks most at "${word}"`);
});

test('reach 95 % held-out exact match: the core\'s last evaluation of the run decides', () => {
  const inputs = inputsOf();
  const match = exercise('exact-match');
  const early = train(inputs, 25);
  const lateSteps = 600;
  const late = train(inputs, lateSteps);
  assert.equal(match.check(core, inputs, undefined, undefined, viewOf(inputs, early, 25)).verdict === 'right', early.accuracy >= MATCH_GOAL);
  const verdict = match.check(core, inputs, undefined, undefined, viewOf(inputs, late, lateSteps));
  assert.equal(verdict.verdict, late.accuracy >= MATCH_GOAL ? 'right' : verdict.verdict);
  assert.ok(late.accuracy >= MATCH_GOAL, `the default reaches the goal in ${lateSteps} steps: ${late.accuracy}`);
  assert.equal(verdict.verdict, 'right');
  assert.equal(verdict.params.at, late.at);
  // No evaluation yet: said so, not judged.
  const none = { model: early.model, accuracy: null, at: null };
  assert.equal(match.check(core, inputs, undefined, undefined, viewOf(inputs, none, 3)).key, 'translation.ex.match.notYet');
});

test('read a weight: the core\'s forward pass of the model on screen, and a new seed gives a new answer', () => {
  const read = exercise('read-weight');
  const answers = [];
  for (const patch of [{}, { trSeed: 1 }, { trArchitecture: 'transformer' }]) {
    const inputs = inputsOf(patch);
    const run = train(inputs, 50);
    const instance = read.draw(core, inputs, 1);
    assert.ok(instance.item >= 0 && instance.item < EXAMPLES);
    const examples = raw.seq2seqHeldOut({ task: inputs.trTask, count: EXAMPLES });
    const { crossWeights } = raw.seq2seqForward(run.model, examples);
    const T = run.model.config.targetLength;
    const S = run.model.config.sourceLength;
    const heads = run.model.config.architecture === 'transformer' ? run.model.config.heads : 1;
    const right = crossWeights[(instance.item * heads * T + instance.row) * S + instance.col];
    const view = viewOf(inputs, run, 50);
    assert.equal(read.check(core, inputs, right, instance, view).verdict, 'right');
    assert.equal(read.check(core, inputs, right + WEIGHT_TOLERANCE / 2, instance, view).verdict, 'right', 'within the tolerance');
    assert.equal(read.check(core, inputs, right + 0.5, instance, view).verdict, 'wrong');
    assert.equal(read.solution(core, inputs, instance, view).key, 'translation.ex.weight.solution');
    answers.push(right);
  }
  assert.notEqual(answers[0], answers[1], 'another seed, another model, another weight');
  assert.notEqual(answers[0], answers[2]);
  // "Try another": a new cell.
  const inputs = inputsOf();
  const cells = new Set([0, 1, 2, 3, 4, 5].map((index) => JSON.stringify(read.draw(core, inputs, index))));
  assert.ok(cells.size >= 4, `${cells.size} different cells in six draws`);
});

// A run of `steps` steps as the run view describes it: its model and held-out
// curve (the core's, every 25 steps), and `msPerStep` a step where it trained.
function runOf(inputs, steps, msPerStep) {
  let model = raw.seq2seqInit(modelConfig(inputs));
  const evaluatedAt = [];
  const accuracy = [];
  for (let done = 0; done < steps; done += CALL_STEPS) {
    const part = raw.seq2seqTrain(model, { ...trainingOptions(inputs, Math.min(CALL_STEPS, steps - done)), evaluateAtEnd: false });
    model = part.model;
    evaluatedAt.push(...part.evaluatedAt);
    accuracy.push(...part.accuracy);
  }
  return { model, step: steps, status: 'done', losses: [1], trainingMs: msPerStep * steps, evaluatedAt, accuracy };
}

const cannotCheck = (fn, key, params) => assert.throws(fn, (error) => error.message === t(key, params), key);

test('dot-product scoring against additive: refused until an additive run is kept and this one trained; then judged on both runs\' steps to 95 %', () => {
  const predict = exercise('dot-scoring');
  const dot = inputsOf({ trScoring: 'dot', trSteps: 250 });
  const additive = inputsOf({ trSteps: 250 });
  const map = { rows: 1, cols: 1, values: [1], rowNames: ['0'], colNames: ['0'] };
  const keptAdditive = keptRunOf({ inputs: additive, run: runOf(additive, 250, 2), map });
  const live = runOf(dot, 250, 1.5);
  const view = (kept, run = live) => ({
    keptRuns: () => kept,
    trainedRun: () => ({ ...run, inputs: dot, stepsToGoal: stepsToReach(run.evaluatedAt, run.accuracy), msPerStep: run.trainingMs / run.step }),
  });
  cannotCheck(() => predict.check(core, additive, 'dot', null, view([keptAdditive])), 'translation.ex.dot.setUp');
  cannotCheck(() => predict.check(core, { ...dot, trArchitecture: 'transformer' }, 'dot', null, view([keptAdditive])), 'translation.ex.dot.setUp');
  cannotCheck(() => predict.check(core, dot, 'dot', null, view([])), 'translation.ex.dot.keepFirst');
  const otherTask = keptRunOf({ inputs: { ...additive, trTask: 'reverse' }, run: runOf({ ...additive, trTask: 'reverse' }, 25, 1), map });
  cannotCheck(() => predict.check(core, dot, 'dot', null, view([otherTask])), 'translation.ex.dot.keepFirst');
  const short = keptRunOf({ inputs: additive, run: runOf(additive, 50, 1), map });
  assert.equal(short.stepsToGoal, null, '50 steps are too few for 95 %');
  cannotCheck(() => predict.check(core, dot, 'dot', null, view([short])), 'translation.ex.dot.keptShort', { steps: 50 });
  assert.equal(predict.startedWhen(dot), true);
  assert.equal(predict.startedWhen(additive), false);
  assert.equal(predict.startedWhen({ ...dot, trArchitecture: 'transformer' }), false, 'the Transformer has no choice of scoring');

  // The test's own reading of the two curves.
  const dotAt = stepsToReach(live.evaluatedAt, live.accuracy);
  const additiveAt = stepsToReach(keptAdditive.evaluatedAt, keptAdditive.accuracy);
  assert.ok(additiveAt !== null && dotAt !== null, `both reach 95 % within 250 steps: ${additiveAt}, ${dotAt}`);
  const faster = dotAt < additiveAt ? 'dot' : dotAt === additiveAt ? 'same' : 'additive';
  for (const answer of ['additive', 'dot', 'same']) {
    const result = predict.check(core, dot, answer, null, view([keptAdditive]));
    assert.equal(result.verdict, answer === faster ? 'right' : 'wrong', answer);
    assert.equal(result.key, `translation.ex.dot.${faster}Faster`);
    assert.deepEqual([result.params.dot, result.params.additive], [dotAt, additiveAt], 'the steps said are the curves\'');
    assert.deepEqual([result.params.dotMs, result.params.additiveMs], ['1.5', '2'], 'each run\'s ms a step, as it trained');
  }
  assert.equal(predict.solution(core, dot, null, view([keptAdditive])).key, `translation.ex.dot.${faster}Faster`);
  assert.equal(predict.solution(core, dot, null, view([])).key, 'translation.ex.dot.solutionUntrained');
  // Before the dot-product run reaches 95 % or passes the kept run's step, the race is still on.
  const early = { ...live, step: 1, evaluatedAt: [], accuracy: [] };
  cannotCheck(() => predict.check(core, dot, 'dot', null, view([keptAdditive], early)), 'translation.ex.raceTrainOn', { steps: additiveAt });
});

test('the Transformer\'s additive heads against its dot product: refused until a dot-product run is kept, then judged on both runs\' steps to 95 %', () => {
  const predict = exercise('head-scoring');
  const dot = inputsOf({ trArchitecture: 'transformer', trSteps: 200 });
  const additive = inputsOf({ trArchitecture: 'transformer', trHeadScoring: 'additive', trSteps: 200 });
  const map = { rows: 1, cols: 1, values: [1], rowNames: ['0'], colNames: ['0'] };
  const dotRun = runOf(dot, 200, 1);
  const keptDot = keptRunOf({ inputs: dot, run: dotRun, map });
  const live = runOf(additive, 200, 2.5);
  const view = (kept) => ({
    keptRuns: () => kept,
    trainedRun: () => ({ ...live, inputs: additive, stepsToGoal: stepsToReach(live.evaluatedAt, live.accuracy), msPerStep: live.trainingMs / live.step }),
  });
  // The GRU models' Scoring is another setting: additive there is not this question.
  cannotCheck(() => predict.check(core, inputsOf({ trScoring: 'additive' }), 'additive', null, view([keptDot])), 'translation.ex.heads.setUp');
  cannotCheck(() => predict.check(core, dot, 'additive', null, view([keptDot])), 'translation.ex.heads.setUp');
  cannotCheck(() => predict.check(core, additive, 'additive', null, view([])), 'translation.ex.heads.keepFirst');
  assert.equal(predict.startedWhen(additive), true);
  assert.equal(predict.startedWhen(dot), false);
  assert.equal(predict.startedWhen({ ...additive, trArchitecture: 'bigru' }), false, 'a GRU model\'s heads are not the Transformer\'s');
  // The model each run trained is the one its setting says: shared additive weights only in the live one.
  assert.ok(Object.keys(live.model.params).some((name) => name.endsWith('.attention.w_v.weight')));
  assert.ok(!Object.keys(dotRun.model.params).some((name) => name.endsWith('.attention.w_v.weight')));

  const additiveAt = stepsToReach(live.evaluatedAt, live.accuracy);
  const dotAt = stepsToReach(keptDot.evaluatedAt, keptDot.accuracy);
  assert.ok(additiveAt !== null && dotAt !== null, `both reach 95 % within 200 steps: ${dotAt}, ${additiveAt}`);
  const faster = additiveAt < dotAt ? 'additive' : additiveAt === dotAt ? 'same' : 'dot';
  for (const answer of ['dot', 'additive', 'same']) {
    const result = predict.check(core, additive, answer, null, view([keptDot]));
    assert.equal(result.verdict, answer === faster ? 'right' : 'wrong', answer);
    assert.equal(result.key, `translation.ex.heads.${faster}Faster`);
    assert.deepEqual([result.params.dot, result.params.additive], [dotAt, additiveAt], 'the steps said are the curves\'');
    assert.deepEqual([result.params.dotMs, result.params.additiveMs], ['1', '2.5'], 'each run\'s ms a step, as it trained');
  }
});

test('an LSTM in the GRU\'s place: refused until a GRU run is kept, then judged on both runs\' steps to 95 %', () => {
  const predict = exercise('lstm-cell');
  const gru = inputsOf({ trSteps: 300 });
  const lstm = inputsOf({ trCell: 'lstm', trSteps: 300 });
  const map = { rows: 1, cols: 1, values: [1], rowNames: ['0'], colNames: ['0'] };
  const gruRun = runOf(gru, 300, 1);
  const keptGru = keptRunOf({ inputs: gru, run: gruRun, map });
  const live = runOf(lstm, 300, 1.5);
  const view = (kept) => ({
    keptRuns: () => kept,
    trainedRun: () => ({ ...live, inputs: lstm, stepsToGoal: stepsToReach(live.evaluatedAt, live.accuracy), msPerStep: live.trainingMs / live.step }),
  });
  cannotCheck(() => predict.check(core, gru, 'lstm', null, view([keptGru])), 'translation.ex.lstm.setUp');
  cannotCheck(() => predict.check(core, { ...lstm, trArchitecture: 'transformer' }, 'lstm', null, view([keptGru])), 'translation.ex.lstm.setUp');
  cannotCheck(() => predict.check(core, lstm, 'lstm', null, view([])), 'translation.ex.lstm.keepFirst');
  assert.equal(predict.startedWhen(lstm), true);
  assert.equal(predict.startedWhen({ ...lstm, trArchitecture: 'transformer' }), false, 'the Transformer has no cell');
  // The model each run trained has its own cell: four gates a unit for the LSTM, three for the GRU.
  const hidden = live.model.config.hidden;
  assert.equal(live.model.params['decoder.rnn.weight_hh_l0'].length, 4 * hidden * hidden);
  assert.equal(gruRun.model.params['decoder.rnn.weight_hh_l0'].length, 3 * hidden * hidden);

  const lstmAt = stepsToReach(live.evaluatedAt, live.accuracy);
  const gruAt = stepsToReach(keptGru.evaluatedAt, keptGru.accuracy);
  assert.ok(lstmAt !== null && gruAt !== null, `both reach 95 % within 300 steps: ${gruAt}, ${lstmAt}`);
  const faster = lstmAt < gruAt ? 'lstm' : lstmAt === gruAt ? 'same' : 'gru';
  for (const answer of ['gru', 'lstm', 'same']) {
    const result = predict.check(core, lstm, answer, null, view([keptGru]));
    assert.equal(result.verdict, answer === faster ? 'right' : 'wrong', answer);
    assert.equal(result.key, `translation.ex.lstm.${faster}Faster`);
    assert.deepEqual([result.params.gru, result.params.lstm], [gruAt, lstmAt], 'the steps said are the curves\'');
    assert.deepEqual([result.params.gruMs, result.params.lstmMs], ['1', '1.5'], 'each run\'s ms a step, as it trained');
  }
});
