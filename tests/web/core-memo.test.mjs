// The memoised core (web/src/core-memo.js): a call with the same arguments
// is answered from memory, any other argument asks the core again, and a
// failed call is never remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callKey, memoizeCore } from '../../web/src/core-memo.js';

function countingCore() {
  const calls = [];
  const core = {
    makeDataset: (options) => {
      calls.push(['makeDataset', options]);
      return { x: new Float64Array([options.n]), y: new Float64Array([options.seed]) };
    },
    attentionWeights: (queries, keys, options) => {
      calls.push(['attentionWeights', options]);
      if (options?.w < 0) throw new Error('w: expected a width >= 0');
      return options?.out ?? new Float64Array(queries.length * keys.length);
    },
    memoryStats: () => ({ allocatedBytes: 0 }),
  };
  return { core, calls };
}

test('the same arguments give the same result object, with one call to the core', () => {
  const { core, calls } = countingCore();
  const memo = memoizeCore(core);
  const first = memo.makeDataset({ n: 50, noise: 0.5, seed: 0, xMax: 5 });
  const again = memo.makeDataset({ seed: 0, xMax: 5, n: 50, noise: 0.5 }); // key order does not matter
  assert.equal(again, first);
  assert.equal(calls.length, 1);
  const other = memo.makeDataset({ n: 51, noise: 0.5, seed: 0, xMax: 5 });
  assert.notEqual(other, first);
  assert.equal(calls.length, 2);
});

test('typed arrays are compared by identity, plain arrays by value', () => {
  const { core, calls } = countingCore();
  const memo = memoizeCore(core);
  const keys = new Float64Array([1, 2, 3]);
  memo.attentionWeights([0], keys, { kernel: 'gaussian', w: 1 });
  memo.attentionWeights([0], keys, { kernel: 'gaussian', w: 1 });
  assert.equal(calls.length, 1, 'same plain array values, same typed array object');
  memo.attentionWeights([0], new Float64Array([1, 2, 3]), { kernel: 'gaussian', w: 1 });
  assert.equal(calls.length, 2, 'an equal but other typed array is another call');
  memo.attentionWeights([0.5], keys, { kernel: 'gaussian', w: 1 });
  assert.equal(calls.length, 3);
});

test('a failed call throws every time and is not remembered', () => {
  const { core, calls } = countingCore();
  const memo = memoizeCore(core);
  assert.throws(() => memo.attentionWeights([0], [1], { w: -1 }), /w: expected/);
  assert.throws(() => memo.attentionWeights([0], [1], { w: -1 }), /w: expected/);
  assert.equal(calls.length, 2);
});

test('a call with an out array always reaches the core (it writes into its argument)', () => {
  const { core, calls } = countingCore();
  const memo = memoizeCore(core);
  const out = new Float64Array(1);
  assert.equal(memo.attentionWeights([0], [1], { w: 1, out }), out);
  assert.equal(memo.attentionWeights([0], [1], { w: 1, out }), out);
  assert.equal(calls.length, 2);
});

test('only the last few calls are kept, the most recently used last out', () => {
  const { core, calls } = countingCore();
  const memo = memoizeCore(core);
  const ask = (n) => memo.makeDataset({ n, noise: 0, seed: 0, xMax: 5 });
  for (const n of [1, 2, 3, 4]) ask(n);
  ask(1); // used again: now the most recent
  ask(5); // evicts 2, the least recently used
  const before = calls.length;
  ask(1);
  assert.equal(calls.length, before, '1 is still remembered');
  ask(2);
  assert.equal(calls.length, before + 1, '2 was forgotten');
});

test('functions that are not pure pass through untouched', () => {
  const { core } = countingCore();
  const memo = memoizeCore(core);
  assert.equal(memo.memoryStats, core.memoryStats);
  assert.throws(() => {
    memo.extra = 1;
  }, TypeError, 'the memoised core is frozen');
});

test('call keys: -0 differs from 0, strings from numbers, and functions are not comparable', () => {
  assert.notEqual(callKey([0]), callKey([-0]));
  assert.notEqual(callKey(['1']), callKey([1]));
  assert.equal(callKey([{ a: 1, b: [2] }]), callKey([{ b: [2], a: 1 }]));
  assert.equal(callKey([() => 1]), undefined);
  assert.equal(callKey([{ f: Symbol('s') }]), undefined);
});
