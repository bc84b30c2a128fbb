// The exercises of the cues, data and heatmap sections (sections/
// cues/exercises.js, data/exercises.js, heatmap/exercises.js), checked
// without a browser against the real core (dist/attention-core.mjs): the
// right answer is judged right and the typical wrong ones wrong with the
// feedback meant for them; a new seed or instance gives a new right
// answer; solution() agrees with check().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { memoizeCore } from '../../web/src/core-memo.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { countingCore } from './core-calls.mjs';
// The most calls of the core a solution() may make: a teacher's screen asks every one on every redraw.
const MOST_CORE_CALLS = 128;
import { testQueries } from '../../web/src/sections/shared/kernel-regression.js';
import { VALUE_TOLERANCE } from '../../web/src/sections/cues/exercises.js';
import { NOISE_TOLERANCE, TIGHT_RMS } from '../../web/src/sections/data/exercises.js';
import { RATIO_TOLERANCE } from '../../web/src/sections/heatmap/exercises.js';
import { SALTS, streamSeed } from '../../web/src/sections/shared/seeded-draws.js';

const raw = await loadAttentionCore();
const core = memoizeCore(raw);
const sectionOf = (id) => SECTIONS.find((section) => section.id === id);
const exerciseOf = (sectionId, id) => sectionOf(sectionId).exercises.find((exercise) => exercise.id === id);
const inputsOf = (sectionId, patch = {}) => {
  const state = defaultState();
  return { ...Object.fromEntries((sectionOf(sectionId).inputs ?? []).map((name) => [name, state[name]])), ...patch };
};
const dataOf = ({ n, noise, seed }) => raw.makeDataset({ n, noise, seed, xMax: 5 });

test('each section has four exercises of at least three kinds, a prediction among them, and a teacher\'s note', () => {
  for (const id of ['cues', 'data', 'heatmap']) {
    const { exercises, teacherNoteKey } = sectionOf(id);
    assert.equal(exercises.length, 4, id);
    assert.ok(new Set(exercises.map(({ kind }) => kind)).size >= 3, `${id}: three kinds`);
    assert.ok(exercises.some(({ kind }) => kind === 'predict'), `${id}: a prediction`);
    assert.equal(teacherNoteKey, `${id === 'heatmap' ? 'heatmap' : id}.ex.teacherNote`);
  }
});

test('each seeded stream has a salt of its own: no two exercises draw the same numbers', () => {
  assert.equal(new Set(Object.values(SALTS)).size, Object.keys(SALTS).length);
});

test('the concept questions: each option its own explanation, one right', () => {
  for (const [section, id, right] of [['cues', 'friend-in-crowd', 'wish'], ['cues', 'depends-on-query', 'attention'],
    ['data', 'truth-curve', 'function'], ['heatmap', 'row-is-query', 'query']]) {
    const exercise = exerciseOf(section, id);
    for (const option of exercise.options) {
      const result = exercise.check(core, {}, option.id);
      assert.equal(result.verdict, option.id === right ? 'right' : 'wrong', `${id}: ${option.id}`);
      assert.equal(result.key, option.explanationKey);
    }
    assert.equal(exercise.solution().labelKey, exercise.options.find((option) => option.id === right).labelKey);
  }
});

test('cues: the identity\'s output is the value of the query\'s key, from the core; each mistake named; a new instance, a new answer', () => {
  const exercise = exerciseOf('cues', 'identity-output');
  const answers = new Set();
  for (const index of [0, 1, 2, 3]) {
    const instance = exercise.draw(core, {}, index);
    const { values, query } = instance;
    // The core's own product of the identity's row and the values.
    const row = new Float64Array(10);
    row[query] = 1;
    const right = raw.batchMatrixProduct(row, values, { shapeX: [1, 1, 10], shapeY: [1, 10, 1] }).values[0];
    assert.equal(right, values[query], 'the identity picks the key\'s value');
    answers.add(`${query}:${right}`);
    assert.equal(exercise.check(core, {}, right, instance).verdict, 'right');
    assert.equal(exercise.check(core, {}, right + VALUE_TOLERANCE / 2, instance).verdict, 'right', 'within the tolerance');
    assert.equal(exercise.check(core, {}, query, instance).key, 'cues.ex.output.key', 'the key\'s index, not its value');
    const mean = raw.averagePool(values, 1)[0];
    assert.equal(exercise.check(core, {}, mean, instance).key, 'cues.ex.output.average');
    assert.equal(exercise.check(core, {}, values[query - 1], instance).key, 'cues.ex.output.countedFromOne');
    assert.equal(exercise.check(core, {}, right + 50, instance).verdict, 'wrong');
    assert.equal(exercise.solution(core, {}, instance).params.value, right.toFixed(1));
  }
  assert.ok(answers.size >= 3, 'try another: new values, a new answer');
});

test('cues: the random matrix\'s row softmax, predicted: rows sum to 1 and every weight is positive, by the core', () => {
  const exercise = exerciseOf('cues', 'random-softmax');
  assert.equal(exercise.kind, 'predict');
  assert.deepEqual(exercise.hides, ['random-softmax']);
  const first = exercise.draw(core, {}, 0);
  const second = exercise.draw(core, {}, 1);
  assert.notDeepEqual(Array.from(first.weights), Array.from(second.weights), 'try another: a new matrix');
  for (const instance of [first, second]) {
    const scores = raw.randomUniform(100, { seed: streamSeed(instance.index, 'randomScores'), low: 0, high: 1 });
    assert.deepEqual(Array.from(instance.weights), Array.from(raw.maskedSoftmax(scores, [1, 10, 10], null)), 'the core\'s softmax of torch.rand scores');
    const right = exercise.check(core, {}, ['rows', 'positive'], instance);
    assert.equal(right.verdict, 'right');
    assert.ok(Number(right.params.high) < 0.3 && Number(right.params.low) > 0, 'soft weights, all positive');
    assert.equal(exercise.check(core, {}, ['rows'], instance).key, 'cues.ex.softmax.positiveWhy', 'missed: every weight positive');
    assert.equal(exercise.check(core, {}, ['rows', 'columns', 'positive'], instance).key, 'cues.ex.softmax.columnsWhy', 'columns are not normalised');
    assert.equal(exercise.check(core, {}, ['rows', 'positive', 'diagonal'], instance).key, 'cues.ex.softmax.diagonalWhy');
    assert.equal(exercise.check(core, {}, ['rows', 'positive', 'oneHot'], instance).key, 'cues.ex.softmax.oneHotWhy');
    assert.equal(exercise.solution(core, {}, instance).key, 'cues.ex.softmax.solution');
  }
});

test('data: what doubling σ does, judged on the core\'s two data sets; from 0 nothing scales', () => {
  const exercise = exerciseOf('data', 'change-noise');
  assert.equal(exercise.kind, 'predict');
  const inputs = inputsOf('data');
  const instance = exercise.draw(core, inputs, 0);
  assert.deepEqual(instance, { from: 0.5, to: 1 });
  const [before, after] = [dataOf(inputs), dataOf({ ...inputs, noise: 1 })];
  assert.deepEqual(after.x, before.x, 'the core keeps every x');
  assert.equal(exercise.check(core, inputs, ['sameX', 'scaled'], instance).verdict, 'right');
  assert.equal(exercise.check(core, inputs, ['sameX'], instance).key, 'data.ex.noise.scaledWhy');
  assert.equal(exercise.check(core, inputs, ['sameX', 'scaled', 'redrawn'], instance).key, 'data.ex.noise.redrawnWhy');
  assert.equal(exercise.check(core, inputs, ['scaled', 'truthMoves'], instance).key, 'data.ex.noise.sameXWhy');
  assert.equal(exercise.solution(core, inputs, instance).key, 'data.ex.noise.solution');
  // From σ = 0: no factor scales an offset of 0.
  const fromZero = exercise.draw(core, { ...inputs, noise: 0 }, 0);
  assert.deepEqual(fromZero, { from: 0, to: 0.5 });
  assert.equal(exercise.check(core, { ...inputs, noise: 0 }, ['sameX'], fromZero).verdict, 'right');
  assert.equal(exercise.check(core, { ...inputs, noise: 0 }, ['sameX', 'scaled'], fromZero).key, 'data.ex.noise.scaledFromZero');
  assert.equal(exercise.solution(core, { ...inputs, noise: 0 }, fromZero).key, 'data.ex.noise.solutionFromZero');
  assert.deepEqual(exercise.draw(core, { ...inputs, noise: 1.5 }, 0), { from: 1.5, to: 0.75 }, 'halved where doubling leaves the range');
});

test('data: one point\'s noise, y − f(x) from the core; each mistake named; a new seed, a new answer', () => {
  const exercise = exerciseOf('data', 'point-noise');
  const noiseAt = (inputs, instance) => {
    const data = dataOf(inputs);
    return data.y[instance.index] - raw.truth([data.x[instance.index]])[0];
  };
  const inputs = inputsOf('data');
  const instance = exercise.draw(core, inputs, 0);
  const right = noiseAt(inputs, instance);
  const truth = raw.truth([instance.x])[0];
  assert.equal(exercise.check(core, inputs, right, instance).verdict, 'right');
  assert.equal(exercise.check(core, inputs, instance.y, instance).key, 'data.ex.point.wholeY');
  assert.equal(exercise.check(core, inputs, truth, instance).key, 'data.ex.point.truth');
  assert.equal(exercise.check(core, inputs, -right, instance).key, 'data.ex.point.sign');
  assert.equal(exercise.solution(core, inputs, instance).params.noise, right.toFixed(3).replace('-', '−'));
  // A new seed: a new point (or the same index at another place), a new
  // right answer (the first seed whose answer differs, among a few).
  const seeds = [1, 2, 3, 4, 5].map((seed) => {
    const state = { ...inputs, seed };
    const drawn = exercise.draw(core, state, 0);
    return { state, drawn, answer: noiseAt(state, drawn) };
  });
  const moved = seeds.filter(({ answer }) => Math.abs(answer - right) > 3 * NOISE_TOLERANCE);
  assert.ok(moved.length >= 3, `the answer moves with the seed: ${seeds.map(({ answer }) => answer.toFixed(3))}`);
  const { state: seeded, drawn: other, answer: rightThen } = moved[0];
  assert.notEqual(exercise.check(core, seeded, right, other).verdict, 'right', 'the old seed\'s answer is not right for the new');
  assert.equal(exercise.check(core, seeded, rightThen, other).verdict, 'right');
  assert.notEqual(exercise.draw(core, inputs, 1).index, instance.index, 'try another: another point');
});

test('data: points within 0.1 of the curve only by σ; n and the seed leave the spread', () => {
  const exercise = exerciseOf('data', 'tight-points');
  const rms = (inputs) => {
    const data = dataOf(inputs);
    return Math.sqrt(raw.sumSquaredError(raw.truth(data.x), data.y) / inputs.n);
  };
  const inputs = inputsOf('data');
  assert.equal(exercise.check(core, inputs).key, 'data.ex.tight.tooNoisy');
  assert.equal(exercise.check(core, { ...inputs, n: 1000 }).verdict, 'wrong', 'more points: the same spread');
  assert.equal(exercise.check(core, { ...inputs, seed: 7 }).verdict, 'wrong', 'a new sample: the same spread');
  for (const seed of [0, 1, 7]) {
    const { params } = exercise.solution(core, { ...inputs, seed });
    const sigma = Number(params.noise);
    assert.ok(rms({ ...inputs, seed, noise: sigma }) <= TIGHT_RMS, `seed ${seed}: σ = ${sigma} does it`);
    assert.equal(exercise.check(core, { ...inputs, seed, noise: sigma }).verdict, 'right');
  }
  // Close: within 10 % above the limit, by the core's spread for these draws.
  const unit = rms({ ...inputs, noise: 1 });
  const closeSigma = (TIGHT_RMS * 1.05) / unit;
  assert.equal(exercise.check(core, { ...inputs, noise: closeSigma }).key, 'data.ex.tight.close');
});

test('heatmap: the band predicted for the other estimator: none for average pooling, the diagonal back from it, by the core\'s weights', () => {
  const exercise = exerciseOf('heatmap', 'band-shape');
  assert.equal(exercise.hides, undefined, 'the section\'s heatmap stays in view: the prediction is about a switch');
  const inputs = inputsOf('heatmap');
  const toAverage = exercise.draw(core, inputs, 0);
  assert.deepEqual(toAverage, { estimator: 'average' });
  const weights = raw.attentionWeights(testQueries, dataOf(inputs).x, { kernel: 'constant', w: 1 });
  assert.ok(weights.every((weight) => Math.abs(weight - 1 / 50) < 1e-12), 'the core\'s average pooling: 1/n everywhere');
  assert.equal(exercise.check(core, inputs, 'uniform', toAverage).verdict, 'right');
  assert.equal(exercise.check(core, inputs, 'diagonal', toAverage).key, 'heatmap.ex.band.flat');
  assert.equal(exercise.solution(core, inputs, toAverage).labelKey, 'heatmap.ex.band.uniform');
  // From average pooling back to Nadaraya–Watson: the kernel chosen decides.
  const average = { ...inputs, estimator: 'average' };
  const back = exercise.draw(core, average, 0);
  assert.deepEqual(back, { estimator: 'nadaraya-watson' });
  assert.equal(exercise.check(core, average, 'diagonal', back).verdict, 'right');
  assert.equal(exercise.check(core, average, 'antiDiagonal', back).key, 'heatmap.ex.band.antiDiagonalWrong');
  assert.equal(exercise.check(core, average, 'uniform', back).key, 'heatmap.ex.band.uniformWrong');
  assert.equal(exercise.solution(core, { ...average, kernel: 'boxcar', w: 10 }, back).labelKey, 'heatmap.ex.band.diagonal');
  assert.equal(exercise.solution(core, { ...average, kernel: 'constant' }, back).labelKey, 'heatmap.ex.band.uniform', 'the constant kernel: no band either');
});

test('heatmap: doubling w narrows the band, halving widens it, average pooling leaves it: the core\'s band widths', () => {
  const exercise = exerciseOf('heatmap', 'band-width');
  const inputs = inputsOf('heatmap');
  const meanDistance = (state, w) => {
    const { x, y } = dataOf(state);
    let total = 0;
    for (const query of testQueries) {
      const weights = raw.attentionWeights([query], x, { kernel: state.estimator === 'average' ? 'constant' : state.kernel, w });
      total += weights.reduce((sum, weight, i) => sum + weight * Math.abs(query - x[i]), 0);
    }
    assert.ok(y.length > 0);
    return total / testQueries.length;
  };
  const instance = exercise.draw(core, inputs, 0);
  assert.deepEqual(instance, { from: 1, to: 2 });
  assert.ok(meanDistance(inputs, 2) < meanDistance(inputs, 1), 'the band narrows');
  const right = exercise.check(core, inputs, 'narrower', instance);
  assert.equal(right.verdict, 'right');
  assert.equal(Number(right.params.before), Number(meanDistance(inputs, 1).toFixed(3)));
  assert.equal(exercise.check(core, inputs, 'wider', instance).key, 'heatmap.ex.width.direction');
  assert.equal(exercise.check(core, inputs, 'shifts', instance).key, 'heatmap.ex.width.shiftsWrong');
  const high = { ...inputs, w: 40 };
  const halved = exercise.draw(core, high, 0);
  assert.deepEqual(halved, { from: 40, to: 20 });
  assert.equal(exercise.check(core, high, 'wider', halved).verdict, 'right', 'halving w widens the band');
  assert.equal(exercise.check(core, high, 'narrower', halved).key, 'heatmap.ex.width.direction');
  const average = { ...inputs, estimator: 'average' };
  assert.equal(exercise.check(core, average, 'same', instance).verdict, 'right');
  assert.equal(exercise.check(core, average, 'narrower', instance).key, 'heatmap.ex.width.noWidth');
  assert.equal(exercise.solution(core, average, instance).key, 'heatmap.ex.width.sameRight');
});

test('heatmap: the ratio of two weights of the query\'s row, from the core; each mistake named; a new seed or query, a new answer', () => {
  const exercise = exerciseOf('heatmap', 'weight-ratio');
  const ratioOf = (inputs, { a, b }) => {
    const weights = raw.attentionWeights([inputs.query], dataOf(inputs).x, { kernel: inputs.kernel, w: inputs.w });
    return weights[a] / weights[b];
  };
  const inputs = inputsOf('heatmap');
  const instance = exercise.draw(core, inputs, 0);
  const right = ratioOf(inputs, instance);
  assert.ok(right >= 1.5 && right <= 8, `a telling ratio: ${right}`);
  assert.equal(exercise.check(core, inputs, right, instance).verdict, 'right');
  assert.equal(exercise.check(core, inputs, 1 / right, instance).key, 'heatmap.ex.ratio.inverse');
  const distances = Math.abs(inputs.query - instance.xb) / Math.abs(inputs.query - instance.xa);
  assert.equal(exercise.check(core, inputs, distances, instance).key, 'heatmap.ex.ratio.distances');
  assert.equal(exercise.check(core, inputs, right * 1.07, instance).key, 'heatmap.ex.ratio.close');
  assert.equal(exercise.check(core, inputs, right * 2, instance).key, 'heatmap.ex.ratio.tooHigh');
  assert.equal(exercise.solution(core, inputs, instance).params.ratio, right.toFixed(2));
  for (const patch of [{ seed: 1 }, { query: 1.2 }]) {
    const state = { ...inputs, ...patch };
    const other = exercise.draw(core, state, 0);
    const rightThen = ratioOf(state, other);
    assert.ok(Math.abs(rightThen - right) > 3 * RATIO_TOLERANCE, `${JSON.stringify(patch)}: a new answer`);
    assert.equal(exercise.check(core, state, rightThen, other).verdict, 'right');
    assert.notEqual(exercise.check(core, state, right, other).verdict, 'right');
  }
  const gap = { ...inputs, kernel: 'boxcar', w: 50, query: 0 };
  const none = exercise.draw(core, gap, 0);
  if (none.gap) assert.equal(exercise.check(core, gap, 1, none).key, 'heatmap.ex.ratio.gap');
});

test('solution() is cheap at the page\'s defaults: at most 128 calls of the core, none that trains', () => {
  for (const id of ['cues', 'data', 'heatmap']) {
    for (const exercise of sectionOf(id).exercises) {
      const inputs = inputsOf(id);
      const instance = exercise.draw?.(core, inputs, 5);
      const counting = countingCore(raw);
      exercise.solution(counting.core, inputs, instance);
      const { total, training, byName } = counting.counts();
      console.log(`${id}.${exercise.id}: solution() asks the core ${JSON.stringify(byName)}`);
      assert.deepEqual(training, [], `${id}.${exercise.id} trains`);
      assert.ok(total <= MOST_CORE_CALLS, `${id}.${exercise.id}: ${total} calls`);
    }
  }
});
