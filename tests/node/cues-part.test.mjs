// The page's first part of the core, the cues' (wasm/cues_bindings.cpp):
// its own module with the four functions the cues section calls and the
// contract, built from the same sources as the basics, which bind them too.
// Both modules are loaded as the build made them (this package's one file
// gives the cues' specifier the basics' module) and called alike: the same
// numbers bit for bit, the same contract, the same errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';

const load = async (variable) => {
  const file = process.env[variable];
  assert.ok(file, `${variable}: the path of the part's Emscripten module (set by tests/node/CMakeLists.txt)`);
  const { default: create } = await import(pathToFileURL(file).href);
  return create();
};
const cues = await load('ATTENTION_CUES_PART');
const basics = await load('ATTENTION_BASICS_PART');

const CUES_FUNCTIONS = ['averagePool', 'maskedSoftmax', 'batchMatrixProduct', 'randomUniform'];
const ERROR_RECORD = Symbol.for('attention-core.error');
const sameBits = (a, b, label) => {
  assert.equal(a.length, b.length, `${label}: length`);
  for (let i = 0; i < a.length; i += 1) assert.ok(Object.is(a[i], b[i]), `${label}[${i}]: ${a[i]} vs ${b[i]}`);
};

test('the cues\' part binds its four functions, the contract and the memory figures, and none of the basics\' others', () => {
  for (const name of [...CUES_FUNCTIONS, 'contract', 'memoryStats']) {
    assert.equal(typeof cues[name], 'function', `the cues' part binds ${name}`);
    assert.equal(typeof basics[name], 'function', `the basics bind ${name}`);
  }
  for (const name of ['makeDataset', 'attentionWeights', 'nadarayaWatson', 'maskScores', 'multiHeadAttention', 'randomNormal']) {
    assert.equal(typeof basics[name], 'function', `the basics bind ${name}`);
    assert.equal(cues[name], undefined, `the cues' part leaves ${name} to the basics`);
  }
});

test('the same contract: every limit and default', () => {
  assert.deepEqual(cues.contract(), basics.contract());
});

test('the same numbers, bit for bit, as the cues section asks for them', () => {
  const draws = (module) => module.randomUniform(11, 3, 0, 10);
  sameBits(draws(cues), draws(basics), 'randomUniform');
  const values = draws(cues).subarray(0, 10);
  sameBits(cues.averagePool(values, 4), basics.averagePool(values, 4), 'averagePool');
  const scores = cues.randomUniform(2 * 3 * 5, 8, -4, 4);
  const lens = Int32Array.of(2, 5);
  sameBits(cues.maskedSoftmax(scores, 2, 3, 5, lens), basics.maskedSoftmax(scores, 2, 3, 5, lens), 'maskedSoftmax');
  const x = cues.randomUniform(2 * 3 * 4, 9, -1, 1);
  const y = cues.randomUniform(2 * 4 * 5, 10, -1, 1);
  const product = (module) => module.batchMatrixProduct(x, y, [2, 3, 4], [2, 4, 5]);
  const [a, b] = [product(cues), product(basics)];
  assert.deepEqual(a.shape, [2, 3, 5]);
  sameBits(a.values, b.values, 'batchMatrixProduct');
});

test('the same errors, naming the argument; the part works on after one', () => {
  const refused = (module) => module.batchMatrixProduct(new Float64Array(5), new Float64Array(6), [1, 2, 3], [1, 3, 2]);
  const [a, b] = [refused(cues), refused(basics)];
  assert.equal(a[ERROR_RECORD], true);
  assert.equal(a.argument, 'X');
  assert.deepEqual({ ...a }, { ...b });
  assert.equal(cues.averagePool(Float64Array.of(1, 2, 3), 2).length, 2);
});
