// Average and Nadaraya-Watson pooling through the JS API, against the d2l
// recipes in PyTorch; the NaN contract; bad inputs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertArgumentError, assertClose, assertSameBits, f64, references } from './helpers.mjs';

const pooling = references.pooling;
const queries = f64(pooling.queries);
const keys = f64(pooling.keys);
const values = f64(pooling.values);

test('averagePool gives every query the mean of the values', () => {
  assertClose(api.averagePool(values, queries.length), pooling.average, 1e-12, 'average');
  assertSameBits(api.averagePool([4], 3), new Float64Array([4, 4, 4]), 'constant');
});

test('nadarayaWatson and attentionWeights match PyTorch for every kernel and width', () => {
  const weightQueries = f64(pooling.weightQueries);
  let withWeights = 0;
  for (const c of pooling.cases) {
    const label = `${c.kernel} w=${c.w}`;
    const options = { kernel: c.kernel, w: c.w };
    assertClose(api.nadarayaWatson(queries, keys, values, options), c.prediction, 1e-9, label);
    if (c.weights) {
      withWeights += 1;
      assertClose(api.attentionWeights(weightQueries, keys, options), c.weights, 1e-9, `${label} weights`);
    }
  }
  assert.equal(withWeights, 20);
  assert.equal(pooling.cases.length, 35);
});

test('attentionWeights writes into `out` when given, returns it, and leaves it alone on error', () => {
  const weightQueries = f64(pooling.weightQueries);
  const n = weightQueries.length * keys.length;
  const out = new Float64Array(n).fill(-7);
  for (const c of pooling.cases.filter((c) => c.weights)) {
    const options = { kernel: c.kernel, w: c.w };
    const returned = api.attentionWeights(weightQueries, keys, { ...options, out });
    assert.equal(returned, out, 'the same array comes back');
    assertClose(out, c.weights, 1e-9, `${c.kernel} w=${c.w} into out`);
    assertSameBits(out, api.attentionWeights(weightQueries, keys, options), `${c.kernel} w=${c.w}: as a fresh array`);
  }
  const before = out.slice();
  assert.throws(() => api.attentionWeights(weightQueries, keys, { w: NaN, out }), /^Error: w: /);
  assert.throws(() => api.attentionWeights(weightQueries, keys.subarray(1), { out }),
    new RegExp(`^Error: out: expected ${n - weightQueries.length} numbers \\(queries x keys\\), got ${n}$`));
  assertSameBits(out, before, 'out untouched by failed calls');
});

test('defaults: the Gaussian kernel with w = 1', () => {
  const gaussian = pooling.cases.find((c) => c.kernel === 'gaussian' && c.w === 1);
  assertClose(api.nadarayaWatson(queries, keys, values), gaussian.prediction, 1e-9, 'no options');
  assertClose(api.nadarayaWatson(queries, keys, values, {}), gaussian.prediction, 1e-9, 'empty options');
});

test('NaN contract: a query with no key in reach gets a NaN row and prediction', () => {
  const boxcar = pooling.cases.find((c) => c.kernel === 'boxcar' && c.w === 60);
  const prediction = api.nadarayaWatson(queries, keys, values, { kernel: 'boxcar', w: 60 });
  const empty = boxcar.prediction.map((v, i) => (v === null ? i : -1)).filter((i) => i >= 0);
  assert.ok(empty.length > 0 && empty.length < queries.length);
  for (const i of empty) assert.ok(Number.isNaN(prediction[i]));
  const weights = api.attentionWeights(queries, keys, { kernel: 'boxcar', w: 60 });
  for (const i of empty) {
    for (let j = 0; j < keys.length; j += 1) assert.ok(Number.isNaN(weights[i * keys.length + j]));
  }
  for (let i = 0; i < queries.length; i += 1) {
    if (empty.includes(i)) continue;
    let sum = 0;
    for (let j = 0; j < keys.length; j += 1) sum += weights[i * keys.length + j];
    assert.ok(Math.abs(sum - 1) < 1e-12, `row ${i} sums to ${sum}`);
  }
});

test('the sign of w does not matter', () => {
  for (const kernel of ['gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov']) {
    assertSameBits(api.nadarayaWatson(queries, keys, values, { kernel, w: -3.5 }),
      api.nadarayaWatson(queries, keys, values, { kernel, w: 3.5 }), kernel);
  }
});

test('pooling refuses bad inputs, naming them', () => {
  const q = [0.5, 1, 2];
  const nw = (a, b, c, o) => () => api.nadarayaWatson(a, b, c, o);
  const aw = (a, b, o) => () => api.attentionWeights(a, b, o);
  // Values and sizes.
  assertArgumentError(nw([], q, q), 'queries.length', 'got 0');
  assertArgumentError(nw(q, [], []), 'keys.length', 'got 0');
  assertArgumentError(nw(q, q, []), 'values.length', 'got 0');
  assertArgumentError(nw(q, q, [1, 2]), 'values', 'expected 3 values (one per key), got 2');
  assertArgumentError(nw(new Float64Array(10001), q, q), 'queries', 'at most 10000');
  assertArgumentError(nw(q, new Float64Array(10001), new Float64Array(10001)), 'keys', 'at most 10000');
  assertArgumentError(nw([0.5, NaN, 2], q, q), 'queries', 'NaN at index 1');
  assertArgumentError(nw(q, [0.5, 1, Infinity], q), 'keys', 'Infinity at index 2');
  assertArgumentError(nw(q, q, [-Infinity, 1, 2]), 'values', '-Infinity at index 0');
  assertArgumentError(aw(new Float64Array(5000), new Float64Array(5000)), 'queries', 'queries.length * keys.length');
  // Types.
  assertArgumentError(nw('0.5', q, q), 'queries', 'String');
  assertArgumentError(nw(q, null, q), 'keys', 'got null');
  assertArgumentError(nw(q, q, undefined), 'values', 'got undefined');
  assertArgumentError(nw(q, q, [1, '2', 3]), 'values', 'got String at index 1');
  assertArgumentError(nw(q, q, { length: 3 }), 'values', 'Object');
  assertArgumentError(nw(q, q, new BigInt64Array(3)), 'values', 'BigInt64Array');
  // Kernel and width.
  assertArgumentError(nw(q, q, q, { kernel: 'epanechikov' }), 'kernel', "got 'epanechikov'");
  assertArgumentError(nw(q, q, q, { kernel: 'Gaussian' }), 'kernel', 'expected one of gaussian, boxcar');
  assertArgumentError(nw(q, q, q, { kernel: '' }), 'kernel');
  assertArgumentError(nw(q, q, q, { kernel: 3 }), 'kernel', 'expected a string, got Number');
  assertArgumentError(nw(q, q, q, { kernel: null }), 'kernel', 'got null');
  assertArgumentError(aw(q, q, { kernel: 'cosine' }), 'kernel');
  assertArgumentError(nw(q, q, q, { w: NaN }), 'w', 'NaN');
  assertArgumentError(nw(q, q, q, { w: Infinity }), 'w', 'Infinity');
  assertArgumentError(aw(q, q, { w: -Infinity }), 'w');
  assertArgumentError(aw(q, q, { w: '2' }), 'w', 'String');
  assertArgumentError(aw(q, q, null), 'options', 'got null');
  assertArgumentError(aw(q, q, 'gaussian'), 'options');
  // Average pooling.
  assertArgumentError(() => api.averagePool([], 3), 'values.length', 'got 0');
  assertArgumentError(() => api.averagePool([1, NaN], 3), 'values', 'NaN');
  assertArgumentError(() => api.averagePool(q, 0), 'nQueries', 'got 0');
  assertArgumentError(() => api.averagePool(q, 10001), 'nQueries', 'got 10001');
  assertArgumentError(() => api.averagePool(q, 2.5), 'nQueries', 'whole number');
  assertArgumentError(() => api.averagePool(q, -1), 'nQueries');
  assertArgumentError(() => api.averagePool(q, '3'), 'nQueries', 'String');
  assertArgumentError(() => api.averagePool(q), 'nQueries', 'undefined');
});
