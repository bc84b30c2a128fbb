// How the JS API reads the caller's objects: typed arrays through their
// internal slots (an own `length`, a subclass or a Proxy cannot lie), arrays
// once, index by index (never through an iterator), and whatever the
// caller's own code throws while being read reported under the argument's
// name. Each case is a bug once found: it must give the correct result or an
// Error naming the argument, leave memoryStats() exactly as it was (malloc's
// live bytes and Embind's live handles), and leave the module working.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertArgumentError, assertStillWorks } from './helpers.mjs';

const grid = (n) => Float64Array.from({ length: n }, (_, i) => (5 * i) / n);

// Runs `body` and checks that malloc and Embind hold what they held before.
function unchangedMemory(body) {
  const before = api.memoryStats();
  const result = body();
  const after = api.memoryStats();
  assert.equal(after.allocatedBytes, before.allocatedBytes, 'malloc holds more bytes than before');
  assert.equal(after.liveHandles, before.liveHandles, 'Embind holds more JS values than before');
  return result;
}

// Calls that must throw an Error naming `argument`, with memory unchanged.
function refused(call, argument, detail) {
  unchangedMemory(() => assertArgumentError(call, argument, detail));
}

test('an own length on a Float64Array is not believed: the real elements are used', () => {
  const x = grid(1000);
  const expected = api.truth(x);
  const shorter = grid(1000);
  Object.defineProperty(shorter, 'length', { value: 3 }); // used to write 997 doubles past C++'s buffer
  assert.deepEqual(unchangedMemory(() => api.truth(shorter)), expected);
  const longer = Float64Array.of(1);
  Object.defineProperty(longer, 'length', { value: 4 }); // used to return stale heap data
  assert.deepEqual(Array.from(unchangedMemory(() => api.truth(longer))), Array.from(api.truth([1])));
  assertStillWorks();
});

test('a subclass that lies about its length or overrides its methods gives the real elements', () => {
  class Lying extends Float64Array {
    get length() { return 2; }
    set() { throw new Error('not called'); }
    [Symbol.iterator]() { throw new Error('not called'); }
  }
  const keys = Lying.from(grid(6));
  const plain = api.nadarayaWatson([1, 2], grid(6), grid(6));
  assert.deepEqual(unchangedMemory(() => api.nadarayaWatson([1, 2], keys, keys)), plain);
  assertStillWorks();
});

test('whole numbers (valid lengths, tokens) in a lying Float64Array subclass are checked in a copy', () => {
  class Lying extends Float64Array {
    get length() { return 1; }
    forEach() { throw new Error('not called'); }
    [Symbol.iterator]() { throw new Error('not called'); }
  }
  const weights = api.maskedSoftmax(grid(8), [2, 1, 4], Lying.from([1, 3]));
  assert.deepEqual(weights, api.maskedSoftmax(grid(8), [2, 1, 4], [1, 3]));
  const model = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
  const tokens = Lying.from([1, 2, 3, 4]);
  assert.deepEqual(unchangedMemory(() => api.attentionModelForward(model, tokens)),
    api.attentionModelForward(model, [1, 2, 3, 4]));
  refused(() => api.attentionModelForward(model, Lying.from([1, 2, 3, 5])), 'tokens', 'index 3');
  assertStillWorks();
});

test('a Proxy of a typed array is refused by name, and leaks no Embind handle', () => {
  for (let i = 0; i < 100; i += 1) refused(() => api.truth(new Proxy(grid(3), {})), 'x', 'got Object');
  const { proxy, revoke } = Proxy.revocable([1, 2], {});
  revoke();
  refused(() => api.truth(proxy), 'x');
});

test('a Proxy of an array is read once per element, even when a getter grows the wasm memory', () => {
  const values = [0.5, 1.5, 2.5];
  let reads = 0;
  const growing = new Proxy(values, {
    get(target, key) {
      if (key !== 'length') {
        reads += 1;
        api.positionalEncoding(4000, 512); // 16 MB: grows the wasm memory mid-read
      }
      return target[key];
    },
  });
  const heapBefore = api.memoryStats().heapBytes;
  const result = api.truth(growing);
  assert.equal(reads, 3, 'each element read exactly once');
  assert.ok(api.memoryStats().heapBytes > heapBefore, 'the getter did grow the memory');
  assert.deepEqual(result, api.truth(values)); // used to be zeros
  assertStillWorks();
});

test('an array with its own iterator is read by index: what is checked is what is used', () => {
  const checked = [1, 2, 3];
  checked[Symbol.iterator] = function* more() { yield* [1, 2, 3, 4, 5]; };
  assert.equal(api.truth(checked).length, 3);
  const sneaky = [1, 2, 3];
  sneaky[Symbol.iterator] = function* strings() { yield* ['a', 'b', 'c']; };
  assert.deepEqual(api.truth(sneaky), api.truth([1, 2, 3]));
});

test('what the caller\'s code throws while being read is reported under the argument\'s name', () => {
  const boom = new Error('boom');
  const throwingLength = new Proxy([1, 2], { get: (t, k) => { if (k === 'length') throw boom; return t[k]; } });
  const throwingElement = [1, 2, 3];
  Object.defineProperty(throwingElement, 1, { get() { throw boom; } });
  // 1,000 calls each: once these left 88 bytes and 3 Embind handles behind per call.
  for (let i = 0; i < 1000; i += 1) {
    refused(() => api.attentionWeights(throwingLength, [1, 2]), 'queries', 'an exception (Error: boom)');
    refused(() => api.attentionWeights([1, 2], throwingElement), 'keys');
  }
  let caught = null;
  try {
    api.truth(throwingLength);
  } catch (error) {
    caught = error;
  }
  assert.equal(caught.cause, boom, 'the original exception is the cause');
  // Options and shape fields are read under their own names.
  const throwingOption = { get w() { throw boom; } };
  refused(() => api.nadarayaWatson([1], [1, 2], [3, 4], throwingOption), 'w');
  const shape = { batch: 1, nq: 1, get nk() { throw boom; }, d: 1, dv: 1 };
  refused(() => api.dotProductAttention({ queries: [1], keys: [1], values: [1], shape }), 'shape.nk');
  const args = new Proxy({}, { get() { throw boom; } });
  refused(() => api.dotProductAttention(args), 'queries');
  assertStillWorks();
});

test('a getter that calls the API again is answered correctly', () => {
  const reentrant = [0, 0, 0];
  Object.defineProperty(reentrant, 1, { get: () => api.truth([2])[0] });
  assert.deepEqual(api.truth(reentrant), api.truth([0, api.truth([2])[0], 0]));
});

test('an array-like that claims an impossible length is refused before anything is allocated', () => {
  for (const length of [2 ** 27 + 1, 2 ** 53, Infinity, -1, 1.5, '3', 3n]) {
    const liar = new Proxy([], { get: (t, k) => (k === 'length' ? length : 0) });
    refused(() => api.truth(liar), 'x', 'an array of at most');
  }
});

test('typed arrays on a detached buffer are refused by name, not read as empty', () => {
  const detached = () => {
    const array = grid(4);
    structuredClone(array.buffer, { transfer: [array.buffer] });
    return array;
  };
  refused(() => api.truth(detached()), 'x', 'a detached Float64Array');
  const lens = new Int32Array(1);
  structuredClone(lens.buffer, { transfer: [lens.buffer] });
  refused(() => api.maskedSoftmax(grid(4), [1, 1, 4], lens), 'validLens', 'a detached Int32Array');
  refused(() => api.attentionWeights([1, 2], [1, 2], { out: detached() }), 'out', 'a detached Float64Array');
});

test('a DataView is no list of valid lengths', () => {
  refused(() => api.maskedSoftmax(grid(4), [1, 1, 4], new DataView(new ArrayBuffer(8))), 'validLens', 'got DataView');
});

test('out: the caller\'s array gets the weights, whatever its own length or set say', () => {
  const expected = api.attentionWeights([1, 2], [1, 2, 3]);
  const throwingSet = new Float64Array(6);
  throwingSet.set = () => { throw new Error('boom'); };
  for (let i = 0; i < 1000; i += 1) {
    assert.equal(unchangedMemory(() => api.attentionWeights([1, 2], [1, 2, 3], { out: throwingSet })), throwingSet);
  }
  assert.deepEqual(Array.from(throwingSet), Array.from(expected));
  const lyingLength = new Float64Array(6);
  Object.defineProperty(lyingLength, 'length', { value: 1000 });
  api.attentionWeights([1, 2], [1, 2, 3], { out: lyingLength });
  assert.deepEqual(Array.from(new Float64Array(lyingLength.buffer)), Array.from(expected));
  const tooShort = new Float64Array(5);
  Object.defineProperty(tooShort, 'length', { value: 6 }); // used to throw a RangeError naming nothing
  refused(() => api.attentionWeights([1, 2], [1, 2, 3], { out: tooShort }), 'out', 'got 5');
  refused(() => api.attentionWeights([1, 2], [1, 2, 3], { out: new Proxy(new Float64Array(6), {}) }), 'out');
});

test('headMask is null (every head) or exactly one factor per head', () => {
  const args = {
    queries: grid(4), keys: grid(4), values: grid(4), shape: { batch: 1, nq: 2, nk: 2, hidden: 2, heads: 2 },
    Wq: grid(4), Wk: grid(4), Wv: grid(4), Wo: grid(4),
  };
  refused(() => api.multiHeadAttention({ ...args, headMask: new Float64Array(2000) }), 'headMask',
    'expected null or 2 factors (one per head), got 2000');
  refused(() => api.multiHeadAttention({ ...args, headMask: [] }), 'headMask', 'got 0'); // used to mean no mask
  const all = api.multiHeadAttention(args);
  assert.deepEqual(api.multiHeadAttention({ ...args, headMask: null }), all);
  assert.deepEqual(api.multiHeadAttention({ ...args, headMask: [1, 1] }), all);
});
