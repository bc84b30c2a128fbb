// Hostile input, table-driven: every function of the JS API (wasm/attention-core.mjs)
// gets NaN, infinities, negative, fractional and huge sizes, sizes just over
// the documented limits, mismatched shapes, empty arrays and wrong types
// (strings, objects, null, undefined, booleans, BigInt, symbols, nested and
// sparse arrays, typed arrays of the wrong kind) in each argument. Every row
// must throw an Error whose message starts with the argument's name and whose
// fields say the same (argument, expected, got, index: see assertErrorFields),
// and the module must still compute correct results afterwards (checked after
// every row). Rows over a documented size limit must be refused before anything is
// allocated: they run first, while the wasm heap is still at its initial
// size, and neither the heap nor malloc's live bytes may grow.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertErrorFields, assertStillWorks } from './helpers.mjs';

// Every function of the API, so a new one cannot go untested.
const API_FUNCTIONS = [
  'makeDataset', 'truth', 'sumSquaredError', 'averagePool', 'attentionWeights', 'nadarayaWatson', 'trainKernelWidth',
  'lossLandscape', 'kernelWidthLoss', 'maskedSoftmax', 'maskScores', 'additiveAttention', 'dotProductAttention',
  'multiHeadAttention', 'positionalEncoding', 'randomNormal', 'randomUniform', 'memoryStats', 'scalingStudy',
  'attentionModelInit', 'attentionModelForward', 'attentionModelLoss', 'attentionModelStep', 'attentionModelAccuracy',
  'attentionTaskBatch',
  'attentionTaskIdeal', 'attentionModelTrain', 'consistencyStudy', 'batchMatrixProduct',
  'seq2seqVocabulary', 'seq2seqInit', 'seq2seqTaskBatch', 'seq2seqHeldOut', 'seq2seqTaskIdeal', 'seq2seqForward',
  'seq2seqAlignment',
  'seq2seqLoss', 'seq2seqStep', 'seq2seqTrain', 'seq2seqTranslate', 'seq2seqSourceFromText',
  'attentionModelRowSteps', 'seq2seqRowSteps',
];
// And its data: the core's contract (frozen, no arguments to take).
const API_DATA = ['defaults', 'kinds', 'limits'];

const LIMIT = { points: 10000, matrix: 2 ** 24, dimension: 1024, batch: 64, epochs: 10000, sequence: 10000 };

// Values that are not numbers, for every place a number belongs. (undefined is
// a default for option fields; the positional rows add it.)
const NOT_NUMBERS = [
  ['a string', '1'], ['an empty string', ''], ['an object', {}], ['an array', [1]], ['null', null],
  ['true', true], ['false', false], ['a BigInt', 1n], ['a symbol', Symbol('n')], ['a boxed number', Object(1)],
  ['a function', () => 1],
];
const NON_FINITE = [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]];
// Sizes that are no count: refused whatever the limit.
const BAD_COUNTS = [
  ['-1', -1], ['2.5', 2.5], ['1e9', 1e9], ['2**53', 2 ** 53], ['-2**53', -(2 ** 53)], ['2**31', 2 ** 31],
  ['Number.MAX_VALUE', Number.MAX_VALUE], ...NON_FINITE,
];
// Values that are no array of numbers, for every place an array belongs.
// Seeds are whole numbers in [0, 2^32): 1e9 and 2^31 are good seeds.
const BAD_SEEDS = [
  ['-1', -1], ['2.5', 2.5], ['2**32', 2 ** 32], ['2**53', 2 ** 53], ['Number.MAX_VALUE', Number.MAX_VALUE], ...NON_FINITE,
];
const NOT_ARRAYS = [
  ['a string', '1,2'], ['a number', 5], ['an object', { length: 2, 0: 1, 1: 2 }], ['null', null],
  ['true', true], ['a BigInt', 3n], ['a symbol', Symbol('a')], ['a BigInt64Array', new BigInt64Array(2)],
  ['a DataView', new DataView(new ArrayBuffer(16))], ['an ArrayBuffer', new ArrayBuffer(16)],
  ['a function', () => [1, 2]], ['a Proxy of a Float64Array', new Proxy(new Float64Array(2), {})],
  ['a revoked Proxy', revokedProxy()], ['a detached Float64Array', detachedArray()],
];
// Arrays with something else than numbers inside.
const BAD_ELEMENTS = [
  ['a nested array', [[1, 2], [3, 4]]], ['a string element', [1, '2']], ['a null element', [1, null]],
  ['an undefined element', [1, undefined]], ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ['a BigInt element', [1, 2n]], ['a boolean element', [true, 1]], ['an object element', [1, {}]],
  ['a throwing element getter', Object.defineProperty([1, 2], 1, { get() { throw new Error('boom'); } })],
  ['a Proxy whose length throws', new Proxy([1, 2], { get: (t, k) => { if (k === 'length') throw new Error('boom'); return t[k]; } })],
  ['a Proxy claiming 2^40 elements', new Proxy([1, 2], { get: (t, k) => (k === 'length' ? 2 ** 40 : t[k]) })],
];
function revokedProxy() {
  const { proxy, revoke } = Proxy.revocable([1, 2], {});
  revoke();
  return proxy;
}
function detachedArray(Type = Float64Array) {
  const array = new Type(2);
  structuredClone(array.buffer, { transfer: [array.buffer] });
  return array;
}
const NOT_OPTIONS = [
  ['a number', 5], ['a string', 'gaussian'], ['null', null], ['true', true], ['a BigInt', 1n],
  ['an array', [1, 2]], ['a symbol', Symbol('o')], ['a function', () => ({})],
];

// ---- valid arguments, one set per function ----
const f = (list) => Float64Array.from(list);
const grid = (n, low = 0, high = 5) => Float64Array.from({ length: n }, (_, i) => low + ((high - low) * i) / n);
const x6 = grid(6);
const y6 = f([0.5, 1.5, 2.0, 1.0, 0.2, -0.3]);
const additive = () => ({
  queries: grid(1 * 2 * 3), keys: grid(1 * 4 * 3), values: grid(1 * 4 * 2),
  shape: { batch: 1, nq: 2, nk: 4, dq: 3, dk: 3, dv: 2, h: 5 },
  Wq: grid(5 * 3, -1, 1), Wk: grid(5 * 3, -1, 1), wv: grid(5, -1, 1), validLens: null,
});
const dot = () => ({
  queries: grid(2 * 2 * 3), keys: grid(2 * 4 * 3), values: grid(2 * 4 * 2),
  shape: { batch: 2, nq: 2, nk: 4, d: 3, dv: 2 }, validLens: [2, 3],
});
const multi = () => ({
  queries: grid(1 * 2 * 4), keys: grid(1 * 3 * 4), values: grid(1 * 3 * 4),
  shape: { batch: 1, nq: 2, nk: 3, hidden: 4, heads: 2 },
  Wq: grid(16, -1, 1), Wk: grid(16, -1, 1), Wv: grid(16, -1, 1), Wo: grid(16, -1, 1), validLens: null, headMask: null,
});

// ---- the table ----
// Each row: the function, what is wrong, the call, the argument the message
// must start with (a string, or a RegExp for the part before ': '), and
// `over: true` for sizes over a documented limit.
const rows = [];
function row(fn, what, call, argument, { over = false, detail } = {}) {
  rows.push({ fn, what, call, argument, over, detail });
}
// One row per bad value of a family.
function each(fn, family, label, make, argument, options) {
  for (const [name, value] of family) row(fn, `${label}: ${name}`, () => make(value), argument, options);
}

// makeDataset({n, seed, noise, xMax})
each('makeDataset', NOT_OPTIONS, 'options', (v) => api.makeDataset(v), 'options');
each('makeDataset', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], 'n', (v) => api.makeDataset({ n: v }), 'n');
row('makeDataset', 'n over the limit', () => api.makeDataset({ n: LIMIT.points + 1 }), 'n', { over: true });
each('makeDataset', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api.makeDataset({ seed: v }), 'seed');
each('makeDataset', [...NOT_NUMBERS, ...NON_FINITE, ['-1', -1], ['101', 101], ['1e308', 1e308]], 'noise',
  (v) => api.makeDataset({ noise: v }), 'noise');
each('makeDataset', [...NOT_NUMBERS, ...NON_FINITE, ['0', 0], ['-5', -5], ['1001', 1001]], 'xMax',
  (v) => api.makeDataset({ xMax: v }), 'xMax');

// truth(x)
each('truth', [...NOT_ARRAYS, ['undefined', undefined]], 'x', (v) => api.truth(v), 'x');
each('truth', BAD_ELEMENTS, 'x', (v) => api.truth(v), 'x');
// 4e9, 1e12 and 1e100 once gave wrong values (a sign flip past 3.4e9 in wasm).
each('truth', [...NON_FINITE, ['-1', -1], ['1001', 1001], ['4e9', 4e9], ['1e12', 1e12], ['1e100', 1e100]], 'x element',
  (v) => api.truth([1, v]), 'x');
row('truth', 'x over the limit', () => api.truth(new Float64Array(LIMIT.points + 1)), 'x', { over: true });

// sumSquaredError(predictions, targets)
for (const [argument, call] of [['predictions', (v) => api.sumSquaredError(v, [1, 2])],
  ['targets', (v) => api.sumSquaredError([1, 2], v)]]) {
  each('sumSquaredError', [...NOT_ARRAYS, ['undefined', undefined]], argument, call, argument);
  each('sumSquaredError', BAD_ELEMENTS, argument, call, argument);
  each('sumSquaredError', [['Infinity', [1, Infinity]], ['-Infinity', [-Infinity, 1]]], `${argument} element`, call,
    argument);
  row('sumSquaredError', `${argument} over the limit`, () => call(new Float64Array(LIMIT.points + 1)), argument,
    { over: true });
}
row('sumSquaredError', 'a NaN target', () => api.sumSquaredError([1, 2], [1, NaN]), 'targets');
row('sumSquaredError', 'targets of another length', () => api.sumSquaredError([1, 2], [1, 2, 3]), 'targets');
row('sumSquaredError', 'no predictions', () => api.sumSquaredError([], []), 'predictions');

// averagePool(values, nQueries)
each('averagePool', [...NOT_ARRAYS, ['undefined', undefined]], 'values', (v) => api.averagePool(v, 3), 'values');
each('averagePool', BAD_ELEMENTS, 'values', (v) => api.averagePool(v, 3), 'values');
row('averagePool', 'values empty', () => api.averagePool([], 3), 'values.length');
each('averagePool', NON_FINITE, 'values element', (v) => api.averagePool([1, v], 3), 'values');
each('averagePool', [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['0', 0]], 'nQueries',
  (v) => api.averagePool([1, 2], v), 'nQueries');
row('averagePool', 'nQueries over the limit', () => api.averagePool([1, 2], LIMIT.points + 1), 'nQueries', { over: true });
row('averagePool', 'values over the limit', () => api.averagePool(new Float64Array(LIMIT.points + 1), 2), 'values',
  { over: true });

// attentionWeights(queries, keys, {kernel, w}) and nadarayaWatson(queries, keys, values, {kernel, w})
const pooling = {
  attentionWeights: (q, k, v, o) => api.attentionWeights(q, k, o),
  nadarayaWatson: (q, k, v, o) => api.nadarayaWatson(q, k, v, o),
};
for (const [fn, call] of Object.entries(pooling)) {
  const args = ['queries', 'keys', ...(fn === 'nadarayaWatson' ? ['values'] : [])];
  for (const name of args) {
    const with_ = (value) => {
      const a = { queries: x6, keys: x6, values: y6, [name]: value };
      return call(a.queries, a.keys, a.values, { w: 1 });
    };
    each(fn, [...NOT_ARRAYS, ['undefined', undefined]], name, with_, name);
    each(fn, BAD_ELEMENTS, name, with_, name);
    each(fn, NON_FINITE, `${name} element`, (v) => with_(f([1, 2, v, 4, 5, 6])), name);
    const over = new Float64Array(LIMIT.points + 1);
    row(fn, `${name} over the limit`, () => with_(over), name, { over: true });
    // Every array must match: an empty one is refused by its own name.
    if (name !== 'values') row(fn, `${name} empty`, () => with_(new Float64Array(0)), `${name}.length`);
  }
  if (fn === 'nadarayaWatson') {
    row(fn, 'values shorter than keys', () => api.nadarayaWatson(x6, x6, y6.subarray(0, 5)), 'values');
    row(fn, 'values longer than keys', () => api.nadarayaWatson(x6, x6, f([...y6, 1])), 'values');
    row(fn, 'values empty', () => api.nadarayaWatson(x6, x6, []), /^values(\.length)?$/);
  }
  each(fn, NOT_OPTIONS, 'options', (v) => call(x6, x6, y6, v), 'options');
  each(fn, [...NOT_NUMBERS, ...NON_FINITE], 'w', (v) => call(x6, x6, y6, { w: v }), 'w');
  each(fn, [['a number', 1], ['null', null], ['an object', {}], ['an array', ['gaussian']], ['true', true],
    ['an unknown name', 'gauss'], ['an empty string', ''], ['a different case', 'Gaussian'],
    ['a name with a NUL', 'gaussian\0'], ['a long string', 'x'.repeat(100000)]], 'kernel',
  (v) => call(x6, x6, y6, { kernel: v }), 'kernel');
}
// attentionWeights' `out`: null or a Float64Array of exactly nq x nk numbers.
each('attentionWeights', [['a Float32Array', new Float32Array(36)], ['an array', new Array(36).fill(0)],
  ['a number', 36], ['a string', 'out'], ['an object', { length: 36 }], ['true', true], ['an ArrayBuffer', new ArrayBuffer(288)],
  ['a Float64Array too short', new Float64Array(35)], ['a Float64Array too long', new Float64Array(37)],
  ['an empty Float64Array', new Float64Array(0)], ['a Proxy of a Float64Array', new Proxy(new Float64Array(36), {})],
  ['a detached Float64Array', detachedArray()],
  ['a Float64Array one short, with an own length that fits', Object.defineProperty(new Float64Array(35), 'length', { value: 36 })]],
'out', (v) => api.attentionWeights(x6, x6, { out: v }), 'out');
{
  // The n x n result over 2^24 numbers, from sizes each within the limit.
  const big = grid(4097);
  row('attentionWeights', 'queries x keys over 2^24', () => api.attentionWeights(big, big), /^(queries|keys)$/,
    { over: true });
}

// trainKernelWidth(x, y, {w0, lr, epochs, leaveOneOut}), kernelWidthLoss(x, y, w, {leaveOneOut}),
// lossLandscape(x, y, ws, {leaveOneOut})
const training = {
  trainKernelWidth: (x, y, o) => api.trainKernelWidth(x, y, o),
  kernelWidthLoss: (x, y, o) => api.kernelWidthLoss(x, y, 1, o),
  lossLandscape: (x, y, o) => api.lossLandscape(x, y, [0.5, 1, 2], o),
};
for (const [fn, call] of Object.entries(training)) {
  for (const name of ['x', 'y']) {
    const with_ = (value, options) => {
      const a = { x: x6, y: y6, [name]: value };
      return call(a.x, a.y, options);
    };
    each(fn, [...NOT_ARRAYS, ['undefined', undefined]], name, with_, name);
    each(fn, BAD_ELEMENTS, name, with_, name);
    each(fn, NON_FINITE, `${name} element`, (v) => with_(f([1, 2, v, 4, 5, 6])), name);
    row(fn, `${name} over the limit`, () => with_(new Float64Array(LIMIT.points + 1)), name, { over: true });
  }
  row(fn, 'x empty', () => call(new Float64Array(0), new Float64Array(0)), 'x.length');
  row(fn, 'one point with leave-one-out', () => call(f([1]), f([2])), 'x.length');
  row(fn, 'y shorter than x', () => call(x6, y6.subarray(0, 5)), 'y');
  row(fn, 'y longer than x', () => call(x6, f([...y6, 1])), 'y');
  row(fn, 'y empty', () => call(x6, []), 'y');
  each(fn, NOT_OPTIONS, 'options', (v) => call(x6, y6, v), 'options');
  each(fn, [['a string', 'true'], ['a number', 1], ['null', null], ['an object', {}], ['a BigInt', 1n]],
    'leaveOneOut', (v) => call(x6, y6, { leaveOneOut: v }), 'leaveOneOut');
}
each('trainKernelWidth', [...NOT_NUMBERS, ...NON_FINITE], 'w0', (v) => api.trainKernelWidth(x6, y6, { w0: v }), 'w0');
each('trainKernelWidth', [...NOT_NUMBERS, ...NON_FINITE, ['0', 0], ['-0.5', -0.5]], 'lr',
  (v) => api.trainKernelWidth(x6, y6, { lr: v }), 'lr');
each('trainKernelWidth', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], 'epochs',
  (v) => api.trainKernelWidth(x6, y6, { epochs: v }), 'epochs');
row('trainKernelWidth', 'epochs over the limit', () => api.trainKernelWidth(x6, y6, { epochs: LIMIT.epochs + 1 }),
  'epochs', { over: true });
each('kernelWidthLoss', [...NOT_NUMBERS, ['undefined', undefined], ...NON_FINITE], 'w',
  (v) => api.kernelWidthLoss(x6, y6, v), 'w');
each('lossLandscape', [...NOT_ARRAYS, ['undefined', undefined]], 'ws', (v) => api.lossLandscape(x6, y6, v), 'ws');
each('lossLandscape', BAD_ELEMENTS, 'ws', (v) => api.lossLandscape(x6, y6, v), 'ws');
each('lossLandscape', NON_FINITE, 'ws element', (v) => api.lossLandscape(x6, y6, [1, v]), 'ws');
row('lossLandscape', 'ws empty', () => api.lossLandscape(x6, y6, []), 'ws.length');
row('lossLandscape', 'ws over the limit', () => api.lossLandscape(x6, y6, new Float64Array(LIMIT.points + 1)),
  'ws', { over: true });
row('lossLandscape', 'x^2 * ws over the work limit', () => api.lossLandscape(grid(10000), grid(10000), grid(11)),
  'ws.length', { over: true });
// 8192^2 * 64 = 2^32: a product that a 32-bit size_t would wrap around to 0.
row('lossLandscape', 'x^2 * ws at 2^32', () => api.lossLandscape(grid(8192), grid(8192), grid(64)),
  'ws.length', { over: true, detail: 'got 4294967296' });

// maskedSoftmax(scores, [batch, nq, nk], validLens) and maskScores (the same arguments, the same checks)
const scores6 = grid(6);
for (const fn of ['maskedSoftmax', 'maskScores']) {
  each(fn, [...NOT_ARRAYS, ['undefined', undefined]], 'scores',
    (v) => api[fn](v, [1, 2, 3]), 'scores');
  each(fn, BAD_ELEMENTS, 'scores', (v) => api[fn](v, [1, 1, 2]), 'scores');
  each(fn, NON_FINITE, 'scores element', (v) => api[fn]([1, 2, 3, 4, 5, v], [1, 2, 3]), 'scores');
  row(fn, 'scores empty', () => api[fn]([], [1, 2, 3]), 'scores');
  row(fn, 'scores shorter than the shape', () => api[fn](scores6, [1, 2, 4]), 'scores');
  row(fn, 'scores longer than the shape', () => api[fn](scores6, [1, 1, 3]), 'scores');
  each(fn, [['a number', 6], ['an object', { 0: 1, 1: 2, 2: 3, length: 3 }], ['null', null],
    ['a string', '1,2,3'], ['two entries', [2, 3]], ['four entries', [1, 1, 2, 3]], ['undefined', undefined],
    ['a typed array', Int32Array.of(1, 2, 3)]], 'shape', (v) => api[fn](scores6, v), 'shape');
  for (const [index, name] of [[0, 'batch'], [1, 'nq'], [2, 'nk']]) {
    const argument = `shape[${index}] (${name})`;
    const shapeWith = (v) => Object.assign([1, 2, 3], { [index]: v });
    each(fn, [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['0', 0]], `shape[${index}]`,
      (v) => api[fn](scores6, shapeWith(v)), argument);
  }
  row(fn, 'batch over the limit', () => api[fn](new Float64Array(LIMIT.batch + 1), [LIMIT.batch + 1, 1, 1]),
    'shape[0] (batch)', { over: true });
  row(fn, 'nk over the limit', () => api[fn](new Float64Array(LIMIT.points + 1), [1, 1, LIMIT.points + 1]),
    'shape[2] (nk)', { over: true });
  row(fn, 'a shape asking for 2^53 numbers', () => api[fn](scores6, [64, 2 ** 31 - 1, 2 ** 31 - 1]),
    /^shape\[\d\] \((batch|nq|nk)\)$/, { over: true });
  each(fn, [['a string', '1,2'], ['a number', 2], ['an object', {}], ['true', true], ['a BigInt', 2n],
    ['a Float64Array of fractions', f([1.5])], ['a negative length', [-1]], ['NaN', [NaN]], ['Infinity', [Infinity]],
    ['2**31', [2 ** 31]], ['a string element', ['1']], ['a nested array', [[1]]], ['a BigInt element', [1n]],
    ['a BigInt64Array', new BigInt64Array(1)], ['a DataView', new DataView(new ArrayBuffer(8))],
    ['a detached Int32Array', detachedArray(Int32Array)], ['a Proxy of an Int32Array', new Proxy(Int32Array.of(1), {})]],
  'validLens', (v) => api[fn](scores6, [1, 2, 3], v), 'validLens');
  row(fn, 'validLens above nk', () => api[fn](scores6, [1, 2, 3], [4]), 'validLens');
  row(fn, 'validLens of the wrong count', () => api[fn](scores6, [1, 2, 3], [1, 1, 1]), 'validLens');
  row(fn, 'validLens over the limit', () => api[fn](scores6, [1, 2, 3], new Int32Array(LIMIT.batch * LIMIT.points + 1)),
    'validLens', { over: true });
  row(fn, 'batch * nq * nk over 2^24', () => api[fn](scores6, [64, 10000, 27]), 'shape[2] (nk)',
    { over: true, detail: 'batch * nq * nk <= 16777216, got 17280000' });
  // 64 * 8192 * 8192 = 2^32: a product that a 32-bit size_t would wrap around to 0.
  row(fn, 'batch * nq * nk at 2^32', () => api[fn](scores6, [64, 8192, 8192]), 'shape[2] (nk)',
    { over: true, detail: 'got 4294967296' });
}

// additiveAttention, dotProductAttention, multiHeadAttention({..., shape, ...})
const layers = {
  additiveAttention: { make: additive, arrays: ['queries', 'keys', 'values', 'Wq', 'Wk', 'wv'],
    dims: ['batch', 'nq', 'nk', 'dq', 'dk', 'dv', 'h'] },
  dotProductAttention: { make: dot, arrays: ['queries', 'keys', 'values'], dims: ['batch', 'nq', 'nk', 'd', 'dv'] },
  multiHeadAttention: { make: multi, arrays: ['queries', 'keys', 'values', 'Wq', 'Wk', 'Wv', 'Wo'],
    dims: ['batch', 'nq', 'nk', 'hidden', 'heads'] },
};
const dimensionLimit = { batch: LIMIT.batch, nq: LIMIT.points, nk: LIMIT.points };
for (const [fn, { make, arrays, dims }] of Object.entries(layers)) {
  const call = (args) => api[fn](args);
  each(fn, [...NOT_OPTIONS, ['undefined', undefined]], 'arguments', call, 'arguments');
  for (const name of arrays) {
    const with_ = (value) => call({ ...make(), [name]: value });
    each(fn, [...NOT_ARRAYS, ['undefined (missing)', undefined]], name, with_, name);
    each(fn, BAD_ELEMENTS, name, with_, name);
    row(fn, `${name} empty`, () => with_(new Float64Array(0)), name);
    row(fn, `${name} one too long`, () => with_(f([...make()[name], 1])), name);
    row(fn, `${name} one too short`, () => with_(make()[name].subarray(1)), name);
    row(fn, `${name} with NaN`, () => with_(make()[name].map((v, i) => (i === 1 ? NaN : v))), name);
    row(fn, `${name} with -Infinity`, () => with_(make()[name].map((v, i) => (i === 0 ? -Infinity : v))), name);
  }
  each(fn, [['a number', 3], ['null', null], ['a string', 'batch=1'], ['an array', [1, 2, 3, 4, 5, 6, 7]],
    ['undefined (missing)', undefined]], 'shape', (v) => call({ ...make(), shape: v }), /^shape(\.batch)?$/);
  for (const dim of dims) {
    const with_ = (value) => call({ ...make(), shape: { ...make().shape, [dim]: value } });
    each(fn, [...NOT_NUMBERS, ['undefined (missing)', undefined], ...BAD_COUNTS, ['0', 0]], `shape.${dim}`, with_,
      `shape.${dim}`);
    // Just over its limit, with arrays that match the shape, so only the limit can refuse it.
    const limit = dimensionLimit[dim] ?? LIMIT.dimension;
    row(fn, `shape.${dim} over the limit`, () => {
      const args = make();
      const shape = { ...args.shape, [dim]: limit + 1 };
      return call(resize(fn, args, shape));
    }, `shape.${dim}`, { over: true });
  }
  row(fn, 'validLens of the wrong count', () => call({ ...make(), validLens: [1, 1, 1, 1, 1] }), 'validLens');
  row(fn, 'validLens above nk', () => call({ ...make(), validLens: fn === 'dotProductAttention' ? [2, 5] : [5] }),
    'validLens');
  each(fn, [['a string', '1'], ['a number', 1], ['an object', {}], ['NaN', [NaN]], ['a negative length', [-1]],
    ['a fraction', [1.5]], ['a BigInt element', [1n]]], 'validLens', (v) => call({ ...make(), validLens: v }), 'validLens');
}
row('additiveAttention', 'Wq of the wrong shape', () => api.additiveAttention({ ...additive(), Wq: grid(4 * 3) }), 'Wq');
row('dotProductAttention', 'all sizes at the limit but their product', () => api.dotProductAttention({
  ...dot(), shape: { batch: 64, nq: 10000, nk: 10000, d: 1, dv: 1 },
}), /^(queries|keys|values|shape\.\w+|nk)$/, { over: true });
// 64 * 8192 * 8192 = 2^32 weights, with arrays that match the shape: a
// product that a 32-bit size_t would wrap around to 0.
row('dotProductAttention', 'batch * nq * nk at 2^32', () => api.dotProductAttention(resize('dotProductAttention', dot(),
  { batch: 64, nq: 8192, nk: 8192, d: 1, dv: 1 })), 'shape.nk', { over: true, detail: 'got 4294967296' });
row('additiveAttention', 'batch * nq * nk * h over the work limit', () => api.additiveAttention(resize('additiveAttention',
  additive(), { batch: 1, nq: 1000, nk: 1000, dq: 1, dk: 1, dv: 1, h: 100 })), 'shape.h',
{ over: true, detail: 'batch * nq * nk * h <= 16777216, got 100000000' });
row('multiHeadAttention', 'batch * heads over the batch limit', () => api.multiHeadAttention(resize('multiHeadAttention',
  multi(), { batch: 2, nq: 2, nk: 3, hidden: 64, heads: 64 })), 'shape.heads', { over: true });
row('multiHeadAttention', 'heads not dividing hidden', () => api.multiHeadAttention({
  ...multi(), shape: { ...multi().shape, heads: 3 } }), 'shape.heads');
each('multiHeadAttention', [['a string', '1,0'], ['a number', 1], ['an object', {}], ['three factors', [1, 0, 1]],
  ['NaN', [1, NaN]], ['Infinity', [Infinity, 1]], ['a string element', ['1', 0]], ['empty', []],
  ['2000 factors', new Float64Array(2000)]], 'headMask',
(v) => api.multiHeadAttention({ ...multi(), headMask: v }), 'headMask');

// positionalEncoding(maxLen, dim)
each('positionalEncoding', [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['0', 0]], 'maxLen',
  (v) => api.positionalEncoding(v, 4), 'maxLen');
each('positionalEncoding', [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['0', 0]], 'dim',
  (v) => api.positionalEncoding(4, v), 'dim');
row('positionalEncoding', 'maxLen over the limit', () => api.positionalEncoding(LIMIT.sequence + 1, 1024), 'maxLen',
  { over: true });
row('positionalEncoding', 'dim over the limit', () => api.positionalEncoding(10000, LIMIT.dimension + 1), 'dim',
  { over: true });

// randomNormal(count, {seed, std}), randomUniform(count, {seed, low, high})
for (const fn of ['randomNormal', 'randomUniform']) {
  each(fn, [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['0', 0]], 'count', (v) => api[fn](v), 'count');
  row(fn, 'count over the limit', () => api[fn](LIMIT.matrix + 1), 'count', { over: true });
  each(fn, NOT_OPTIONS, 'options', (v) => api[fn](3, v), 'options');
  each(fn, [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api[fn](3, { seed: v }), 'seed');
}
each('randomNormal', [...NOT_NUMBERS, ...NON_FINITE, ['-1', -1], ['1e7', 1e7]], 'std',
  (v) => api.randomNormal(3, { std: v }), 'std');
each('randomUniform', [...NOT_NUMBERS, ...NON_FINITE, ['-1e7', -1e7]], 'low', (v) => api.randomUniform(3, { low: v }), 'low');
each('randomUniform', [...NOT_NUMBERS, ...NON_FINITE, ['1e7', 1e7], ['equal to low', 0], ['below low', -1]], 'high',
  (v) => api.randomUniform(3, { high: v }), 'high');

// scalingStudy({dims, samples, keys, seed})
each('scalingStudy', NOT_OPTIONS, 'options', (v) => api.scalingStudy(v), 'options');
each('scalingStudy', NOT_ARRAYS, 'dims', (v) => api.scalingStudy({ dims: v }), 'dims');
each('scalingStudy', BAD_ELEMENTS, 'dims', (v) => api.scalingStudy({ dims: v }), 'dims');
each('scalingStudy', [...NON_FINITE, ['-1', -1], ['2.5', 2.5], ['1e9', 1e9], ['0', 0]], 'dims element',
  (v) => api.scalingStudy({ dims: [4, v] }), 'dims');
row('scalingStudy', 'dims empty', () => api.scalingStudy({ dims: [] }), 'dims.length');
row('scalingStudy', 'dims over the limit', () => api.scalingStudy({ dims: [LIMIT.dimension + 1] }), 'dims', { over: true });
row('scalingStudy', 'dims with more entries than points allow', () => api.scalingStudy({ dims: new Float64Array(LIMIT.points + 1).fill(1) }),
  'dims', { over: true });
for (const name of ['samples', 'keys']) {
  each('scalingStudy', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], name, (v) => api.scalingStudy({ [name]: v }), name);
}
each('scalingStudy', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api.scalingStudy({ seed: v }), 'seed');
row('scalingStudy', 'samples x keys over the limit', () => api.scalingStudy({ dims: [1, 2, 4, 8, 16], samples: 10000, keys: 1000 }),
  'samples', { over: true });

// consistencyStudy({sizes, repeats, queries, w, noise, xMax, seed})
each('consistencyStudy', NOT_OPTIONS, 'options', (v) => api.consistencyStudy(v), 'options');
each('consistencyStudy', NOT_ARRAYS, 'sizes', (v) => api.consistencyStudy({ sizes: v }), 'sizes');
each('consistencyStudy', BAD_ELEMENTS, 'sizes', (v) => api.consistencyStudy({ sizes: v }), 'sizes');
each('consistencyStudy', [...NON_FINITE, ['-1', -1], ['2.5', 2.5], ['1e9', 1e9], ['0', 0]], 'sizes element',
  (v) => api.consistencyStudy({ sizes: [10, v] }), 'sizes');
row('consistencyStudy', 'sizes empty', () => api.consistencyStudy({ sizes: [] }), 'sizes.length');
row('consistencyStudy', 'sizes over the limit', () => api.consistencyStudy({ sizes: [LIMIT.points + 1] }), 'sizes', { over: true });
row('consistencyStudy', 'more sizes than allowed', () => api.consistencyStudy({ sizes: new Float64Array(65).fill(1) }),
  'sizes.length', { over: true });
for (const name of ['repeats', 'queries']) {
  each('consistencyStudy', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], name, (v) => api.consistencyStudy({ [name]: v }), name);
}
each('consistencyStudy', [...NOT_NUMBERS, ...NON_FINITE, ['-1', -1], ['2e6', 2e6]], 'w', (v) => api.consistencyStudy({ w: v }), 'w');
each('consistencyStudy', [...NOT_NUMBERS, ...NON_FINITE, ['-0.1', -0.1], ['101', 101]], 'noise',
  (v) => api.consistencyStudy({ noise: v }), 'noise');
each('consistencyStudy', [...NOT_NUMBERS, ...NON_FINITE, ['0', 0], ['-5', -5], ['1001', 1001]], 'xMax',
  (v) => api.consistencyStudy({ xMax: v }), 'xMax');
each('consistencyStudy', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api.consistencyStudy({ seed: v }), 'seed');
row('consistencyStudy', 'repeats over the limit', () => api.consistencyStudy({ repeats: 1001 }), 'repeats', { over: true });
row('consistencyStudy', 'queries over the limit', () => api.consistencyStudy({ queries: LIMIT.points + 1 }), 'queries', { over: true });
row('consistencyStudy', 'repeats x queries x sizes over the work limit',
  () => api.consistencyStudy({ sizes: [10000], repeats: 1000, queries: 10000 }), 'repeats', { over: true });

// batchMatrixProduct(X, Y, {shapeX: [n, a, b], shapeY: [n, b, c]}): the book's (2, 1, 4) x (2, 4, 6)
const bmmShapes = () => ({ shapeX: [2, 1, 4], shapeY: [2, 4, 6] });
const bmm = (X = grid(8), Y = grid(48), shapes = bmmShapes()) => api.batchMatrixProduct(X, Y, shapes);
for (const [name, position] of [['X', 0], ['Y', 1]]) {
  const with_ = (value) => api.batchMatrixProduct(...[grid(8), grid(48)].map((array, i) => (i === position ? value : array)),
    bmmShapes());
  each('batchMatrixProduct', [...NOT_ARRAYS, ['undefined (missing)', undefined]], name, with_, name);
  each('batchMatrixProduct', BAD_ELEMENTS, name, with_, name);
  const good = position === 0 ? grid(8) : grid(48);
  row('batchMatrixProduct', `${name} empty`, () => with_(new Float64Array(0)), name);
  row('batchMatrixProduct', `${name} one too long`, () => with_(f([...good, 1])), name);
  row('batchMatrixProduct', `${name} one too short`, () => with_(good.subarray(1)), name);
  row('batchMatrixProduct', `${name} with NaN`, () => with_(good.map((v, i) => (i === 1 ? NaN : v))), name,
    { detail: 'at index 1' });
  row('batchMatrixProduct', `${name} with Infinity`, () => with_(good.map((v, i) => (i === 0 ? Infinity : v))), name);
  // An array-like whose own length lies: the typed array's real length is read, and refused.
  const liar = good.slice(1);
  Object.defineProperty(liar, 'length', { value: good.length });
  row('batchMatrixProduct', `${name} whose own length property lies`, () => with_(liar), name);
}
each('batchMatrixProduct', [...NOT_OPTIONS, ['undefined', undefined]], 'options',
  (v) => api.batchMatrixProduct(grid(8), grid(48), v), 'options');
for (const [key, letters] of [['shapeX', 'nab'], ['shapeY', 'nbc']]) {
  each('batchMatrixProduct', [['a number', 3], ['null', null], ['a string', '2,1,4'], ['two extents', [2, 1]],
    ['four extents', [2, 1, 4, 1]], ['an object', { 0: 2, 1: 1, 2: 4, length: 3 }], ['undefined (missing)', undefined]],
  key, (v) => bmm(undefined, undefined, { ...bmmShapes(), [key]: v }), key);
  for (let i = 0; i < 3; i += 1) {
    const label = `${key}[${i}] (${letters[i]})`;
    const with_ = (value) => bmm(undefined, undefined, { ...bmmShapes(), [key]: bmmShapes()[key].map((e, j) => (j === i ? value : e)) });
    each('batchMatrixProduct', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], label, with_, label);
    row('batchMatrixProduct', `${label} over the limit`, () => with_(LIMIT.points + 1), label, { over: true });
  }
}
row('batchMatrixProduct', 'Y\'s b not X\'s', () => bmm(grid(8), grid(60), { shapeX: [2, 1, 4], shapeY: [2, 5, 6] }), 'Y',
  { detail: 'Y: expected shape (2, 4, c) to match X (2, 1, 4), got (2, 5, 6)' });
row('batchMatrixProduct', 'Y\'s n not X\'s', () => bmm(grid(8), grid(72), { shapeX: [2, 1, 4], shapeY: [3, 4, 6] }), 'Y',
  { detail: 'got (3, 4, 6)' });
// 1024 * 2048 * 2048 = 2^32 numbers: a 32-bit size_t product would wrap to 0 and match an empty X.
row('batchMatrixProduct', 'X\'s n * a * b at 2^32, X empty', () => bmm(new Float64Array(0), grid(2),
  { shapeX: [1024, 2048, 2048], shapeY: [1024, 2048, 1] }), 'shapeX[2] (b)', { over: true, detail: 'got 4294967296' });
row('batchMatrixProduct', 'the result over the matrix limit', () => bmm(grid(64 * 512), grid(64 * 1024),
  { shapeX: [64, 512, 1], shapeY: [64, 1, 1024] }), 'shapeY[2] (c)', { over: true });
row('batchMatrixProduct', 'n * a * b * c over the work limit', () => bmm(grid(10), grid(10),
  { shapeX: [64, 64, 1024], shapeY: [64, 1024, 256] }), 'shapeY[2] (c)', { over: true, detail: 'multiply-adds' });

// The trainable attention model: attentionModelInit(config), attentionModelForward(model, tokens, options),
// attentionModelLoss / attentionModelStep / attentionModelAccuracy(model, tokens, targets, options), attentionTaskBatch(options),
// attentionTaskIdeal(options, item), attentionModelTrain(model, options)
const MODEL_LIMITS = { vocab: 1024, length: 256, hidden: 1024, heads: 64, blocks: 8, ffnHidden: 4096 };
const smallModel = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
const tokens4 = [1, 2, 3, 4];
each('attentionModelInit', NOT_OPTIONS, 'config', (v) => api.attentionModelInit(v), 'config');
for (const [name, limit] of Object.entries(MODEL_LIMITS)) {
  const bad = name === 'ffnHidden' ? BAD_COUNTS : [...BAD_COUNTS, ['0', 0]];
  each('attentionModelInit', [...NOT_NUMBERS, ...bad], name, (v) => api.attentionModelInit({ [name]: v }), name);
  row('attentionModelInit', `${name} over the limit`, () => api.attentionModelInit({ [name]: limit + 1 }), name,
    { over: true });
}
row('attentionModelInit', 'more parameters than the limit', () => api.attentionModelInit({
  vocab: 1024, hidden: 1024, heads: 64, blocks: 8, ffnHidden: 4096 }), 'hidden', { over: true });
each('attentionModelInit', [...NOT_NUMBERS, ...NON_FINITE, ['-1', -1], ['1001', 1001]], 'embeddingScale',
  (v) => api.attentionModelInit({ embeddingScale: v }), 'embeddingScale');
each('attentionModelInit', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api.attentionModelInit({ seed: v }), 'seed');
// (attentionModelRowSteps takes what the forward pass takes, then the row: {block, item, head, query}.)
const FORWARD_LIKE = new Set(['attentionModelForward', 'attentionModelRowSteps']);
for (const fn of ['attentionModelForward', 'attentionModelLoss', 'attentionModelStep', 'attentionModelAccuracy',
  'attentionModelRowSteps']) {
  const call = (model, tokens, options) => (fn === 'attentionModelRowSteps' ? api[fn](model, tokens, options, { query: 0 })
    : fn === 'attentionModelForward' ? api[fn](model, tokens, options) : api[fn](model, tokens, tokens4, options));
  each(fn, [...NOT_OPTIONS, ['undefined', undefined]], 'model', (v) => call(v, tokens4), 'model');
  each(fn, NOT_OPTIONS, 'model.config', (v) => call({ ...smallModel, config: v }, tokens4), 'model.config');
  each(fn, NOT_OPTIONS, 'model.params', (v) => call({ ...smallModel, params: v }, tokens4), 'model.params');
  each(fn, NOT_ARRAYS, 'a parameter', (v) => call({ ...smallModel, params: { ...smallModel.params, readout: v } },
    tokens4), 'params.readout');
  each(fn, [['NaN', NaN], ['Infinity', Infinity]], 'a parameter value', (v) => call({ ...smallModel,
    params: { ...smallModel.params, readoutBias: f([0, 0, v, 0, 0]) } }, tokens4), 'params.readoutBias');
  row(fn, 'a parameter of the wrong size', () => call({ ...smallModel,
    params: { ...smallModel.params, 'b0.Wq': f([1, 2]) } }, tokens4), 'params.b0.Wq');
  row(fn, 'a parameter of another name', () => call({ ...smallModel,
    params: { ...smallModel.params, 'b0.Wz': f([1]) } }, tokens4), 'params');
  row(fn, 'the params of another config', () => call({ ...smallModel, config: { ...smallModel.config, hidden: 8 } },
    tokens4), 'params.embedding');
  each(fn, [...NOT_ARRAYS, ['undefined', undefined]], 'tokens', (v) => call(smallModel, v), 'tokens');
  each(fn, [...BAD_ELEMENTS, ['a token of the vocab size', [1, 2, 5, 0]], ['a negative token', [1, -1, 0, 0]],
    ['a fractional token', [1, 0.5, 0, 0]], ['too few', [1, 2]]], 'tokens', (v) => call(smallModel, v), 'tokens');
  row(fn, 'tokens over the limit', () => call(smallModel, new Int32Array(1024 * 256 + 1)), 'tokens', { over: true });
  each(fn, NOT_OPTIONS.filter(([, v]) => v !== null), 'options', (v) => call(smallModel, tokens4, v), 'options');
  each(fn, [...NOT_NUMBERS.filter(([, v]) => v !== null), ...BAD_COUNTS, ['0', 0], ['2', 2]], 'batch',
    (v) => call(smallModel, tokens4, { batch: v }), FORWARD_LIKE.has(fn) ? /^(batch|tokens)$/ : /^(batch|tokens|targets)$/);
  each(fn, [['0', [0]], ['5', [5]], ['two for one', [2, 2]], ['NaN', [NaN]]], 'validLens',
    (v) => call(smallModel, tokens4, { validLens: v }), 'validLens');
  each(fn, [['1', 1], ['a string', 'yes'], ['null', null]], 'causal', (v) => call(smallModel, tokens4, { causal: v }),
    'causal');
  each(fn, [...NOT_ARRAYS.filter(([, v]) => v !== null), ['a flag of 2', [0, 2]], ['a negative flag', [-1, 0]],
    ['one flag for two heads', [1]], ['three flags for two heads', [0, 0, 1]], ['NaN', [NaN, 0]]], 'headsOff',
  (v) => call(smallModel, tokens4, { headsOff: v }), 'headsOff');
  row(fn, 'head flags over the limit', () => call(smallModel, tokens4, { headsOff: new Int32Array(8 * 64 + 1) }),
    'headsOff', { over: true });
}
// The row a call of attentionModelRowSteps takes apart (smallModel: one block of two heads, length 4; one item).
const rowOfSmall = (choice) => api.attentionModelRowSteps(smallModel, tokens4, undefined, choice);
each('attentionModelRowSteps', [...NOT_OPTIONS, ['undefined', undefined]], 'choice', rowOfSmall, 'choice');
row('attentionModelRowSteps', 'no query', () => rowOfSmall({ head: 1 }), 'query');
for (const [name, count] of [['block', 1], ['item', 1], ['head', 2], ['query', 4]]) {
  each('attentionModelRowSteps', [...NOT_NUMBERS, ...BAD_COUNTS], name, (v) => rowOfSmall({ query: 0, [name]: v }), name);
  row('attentionModelRowSteps', `${name} one past the last`, () => rowOfSmall({ query: 0, [name]: count }), name);
}
row('attentionModelRowSteps', 'a query getter that throws', () => rowOfSmall({ get query() { throw new Error('boom'); } }),
  'query');
// Arrays inside a model far longer than its layout's: refused by their
// lengths before any of them is copied in (copies made first once grew the
// heap to 249 MB, and eight blocks' worth to 1 GB and std::bad_alloc).
const OVERSIZED = new Float64Array(2 ** 22); // the largest a model parameter may be
const oversizedParams = (model) => Object.fromEntries(Object.keys(model.params).map((name) => [name, OVERSIZED]));
const defaultModel = api.attentionModelInit();
const eightBlocks = api.attentionModelInit({ blocks: 8, hidden: 4, heads: 1 });
const withState = (model, m, v) => ({ ...model, optimizerState: { step: 1, m, v } });
const parameterCount = Object.values(defaultModel.params).reduce((sum, array) => sum + array.length, 0);
for (const fn of ['attentionModelForward', 'attentionModelLoss', 'attentionModelStep', 'attentionModelAccuracy',
  'attentionModelTrain', 'attentionModelRowSteps']) {
  const call = (model, tokens = Int32Array.from({ length: 8 }, (_, i) => i)) => (fn === 'attentionModelTrain'
    ? api[fn](model, { steps: 1 }) : fn === 'attentionModelRowSteps' ? api[fn](model, tokens, undefined, { query: 0 })
      : fn === 'attentionModelForward' ? api[fn](model, tokens) : api[fn](model, tokens, tokens));
  row(fn, 'every parameter 2^22 numbers long', () => call({ ...defaultModel, params: oversizedParams(defaultModel) }),
    'params.embedding', { over: true, detail: 'expected 320 numbers, got 4194304' });
  row(fn, 'the 35 parameters of eight blocks 2^22 numbers long', () => call({ ...eightBlocks,
    params: oversizedParams(eightBlocks) }), 'params.embedding', { over: true });
  row(fn, 'the last parameter 2^22 numbers long', () => call({ ...defaultModel,
    params: { ...defaultModel.params, readoutBias: OVERSIZED } }), 'params.readoutBias', { over: true });
  if (!FORWARD_LIKE.has(fn) && fn !== 'attentionModelAccuracy') {
    row(fn, 'Adam moments 2^22 numbers long', () => call(withState(defaultModel, OVERSIZED, OVERSIZED)),
      'optimizerState.m', { over: true });
    row(fn, 'the second moment alone 2^22 numbers long', () => call(withState(defaultModel,
      new Float64Array(parameterCount), OVERSIZED)), 'optimizerState.v', { over: true });
  }
  if (fn !== 'attentionModelTrain') {
    row(fn, 'tokens of the wrong length, with oversized parameters', () => call({ ...defaultModel,
      params: oversizedParams(defaultModel) }, new Int32Array(7)), /^(params\.embedding|tokens|batch)$/, { over: true });
  }
}
row('maskedSoftmax', 'scores of 2^24 numbers with a valid length over nk', () => api.maskedSoftmax(
  new Float64Array(2 ** 24), [1, 4096, 4096], [5000]), 'validLens', { over: true });
row('maskScores', 'scores of 2^24 numbers with too many valid lengths', () => api.maskScores(
  new Float64Array(2 ** 24), [1, 4096, 4096], new Int32Array(2)), 'validLens', { over: true });
row('dotProductAttention', 'queries of 2^24 numbers with keys of the wrong length', () => api.dotProductAttention({
  queries: new Float64Array(2 ** 24), keys: new Float64Array(3), values: new Float64Array(16),
  shape: { batch: 16, nq: 1024, nk: 1, d: 1024, dv: 1 }, validLens: null,
}), 'keys', { over: true });
row('batchMatrixProduct', 'X of 2^23 numbers with Y of the wrong length', () => api.batchMatrixProduct(
  new Float64Array(2 ** 23), new Float64Array(5), { shapeX: [1024, 8192, 1], shapeY: [1024, 1, 4] }),
/^(Y|shapeX\[\d\] \(\w\)|shapeY\[\d\] \(\w\))$/, { over: true });
row('attentionModelLoss', 'targets of the wrong length', () => api.attentionModelLoss(smallModel, tokens4, [1]), 'targets');
row('attentionModelLoss', 'a target of the vocab size', () => api.attentionModelLoss(smallModel, tokens4, [0, 0, 5, 0]),
  'targets');
each('attentionModelStep', [...NOT_NUMBERS, ['NaN', NaN], ['0', 0], ['-0.1', -0.1], ['1001', 1001]], 'lr',
  (v) => api.attentionModelStep(smallModel, tokens4, tokens4, { lr: v }), 'lr');
each('attentionModelStep', [['a number', 1], ['rmsprop', 'rmsprop'], ['ADAM', 'ADAM']], 'optimizer',
  (v) => api.attentionModelStep(smallModel, tokens4, tokens4, { optimizer: v }), 'optimizer');
each('attentionModelStep', [...NOT_NUMBERS, ...BAD_COUNTS.filter(([, v]) => v !== 2 ** 31 && v !== 1e9)],
  'optimizerState.step', (v) => api.attentionModelStep({ ...smallModel, optimizerState: { step: v } }, tokens4,
    tokens4), 'optimizerState.step');
row('attentionModelStep', 'moments of the wrong size', () => api.attentionModelStep({ ...smallModel,
  optimizerState: { step: 1, m: f([0]), v: f([0]) } }, tokens4, tokens4), 'optimizerState.m');
row('attentionModelStep', 'one moment only', () => api.attentionModelStep({ ...smallModel,
  optimizerState: { step: 1, m: null, v: f([0]) } }, tokens4, tokens4), 'optimizerState');
for (const fn of ['attentionTaskBatch', 'attentionTaskIdeal']) {
  const call = (options) => (fn === 'attentionTaskBatch' ? api[fn](options) : api[fn](options, 0));
  each(fn, NOT_OPTIONS, 'options', call, 'options');
  each(fn, [['a number', 1], ['copy', 'copy'], ['empty', '']], 'task', (v) => call({ task: v }), 'task');
  for (const name of ['batch', 'length', 'vocab']) {
    each(fn, [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], name, (v) => call({ [name]: v }), name);
  }
  row(fn, 'batch over the limit', () => call({ batch: 1025 }), 'batch', { over: true });
  row(fn, 'length over the limit', () => call({ length: 257 }), 'length', { over: true });
  row(fn, 'vocab over the limit', () => call({ vocab: 1025 }), 'vocab', { over: true });
  row(fn, 'a lookup vocab smaller than half the length', () => call({ task: 'lookup', length: 20, vocab: 9 }), 'vocab');
  each(fn, [...NOT_NUMBERS, ...BAD_COUNTS, ['the length', 8]], 'lag', (v) => call({ task: 'shift', lag: v }), 'lag');
  each(fn, [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => call({ seed: v }), 'seed');
  each(fn, [['1', 1], ['a string', 'no'], ['null', null]], 'variableLengths', (v) => call({ variableLengths: v }),
    'variableLengths');
}
each('attentionTaskIdeal', [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['the batch', 32]], 'item',
  (v) => api.attentionTaskIdeal({}, v), 'item');
each('attentionModelTrain', [...NOT_OPTIONS, ['undefined', undefined]], 'model', (v) => api.attentionModelTrain(v),
  'model');
each('attentionModelTrain', NOT_OPTIONS, 'options', (v) => api.attentionModelTrain(smallModel, v), 'options');
for (const name of ['steps', 'batch', 'evalEvery', 'heldOut']) {
  each('attentionModelTrain', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], name,
    (v) => api.attentionModelTrain(smallModel, { [name]: v }), name);
}
row('attentionModelTrain', 'steps over the limit', () => api.attentionModelTrain(smallModel, { steps: 10001 }), 'steps',
  { over: true });
row('attentionModelTrain', 'more work than one call may take', () => api.attentionModelTrain(
  api.attentionModelInit({ length: 64, hidden: 256, heads: 8 }), { steps: 10000, batch: 16, heldOut: 16 }), 'steps',
  { over: true });
// A batch whose one pass is over its own bound: the batch is what to lower, however few the steps.
row('attentionModelTrain', 'a batch whose pass is over its bound', () => api.attentionModelTrain(
  api.attentionModelInit({ length: 64, hidden: 256, heads: 8 }), { steps: 1, batch: 64 }), 'batch', { over: true });
row('attentionModelTrain', 'a batch over the limit', () => api.attentionModelTrain(smallModel, { batch: 1025 }), 'batch',
  { over: true });
row('attentionModelTrain', 'held out over the limit', () => api.attentionModelTrain(smallModel, { heldOut: 1025 }),
  'heldOut', { over: true });
each('attentionModelTrain', [['a number', 1], ['copy', 'copy']], 'task',
  (v) => api.attentionModelTrain(smallModel, { task: v }), 'task');
each('attentionModelTrain', [['rmsprop', 'rmsprop'], ['a number', 2]], 'optimizer',
  (v) => api.attentionModelTrain(smallModel, { optimizer: v }), 'optimizer');
each('attentionModelTrain', [...NOT_NUMBERS, ['NaN', NaN], ['0', 0], ['1001', 1001]], 'lr',
  (v) => api.attentionModelTrain(smallModel, { lr: v }), 'lr');
each('attentionModelTrain', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api.attentionModelTrain(smallModel, { seed: v }),
  'seed');
for (const name of ['causal', 'variableLengths', 'evaluateAtEnd']) {
  each('attentionModelTrain', [['1', 1], ['null', null]], name, (v) => api.attentionModelTrain(smallModel, { [name]: v }),
    name);
}

// The translators: seq2seqVocabulary(task), seq2seqInit(config), seq2seqTaskBatch({task, batch, seed}),
// seq2seqHeldOut({task, count}), seq2seqTaskIdeal({task, count}, item), seq2seqForward / seq2seqLoss(model, batch),
// seq2seqStep(model, batch, options), seq2seqTrain(model, options), seq2seqTranslate(model, source, options),
// seq2seqSourceFromText(task, text)
const TRANSLATOR_LIMITS = { vocab: 1024, length: 256, hidden: 1024, embed: 1024, layers: 8, heads: 64, ffnHidden: 4096,
  blocks: 8 };
const SMALL_TRANSLATOR = { task: 'reverse', hidden: 4, embed: 4, layers: 1, heads: 2, ffnHidden: 8, blocks: 1 };
// Both architectures, small, on the reverse task (13 tokens each side, rows of 8).
const translators = {
  bahdanau: api.seq2seqInit({ ...SMALL_TRANSLATOR, architecture: 'bahdanau' }),
  transformer: api.seq2seqInit({ ...SMALL_TRANSLATOR, architecture: 'transformer' }),
};
const pairs2 = api.seq2seqTaskBatch({ task: 'reverse', batch: 2, seed: 1 });
// The tasks' vocabularies, held-out sets and dates are made once, on first use, and kept
// (core/seq2seq/tasks.cpp): made here, before the rows that measure memory.
for (const task of ['numbers-en-zh', 'numbers-zh-en', 'dates', 'reverse', 'sort']) {
  api.seq2seqVocabulary(task);
  api.seq2seqTaskIdeal({ task, count: 1 }, 0);
  api.seq2seqSourceFromText(task, task === 'dates' ? '2026-11-25' : '12');
}
const BAD_TASKS = [['a number', 1], ['null', null], ['an object', {}], ['an unknown name', 'numbers-fr'],
  ['an empty string', ''], ['a different case', 'Reverse'], ['a name with a NUL', 'reverse\0'],
  ['a long string', 'x'.repeat(100000)]];
const translatorTokenLimit = 1024 * 256; // maxModelBatch * maxModelLength: every token array's limit

each('seq2seqVocabulary', [...BAD_TASKS, ['undefined', undefined]], 'task', (v) => api.seq2seqVocabulary(v), 'task');

// seq2seqInit: a config of the task's sizes, or of sizes given with task null.
const sized = { task: null, sourceVocab: 13, targetVocab: 13, sourceLength: 8, targetLength: 8 };
each('seq2seqInit', NOT_OPTIONS, 'config', (v) => api.seq2seqInit(v), 'config');
each('seq2seqInit', [['a number', 1], ['null', null], ['an unknown name', 'gru'], ['a different case', 'Bahdanau'],
  ['an empty string', '']], 'architecture', (v) => api.seq2seqInit({ architecture: v }), 'architecture');
each('seq2seqInit', BAD_TASKS.filter(([, v]) => v !== null), 'task', (v) => api.seq2seqInit({ task: v }), 'task');
row('seq2seqInit', 'no task and no sizes', () => api.seq2seqInit({ task: null }), 'sourceVocab');
for (const [name, limit, least] of [['sourceVocab', TRANSLATOR_LIMITS.vocab, 4], ['targetVocab', TRANSLATOR_LIMITS.vocab, 4],
  ['sourceLength', TRANSLATOR_LIMITS.length, 1], ['targetLength', TRANSLATOR_LIMITS.length, 1]]) {
  for (const architecture of ['bahdanau', 'transformer']) {
    const config = (v) => ({ ...sized, architecture, [name]: v });
    each('seq2seqInit', [...NOT_NUMBERS.filter(([, v]) => v !== null), ...BAD_COUNTS, ['below the least', least - 1]],
      `${architecture} ${name}`, (v) => api.seq2seqInit(config(v)), name);
    row('seq2seqInit', `${architecture} ${name} over the limit`, () => api.seq2seqInit(config(limit + 1)), name,
      { over: true });
  }
  // With a task, a size is the task's (or null): another one is refused.
  row('seq2seqInit', `${name} not the task's`, () => api.seq2seqInit({ task: 'dates', [name]: 13 }), name);
  each('seq2seqInit', BAD_COUNTS, `${name} with a task`, (v) => api.seq2seqInit({ [name]: v }), name);
}
for (const [name, architecture] of [['hidden', 'bahdanau'], ['hidden', 'transformer'], ['embed', 'bahdanau'],
  ['layers', 'bahdanau'], ['heads', 'transformer'], ['ffnHidden', 'transformer'], ['blocks', 'transformer']]) {
  // hidden 1 with two heads, or bidirectional, is refused for that reason, under its own name.
  const base = { ...SMALL_TRANSLATOR, architecture, bidirectional: false, heads: 1 };
  each('seq2seqInit', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], `${architecture} ${name}`,
    (v) => api.seq2seqInit({ ...base, [name]: v }), name);
  row('seq2seqInit', `${architecture} ${name} over the limit`, () => api.seq2seqInit({ ...base,
    [name]: TRANSLATOR_LIMITS[name] + 1 }), name, { over: true });
}
row('seq2seqInit', 'an odd hidden size with a bidirectional encoder', () => api.seq2seqInit({ hidden: 7 }), 'hidden');
row('seq2seqInit', 'heads not dividing hidden', () => api.seq2seqInit({ architecture: 'transformer', heads: 3 }), 'heads');
row('seq2seqInit', 'a GRU of more parameters than the limit', () => api.seq2seqInit({ ...sized, sourceVocab: 1024,
  targetVocab: 1024, hidden: 1024, embed: 1024, layers: 8 }), 'hidden', { over: true });
row('seq2seqInit', 'a Transformer of more parameters than the limit', () => api.seq2seqInit({ ...sized,
  architecture: 'transformer', hidden: 1024, heads: 64, ffnHidden: 4096, blocks: 8 }), 'hidden', { over: true });
for (const architecture of ['bahdanau', 'transformer']) {
  each('seq2seqInit', [...NOT_NUMBERS, ...NON_FINITE, ['-1', -1], ['1001', 1001]], `${architecture} embeddingScale`,
    (v) => api.seq2seqInit({ architecture, embeddingScale: v }), 'embeddingScale');
  each('seq2seqInit', [...NOT_NUMBERS, ...BAD_SEEDS], `${architecture} seed`,
    (v) => api.seq2seqInit({ architecture, seed: v }), 'seed');
  each('seq2seqInit', [['1', 1], ['a string', 'yes'], ['null', null]], `${architecture} bidirectional`,
    (v) => api.seq2seqInit({ architecture, bidirectional: v }), 'bidirectional');
}

// seq2seqTaskBatch, seq2seqHeldOut, seq2seqTaskIdeal
each('seq2seqTaskBatch', NOT_OPTIONS, 'options', (v) => api.seq2seqTaskBatch(v), 'options');
each('seq2seqTaskBatch', BAD_TASKS, 'task', (v) => api.seq2seqTaskBatch({ task: v }), 'task');
each('seq2seqTaskBatch', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], 'batch', (v) => api.seq2seqTaskBatch({ batch: v }),
  'batch');
row('seq2seqTaskBatch', 'batch over the limit', () => api.seq2seqTaskBatch({ batch: 1025 }), 'batch', { over: true });
each('seq2seqTaskBatch', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => api.seq2seqTaskBatch({ seed: v }), 'seed');
for (const fn of ['seq2seqHeldOut', 'seq2seqTaskIdeal']) {
  const call = (options) => (fn === 'seq2seqHeldOut' ? api[fn](options) : api[fn](options, 0));
  each(fn, NOT_OPTIONS, 'options', call, 'options');
  each(fn, BAD_TASKS, 'task', (v) => call({ task: v }), 'task');
  each(fn, [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0], ['one more than the held-out set', 501]], 'count',
    (v) => call({ count: v }), 'count');
  row(fn, 'count over the limit', () => call({ count: 1025 }), 'count', { over: true });
}
each('seq2seqTaskIdeal', [...NOT_NUMBERS, ['undefined', undefined], ...BAD_COUNTS, ['the count', 4]], 'item',
  (v) => api.seq2seqTaskIdeal({ task: 'reverse', count: 4 }, v), 'item');

// seq2seqAlignment(model, {task, count}); its model rows are the model functions' below.
const alignmentOf = (options) => api.seq2seqAlignment(translators.bahdanau, options);
each('seq2seqAlignment', NOT_OPTIONS, 'options', alignmentOf, 'options');
each('seq2seqAlignment', BAD_TASKS, 'task', (v) => alignmentOf({ task: v }), 'task');
row('seq2seqAlignment', 'a task of other sizes than the model', () => alignmentOf({ task: 'dates', count: 1 }), 'task');
each('seq2seqAlignment', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0], ['one more than the held-out set', 501]], 'count',
  (v) => alignmentOf({ task: 'reverse', count: v }), 'count');

// The model functions: forward, loss, step, train and translate.
// (The batch rows pass their batch, undefined included, as it is.)
const MODEL_FUNCTIONS = {
  seq2seqForward: (model, ...batch) => api.seq2seqForward(model, ...(batch.length ? batch : [pairs2])),
  seq2seqLoss: (model, ...batch) => api.seq2seqLoss(model, ...(batch.length ? batch : [pairs2])),
  seq2seqStep: (model, ...batch) => api.seq2seqStep(model, ...(batch.length ? batch : [pairs2])),
  seq2seqTrain: (model) => api.seq2seqTrain(model, { task: 'reverse', steps: 1, batch: 2, heldOut: 2 }),
  seq2seqTranslate: (model) => api.seq2seqTranslate(model, [3, 4, 2]),
  seq2seqAlignment: (model) => api.seq2seqAlignment(model, { task: 'reverse', count: 2 }),
  seq2seqRowSteps: (model, ...batch) => api.seq2seqRowSteps(model, ...(batch.length ? batch : [pairs2]), { query: 0 }),
};
for (const [fn, call] of Object.entries(MODEL_FUNCTIONS)) {
  for (const [architecture, model] of Object.entries(translators)) {
    const label = (what) => `${architecture}: ${what}`;
    const [first, last] = [Object.keys(model.params)[0], Object.keys(model.params).at(-1)];
    each(fn, [...NOT_OPTIONS, ['undefined', undefined]], label('model'), (v) => call(v), 'model');
    each(fn, NOT_OPTIONS, label('model.config'), (v) => call({ ...model, config: v }), 'model.config');
    each(fn, NOT_OPTIONS, label('model.params'), (v) => call({ ...model, params: v }), 'model.params');
    each(fn, NOT_ARRAYS, label('a parameter'), (v) => call({ ...model, params: { ...model.params, [last]: v } }),
      `params.${last}`);
    each(fn, [['NaN', NaN], ['Infinity', Infinity]], label('a parameter value'), (v) => call({ ...model,
      params: { ...model.params, [last]: model.params[last].map((x, i) => (i === 1 ? v : x)) } }), `params.${last}`);
    row(fn, label('a parameter of the wrong size'), () => call({ ...model,
      params: { ...model.params, [first]: f([1, 2]) } }), `params.${first}`);
    row(fn, label('a parameter of another name'), () => call({ ...model,
      params: { ...model.params, 'decoder.extra.weight': f([1]) } }), 'params');
    row(fn, label('a parameter missing'), () => {
      const params = { ...model.params };
      delete params[last];
      return call({ ...model, params });
    }, 'params');
    row(fn, label('the params of another config'), () => call({ ...model, config: { ...model.config, hidden: 8 } }),
      /^params\.[\w.]+$/);
    // Its scoring too is the other's own (null): a model's config names its architecture's scoring.
    row(fn, label('the params of the other architecture'), () => call({ ...model, config: { ...model.config,
      architecture: architecture === 'bahdanau' ? 'transformer' : 'bahdanau', scoring: null } }), /^params(\.[\w.]+)?$/);
    // The other scoring changes the parameters (Bahdanau's additive weights; the Transformer's shared additive heads).
    row(fn, label('its params under the other scoring'), () => call({ ...model, config: { ...model.config,
      scoring: model.config.scoring === 'dot' ? 'additive' : 'dot' } }), /^params(\.[\w.]+)?$/);
    // An LSTM's gates are four a unit, a GRU's three; the Transformer has no cell to change.
    row(fn, label('its params under the other cell'), () => call({ ...model, config: { ...model.config, cell: 'lstm' } }),
      architecture === 'bahdanau' ? /^params(\.[\w.]+)?$/ : 'cell');
    row(fn, label('a cell no translator has'), () => call({ ...model, config: { ...model.config, cell: 'rnn' } }), 'cell');
    each(fn, [['a string', 'yes'], ['NaN', NaN], ['-1', -1], ['2.5', 2.5], ['2**53', 2 ** 53], ['null', null]],
      label('optimizerState.step'), (v) => call({ ...model, optimizerState: { step: v } }), 'optimizerState.step');
    each(fn, [['a string', 'none'], ['an array', [1]], ['a number', 3]], label('optimizerState'),
      (v) => call({ ...model, optimizerState: v }), 'model.optimizerState');
    row(fn, label('one moment only'), () => call({ ...model, optimizerState: { step: 1, m: null, v: f([0]) } }),
      'optimizerState');
    each(fn, [['a short m', f([0])], ['a string', 'm']], label('optimizerState.m'),
      (v) => call({ ...model, optimizerState: { step: 1, m: v, v: v } }), 'optimizerState.m');
  }
}
const model2 = translators.bahdanau;
// The batch of forward, loss and step: {source, sourceLens, targetIn, targetOut, targetLens}.
for (const fn of ['seq2seqForward', 'seq2seqLoss', 'seq2seqStep', 'seq2seqRowSteps']) {
  for (const [architecture, model] of Object.entries(translators)) {
    const call = (batch) => MODEL_FUNCTIONS[fn](model, batch);
    const label = (what) => `${architecture}: ${what}`;
    each(fn, [...NOT_OPTIONS, ['undefined', undefined]], label('batch'), call, 'batch');
    for (const [key, tokens] of [['source', true], ['sourceLens', false], ['targetIn', true], ['targetOut', true],
      ['targetLens', false]]) {
      const withKey = (v) => call({ ...pairs2, [key]: v });
      each(fn, [...NOT_ARRAYS, ['undefined (missing)', undefined]], label(key), withKey, key);
      each(fn, BAD_ELEMENTS, label(key), withKey, key);
      each(fn, [['a negative value', -1], ['a fraction', 0.5], ['NaN', NaN], ['2**31', 2 ** 31]], label(`${key} element`),
        (v) => withKey(Array.from(pairs2[key], (x, i) => (i === 0 ? v : x))), key);
      row(fn, label(`${key} empty`), () => withKey(new Int32Array(0)), key);
      row(fn, label(`${key} one too long`), () => withKey(Int32Array.from([...pairs2[key], 1])), key);
      row(fn, label(`${key} one too short`), () => withKey(pairs2[key].subarray(1)), key);
      row(fn, label(`${key} over the limit`), () => withKey(new Int32Array(translatorTokenLimit + 1)), key, { over: true });
      if (tokens) {
        row(fn, label(`${key}: a token of the vocabulary's size`), () => withKey(pairs2[key].with(1, 13)), key);
      } else {
        row(fn, label(`${key}: a length of 0`), () => withKey(pairs2[key].with(1, 0)), key);
        row(fn, label(`${key}: a length over the row`), () => withKey(pairs2[key].with(0, 9)), key);
      }
    }
    // Three items' sources with two items' everything else: the lengths name the mismatch.
    const three = api.seq2seqTaskBatch({ task: 'reverse', batch: 3, seed: 2 });
    row(fn, label('a third source'), () => call({ ...pairs2, source: three.source }), /^(sourceLens|targetIn)$/);
    row(fn, label('sources of 1025 items'), () => call({ ...pairs2, source: new Int32Array(1025 * 8) }), /^(batch|source)$/,
      { over: true });
  }
}
// The row of seq2seqRowSteps: {block, item, head, query, attention} (the small Transformer: one block of two heads;
// Bahdanau's: one block of one head; two pairs, rows of 8).
for (const [architecture, model] of Object.entries(translators)) {
  const rowOf = (choice) => api.seq2seqRowSteps(model, pairs2, choice);
  const label = (what) => `${architecture}: ${what}`;
  each('seq2seqRowSteps', [...NOT_OPTIONS, ['undefined', undefined]], label('choice'), rowOf, 'choice');
  row('seq2seqRowSteps', label('no query'), () => rowOf({ block: 0 }), 'query');
  for (const [name, count] of [['block', 1], ['item', 2], ['head', architecture === 'transformer' ? 2 : 1], ['query', 8]]) {
    each('seq2seqRowSteps', [...NOT_NUMBERS, ...BAD_COUNTS], label(name), (v) => rowOf({ query: 0, [name]: v }), name);
    row('seq2seqRowSteps', label(`${name} one past the last`), () => rowOf({ query: 0, [name]: count }), name);
  }
  const badAttention = [['a number', 1], ['null', null], ['an unknown name', 'encoder'], ['a different case', 'Cross'],
    ...(architecture === 'bahdanau' ? [['self on Bahdanau\'s decoder', 'self']] : [])];
  each('seq2seqRowSteps', badAttention, label('attention'), (v) => rowOf({ query: 0, attention: v }), 'attention');
}
each('seq2seqStep', NOT_OPTIONS, 'options', (v) => api.seq2seqStep(model2, pairs2, v), 'options');
each('seq2seqStep', [...NOT_NUMBERS, ['NaN', NaN], ['0', 0], ['-0.1', -0.1], ['1001', 1001], ['Infinity', Infinity]], 'lr',
  (v) => api.seq2seqStep(model2, pairs2, { lr: v }), 'lr');
each('seq2seqStep', [['a number', 1], ['null', null], ['rmsprop', 'rmsprop'], ['ADAM', 'ADAM']], 'optimizer',
  (v) => api.seq2seqStep(model2, pairs2, { optimizer: v }), 'optimizer');
each('seq2seqStep', [...NOT_NUMBERS, ['NaN', NaN], ['-1', -1], ['Infinity', Infinity]], 'clip',
  (v) => api.seq2seqStep(model2, pairs2, { clip: v }), 'clip');
row('seq2seqStep', 'moments of the wrong size', () => api.seq2seqStep({ ...model2,
  optimizerState: { step: 1, m: f([0]), v: f([0]) } }, pairs2), 'optimizerState.m');

// seq2seqTrain(model, options)
const trainSmall = (model, options) => api.seq2seqTrain(model, { task: 'reverse', steps: 1, batch: 2, heldOut: 2,
  ...options });
each('seq2seqTrain', NOT_OPTIONS, 'options', (v) => api.seq2seqTrain(model2, v), 'options');
each('seq2seqTrain', BAD_TASKS, 'task', (v) => trainSmall(model2, { task: v }), 'task');
row('seq2seqTrain', 'a task of other sizes than the model\'s', () => trainSmall(model2, { task: 'dates' }), 'task');
row('seq2seqTrain', 'the default task for a model of another', () => api.seq2seqTrain(model2, { steps: 1 }), 'task');
for (const name of ['steps', 'batch', 'evalEvery', 'heldOut']) {
  each('seq2seqTrain', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0]], name, (v) => trainSmall(model2, { [name]: v }), name);
}
row('seq2seqTrain', 'steps over the limit', () => trainSmall(model2, { steps: 10001 }), 'steps', { over: true });
row('seq2seqTrain', 'a batch over the limit', () => trainSmall(model2, { batch: 1025 }), 'batch', { over: true });
row('seq2seqTrain', 'held out over the set', () => trainSmall(model2, { heldOut: 501 }), 'heldOut', { over: true });
row('seq2seqTrain', 'more work than one call may take', () => trainSmall(model2, { steps: 10000, batch: 1024 }), 'steps',
  { over: true });
each('seq2seqTrain', [['rmsprop', 'rmsprop'], ['a number', 2], ['null', null]], 'optimizer',
  (v) => trainSmall(model2, { optimizer: v }), 'optimizer');
each('seq2seqTrain', [...NOT_NUMBERS, ['NaN', NaN], ['0', 0], ['1001', 1001]], 'lr', (v) => trainSmall(model2, { lr: v }),
  'lr');
each('seq2seqTrain', [...NOT_NUMBERS, ['NaN', NaN], ['-1', -1], ['Infinity', Infinity]], 'clip',
  (v) => trainSmall(model2, { clip: v }), 'clip');
each('seq2seqTrain', [...NOT_NUMBERS, ...BAD_SEEDS], 'seed', (v) => trainSmall(model2, { seed: v }), 'seed');
each('seq2seqTrain', [['1', 1], ['null', null], ['a string', 'yes']], 'evaluateAtEnd',
  (v) => trainSmall(model2, { evaluateAtEnd: v }), 'evaluateAtEnd');
each('seq2seqTrain', [...BAD_COUNTS.filter(([, v]) => v !== 2 ** 31 && v !== 1e9)], 'optimizerState.step',
  (v) => trainSmall({ ...model2, optimizerState: { step: v } }), 'optimizerState.step');
row('seq2seqTrain', 'a step count that the steps would take past 2^53 - 1', () => trainSmall({ ...model2,
  optimizerState: { step: 2 ** 53 - 1 } }, { steps: 1 }), 'optimizerState.step');

// seq2seqTranslate(model, source, {maxLength, sourceLens})
for (const [architecture, model] of Object.entries(translators)) {
  const label = (what) => `${architecture}: ${what}`;
  const translate = (source, options) => api.seq2seqTranslate(model, source, options);
  each('seq2seqTranslate', [...NOT_ARRAYS, ['undefined', undefined]], label('source'), (v) => translate(v), 'source');
  each('seq2seqTranslate', BAD_ELEMENTS, label('source'), (v) => translate(v), 'source');
  each('seq2seqTranslate', [['empty', []], ['nine tokens for rows of eight', [3, 4, 5, 6, 7, 8, 9, 10, 2]],
    ['a token of the vocabulary\'s size', [13, 2]], ['a negative token', [-1, 2]], ['a fractional token', [3.5, 2]]],
  label('source'), (v) => translate(v), 'source');
  row('seq2seqTranslate', label('source over the limit'), () => translate(new Int32Array(translatorTokenLimit + 1)),
    'source', { over: true });
  row('seq2seqTranslate', label('a batch\'s source over the limit'), () => translate(new Int32Array(translatorTokenLimit + 1),
    { sourceLens: [1] }), 'source', { over: true });
  each('seq2seqTranslate', NOT_OPTIONS, label('options'), (v) => translate([3, 2], v), 'options');
  each('seq2seqTranslate', [...NOT_NUMBERS, ...BAD_COUNTS, ['0', 0], ['one over targetLength', 9]], label('maxLength'),
    (v) => translate([3, 2], { maxLength: v }), 'maxLength');
  each('seq2seqTranslate', [...NOT_ARRAYS.filter(([, v]) => v !== null), ...BAD_ELEMENTS, ['a length of 0', [0]],
    ['a length over the row', [9]], ['two lengths for one source', [1, 1]], ['no length', []]], label('sourceLens'),
  (v) => translate(pairs2.source.subarray(0, 8), { sourceLens: v }), 'sourceLens');
  row('seq2seqTranslate', label('a config of no task and no sizes'), () => api.seq2seqTranslate({ ...model,
    config: { ...model.config, task: null, sourceVocab: null, sourceLength: null, targetLength: null } }, [3, 2]),
  /^(sourceVocab|sourceLength)$/);
  row('seq2seqTranslate', label('a config whose task is unknown'), () => api.seq2seqTranslate({ ...model,
    config: { ...model.config, task: 'numbers', sourceLength: null } }, [3, 2]), 'task');
  row('seq2seqTranslate', label('a batch\'s source one short'), () => translate(pairs2.source.subarray(1),
    { sourceLens: pairs2.sourceLens }), /^(source|sourceLens)$/);
  // The config's sourceLength sizes the padding of a single source: checked before anything is sized by it,
  // with the task's sizes and without (2^31 - 1 once asked JS for an 8 GB Int32Array).
  for (const [what, config] of [['with its task', model.config], ['of sizes given', { ...model.config, ...sized }]]) {
    each('seq2seqTranslate', [...NON_FINITE, ['2**32 + 8', 2 ** 32 + 8], ['-1', -1], ['2**31 - 1', 2 ** 31 - 1], ['0', 0],
      ['2.5', 2.5], ['a string', '8']], label(`sourceLength of a config ${what}`),
    (v) => api.seq2seqTranslate({ ...model, config: { ...config, sourceLength: v } }, [3, 2]), 'sourceLength',
    { over: true });
  }
}

// seq2seqSourceFromText(task, text)
each('seq2seqSourceFromText', [...BAD_TASKS, ['undefined', undefined]], 'task',
  (v) => api.seq2seqSourceFromText(v, '12'), 'task');
each('seq2seqSourceFromText', [['a number', 12], ['null', null], ['undefined', undefined], ['an array', ['1', '2']],
  ['an object', {}], ['a boxed string', Object('12')], ['a symbol', Symbol('t')]], 'text',
(v) => api.seq2seqSourceFromText('reverse', v), 'text');
for (const [task, text] of [['reverse', ''], ['reverse', '   '], ['reverse', '12345678'], ['reverse', '1 2 x'],
  ['numbers-en-zh', '10000'], ['numbers-en-zh', 'four lakh'], ['numbers-zh-en', 'four'], ['dates', '2026-02-30'],
  ['dates', '2050-01-01'], ['dates', '25 Smarch 2026'], ['sort', '1\u00002'], ['reverse', '\uD800'],
  // A text whose eighth word comes after the first 64 characters: all of it is read.
  ['reverse', `1 2 3 4 5 6 7${' '.repeat(60)}8`],
  ['numbers-en-zh', `four thousand seven hundred${' '.repeat(40)}and eighty two three`]]) {
  row('seq2seqSourceFromText', `${task}: ${JSON.stringify(text).slice(0, 40)}`, () => api.seq2seqSourceFromText(task, text),
    'text');
}
// A refusal quotes the text as typed (never a word cut out of it), lone surrogates escaped as \uD800,
// the characters that reorder or hide text (bidi controls, zero-width ones) as \uNNNN.
for (const [task, typed, quote] of [
  ['numbers-zh-en', '\uD800四', "'\\uD800四'"], ['numbers-en-zh', '-4782', "'-4782'"], ['numbers-en-zh', '4782-', "'4782-'"],
  ['numbers-zh-en', '4-7-8-2', "'4-7-8-2'"], ['dates', '2026-11-25-', "'2026-11-25-'"], ['dates', 'x 2026', "'x 2026'"],
  ['reverse', '1\u202E2', "'1\\u202E2'"], ['sort', '\u200F3', "'\\u200F3'"], ['numbers-en-zh', 'four\u2066x', "'four\\u2066x'"],
  ['dates', '2026\u061C-01-01', "'2026\\u061C-01-01'"], ['reverse', '\uFEFF1', "'\\uFEFF1'"], ['reverse', '1\u00852', "'1\\u00852'"],
  ['numbers-en-zh', 'four\u200Bthousand', "'four\\u200Bthousand'"], ['numbers-en-zh', 'a\u2028b', "'a\\u2028b'"],
]) {
  row('seq2seqSourceFromText', `${task}: quotes ${JSON.stringify(typed)} as typed`, () => api.seq2seqSourceFromText(task, typed),
    'text', { detail: `got ${quote}` });
}
// Long refused texts: whole up to 200 characters (once cut at 40 bytes), past them the word at fault in view.
for (const [task, typed, shown] of [
  ['numbers-en-zh', 'four thousand seven hundred and eighty two wibble', "'four thousand seven hundred and eighty two wibble'"],
  ['numbers-zh-en', `${'四千七百'.repeat(12)}x`, `'${'四千七百'.repeat(12)}x'`],
  ['dates', `${'25 November '.repeat(16)}Smarch`, `'${'25 November '.repeat(16)}Smarch'`],
  ['reverse', `${'1 '.repeat(200)}x`, `'\u2026${' 1'.repeat(99)} x'`],
  ['sort', `${'\u{1F600}'.repeat(50)}${'1 '.repeat(100)}a`, `'${'\u{1F600}'.repeat(50)}${'1 '.repeat(75)}\u2026'`],
]) {
  row('seq2seqSourceFromText', `${task}: a long refused text, ${typed.length} code units`,
    () => api.seq2seqSourceFromText(task, typed), 'text', { detail: `got ${shown}` });
}
// A character of every general category (and the default-ignorable ones) among digits: the quote shows it, or
// its escape if it shows nothing or changes the text around it.
for (const [category, c] of [['Lu', 0x41], ['Ll', 0x61], ['Lt', 0x1C5], ['Lm', 0x2B0], ['Lo', 0x4E00], ['Mn', 0x301],
  ['Mc', 0x903], ['Me', 0x20DD], ['Nd', 0x661], ['Nl', 0x2160], ['No', 0xB2], ['Pc', 0x5F], ['Pd', 0x2D], ['Ps', 0x28],
  ['Pe', 0x29], ['Pi', 0xAB], ['Pf', 0xBB], ['Po', 0x21], ['Sm', 0x2B], ['Sc', 0x24], ['Sk', 0x5E], ['So', 0xA9],
  ['Zs', 0x3000], ['Zl', 0x2028], ['Zp', 0x2029], ['Cc', 0x85], ['Cf', 0xAD], ['Cs', 0xDC00], ['Co', 0xE000],
  ['Cn', 0x378], ['Default_Ignorable_Code_Point', 0x3164], ['a tag', 0xE0041], ['a variation selector', 0xE0100]]) {
  const ch = String.fromCodePoint(c);
  const hex = c.toString(16).toUpperCase().padStart(4, '0');
  const escaped = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u.test(ch);
  const shown = !escaped ? ch : c > 0xFFFF ? `\\u{${hex}}` : `\\u${hex}`;
  row('seq2seqSourceFromText', `reverse: U+${hex} (${category}) in a refused text`,
    () => api.seq2seqSourceFromText('reverse', `1${ch}2 x`), 'text', { detail: `got '1${shown}2 x'` });
}
row('seq2seqSourceFromText', 'a megabyte of text', () => api.seq2seqSourceFromText('reverse', '1'.repeat(1 << 20)),
  'text', { over: true, detail: 'got at least 1048576 bytes' });
row('seq2seqSourceFromText', 'a megabyte of spaces around a digit', () => api.seq2seqSourceFromText('reverse',
  `${' '.repeat(1 << 19)}1${' '.repeat(1 << 19)}`), 'text', { over: true });

// ---- running the table ----

test('the table covers every function of the API', () => {
  assert.deepEqual(Object.keys(api).sort(), [...API_FUNCTIONS, ...API_DATA].sort(),
    'the API changed: add its functions to API_FUNCTIONS and rows for them');
  for (const name of API_FUNCTIONS) assert.equal(typeof api[name], 'function', name);
  for (const name of API_DATA) assert.ok(Object.isFrozen(api[name]), `${name} is frozen`);
  const covered = new Set(rows.map((r) => r.fn));
  for (const name of API_FUNCTIONS.filter((n) => n !== 'memoryStats')) assert.ok(covered.has(name), `no rows for ${name}`);
});

// Runs a row: an Error naming the argument, in its message and in its
// fields, then correct results again.
function check({ call, argument, detail }) {
  let caught = null;
  try {
    call();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, 'expected an error, but the call returned');
  assert.ok(caught instanceof Error, `expected an Error, got ${typeof caught}: ${String(caught)}`);
  const colon = caught.message.indexOf(': ');
  const named = colon > 0 ? caught.message.slice(0, colon) : '';
  if (argument instanceof RegExp) {
    assert.match(named, argument, `expected the message to name ${argument}, got "${caught.message}"`);
  } else {
    assert.equal(named, argument, `expected the message to name ${argument}, got "${caught.message}"`);
  }
  // The field names the same argument, and the other fields agree with the message.
  assert.equal(caught.argument, named, `the argument field of "${caught.message}"`);
  assertErrorFields(caught);
  assert.ok(caught.message.length <= 400, `the message is ${caught.message.length} characters long`);
  if (detail !== undefined) assert.ok(caught.message.includes(detail), `expected "${detail}" in "${caught.message}"`);
  assertStillWorks();
}

// Over-limit rows first, while the wasm heap is at its initial size.
const overRows = rows.filter((r) => r.over);
test(`${overRows.length} sizes over the documented limits are refused before anything is allocated`, async (t) => {
  for (const r of overRows) {
    await t.test(`${r.fn}: ${r.what}`, () => {
      const before = api.memoryStats();
      check(r);
      const after = api.memoryStats();
      assert.equal(after.heapBytes, before.heapBytes, 'the wasm heap grew');
      assert.equal(after.allocatedBytes, before.allocatedBytes, 'malloc holds more bytes than before');
    });
  }
});

test(`${rows.length - overRows.length} bad arguments throw an Error naming the argument; the module keeps working`, async (t) => {
  for (const r of rows.filter((x) => !x.over)) await t.test(`${r.fn}: ${r.what}`, () => check(r));
});

test('memoryStats takes no arguments and ignores any it is given', () => {
  for (const junk of [NaN, 'x', null, {}, 1n, Symbol('m')]) {
    const stats = api.memoryStats(junk);
    assert.equal(typeof stats.allocatedBytes, 'number');
    assert.ok(Number.isInteger(stats.heapBytes) && stats.heapBytes > 0);
  }
  assertStillWorks();
});

test('no memory is held after all the refusals', () => {
  const before = api.memoryStats().allocatedBytes;
  for (const r of rows) {
    try {
      r.call();
    } catch {
      // expected
    }
  }
  assert.equal(api.memoryStats().allocatedBytes, before);
});

// Rebuilds the arrays of a layer's arguments for a new shape (filled with
// small numbers), so only the shape's own limits can refuse it.
function resize(fn, args, shape) {
  const sized = (n) => grid(Math.min(n, 2 ** 27)); // never more than 1 GB here, whatever the shape
  const { batch, nq, nk } = shape;
  if (fn === 'additiveAttention') {
    const { dq, dk, dv, h } = shape;
    return { ...args, shape, queries: sized(batch * nq * dq), keys: sized(batch * nk * dk), values: sized(batch * nk * dv),
      Wq: sized(h * dq), Wk: sized(h * dk), wv: sized(h) };
  }
  if (fn === 'dotProductAttention') {
    const { d, dv } = shape;
    return { ...args, shape, queries: sized(batch * nq * d), keys: sized(batch * nk * d), values: sized(batch * nk * dv) };
  }
  const { hidden } = shape;
  return { ...args, shape, queries: sized(batch * nq * hidden), keys: sized(batch * nk * hidden),
    values: sized(batch * nk * hidden), Wq: sized(hidden * hidden), Wk: sized(hidden * hidden),
    Wv: sized(hidden * hidden), Wo: sized(hidden * hidden) };
}
