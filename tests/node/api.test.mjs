// Properties of the JS API itself: results are plain Float64Arrays that own
// their data, nothing leaks in wasm memory, errors carry fields and the module
// keeps working after them; seeded examples (randomNormal, scalingStudy).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadAttentionCore } from '../../dist/attention-core.mjs';
import {
  api, assertArgumentError, assertClose, assertSameBits, assertStillWorks, f64, references,
} from './helpers.mjs';

const pooling = references.pooling;

test('loadAttentionCore resolves to one frozen API', async () => {
  assert.equal(await loadAttentionCore(), api);
  assert.ok(Object.isFrozen(api));
  for (const name of ['makeDataset', 'truth', 'averagePool', 'attentionWeights', 'nadarayaWatson',
    'trainKernelWidth', 'lossLandscape', 'maskedSoftmax', 'maskScores', 'additiveAttention', 'dotProductAttention',
    'multiHeadAttention', 'positionalEncoding', 'batchMatrixProduct']) {
    assert.equal(typeof api[name], 'function', name);
  }
});

test('results are plain Float64Arrays that own their data', () => {
  const queries = f64(pooling.queries);
  const keys = f64(pooling.keys);
  const values = f64(pooling.values);
  const prediction = api.nadarayaWatson(queries, keys, values, { kernel: 'gaussian', w: 2 });
  const weights = api.attentionWeights(queries, keys, { kernel: 'gaussian', w: 2 });
  const data = api.makeDataset({ n: 200, seed: 5 });
  const copies = [prediction, weights, data.x, data.y].map((a) => Float64Array.from(a));
  for (const result of [prediction, weights, data.x, data.y]) {
    assert.equal(Object.getPrototypeOf(result), Float64Array.prototype);
    // Its own buffer, exactly its size: not a view into the wasm heap.
    assert.equal(result.byteOffset, 0);
    assert.equal(result.buffer.byteLength, result.byteLength);
  }
  const heapBefore = api.memoryStats().heapBytes;
  // Big calls that grow the wasm memory (which detaches every view of the old one).
  const big = Float64Array.from({ length: 4096 }, (_, i) => (5 * i) / 4096);
  const bigWeights = api.attentionWeights(big, big, { kernel: 'gaussian', w: 3 });
  assert.equal(bigWeights.length, 4096 * 4096);
  const bigEncoding = api.positionalEncoding(10000, 1024);
  assert.equal(bigEncoding.length, 10000 * 1024);
  assert.ok(api.memoryStats().heapBytes > heapBefore, 'the wasm memory grew');
  [prediction, weights, data.x, data.y].forEach((result, i) => assertSameBits(result, copies[i], `result ${i}`));
  // Changing a result changes nothing inside the module.
  prediction.fill(0);
  assertSameBits(api.nadarayaWatson(queries, keys, values, { kernel: 'gaussian', w: 2 }), copies[0], 'recomputed');
  // Inputs are not modified by a call.
  assertSameBits(queries, f64(pooling.queries), 'queries untouched');
});

test('no wasm memory leaks: allocations return to their level after calls and errors', () => {
  const run = () => {
    api.makeDataset({ n: 500, seed: 1 });
    api.nadarayaWatson(f64(pooling.queries), f64(pooling.keys), f64(pooling.values), { kernel: 'boxcar', w: 60 });
    api.trainKernelWidth(f64(pooling.keys), f64(pooling.values), { epochs: 3 });
    api.trainKernelWidth(f64(pooling.keys), f64(pooling.values), { lr: 1e300, epochs: 5 });
    const m = references.multiHeadAttention[1];
    const c = m.cases[2];
    api.multiHeadAttention({
      queries: c.queries, keys: c.keys, values: c.values, shape: c.shape,
      Wq: m.Wq, Wk: m.Wk, Wv: m.Wv, Wo: m.Wo, validLens: c.validLens.flat(), headMask: [1, 0.5, 0],
    });
    api.scalingStudy({ dims: [2, 8], samples: 50 });
    for (const bad of [() => api.makeDataset({ n: 0 }), () => api.maskedSoftmax([1, 2], [1, 1, 2], [3]),
      () => api.nadarayaWatson([1], [1, 2], [1], { kernel: 'nope' }),
      () => api.multiHeadAttention({ ...c, shape: { ...c.shape, heads: 5 }, Wq: m.Wq, Wk: m.Wk, Wv: m.Wv, Wo: m.Wo })]) {
      assert.throws(bad);
    }
  };
  run(); // warm-up: first-use allocations of the runtime
  const before = api.memoryStats().allocatedBytes;
  for (let i = 0; i < 20; i += 1) run();
  assert.equal(api.memoryStats().allocatedBytes, before);
});

// The error a call throws (the test fails if it throws none).
function errorOf(call) {
  try {
    call();
  } catch (error) {
    return error;
  }
  return assert.fail('expected an error');
}
const fieldsOf = ({ argument, expected, got, index }) => ({ argument, expected, got, index });

test('errors carry fields: argument, expected, got, index', () => {
  // From the core, about one element.
  const lens = errorOf(() => api.maskedSoftmax(new Float64Array(2 * 3 * 10), [2, 3, 10], [4, 11]));
  assert.ok(lens instanceof Error);
  assert.equal(lens.message, 'validLens: expected lengths in [0, 10] (nk), got 11 at index 1');
  assert.deepEqual(fieldsOf(lens), { argument: 'validLens', expected: 'lengths in [0, 10] (nk)', got: '11', index: 1 });
  assert.deepEqual(fieldsOf(errorOf(() => api.truth([Infinity]))),
    { argument: 'x', expected: 'finite numbers >= 0', got: 'Infinity', index: undefined });
  assert.deepEqual(fieldsOf(errorOf(() => api.nadarayaWatson([1], [NaN, 2], [1, 2]))),
    { argument: 'keys', expected: 'finite numbers', got: 'NaN', index: 0 });
  // From the core, with nothing got.
  const tooMany = errorOf(() => api.maskedSoftmax([1], [1, 1, 1], new Int32Array(64 * 10000 + 1)));
  assert.equal(tooMany.message, 'validLens: expected at most 640000 lengths');
  assert.deepEqual(fieldsOf(tooMany), { argument: 'validLens', expected: 'at most 640000 lengths', got: '', index: undefined });
  // A shape under the caller's name.
  assert.deepEqual(fieldsOf(errorOf(() => api.dotProductAttention({
    queries: [], keys: [], values: [], shape: { batch: 64, nq: 600, nk: 600, d: 1, dv: 1 },
  }))), { argument: 'shape.nk', expected: 'batch * nq * nk <= 16777216', got: '23040000', index: undefined });
  // The kernel, worded on its own, its name quoted.
  const kernel = errorOf(() => api.attentionWeights([1], [1], { kernel: '' }));
  assert.equal(kernel.message, "kernel: expected one of gaussian, boxcar, constant, triangular, epanechnikov; got ''");
  assert.deepEqual(fieldsOf(kernel), {
    argument: 'kernel', expected: 'one of gaussian, boxcar, constant, triangular, epanechnikov', got: "''",
    index: undefined,
  });
  // From the JS side's type checks: the same fields.
  const type = errorOf(() => api.truth([1, 'a']));
  assert.equal(type.message, 'x: expected numbers, got String at index 1');
  assert.deepEqual(fieldsOf(type), { argument: 'x', expected: 'numbers', got: 'String', index: 1 });
  assert.deepEqual(fieldsOf(errorOf(() => api.makeDataset({ n: '5' }))),
    { argument: 'n', expected: 'a number', got: 'String', index: undefined });
  assert.deepEqual(fieldsOf(errorOf(() => api.maskedSoftmax([1], null))),
    { argument: 'shape', expected: '[batch, nq, nk]', got: 'null', index: undefined });
  assert.deepEqual(fieldsOf(errorOf(() => api.dotProductAttention())),
    { argument: 'arguments', expected: 'an object', got: 'undefined', index: undefined });
  // Own properties, even when undefined, so a router can read them all.
  for (const error of [lens, tooMany, kernel, type]) {
    assert.deepEqual(Object.keys(error).sort(), ['argument', 'expected', 'got', 'index']);
  }
  assertStillWorks();
});

test('a long run of failures leaves the module intact', () => {
  for (let i = 0; i < 200; i += 1) {
    assert.throws(() => api.makeDataset({ n: 20000 + i }), /^Error: n: /);
    assert.throws(() => api.positionalEncoding(i % 2 ? NaN : 0, 4), /maxLen/);
    assert.throws(() => api.trainKernelWidth([1, 2], [1, 2], { lr: -i }), /lr/);
  }
  assertStillWorks();
  assertSameBits(api.makeDataset().x, f64(references.datasets[0].x), 'data set after errors');
});

test('randomNormal matches the Python re-implementation bit for bit', () => {
  for (const c of references.randomNormal) {
    assertSameBits(api.randomNormal(c.count, { seed: c.seed, std: c.std }), f64(c.values), `seed ${c.seed}`);
  }
  assertSameBits(api.randomNormal(5), f64(references.randomNormal[0].values), 'defaults: seed 0, std 1');
});

test('scalingStudy matches the Python re-implementation', () => {
  const study = references.scalingStudy;
  const rows = api.scalingStudy({ dims: study.dims, samples: study.samples, keys: study.keys, seed: study.seed });
  assert.equal(rows.length, study.rows.length);
  rows.forEach((row, i) => {
    const expected = study.rows[i];
    assert.equal(row.d, expected.d);
    assert.equal(row.variance, expected.variance, `d=${row.d} variance`);
    assert.equal(row.scaledVariance, expected.scaledVariance, `d=${row.d} scaled variance`);
    assertClose([row.maxWeight, row.scaledMaxWeight], [expected.maxWeight, expected.scaledMaxWeight], 1e-12,
      `d=${row.d} max weights`);
  });
});

test('randomUniform draws seeded values in [low, high) and refuses bad bounds', () => {
  const values = api.randomUniform(1000, { seed: 4, low: -1, high: 2 });
  assert.equal(values.length, 1000);
  assert.ok(values.every((v) => v >= -1 && v < 2));
  assertSameBits(api.randomUniform(1000, { seed: 4, low: -1, high: 2 }), values, 'same seed, same draws');
  assert.notDeepEqual(api.randomUniform(5, { seed: 5 }), api.randomUniform(5, { seed: 4 }));
  assertArgumentError(() => api.randomUniform(3, { low: 1, high: 1 }), 'high', 'above low');
  assertArgumentError(() => api.randomUniform(3, { low: NaN }), 'low');
  assertArgumentError(() => api.randomUniform(3, { seed: -1 }), 'seed');
});

test('randomNormal and scalingStudy refuse bad arguments, naming them', () => {
  assertArgumentError(() => api.randomNormal(0), 'count', 'got 0');
  assertArgumentError(() => api.randomNormal(2 ** 24 + 1), 'count');
  assertArgumentError(() => api.randomNormal(2.5), 'count', 'whole number');
  assertArgumentError(() => api.randomNormal('5'), 'count', 'String');
  assertArgumentError(() => api.randomNormal(5, { seed: -1 }), 'seed');
  assertArgumentError(() => api.randomNormal(5, { seed: 2 ** 32 }), 'seed');
  assertArgumentError(() => api.randomNormal(5, { std: -1 }), 'std');
  assertArgumentError(() => api.randomNormal(5, { std: NaN }), 'std', 'NaN');
  assertArgumentError(() => api.randomNormal(5, null), 'options');
  assertArgumentError(() => api.scalingStudy({ dims: [] }), 'dims.length', 'got 0');
  assertArgumentError(() => api.scalingStudy({ dims: [4, 0] }), 'dims', 'got 0');
  assertArgumentError(() => api.scalingStudy({ dims: [4, 2.5] }), 'dims', 'whole number');
  assertArgumentError(() => api.scalingStudy({ dims: [1025] }), 'dims', 'got 1025');
  assertArgumentError(() => api.scalingStudy({ dims: 'all' }), 'dims', 'String');
  assertArgumentError(() => api.scalingStudy({ samples: 1 }), 'samples', 'got 1');
  assertArgumentError(() => api.scalingStudy({ samples: 10001 }), 'samples');
  assertArgumentError(() => api.scalingStudy({ keys: 0 }), 'keys', 'got 0');
  assertArgumentError(() => api.scalingStudy({ keys: 1001 }), 'keys');
  assertArgumentError(() => api.scalingStudy({ seed: 0.5 }), 'seed');
  assertArgumentError(() => api.scalingStudy({ dims: [1, 2, 3, 4, 5], samples: 1000, keys: 1000 }), 'samples',
    'dims.length * samples * keys');
});

test('sumSquaredError: the sum of (p - t)^2, NaN for a missing prediction', () => {
  assert.equal(api.sumSquaredError([1, 2.5, -1], Float64Array.of(0.5, 2.5, 1)), 0.25 + 0 + 4);
  assert.ok(Number.isNaN(api.sumSquaredError([1, NaN], [1, 2])));
  // The data set against its noiseless truth: the noise's squared size.
  const data = api.makeDataset({ n: 50, noise: 0.5, seed: 3 });
  const noise = api.sumSquaredError(api.truth(data.x), data.y);
  assert.ok(noise > 0 && noise < 50 * 1, `50 points of noise 0.5: ${noise}`);
  assert.equal(api.sumSquaredError(api.truth(data.x), api.makeDataset({ n: 50, noise: 0, seed: 3 }).y), 0);
});
