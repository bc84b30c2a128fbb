// The attention-training section's exercises (sections/attention-training-
// exercises.js), checked without a browser against the real core
// (dist/attention-core.mjs): models are trained here, as the page's run
// would train them, and handed to check() and solution() through a view
// that holds them; the right answers are worked out by this test from the
// core's own calls (maps, accuracies with heads switched off), never read
// from the module. A new seed or setting gives a new right answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { countingCore } from './core-calls.mjs';
import { memoizeCore } from '../../web/src/core-memo.js';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { setLanguage, t, loadCatalogue } from '../../web/src/i18n/index.js';
import { modelConfig, trainingOptions } from '../../web/src/sections/attention-training/attention-training.js';
import { keptRunOf, stepsToReach } from '../../web/src/run/kept-runs.js';
import { SORT_GOAL, SORT_RECIPE, PATTERN_MIN_STEPS, SPARE_DROP, NO_POSITIONS_STEPS } from '../../web/src/sections/attention-training/exercises.js';

// The page loads a language's catalogue when it shows it; these tests read both.
await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);

const raw = await loadAttentionCore();
const core = memoizeCore(raw);
const section = SECTIONS.find(({ id }) => id === 'attention-training');
const exercise = (id) => section.exercises.find((candidate) => candidate.id === id);
const inputsOf = (patch = {}) => {
  const state = { ...defaultState(), ...patch };
  return Object.fromEntries(section.inputs.map((name) => [name, state[name]]));
};
setLanguage('en');

// A model trained as the page's run trains it (chunks of at most 200 steps:
// the batches depend on the seed and the global step alone).
const trained = new Map();
function train(inputs, steps) {
  const name = JSON.stringify([inputs, steps]);
  if (!trained.has(name)) {
    let model = raw.attentionModelInit(modelConfig(inputs));
    for (let done = 0; done < steps; done += 200) {
      model = raw.attentionModelTrain(model, trainingOptions(inputs, Math.min(200, steps - done))).model;
    }
    trained.set(name, model);
  }
  return trained.get(name);
}

// The section's view as check() sees it: the run's model, step and inputs.
const viewOf = (inputs, model, step) => ({ trainedRun: () => ({ model, step, status: 'done', inputs }) });
const trainedView = (patch, steps) => {
  const inputs = inputsOf(patch);
  return { inputs, view: viewOf(inputs, train(inputs, steps), steps), model: train(inputs, steps) };
};

// The held-out set as the core's training draws it: `count` sequences of seed XOR heldOutSeedMix.
function heldOut(inputs, count = 256) {
  return raw.attentionTaskBatch({
    task: inputs.atTask, batch: count, length: 8, vocab: 10, seed: (inputs.atSeed ^ raw.defaults.heldOutSeedMix) >>> 0,
    lag: inputs.atLag, variableLengths: inputs.atVariable,
  });
}
const accuracy = (inputs, model, headsOff = null) => {
  const set = heldOut(inputs);
  return raw.attentionModelAccuracy(model, set.tokens, set.targets, { batch: 256, causal: inputs.atCausal, headsOff }).accuracy;
};

// This test's own reading of the pattern block 1's heads learned: of the
// rows of every head's maps of the first 64 held-out sequences
// (full-length), the share whose largest weight sits on each pattern's key
// (for uniform: no weight above 2/8); the largest share.
function learnedShares(inputs, model) {
  const set = heldOut(inputs, 64);
  const { weights } = raw.attentionModelForward(model, set.tokens, { batch: 64, causal: inputs.atCausal });
  const keyOf = { antiDiagonal: (i) => 7 - i, diagonal: (i) => i, firstColumn: () => 0 };
  const shares = { antiDiagonal: 0, diagonal: 0, uniform: 0, firstColumn: 0 };
  const rows = 64 * inputs.atHeads * 8;
  for (let map = 0; map < 64 * inputs.atHeads; map += 1) { // block 0: item-major, then head
    for (let i = 0; i < 8; i += 1) {
      const row = Array.from(weights.subarray(map * 64 + i * 8, map * 64 + i * 8 + 8));
      const top = Math.max(...row);
      if (top <= 2 / 8) shares.uniform += 1 / rows;
      for (const [name, key] of Object.entries(keyOf)) if (top > 2 / 8 && row.indexOf(top) === key(i)) shares[name] += 1 / rows;
    }
  }
  return shares;
}
function nearestPattern(inputs, model) {
  const shares = learnedShares(inputs, model);
  return Object.keys(shares).reduce((best, name) => (shares[name] > shares[best] ? name : best));
}

const cannotCheck = (fn, key, params) => assert.throws(fn, (error) => error.message === t(key, params), key);

test('the section declares eight exercises of four kinds, the pattern\'s prediction covering the maps, their row taken apart and the note that names the pattern', () => {
  assert.deepEqual(section.exercises.map(({ id, kind }) => `${id}:${kind}`),
    ['reverse-pattern:predict', 'sort-one-head:achieve', 'head-removal:compute', 'd2l-scale:concept', 'causal-reverse:concept',
      'row-weight-ratio:compute', 'no-positions:predict', 'learned-positions:predict']);
  assert.deepEqual(exercise('learned-positions').hides, ['at-accuracy', 'at-compare'], 'the comparison and the live curve');
  assert.deepEqual(exercise('no-positions').withholds, ['attention-training.positionsNote'], 'the note that says it');
  assert.deepEqual(exercise('reverse-pattern').hides, ['at-heads', 'at-explain', 'at-row-steps']);
  assert.deepEqual(exercise('reverse-pattern').startedBy, ['at-play', 'at-step'], 'Play and Step show the maps the lead says to watch');
  assert.equal(section.teacherNoteKey, 'attention-training.ex.teacherNote');
});

test('predict the pattern: cannot be checked before a reverse model has trained; then judged by the heads trained, at the default four heads too', () => {
  const predict = exercise('reverse-pattern');
  const inputs = inputsOf();
  assert.equal(inputs.atHeads, 4, 'the default has four heads: the question holds for it');
  cannotCheck(() => predict.check(core, inputs, 'antiDiagonal', null, undefined), 'attention-training.ex.pressPlay');
  cannotCheck(() => predict.check(core, inputs, 'antiDiagonal', null, viewOf(inputs, raw.attentionModelInit(modelConfig(inputs)), 0)), 'attention-training.ex.pressPlay');
  cannotCheck(() => predict.check(core, inputsOf({ atTask: 'sort' }), 'antiDiagonal', null, undefined), 'attention-training.ex.pattern.notReverse');
  const early = inputsOf();
  cannotCheck(() => predict.check(core, early, 'antiDiagonal', null, viewOf(early, train(early, 50), 50)),
    'attention-training.ex.trainLonger', { steps: PATTERN_MIN_STEPS, step: 50 });
  // A run trained for other settings than the live ones is no answer.
  cannotCheck(() => predict.check(core, inputsOf({ atSeed: 3 }), 'antiDiagonal', null, viewOf(inputs, train(inputs, 100), 100)), 'attention-training.ex.pressPlay');
  // Nothing trained: the answer shown is the task's ideal pattern, from the core.
  assert.match(t(predict.solution(core, inputs, null, undefined).key, predict.solution(core, inputs, null, undefined).params),
    new RegExp(`^${t('attention-training.ex.pattern.name.antiDiagonal')}:`));

  for (const patch of [{ atSeed: 0 }, { atSeed: 1 }, { atHeads: 1 }]) {
    const { inputs: live, view, model } = trainedView(patch, 100);
    const shares = learnedShares(live, model);
    assert.equal(nearestPattern(live, model), 'antiDiagonal', `${JSON.stringify(patch)}: the heads learn reverse's anti-diagonal`);
    assert.ok(shares.antiDiagonal > 0.6, `${JSON.stringify(patch)}: ${shares.antiDiagonal} of the rows on it`);
    const right = predict.check(core, live, 'antiDiagonal', null, view);
    assert.deepEqual([right.verdict, right.key], ['right', 'attention-training.ex.pattern.right']);
    assert.equal(right.params.share, (shares.antiDiagonal * 100).toFixed(1), 'the share said is the test\'s own');
    for (const [wrong, key] of [['diagonal', 'attention-training.ex.pattern.diagonalWhy'], ['uniform', 'attention-training.ex.pattern.uniformWhy'], ['firstColumn', 'attention-training.ex.pattern.firstColumnWhy']]) {
      const result = predict.check(core, live, wrong, null, view);
      assert.deepEqual([result.verdict, result.key], ['wrong', key], `${wrong}: its own explanation`);
      assert.equal(result.params.chosenShare, (shares[wrong] * 100).toFixed(1));
    }
    assert.equal(predict.solution(core, live, null, view).key, 'attention-training.ex.pattern.solution');
    assert.equal(predict.solution(core, live, null, view).params.pattern, t('attention-training.ex.pattern.name.antiDiagonal'));
  }
  // Untrained maps are flat: the uniform pattern, by the same reading.
  assert.equal(nearestPattern(inputs, raw.attentionModelInit(modelConfig(inputs))), 'uniform');

  // d2l's embedding scale: the heads never find the positions, and the
  // right answer is what they did learn (the test's own reading).
  const { inputs: scaled, view: scaledView, model: scaledModel } = trainedView({ atHeads: 1, atD2lScale: true }, 100);
  const learned = nearestPattern(scaled, scaledModel);
  assert.notEqual(learned, 'antiDiagonal', 'the scale keeps the head off the anti-diagonal');
  assert.deepEqual(predict.check(core, scaled, learned, null, scaledView).key, 'attention-training.ex.pattern.rightOther');
  const missed = predict.check(core, scaled, 'antiDiagonal', null, scaledView);
  assert.deepEqual([missed.verdict, missed.key], ['wrong', 'attention-training.ex.pattern.learnedOther']);
  assert.equal(missed.params.pattern, t(`attention-training.ex.pattern.name.${learned}`));
});

test('sort with one head: the goal is the core\'s held-out accuracy of the trained model; wrong settings named', () => {
  const sort = exercise('sort-one-head');
  const { inputs: reverse, view: reverseView } = trainedView({ atHeads: 1 }, 100);
  assert.equal(sort.check(core, reverse, undefined, null, reverseView).key, 'attention-training.ex.sort.notSort');
  const four = inputsOf({ atTask: 'sort' });
  assert.equal(sort.check(core, four, undefined, null, undefined).key, 'attention-training.ex.sort.heads', 'four heads: said before any training');
  cannotCheck(() => sort.check(core, inputsOf(SORT_RECIPE), undefined, null, undefined), 'attention-training.ex.pressPlay');

  // Attention only, one head, 100 steps: short of the goal, and said why.
  const { inputs: attentionOnly, view: attentionOnlyView, model: attentionOnlyModel } = trainedView({ atTask: 'sort', atHeads: 1 }, 100);
  const short = accuracy(attentionOnly, attentionOnlyModel);
  assert.ok(short < SORT_GOAL, `attention only: ${short}`);
  const shortResult = sort.check(core, attentionOnly, undefined, null, attentionOnlyView);
  assert.deepEqual([shortResult.verdict, shortResult.key], [short >= 0.9 * SORT_GOAL ? 'close' : 'wrong', 'attention-training.ex.sort.attentionOnly']);
  assert.equal(shortResult.params.accuracy, (short * 100).toFixed(1));

  // The recipe the answer gives reaches the goal, for two seeds; each
  // model's accuracy is the core's for the live seed.
  const reached = [0, 1].map((seed) => {
    const { inputs, view, model } = trainedView({ ...SORT_RECIPE, atSeed: seed }, SORT_RECIPE.atSteps);
    const share = accuracy(inputs, model);
    assert.ok(share >= SORT_GOAL, `seed ${seed}: the recipe reaches ${share}`);
    const result = sort.check(core, inputs, undefined, null, view);
    assert.deepEqual([result.verdict, result.key, result.params.accuracy], ['right', 'attention-training.ex.sort.right', (share * 100).toFixed(1)]);
    assert.equal(sort.solution(core, inputs, null, view).params.accuracy, (share * 100).toFixed(1));
    return share;
  });
  assert.notEqual(reached[0], reached[1], 'a new seed, another model and another accuracy');
  const causal = trainedView({ ...SORT_RECIPE, atCausal: true }, 100);
  assert.equal(sort.check(core, causal.inputs, undefined, null, causal.view).key, 'attention-training.ex.sort.causal');
  assert.equal(sort.solution(core, four, null, undefined).params.ffn, SORT_RECIPE.atFfn);
});

test('the head whose removal hurts reverse most: every head switched off by the core, a new seed a new head', () => {
  const removal = exercise('head-removal');
  cannotCheck(() => removal.check(core, inputsOf(), 1, null, undefined), 'attention-training.ex.pressPlay');
  cannotCheck(() => removal.check(core, inputsOf({ atTask: 'sort' }), 1, null, undefined), 'attention-training.ex.removal.notReverse');
  assert.equal(removal.solution(core, inputsOf(), null, undefined).key, 'attention-training.ex.removal.solutionUntrained');

  const bestHeads = [0, 1].map((seed) => {
    const { inputs, view, model } = trainedView({ atSeed: seed }, 100);
    const whole = accuracy(inputs, model);
    const drops = [0, 1, 2, 3].map((head) => whole - accuracy(inputs, model, Int32Array.from([0, 1, 2, 3], (h) => (h === head ? 1 : 0))));
    const best = drops.indexOf(Math.max(...drops)) + 1;
    assert.ok(drops.filter((drop) => drop === drops[best - 1]).length === 1, `seed ${seed}: one head matters most (${drops})`);
    const right = removal.check(core, inputs, best, null, view);
    assert.deepEqual([right.verdict, right.key], ['right', 'attention-training.ex.removal.right']);
    assert.equal(right.params.drop, (drops[best - 1] * 100).toFixed(1));
    for (let head = 1; head <= 4; head += 1) {
      if (head === best) continue;
      const result = removal.check(core, inputs, head, null, view);
      assert.equal(result.verdict, 'wrong', `seed ${seed}: head ${head}`);
      assert.ok(['attention-training.ex.removal.wrong', 'attention-training.ex.removal.spare'].includes(result.key));
      // A wrong head is told what it costs, not which head costs most.
      assert.deepEqual([result.params.best, result.params.bestWithout], [undefined, undefined], `seed ${seed}: head ${head}`);
    }
    for (const outside of [0, 5, 1.5]) assert.equal(removal.check(core, inputs, outside, null, view).key, 'attention-training.ex.removal.noSuchHead');
    assert.equal(removal.solution(core, inputs, null, view).params.best, best);
    return best;
  });
  assert.notEqual(bestHeads[0], bestHeads[1], `a new seed, another head: ${bestHeads}`);

  const one = trainedView({ atHeads: 1 }, 100);
  assert.equal(removal.check(core, one.inputs, 1, null, one.view).key, 'attention-training.ex.removal.rightOnly');
});

test('a head the model can spare (its removal costs under half a point) is named as such', () => {
  const removal = exercise('head-removal');
  let named = 0;
  for (const seed of [0, 1, 2]) {
    const { inputs, view, model } = trainedView({ atSeed: seed }, 200);
    const whole = accuracy(inputs, model);
    const drops = [0, 1, 2, 3].map((head) => whole - accuracy(inputs, model, Int32Array.from([0, 1, 2, 3], (h) => (h === head ? 1 : 0))));
    const best = drops.indexOf(Math.max(...drops)) + 1;
    drops.forEach((drop, index) => {
      if (index + 1 === best) return;
      const { key } = removal.check(core, inputs, index + 1, null, view);
      assert.equal(key, drop < SPARE_DROP ? 'attention-training.ex.removal.spare' : 'attention-training.ex.removal.wrong', `seed ${seed}, head ${index + 1}: drop ${drop}`);
      if (drop < SPARE_DROP) named += 1;
    });
  }
  assert.ok(named >= 1, 'a head the model can spare');
});

test('the concept questions: each option judged by its own explanation', () => {
  for (const [id, right] of [['d2l-scale', 'drowned'], ['causal-reverse', 'half']]) {
    const concept = exercise(id);
    assert.equal(concept.right, right);
    for (const option of concept.options) {
      const result = concept.check(null, {}, option.id);
      assert.deepEqual([result.verdict, result.key], [option.id === right ? 'right' : 'wrong', option.explanationKey]);
    }
  }
});

test('check and solution are cheap: they evaluate the trained model, never train, and measure one model once', () => {
  const { inputs, view } = trainedView({ atSeed: 7 }, 100);
  const removal = exercise('head-removal');
  const counting = countingCore(core);
  removal.check(counting.core, inputs, 1, null, view);
  const first = counting.counts();
  console.log(`head-removal: the first check asks the core ${JSON.stringify(first.byName)}`);
  assert.deepEqual(first.training, [], 'no training');
  // The model's accuracy with every head, and with each switched off in turn (each on its held-out batch).
  assert.equal(first.byName.attentionModelAccuracy, inputs.atHeads + 1);
  assert.ok(first.total <= 2 * (inputs.atHeads + 1), `${first.total} calls for ${inputs.atHeads} heads`);
  counting.reset();
  for (let i = 0; i < 10; i += 1) removal.solution(counting.core, inputs, null, view);
  assert.equal(counting.counts().total, 0, 'the same model is measured once');
});

test('no positions: refused on other settings and before 1000 steps; then judged by the band of the trained model\'s held-out accuracy', () => {
  const predict = exercise('no-positions');
  const inputs = inputsOf({ atPositional: 'none' });
  cannotCheck(() => predict.check(core, inputsOf(), 'far', null, undefined), 'attention-training.ex.positions.setUp');
  cannotCheck(() => predict.check(core, inputsOf({ atPositional: 'none', atCausal: true }), 'far', null, undefined), 'attention-training.ex.positions.setUp');
  cannotCheck(() => predict.check(core, inputs, 'far', null, undefined), 'attention-training.ex.pressPlay');
  cannotCheck(() => predict.check(core, inputs, 'far', null, viewOf(inputs, train(inputs, 500), 500)),
    'attention-training.ex.trainLonger', { steps: NO_POSITIONS_STEPS, step: 500 });
  assert.equal(predict.startedWhen(inputs), true, 'Play without positions starts what it asks about');
  assert.equal(predict.startedWhen(inputsOf()), false, 'Play with positions does not');
  const untrained = predict.solution(core, inputs, null, undefined);
  assert.equal(untrained.key, 'attention-training.ex.positions.solutionUntrained');

  for (const patch of [{ atSeed: 0 }, { atSeed: 3 }]) {
    const { inputs: live, view, model } = trainedView({ atPositional: 'none', ...patch }, NO_POSITIONS_STEPS);
    const set = raw.attentionTaskBatch({ task: 'reverse', batch: 256, length: 8, vocab: 10, seed: (live.atSeed ^ raw.defaults.heldOutSeedMix) >>> 0 });
    const accuracy = raw.attentionModelAccuracy(model, set.tokens, set.targets, { batch: 256 }).accuracy;
    assert.ok(accuracy < 0.5, `${JSON.stringify(patch)}: the test's own accuracy ${accuracy}`);
    const right = predict.check(core, live, 'far', null, view);
    assert.deepEqual([right.verdict, right.key], ['right', 'attention-training.ex.positions.right']);
    assert.equal(right.params.accuracy, (accuracy * 100).toFixed(1), 'the accuracy said is the test\'s own');
    for (const wrong of ['learns', 'most']) {
      const result = predict.check(core, live, wrong, null, view);
      assert.deepEqual([result.verdict, result.key], ['wrong', `attention-training.ex.positions.${wrong}Why`], `${wrong}: its own explanation`);
    }
    const shown = predict.solution(core, live, null, view);
    assert.equal(shown.key, 'attention-training.ex.positions.solution');
    assert.equal(shown.params.accuracy, (accuracy * 100).toFixed(1));
  }
});

// A run of `steps` steps as the run view describes it: its model and held-out curve (the core's).
function runOf(inputs, steps) {
  const result = raw.attentionModelTrain(raw.attentionModelInit(modelConfig(inputs)), trainingOptions(inputs, steps));
  return {
    model: result.model, step: steps, status: 'done', losses: Array.from(result.loss), trainingMs: 1,
    evaluatedAt: Array.from(result.evaluatedAt), accuracy: Array.from(result.accuracy),
  };
}

test('learned against sinusoidal positions: refused until a sinusoidal run is kept and this one trained; then judged on both runs\' steps to 95 %', () => {
  const predict = exercise('learned-positions');
  const learned = inputsOf({ atPositional: 'learned', atSteps: 200 });
  const sinusoidal = inputsOf({ atSteps: 200 });
  const map = { rows: 1, cols: 1, values: [1], rowNames: ['0'], colNames: ['0'] };
  const keptSinusoidal = keptRunOf({ inputs: sinusoidal, run: runOf(sinusoidal, 200), map });
  const live = runOf(learned, 200);
  const view = (kept, run = live) => ({
    keptRuns: () => kept, trainedRun: () => ({ ...run, inputs: learned, stepsToGoal: stepsToReach(run.evaluatedAt, run.accuracy) }),
  });
  cannotCheck(() => predict.check(core, sinusoidal, 'learned', null, view([keptSinusoidal])), 'attention-training.ex.learned.setUp');
  cannotCheck(() => predict.check(core, learned, 'learned', null, view([])), 'attention-training.ex.learned.keepFirst');
  const otherSeed = keptRunOf({ inputs: { ...sinusoidal, atSeed: 5 }, run: runOf({ ...sinusoidal, atSeed: 5 }, 200), map });
  cannotCheck(() => predict.check(core, learned, 'learned', null, view([otherSeed])), 'attention-training.ex.learned.keepFirst');
  const short = keptRunOf({ inputs: sinusoidal, run: runOf(sinusoidal, 50), map });
  if (short.stepsToGoal === null) {
    cannotCheck(() => predict.check(core, learned, 'learned', null, view([short])), 'attention-training.ex.learned.keptShort', { steps: 50 });
  }
  assert.equal(predict.startedWhen(learned), true);
  assert.equal(predict.startedWhen(sinusoidal), false);

  // The test's own reading of the two curves.
  const learnedAt = stepsToReach(live.evaluatedAt, live.accuracy);
  const sinusoidalAt = stepsToReach(keptSinusoidal.evaluatedAt, keptSinusoidal.accuracy);
  assert.ok(sinusoidalAt !== null && learnedAt !== null, `both reach 95 % within 200 steps: ${sinusoidalAt}, ${learnedAt}`);
  const faster = learnedAt < sinusoidalAt ? 'learned' : learnedAt === sinusoidalAt ? 'same' : 'sinusoidal';
  for (const answer of ['sinusoidal', 'learned', 'same']) {
    const result = predict.check(core, learned, answer, null, view([keptSinusoidal]));
    assert.equal(result.verdict, answer === faster ? 'right' : 'wrong', answer);
    assert.equal(result.key, `attention-training.ex.learned.${faster}Faster`);
    assert.deepEqual([result.params.learned, result.params.sinusoidal], [learnedAt, sinusoidalAt], 'the steps said are the curves\'');
  }
  assert.equal(predict.solution(core, learned, null, view([keptSinusoidal])).key, `attention-training.ex.learned.${faster}Faster`);
  assert.equal(predict.solution(core, learned, null, view([])).key, 'attention-training.ex.learned.solutionUntrained');
  // Before the learned run reaches 95 % or passes the kept run's step, the race is still on.
  const early = { ...live, step: 1, evaluatedAt: [], accuracy: [] };
  cannotCheck(() => predict.check(core, learned, 'learned', null, view([keptSinusoidal], early)), 'attention-training.ex.learned.trainOn', { steps: sinusoidalAt });
});
