// The data set through the JS API: bit for bit the references (Python) and the
// native build (dataset_dump); truth(); bad options.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';

import {
  api, assertArgumentError, assertClose, assertSameBits, f64, fromHex, references, toHex,
} from './helpers.mjs';

test('toHex and fromHex speak Python float.hex()', () => {
  assert.equal(toHex(1), '0x1.0000000000000p+0');
  assert.equal(toHex(-0), '-0x0.0p+0');
  assert.equal(toHex(0.1), '0x1.999999999999ap-4');
  assert.equal(toHex(Number.MIN_VALUE), '0x0.0000000000001p-1022');
  assert.equal(toHex(Number.MAX_VALUE), '0x1.fffffffffffffp+1023');
  for (const v of [0.1, -3.75, 1e-310, 6.02e23, -0, 5e-324, Math.PI]) assert.ok(Object.is(fromHex(toHex(v)), v));
  assert.throws(() => fromHex('0.5'));
});

test('makeDataset draws the reference data sets bit for bit', () => {
  for (const c of references.datasets) {
    const label = `n=${c.n} seed=${c.seed} noise=${c.noise} xMax=${c.xMax}`;
    const { x, y } = api.makeDataset({ n: c.n, seed: c.seed, noise: c.noise, xMax: c.xMax });
    assert.ok(x instanceof Float64Array && y instanceof Float64Array);
    assert.deepEqual(Array.from(x, toHex), c.x, `${label}: x`);
    assert.deepEqual(Array.from(y, toHex), c.y, `${label}: y`);
  }
});

test('makeDataset in wasm equals the native build bit for bit (dataset_dump)', () => {
  const dump = process.env.ATTENTION_DATASET_DUMP;
  assert.ok(dump, 'ATTENTION_DATASET_DUMP is not set: run this test through ctest (cmake --workflow --preset web)');
  assert.ok(existsSync(dump),
    `native dataset_dump not found at ${dump}: build the native preset first (cmake --workflow --preset native)`);
  // Its fixed list: the references' data sets plus larger and unusual ones.
  const native = JSON.parse(execFileSync(dump, { encoding: 'utf8', maxBuffer: 64 << 20 })).datasets;
  assert.ok(native.length >= 9);
  assert.ok(native.some((d) => d.n === 10000), 'the list covers the largest data set');
  // And a list given on the command line.
  const asked = ['7,3,0.25,2', '2500,4000000000,1.5,12.5', '10000,0,0,1000'];
  const more = JSON.parse(execFileSync(dump, asked, { encoding: 'utf8', maxBuffer: 64 << 20 })).datasets;
  assert.equal(more.length, asked.length);
  for (const d of [...native, ...more]) {
    const label = `n=${d.n} seed=${d.seed} noise=${d.noise} xMax=${d.xMax}`;
    const { x, y } = api.makeDataset({ n: d.n, seed: d.seed, noise: d.noise, xMax: d.xMax });
    assert.equal(x.length, d.n, label);
    assert.deepEqual(Array.from(x, toHex), d.x, `${label}: x`);
    assert.deepEqual(Array.from(y, toHex), d.y, `${label}: y`);
  }
});

test('makeDataset: defaults, determinism, sorted inputs', () => {
  const byDefault = api.makeDataset();
  const book = references.datasets[0]; // n 50, seed 0, noise 0.5, xMax 5: the defaults
  assertSameBits(byDefault.x, f64(book.x), 'x');
  assertSameBits(byDefault.y, f64(book.y), 'y');
  const a = api.makeDataset({ n: 300, seed: 11 });
  const b = api.makeDataset({ n: 300, seed: 11 });
  const c = api.makeDataset({ n: 300, seed: 12 });
  assertSameBits(a.y, b.y, 'same seed');
  assert.notDeepEqual(Array.from(a.y), Array.from(c.y));
  for (let i = 1; i < a.x.length; i += 1) assert.ok(a.x[i - 1] <= a.x[i]);
  assert.ok(a.x[0] >= 0 && a.x[a.x.length - 1] < 5);
});

test('truth matches torch and the portable functions', () => {
  const t = references.truth;
  const y = api.truth(f64(t.x));
  assertClose(y, t.y, 1e-13, 'truth vs torch');
  assertSameBits(y, f64(t.portable), 'truth vs Python');
  assert.equal(api.truth([]).length, 0);
  assertSameBits(api.truth([0, 1, 2]), api.truth(new Float64Array([0, 1, 2])), 'plain arrays');
});

test('makeDataset refuses bad options, naming them', () => {
  const call = (options) => () => api.makeDataset(options);
  assertArgumentError(call({ n: 0 }), 'n', 'got 0');
  assertArgumentError(call({ n: 10001 }), 'n', '[1, 10000], got 10001');
  assertArgumentError(call({ n: 1e12 }), 'n');
  assertArgumentError(call({ n: -1 }), 'n');
  assertArgumentError(call({ n: 2.5 }), 'n', 'whole number');
  assertArgumentError(call({ n: NaN }), 'n', 'NaN');
  assertArgumentError(call({ n: Infinity }), 'n', 'Infinity');
  assertArgumentError(call({ n: '50' }), 'n', 'expected a number, got String');
  assertArgumentError(call({ n: null }), 'n', 'got null');
  assertArgumentError(call({ seed: -1 }), 'seed', '[0, 4294967295], got -1');
  assertArgumentError(call({ seed: 4294967296 }), 'seed');
  assertArgumentError(call({ seed: 0.5 }), 'seed');
  assertArgumentError(call({ seed: NaN }), 'seed');
  assertArgumentError(call({ seed: '1' }), 'seed');
  assertArgumentError(call({ noise: -0.5 }), 'noise', '[0, 100], got -0.5');
  assertArgumentError(call({ noise: 101 }), 'noise');
  assertArgumentError(call({ noise: NaN }), 'noise', 'NaN');
  assertArgumentError(call({ noise: Infinity }), 'noise', 'Infinity');
  assertArgumentError(call({ noise: [0.5] }), 'noise', 'an array');
  assertArgumentError(call({ xMax: 0 }), 'xMax', 'positive');
  assertArgumentError(call({ xMax: -5 }), 'xMax');
  assertArgumentError(call({ xMax: 1000.5 }), 'xMax', '[0, 1000]');
  assertArgumentError(call({ xMax: -Infinity }), 'xMax');
  assertArgumentError(call({ xMax: {} }), 'xMax', 'Object');
  assertArgumentError(call(null), 'options', 'got null');
  assertArgumentError(call(7), 'options');
});

test('truth refuses bad inputs, naming x', () => {
  assertArgumentError(() => api.truth([1, -2]), 'x', 'got -2');
  assertArgumentError(() => api.truth([NaN]), 'x', 'NaN');
  assertArgumentError(() => api.truth([Infinity]), 'x', 'Infinity');
  assertArgumentError(() => api.truth(['1']), 'x', 'got String at index 0');
  assertArgumentError(() => api.truth([1, null]), 'x', 'got null at index 1');
  assertArgumentError(() => api.truth(null), 'x', 'got null');
  assertArgumentError(() => api.truth(undefined), 'x');
  assertArgumentError(() => api.truth('1,2'), 'x', 'String');
  assertArgumentError(() => api.truth(3), 'x');
  assertArgumentError(() => api.truth(new Float64Array(10001)), 'x', 'at most 10000');
});
