// The exercises of "Additive vs scaled dot-product attention" and
// "Self-attention, hands on" (sections/scoring/exercises.js,
// sections/self-attention/exercises.js), checked without a browser against
// the real core (dist/attention-core.mjs): each right answer judged right,
// the typical wrong ones wrong with the feedback that names the mistake,
// the right answer moved by the state (a seed, a vector, a valid length),
// and solution() agreeing with check(). The right answers here are worked
// out by the test from the core's raw calls (or, for a weight, by plain
// arithmetic on the vectors), not taken from the exercises' helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { memoizeCore } from '../../web/src/core-memo.js';
import { setLanguage, loadCatalogue } from '../../web/src/i18n/index.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { countingCore } from './core-calls.mjs';
import { computeScoring } from '../../web/src/sections/scoring/setup.js';
import { COST_SIZES } from '../../web/src/sections/scoring/cost-panel.js';
import { RATIO_TOLERANCE, TREND_STEP } from '../../web/src/sections/scoring/exercises.js';
import { WEIGHT_TOLERANCE } from '../../web/src/sections/self-attention/exercises.js';
import { WORDS, sentenceMatrix } from '../../web/src/sections/self-attention/words.js';

// The page loads a language's catalogue when it shows it; these tests read both.
await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);

const raw = await loadAttentionCore();
const core = memoizeCore(raw);
setLanguage('en');

const sectionOf = (id) => SECTIONS.find((section) => section.id === id);
const scoring = sectionOf('scoring');
const selfAttention = sectionOf('self-attention');
const exerciseOf = (section, id) => section.exercises.find((exercise) => exercise.id === id);
const stateOf = (section) => (patch = {}) => ({
  ...Object.fromEntries(section.inputs.map((name) => [name, defaultState()[name]])), ...patch,
});
const scoringInputs = stateOf(scoring);
const saInputs = stateOf(selfAttention);
const argmax = (values) => values.reduce((best, value, j) => (value > values[best] ? j : best), 0);

test('each section has four exercises or more, of at least three kinds, one a prediction, and a teacher\'s note', () => {
  for (const section of [scoring, selfAttention]) {
    assert.ok(section.exercises.length >= 4, section.id);
    const kinds = new Set(section.exercises.map(({ kind }) => kind));
    assert.ok(kinds.size >= 3 && kinds.has('predict'), `${section.id}: ${[...kinds]}`);
    assert.equal(typeof section.teacherNoteKey, 'string');
  }
  assert.deepEqual(scoring.exercises.map(({ id }) => id), ['equal-lengths', 'keys-agree', 'scaling-trend', 'cost-ratio']);
  assert.deepEqual(selfAttention.exercises.map(({ id }) => id), ['attends-itself', 'shuffle', 'self-or-cross', 'series-values', 'notes-weight']);
});

test('equal lengths: each option judged by its own explanation, only the lengths one right', () => {
  const concept = exerciseOf(scoring, 'equal-lengths');
  for (const option of concept.options) {
    const result = concept.check(null, {}, option.id);
    assert.equal(result.verdict, option.id === 'lengths' ? 'right' : 'wrong', option.id);
    assert.equal(result.key, option.explanationKey);
  }
  // What the right option claims, of the core: the dot product refuses keys of another length.
  assert.throws(() => raw.dotProductAttention({
    queries: new Float64Array(20), keys: new Float64Array(2), values: new Float64Array(4), shape: { batch: 1, nq: 1, nk: 1, d: 20, dv: 4 },
  }));
});

// The two layers' largest difference over the valid keys, with random keys, from the section's compute.
function largestDifference(state) {
  const { additive, dot } = computeScoring(raw, { ...state, scoringKeys: 'random' });
  const nq = state.scoringQueries;
  let most = 0;
  for (let row = 0; row < 2 * nq; row += 1) {
    const len = [state.scoringLen1, state.scoringLen2][Math.floor(row / nq)];
    for (let key = 0; key < len; key += 1) most = Math.max(most, Math.abs(additive.weights[row * 10 + key] - dot.weights[row * 10 + key]));
  }
  return most;
}

test('keys agree (d2l 10.3 ex. 1): random keys part the two maps, unless every row has one valid key or none', () => {
  const agree = exerciseOf(scoring, 'keys-agree');
  assert.deepEqual(agree.hides, ['additive-weights', 'dot-weights', 'additive-output', 'dot-output']);
  for (const seed of [0, 1, 2]) {
    const state = scoringInputs({ scoringSeed: seed });
    assert.ok(largestDifference(state) > 0.05, `seed ${seed}: the maps differ`);
    assert.deepEqual(agree.check(core, state, 'differ'), { ...agree.check(core, state, 'differ'), verdict: 'right', key: 'scoring.ex.agree.differRight' });
    assert.equal(agree.check(core, state, 'same').key, 'scoring.ex.agree.notSame');
    assert.equal(agree.check(core, state, 'uniform').key, 'scoring.ex.agree.notUniform');
    assert.equal(agree.check(core, state, 'same').verdict, 'wrong');
    assert.equal(agree.solution(core, state).key, 'scoring.ex.agree.solutionDiffer');
    assert.equal(Number(agree.solution(core, state).params.diff), Number(largestDifference(state).toFixed(3)), 'the difference named is the largest');
  }
  const seed0 = agree.check(core, scoringInputs({ scoringSeed: 0 }), 'differ').params;
  const seed1 = agree.check(core, scoringInputs({ scoringSeed: 1 }), 'differ').params;
  assert.notDeepEqual(seed0, seed1, 'a new seed, new keys, another largest difference');
  // One valid key a row, or none: the weights are 1 or uniform whatever the keys.
  for (const lens of [{ scoringLen1: 1, scoringLen2: 1 }, { scoringLen1: 0, scoringLen2: 1 }]) {
    const state = scoringInputs(lens);
    assert.ok(largestDifference(state) < 1e-9, JSON.stringify(lens));
    assert.equal(agree.check(core, state, 'differ').verdict, 'wrong', 'the state moves the right answer');
    assert.equal(agree.check(core, state, 'differ').key, 'scoring.ex.agree.fewKeysWrong');
    assert.equal(agree.check(core, state, 'same').verdict, 'right');
    assert.equal(agree.check(core, state, 'uniform').verdict, 'right');
    assert.equal(agree.solution(core, state).key, 'scoring.ex.agree.solutionFewKeys');
  }
});

test('flatter or peakier as d grows: the core\'s scaling study, or the panel\'s rows when the view has them', () => {
  const trend = exerciseOf(scoring, 'scaling-trend');
  assert.deepEqual(trend.hides, ['scaling-weight']);
  for (const patch of [{}, { scalingKeys: 2, scalingSamples: 20 }, { scalingSeed: 3, scalingKeys: 30, scalingSamples: 20 }]) {
    const state = scoringInputs(patch);
    const [low, high] = raw.scalingStudy({ dims: [1, 512], samples: state.scalingSamples, keys: state.scalingKeys, seed: state.scalingSeed });
    assert.ok(high.maxWeight - low.maxWeight > TREND_STEP, `${JSON.stringify(patch)}: unscaled peakier`);
    assert.ok(Math.abs(high.scaledMaxWeight - low.scaledMaxWeight) <= TREND_STEP, `${JSON.stringify(patch)}: scaled level`);
    for (const option of trend.options) {
      const result = trend.check(core, state, option.id);
      assert.equal(result.verdict, option.id === 'peakier-level' ? 'right' : 'wrong', option.id);
      assert.equal(result.key, option.explanationKey);
      assert.equal(result.params.high, high.maxWeight.toFixed(2));
      assert.equal(result.params.scaledHigh, high.scaledMaxWeight.toFixed(2));
    }
    assert.equal(trend.solution(core, state).params.low, low.maxWeight.toFixed(2));
  }
  const params = (seed) => trend.check(core, scoringInputs({ scalingSeed: seed, scalingSamples: 20 }), 'peakier-level').params;
  assert.notDeepEqual(params(0), params(1), 'a new seed of the study, new numbers in the feedback');
  // The panel's rows are read when the view has them: rows of another shape
  // (a study that found no trend) make another option right.
  const flat = { maxWeight: 0.3, scaledMaxWeight: 0.3 };
  const view = { scalingRow: () => flat };
  assert.equal(trend.check(core, scoringInputs(), 'level-level', undefined, view).verdict, 'right');
  assert.equal(trend.check(core, scoringInputs(), 'level-level', undefined, view).key, 'scoring.ex.trend.rightMeasured');
  assert.equal(trend.check(core, scoringInputs(), 'peakier-level', undefined, view).key, 'scoring.ex.trend.measured');
  assert.equal(trend.solution(core, scoringInputs(), undefined, view).key, 'scoring.ex.trend.solutionMeasured');
  const [row] = raw.scalingStudy({ dims: [512], samples: 100, keys: 10, seed: 0 });
  const asPanel = { scalingRow: (d, inputs) => raw.scalingStudy({ dims: [d], samples: inputs.scalingSamples, keys: inputs.scalingKeys, seed: inputs.scalingSeed })[0] };
  assert.equal(trend.check(core, scoringInputs(), 'peakier-level', undefined, asPanel).params.high, row.maxWeight.toFixed(2));
});

test('the cost ratio is read off the timing table the view measured; its mistakes are named', () => {
  const cost = exerciseOf(scoring, 'cost-ratio');
  const sizes = new Set([0, 1, 2, 3, 4, 5, 6, 7].map((instance) => cost.draw(core, scoringInputs(), instance).n));
  assert.ok(sizes.size > 1 && [...sizes].every((n) => COST_SIZES.includes(n)), 'try another: another row');
  // Two measurements (as "Measure again" gives), each a view over its medians.
  const viewOf = (times) => ({ measuredCost: (n) => times[n] ?? null, markCost() {} });
  const first = viewOf({ 8: { additive: 0.06, dot: 0.02 }, 32: { additive: 0.5, dot: 0.1 }, 128: { additive: 12.8, dot: 1.6 } });
  const second = viewOf({ 8: { additive: 0.05, dot: 0.02 }, 32: { additive: 0.4, dot: 0.1 }, 128: { additive: 9.6, dot: 1.6 } });
  const at128 = { n: 128 };
  assert.equal(cost.check(core, {}, 8, at128, first).verdict, 'right');
  assert.equal(cost.check(core, {}, 8 + RATIO_TOLERANCE, at128, first).verdict, 'right', 'within the tolerance');
  assert.equal(cost.check(core, {}, 8, at128, second).verdict, 'wrong', 'a new measurement, a new right answer');
  assert.equal(cost.check(core, {}, 6, at128, second).verdict, 'right');
  assert.equal(cost.check(core, {}, 0.125, at128, first).key, 'scoring.ex.cost.inverse');
  assert.equal(cost.check(core, {}, 12.8, at128, first).key, 'scoring.ex.cost.time');
  assert.equal(cost.check(core, {}, 5, at128, first).key, 'scoring.ex.cost.otherSize');
  assert.equal(cost.check(core, {}, 5, at128, first).params.other, 32);
  assert.equal(cost.check(core, {}, 7.5, at128, first).key, 'scoring.ex.cost.close');
  assert.equal(cost.check(core, {}, 20, at128, first).key, 'scoring.ex.cost.tooHigh');
  assert.equal(cost.check(core, {}, 4, at128, first).key, 'scoring.ex.cost.tooLow');
  assert.equal(cost.solution(core, {}, at128, first).params.ratio, '8.0');
  assert.equal(cost.solution(core, {}, at128, second).params.ratio, '6.0');
  // Not measured yet: no verdict (no try spent), and the answer waits for the table.
  assert.throws(() => cost.check(core, {}, 8, at128, viewOf({})), /still being measured/);
  assert.throws(() => cost.check(core, {}, 8, at128, undefined), /still being measured/);
  assert.equal(cost.solution(core, {}, at128, viewOf({})).key, 'scoring.ex.cost.solutionMeasuring');
});

// The sentence's weights without projections, from the core's own layer.
const plainRow = (state, word) => {
  const X = sentenceMatrix(state);
  const { weights } = raw.dotProductAttention({ queries: X, keys: X, values: X, shape: { batch: 1, nq: 6, nk: 6, d: 5, dv: 5 } });
  return Array.from(weights.subarray(word * 6, word * 6 + 6));
};

test('attends to itself: the word drawn has one clear favourite, itself with the built-in vectors', () => {
  const itself = exerciseOf(selfAttention, 'attends-itself');
  assert.deepEqual(itself.hides, ['sa-weights', 'sa-self', 'sa-outputs']);
  const drawn = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((instance) => itself.draw(core, saInputs(), instance).word));
  assert.ok(drawn.size > 2, 'try another: another word');
  // 一个 scores itself and 正在 alike (the same grammar component): a tie is never asked.
  const tied = WORDS.findIndex(({ token }) => token === '一个');
  assert.ok(Math.abs(plainRow(saInputs(), tied)[tied] - plainRow(saInputs(), tied)[1]) < 1e-12);
  assert.ok(!drawn.has(tied), 'no question about a tie');
  for (const word of drawn) {
    assert.equal(argmax(plainRow(saInputs(), word)), word, `${WORDS[word].token} picks itself`);
    assert.equal(itself.check(core, saInputs(), 'self', { word }).verdict, 'right');
    assert.equal(itself.check(core, saInputs(), 'other', { word }).key, 'self-attention.ex.itself.notOther');
    assert.equal(itself.check(core, saInputs(), 'even', { word }).key, 'self-attention.ex.itself.notEven');
    assert.equal(itself.solution(core, saInputs(), { word }).key, 'self-attention.ex.itself.solutionSelf');
  }
  // 苹果 made longer along 吃's action and food: 吃 now picks 苹果, and the answer moves.
  const eat = WORDS.findIndex(({ token }) => token === '吃');
  const apple = WORDS.findIndex(({ token }) => token === '苹果');
  const edited = saInputs({ saAppleAction: 2, saAppleFood: 2.5 });
  assert.equal(argmax(plainRow(edited, eat)), apple);
  assert.equal(itself.check(core, edited, 'self', { word: eat }).verdict, 'wrong');
  assert.equal(itself.check(core, edited, 'self', { word: eat }).key, 'self-attention.ex.itself.notSelf');
  assert.equal(itself.check(core, edited, 'other', { word: eat }).key, 'self-attention.ex.itself.other');
  assert.equal(itself.solution(core, edited, { word: eat }).params.weight, plainRow(edited, eat)[apple].toFixed(3));
  // Short vectors: every score near 0, an even row.
  const faint = saInputs({ saEatPerson: 0.1, saEatAction: 0.1, saEatFood: 0, saEatColour: 0, saEatGrammar: 0 });
  assert.equal(itself.check(core, faint, 'even', { word: eat }).verdict, 'right');
});

test('shuffled words: only "permuted" is right, and the core agrees that outputs move with their words', () => {
  const shuffle = exerciseOf(selfAttention, 'shuffle');
  for (const option of shuffle.options) {
    assert.equal(shuffle.check(null, {}, option.id).verdict, option.id === 'permuted' ? 'right' : 'wrong');
    assert.equal(shuffle.check(null, {}, option.id).key, option.explanationKey);
  }
  const X = sentenceMatrix(saInputs());
  const order = [5, 2, 0, 4, 1, 3];
  const shuffled = Float64Array.from(order.flatMap((word) => Array.from(X.subarray(word * 5, word * 5 + 5))));
  const attend = (S) => raw.dotProductAttention({ queries: S, keys: S, values: S, shape: { batch: 1, nq: 6, nk: 6, d: 5, dv: 5 } }).output;
  const before = attend(X);
  const after = attend(shuffled);
  order.forEach((word, place) => {
    for (let c = 0; c < 5; c += 1) assert.ok(Math.abs(after[place * 5 + c] - before[word * 5 + c]) < 1e-12, `${WORDS[word].token} keeps its output`);
  });
});

test('attention vs self-attention: only "the same sequence" is right, each option its own explanation', () => {
  const concept = exerciseOf(selfAttention, 'self-or-cross');
  for (const option of concept.options) {
    assert.equal(concept.check(null, {}, option.id).verdict, option.id === 'same-sequence' ? 'right' : 'wrong', option.id);
    assert.equal(concept.check(null, {}, option.id).key, option.explanationKey);
  }
});

test('the notes\' recipe on the series: a point above zero favours the largest value, one below the smallest', () => {
  const series = exerciseOf(selfAttention, 'series-values');
  assert.deepEqual(series.hides, ['series-weights']);
  const favourite = (state, point) => {
    const data = raw.makeDataset({ n: state.seriesPoints, noise: state.seriesNoise, seed: state.seriesSeed, xMax: 5 });
    const n = data.y.length;
    const { weights } = raw.dotProductAttention({ queries: data.y, keys: data.y, values: data.y, shape: { batch: 1, nq: n, nk: n, d: 1, dv: 1 } });
    return { data, best: argmax(Array.from(weights.subarray(point * n, point * n + n))) };
  };
  const points = new Set([0, 1, 2, 3, 4, 5].map((instance) => series.draw(core, saInputs(), instance).point));
  assert.ok(points.size > 2, 'try another: another point');
  for (const instance of [0, 1, 2]) {
    const asked = series.draw(core, saInputs(), instance);
    const { data, best } = favourite(saInputs(), asked.point);
    assert.equal(asked.value, data.y[asked.point], 'the value the question quotes');
    assert.ok(asked.value > 0);
    assert.equal(data.y[best], Math.max(...data.y), 'the core\'s favourite is the largest value');
    assert.equal(series.check(core, saInputs(), 'largest', asked).verdict, 'right');
    assert.equal(series.check(core, saInputs(), 'neighbours', asked).key, 'self-attention.ex.series.notNeighbours');
    assert.equal(series.check(core, saInputs(), 'similar', asked).key, 'self-attention.ex.series.notSimilar');
    assert.equal(series.check(core, saInputs(), 'smallest', asked).key, 'self-attention.ex.series.notSmallest');
    assert.equal(series.solution(core, saInputs(), asked).params.best, best + 1);
  }
  // A noisier series with points below zero: for one of them the smallest value is right.
  let found = null;
  for (let seed = 0; seed < 20 && !found; seed += 1) {
    const state = saInputs({ seriesNoise: 2, seriesSeed: seed });
    for (let instance = 0; instance < 8 && !found; instance += 1) {
      const asked = series.draw(core, state, instance);
      if (asked.value < 0) found = { state, asked };
    }
  }
  assert.ok(found, 'a point below zero');
  const { data, best } = favourite(found.state, found.asked.point);
  assert.equal(data.y[best], Math.min(...data.y));
  assert.equal(series.check(core, found.state, 'smallest', found.asked).verdict, 'right');
  assert.equal(series.check(core, found.state, 'largest', found.asked).key, 'self-attention.ex.series.negative');
  assert.equal(series.solution(core, found.state, found.asked).key, 'self-attention.ex.series.solutionSmallest');
});

test('one weight of the notes\' formula: softmax of the plain dot products, worked out from the vectors', () => {
  const weight = exerciseOf(selfAttention, 'notes-weight');
  // The test's own arithmetic on the vectors, and the map's weights from the core.
  const notesWeight = (state, { query, key }) => {
    const X = sentenceMatrix(state);
    const dots = [0, 1, 2, 3, 4, 5].map((j) => [0, 1, 2, 3, 4].reduce((sum, c) => sum + X[query * 5 + c] * X[j * 5 + c], 0));
    const top = Math.max(...dots);
    const exps = dots.map((s) => Math.exp(s - top));
    return { right: exps[key] / exps.reduce((a, b) => a + b, 0), score: dots[key], shown: plainRow(state, query)[key] };
  };
  const pairs = [0, 1, 2, 3, 4, 5, 6, 7].map((instance) => weight.draw(core, saInputs(), instance));
  assert.ok(new Set(pairs.map(({ cell }) => cell)).size > 2, 'try another: another pair');
  for (const pair of pairs) {
    const { right, score, shown } = notesWeight(saInputs(), pair);
    assert.ok(Math.abs(right - shown) > 3 * WEIGHT_TOLERANCE, 'the map cannot be copied');
    assert.equal(weight.check(core, saInputs(), right, pair).verdict, 'right');
    assert.equal(weight.check(core, saInputs(), right + WEIGHT_TOLERANCE / 2, pair).verdict, 'right', 'within the tolerance');
    assert.equal(weight.check(core, saInputs(), shown, pair).key, 'self-attention.ex.weight.shown');
    if (Math.abs(score - right) > 0.1 && Math.abs(score - shown) > 2 * WEIGHT_TOLERANCE) {
      assert.equal(weight.check(core, saInputs(), score, pair).key, 'self-attention.ex.weight.score');
    }
    assert.equal(weight.solution(core, saInputs(), pair).params.weight, right.toFixed(3));
  }
  // An edited vector: a new right answer for the same pair.
  // (The key's component where the query's vector is largest, raised to 3.)
  const pair = pairs[0];
  const queryVector = sentenceMatrix(saInputs()).subarray(pair.query * 5, pair.query * 5 + 5);
  const edited = saInputs({ [WORDS[pair.key].parameters[argmax(Array.from(queryVector))]]: 3 });
  const before = notesWeight(saInputs(), pair).right;
  const after = notesWeight(edited, pair).right;
  assert.ok(Math.abs(after - before) > 3 * WEIGHT_TOLERANCE, `${before} -> ${after}`);
  assert.notEqual(weight.check(core, edited, before, pair).verdict, 'right', 'the old vectors\' answer');
  assert.equal(weight.check(core, edited, after, pair).verdict, 'right');
  const far = pairs.find((p) => notesWeight(saInputs(), p).right < 0.5);
  const farRight = notesWeight(saInputs(), far).right;
  assert.equal(weight.check(core, saInputs(), farRight + 0.45, far).key, 'self-attention.ex.weight.tooHigh');
  assert.equal(weight.check(core, saInputs(), farRight * 1.08 + 0.011, far).verdict, farRight * 0.08 + 0.011 <= 0.1 * farRight ? 'close' : 'wrong');
});

test('check() and solution() are cheap for the live state: with the core\'s memo warm, as on a redraw, a few calls of the core and none that trains', () => {
  const cases = [
    [scoring, 'keys-agree', scoringInputs(), 'differ', undefined],
    [selfAttention, 'attends-itself', saInputs(), 'self', { word: 0 }],
    [selfAttention, 'series-values', saInputs({ seriesPoints: 200 }), 'largest', { point: 3 }],
    [selfAttention, 'notes-weight', saInputs(), 0.1, { cell: 18, query: 3, key: 0 }],
  ];
  for (const [section, id, state, answer, instance] of cases) {
    const exercise = exerciseOf(section, id);
    // The page's memo over a core that counts what reaches it.
    const counting = countingCore(raw);
    const memoized = memoizeCore(counting.core);
    exercise.check(memoized, state, answer, instance);
    exercise.solution(memoized, state, instance);
    assert.deepEqual(counting.counts().training, [], `${id} trains`);
    counting.reset();
    for (let i = 0; i < 10; i += 1) {
      exercise.check(memoized, state, answer, instance);
      exercise.solution(memoized, state, instance);
    }
    const { total, byName } = counting.counts();
    assert.ok(total <= 10 * 8, `${id}: at most eight calls of the core a check and solution: ${JSON.stringify(byName)}`);
  }
});
