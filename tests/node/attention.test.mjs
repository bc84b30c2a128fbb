// Masked softmax, additive, scaled dot-product and multi-head attention and
// positional encoding through the JS API, against the d2l layers in PyTorch;
// bad inputs and shapes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertArgumentError, assertClose, f64, flat, references } from './helpers.mjs';

const additiveArgs = (c) => ({
  queries: f64(c.queries), keys: f64(c.keys), values: f64(c.values), shape: { ...c.shape },
  Wq: f64(c.Wq), Wk: f64(c.Wk), wv: f64(c.wv), validLens: flat(c.validLens),
});
const dotArgs = (c) => ({
  queries: f64(c.queries), keys: f64(c.keys), values: f64(c.values), shape: { ...c.shape },
  validLens: flat(c.validLens),
});
const multiHeadArgs = (model, c) => ({
  ...dotArgs(c), Wq: f64(model.Wq), Wk: f64(model.Wk), Wv: f64(model.Wv), Wo: f64(model.Wo),
  headMask: c.headMask === null ? null : f64(c.headMask),
});

test('maskedSoftmax matches d2l\'s masked_softmax (zero rows for valid length 0)', () => {
  for (const c of references.maskedSoftmax) {
    assertClose(api.maskedSoftmax(f64(c.scores), c.shape, flat(c.validLens)), c.weights, 1e-9, c.name);
    // Plain arrays work as well as typed ones.
    if (c.validLens) {
      assertClose(api.maskedSoftmax(c.scores, c.shape, c.validLens.flat()), c.weights, 1e-9, `${c.name} (arrays)`);
    }
  }
  assertClose(api.maskedSoftmax([1, 2, 3, 4], [1, 1, 4]), api.maskedSoftmax([1, 2, 3, 4], [1, 1, 4], null), 0);
});

// The valid length of each (batch item, query) row by d2l's rule: none -> nk,
// 1-D -> the item's, 2-D -> the row's own.
function rowLengthsOf({ shape: [batch, nq, nk], validLens }) {
  if (validLens === null) return new Array(batch * nq).fill(nk);
  if (!Array.isArray(validLens[0])) return validLens.flatMap((length) => new Array(nq).fill(length));
  return validLens.flat();
}

test('maskScores masks like d2l: -1e6 from each row\'s valid length on', () => {
  for (const c of references.maskedSoftmax) {
    const [, , nk] = c.shape;
    const scores = f64(c.scores);
    const { maskedScores, masked, rowLengths } = api.maskScores(scores, c.shape, flat(c.validLens));
    assert.ok(maskedScores instanceof Float64Array && masked instanceof Uint8Array && rowLengths instanceof Int32Array);
    const expectedLengths = rowLengthsOf(c);
    assert.deepEqual(Array.from(rowLengths), expectedLengths, `${c.name}: rowLengths`);
    assert.equal(masked.length, scores.length);
    for (let i = 0; i < scores.length; i += 1) {
      const isMasked = i % nk >= expectedLengths[Math.floor(i / nk)];
      assert.equal(masked[i], isMasked ? 1 : 0, `${c.name}: masked[${i}]`);
      assert.ok(Object.is(maskedScores[i], isMasked ? -1e6 : scores[i]), `${c.name}: maskedScores[${i}]`);
    }
    // d2l's masked_softmax is the plain softmax of the masked scores: PyTorch's
    // weights on every row with a valid key; uniform on a row of length 0,
    // where the lab's maskedSoftmax gives zeros.
    const book = api.maskedSoftmax(maskedScores, c.shape);
    const reference = f64(c.weights);
    let emptyRows = 0;
    for (let row = 0; row < rowLengths.length; row += 1) {
      const part = (array) => array.subarray(row * nk, (row + 1) * nk);
      if (rowLengths[row] === 0) {
        emptyRows += 1;
        assertClose(part(book), new Float64Array(nk).fill(1 / nk), 1e-15, `${c.name} row ${row} (d2l: uniform)`);
        assert.ok(part(reference).every((w) => w === 0), `${c.name} row ${row}: the lab's zeros`);
      } else {
        assertClose(part(book), part(reference), 1e-9, `${c.name} row ${row}`);
      }
    }
    if (c.name.startsWith('valid length 0')) assert.ok(emptyRows > 0, `${c.name} has rows of length 0`);
  }
});

test('maskScores: plain arrays, no lengths, one query per item', () => {
  const none = api.maskScores([3, 1, 2, 5, 4, 6], [2, 1, 3]);
  assert.deepEqual(Array.from(none.maskedScores), [3, 1, 2, 5, 4, 6]);
  assert.deepEqual(Array.from(none.masked), [0, 0, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(none.rowLengths), [3, 3]);
  const lens = api.maskScores([3, 1, 2, 5, 4, 6], [2, 1, 3], Int32Array.of(0, 2));
  assert.deepEqual(Array.from(lens.maskedScores), [-1e6, -1e6, -1e6, 5, 4, -1e6]);
  assert.deepEqual(Array.from(lens.rowLengths), [0, 2]);
});

test('maskScores refuses what maskedSoftmax refuses, with the same errors', () => {
  const scores = new Float64Array(24); // 2 x 3 x 4
  const bad = [
    [scores, [2, 3, 5], null], [scores, [2, 3], null], [scores, [2, 3, 4.5], null], [scores, [0, 3, 4], null],
    [scores, [2, 3, 4], [2, 5]], [scores, [2, 3, 4], [1, 2, 3]], [scores, [2, 3, 4], [2, '3']],
    [[1, NaN, 3, 4], [1, 1, 4], null], [scores, [64, 600, 600], null],
  ];
  for (const args of bad) {
    let ours = null;
    let theirs = null;
    try { api.maskScores(...args); } catch (error) { ours = error; }
    try { api.maskedSoftmax(...args); } catch (error) { theirs = error; }
    assert.ok(ours && theirs, `both refuse ${JSON.stringify(args.slice(1))}`);
    assert.deepEqual({ message: ours.message, ...ours }, { message: theirs.message, ...theirs });
  }
  assertArgumentError(() => api.maskScores(scores, [2, 3, 4], [2, 5]), 'validLens', '[0, 4] (nk), got 5 at index 1');
});

test('additiveAttention matches d2l\'s AdditiveAttention', () => {
  for (const c of references.additiveAttention) {
    const { output, weights } = api.additiveAttention(additiveArgs(c));
    assertClose(weights, c.weights, 1e-9, `${c.name} weights`);
    assertClose(output, c.output, 1e-9, `${c.name} output`);
  }
});

test('dotProductAttention matches d2l\'s DotProductAttention', () => {
  for (const c of references.dotProductAttention) {
    const { output, weights } = api.dotProductAttention(dotArgs(c));
    assertClose(weights, c.weights, 1e-9, `${c.name} weights`);
    assertClose(output, c.output, 1e-9, `${c.name} output`);
  }
});

test('multiHeadAttention matches d2l\'s MultiHeadAttention', () => {
  let cases = 0;
  for (const model of references.multiHeadAttention) {
    for (const c of model.cases) {
      const { output, weights } = api.multiHeadAttention(multiHeadArgs(model, c));
      assert.equal(weights.length, c.shape.batch * model.heads * c.shape.nq * c.shape.nk);
      assertClose(weights, c.weights, 1e-9, `${c.name} weights`);
      assertClose(output, c.output, 1e-9, `${c.name} output`);
      cases += 1;
    }
  }
  assert.equal(cases, 8);
});

test('multiHeadAttention: a head mask of ones changes nothing, zeros silence the output', () => {
  const model = references.multiHeadAttention[1];
  const args = multiHeadArgs(model, model.cases[1]);
  const plain = api.multiHeadAttention(args);
  assertClose(api.multiHeadAttention({ ...args, headMask: [1, 1, 1] }).output, plain.output, 0, 'ones');
  const silent = api.multiHeadAttention({ ...args, headMask: new Float64Array(3) });
  assert.ok(silent.output.every((v) => v === 0));
  assertClose(silent.weights, plain.weights, 0, 'weights');
});

test('positionalEncoding matches d2l\'s PositionalEncoding', () => {
  for (const c of references.positionalEncoding) {
    assertClose(api.positionalEncoding(c.maxLen, c.dim), c.P, 1e-9, `${c.maxLen} x ${c.dim}`);
  }
});

test('maskedSoftmax refuses bad inputs, naming them', () => {
  const scores = new Float64Array(24); // 2 x 3 x 4
  const ms = (s, shape, lens) => () => api.maskedSoftmax(s, shape, lens);
  assertArgumentError(ms(scores, [2, 3, 5]), 'scores', 'expected 30 numbers for its shape, got 24');
  assertArgumentError(ms(scores, [2, 3]), 'shape', 'expected [batch, nq, nk]');
  assertArgumentError(ms(scores, { batch: 2, nq: 3, nk: 4 }), 'shape');
  assertArgumentError(ms(scores, null), 'shape', 'null');
  assertArgumentError(ms(scores, [2, 3, 4.5]), 'shape[2] (nk)', 'whole number');
  assertArgumentError(ms(scores, ['2', 3, 4]), 'shape[0] (batch)', 'String');
  assertArgumentError(ms(scores, [2, -3, -4]), 'shape[1] (nq)');
  assertArgumentError(ms(scores, [2, NaN, 4]), 'shape[1] (nq)', 'NaN');
  assertArgumentError(ms(new Float64Array(0), [0, 3, 4]), 'shape[0] (batch)', 'got 0');
  assertArgumentError(ms(new Float64Array(65), [65, 1, 1]), 'shape[0] (batch)', '[1, 64], got 65');
  assertArgumentError(ms(new Float64Array(0), [1, 0, 4]), 'shape[1] (nq)', 'got 0');
  assertArgumentError(ms(new Float64Array(0), [1, 4, 0]), 'shape[2] (nk)', 'got 0');
  assertArgumentError(ms(new Float64Array(10001), [1, 1, 10001]), 'shape[2] (nk)', 'got 10001');
  const withNaN = scores.slice();
  withNaN[13] = NaN;
  assertArgumentError(ms(withNaN, [2, 3, 4]), 'scores', 'NaN at index 13');
  assertArgumentError(ms([1, 2, 'x', 4], [1, 1, 4]), 'scores', 'String at index 2');
  assertArgumentError(ms(scores, [2, 3, 4], [2, 5]), 'validLens', '[0, 4] (nk), got 5 at index 1');
  assertArgumentError(ms(scores, [2, 3, 4], [2, -1]), 'validLens', 'got -1 at index 1');
  assertArgumentError(ms(scores, [2, 3, 4], [2, 1.5]), 'validLens', 'whole numbers');
  assertArgumentError(ms(scores, [2, 3, 4], [2, NaN]), 'validLens', 'NaN');
  assertArgumentError(ms(scores, [2, 3, 4], [2, '3']), 'validLens', 'got String at index 1');
  assertArgumentError(ms(scores, [2, 3, 4], [2, null]), 'validLens');
  assertArgumentError(ms(scores, [2, 3, 4], [1, 2, 3]), 'validLens', '2 (batch) or 6 (batch*nq) lengths, got 3');
  assertArgumentError(ms(scores, [2, 3, 4], '2,3'), 'validLens', 'String');
  assertArgumentError(ms(scores, [2, 3, 4], 2), 'validLens', 'Number');
  assertArgumentError(ms(scores, [2, 3, 4], [2 ** 31, 1]), 'validLens');
});

test('additiveAttention refuses bad inputs, naming them', () => {
  const good = references.additiveAttention[1];
  const call = (change) => () => {
    const args = additiveArgs(good);
    change(args);
    return api.additiveAttention(args);
  };
  assertArgumentError(call((a) => { a.queries = a.queries.subarray(1); }), 'queries', 'expected 40 numbers');
  assertArgumentError(call((a) => { a.keys = new Float64Array(41); }), 'keys', 'expected 40 numbers');
  assertArgumentError(call((a) => { a.values = new Float64Array(4); }), 'values', 'expected 80 numbers');
  assertArgumentError(call((a) => { a.Wq = new Float64Array(8 * 19); }), 'Wq', 'expected 160 numbers');
  assertArgumentError(call((a) => { a.Wk = new Float64Array(15); }), 'Wk', 'expected 16 numbers');
  assertArgumentError(call((a) => { a.wv = new Float64Array(7); }), 'wv', 'expected 8 numbers');
  assertArgumentError(call((a) => { a.shape.h = 0; a.Wq = []; a.Wk = []; a.wv = []; }), 'shape.h', 'got 0');
  assertArgumentError(call((a) => { a.shape.dq = 19; }), 'queries', 'expected 38 numbers');
  assertArgumentError(call((a) => { delete a.shape.h; }), 'shape.h', 'undefined');
  assertArgumentError(call((a) => { a.shape.nk = '10'; }), 'shape.nk', 'String');
  assertArgumentError(call((a) => { a.shape.batch = 1.5; }), 'shape.batch', 'whole number');
  assertArgumentError(call((a) => { a.shape = null; }), 'shape', 'null');
  assertArgumentError(call((a) => { a.queries[3] = NaN; }), 'queries', 'NaN at index 3');
  assertArgumentError(call((a) => { a.keys[0] = Infinity; }), 'keys', 'Infinity');
  assertArgumentError(call((a) => { a.values[79] = -Infinity; }), 'values', '-Infinity at index 79');
  assertArgumentError(call((a) => { a.Wq[5] = NaN; }), 'Wq', 'NaN at index 5');
  assertArgumentError(call((a) => { a.Wk[1] = NaN; }), 'Wk', 'NaN');
  assertArgumentError(call((a) => { a.wv[0] = Infinity; }), 'wv', 'Infinity');
  assertArgumentError(call((a) => { a.wv = null; }), 'wv', 'null');
  assertArgumentError(call((a) => { a.Wq = 'weights'; }), 'Wq', 'String');
  assertArgumentError(call((a) => { a.validLens = [2, 11]; }), 'validLens', '[0, 10] (nk), got 11');
  assertArgumentError(call((a) => { a.validLens = [2]; }), 'validLens', '2 (batch) or 2 (batch*nq) lengths, got 1');
  assertArgumentError(call((a) => { a.validLens = [-1, 2]; }), 'validLens');
  assertArgumentError(() => api.additiveAttention(null), 'arguments', 'null');
  assertArgumentError(() => api.additiveAttention(), 'arguments', 'undefined');
});

test('dotProductAttention refuses bad inputs, naming them', () => {
  const good = references.dotProductAttention[2]; // batch 3, nq 4, nk 5, d 6, dv 3
  const call = (change) => () => {
    const args = dotArgs(good);
    change(args);
    return api.dotProductAttention(args);
  };
  assertArgumentError(call((a) => { a.keys = new Float64Array(3 * 5 * 5); }), 'keys', 'expected 90 numbers');
  assertArgumentError(call((a) => { a.values = new Float64Array(3 * 4 * 3); }), 'values', 'expected 45 numbers');
  assertArgumentError(call((a) => { a.shape.nq = 5; }), 'queries', 'expected 90 numbers for its shape, got 72');
  assertArgumentError(call((a) => { a.shape.d = 0; a.queries = []; a.keys = []; }), 'shape.d', 'got 0');
  assertArgumentError(call((a) => { a.shape.batch = 65; a.queries = new Float64Array(65 * 24); a.keys = new Float64Array(65 * 30); a.values = new Float64Array(65 * 15); }), 'shape.batch', 'got 65');
  assertArgumentError(call((a) => { a.queries[71] = NaN; }), 'queries', 'NaN at index 71');
  assertArgumentError(call((a) => { a.keys[0] = -Infinity; }), 'keys');
  assertArgumentError(call((a) => { a.values[2] = NaN; }), 'values');
  assertArgumentError(call((a) => { a.validLens = [1, 2, 6]; }), 'validLens', 'got 6 at index 2');
  assertArgumentError(call((a) => { a.validLens = [1, 2, 3, 4, 5]; }), 'validLens', '3 (batch) or 12 (batch*nq)');
  assertArgumentError(call((a) => { a.validLens = new Float64Array([1, 2, 0.5]); }), 'validLens', 'whole numbers');
  assertArgumentError(call((a) => { delete a.shape.dv; }), 'shape.dv', 'undefined');
  assertArgumentError(call((a) => { a.shape.d = Infinity; }), 'shape.d', 'Infinity');
});

test('multiHeadAttention refuses bad inputs, naming them', () => {
  const model = references.multiHeadAttention[1]; // hidden 12, heads 3
  const good = model.cases[2]; // batch 3, nq 2, nk 5, 2-D valid lengths
  const call = (change) => () => {
    const args = multiHeadArgs(model, good);
    change(args);
    return api.multiHeadAttention(args);
  };
  assertArgumentError(call((a) => { a.shape.heads = 0; }), 'shape.heads', 'got 0');
  for (const heads of [5, 7, 13]) {
    assertArgumentError(call((a) => { a.shape.heads = heads; }), 'shape.heads',
      `expected a divisor of the hidden size 12, got ${heads}`);
  }
  assertArgumentError(call((a) => { a.shape.heads = 1.5; }), 'shape.heads', 'whole number');
  assertArgumentError(call((a) => { a.shape.heads = '3'; }), 'shape.heads', 'String');
  for (const name of ['Wq', 'Wk', 'Wv', 'Wo']) {
    assertArgumentError(call((a) => { a[name] = new Float64Array(143); }), name, 'expected 144 numbers');
    assertArgumentError(call((a) => { a[name][27] = NaN; }), name, 'NaN at index 27');
    assertArgumentError(call((a) => { a[name] = undefined; }), name, 'undefined');
  }
  assertArgumentError(call((a) => { a.shape.hidden = 11; a.shape.heads = 1; }), 'queries', 'expected 66 numbers');
  assertArgumentError(call((a) => { a.keys = a.keys.subarray(12); }), 'keys', 'expected 180 numbers');
  assertArgumentError(call((a) => { a.values[0] = Infinity; }), 'values', 'Infinity');
  assertArgumentError(call((a) => { a.validLens = [1, 2, 3, 4]; }), 'validLens', '3 (batch) or 6 (batch*nq) lengths, got 4');
  assertArgumentError(call((a) => { a.validLens = [1, 6, 2]; }), 'validLens', '[0, 5] (nk), got 6 at index 1');
  assertArgumentError(call((a) => { a.validLens = [1, 2, 3, 4, -2, 0]; }), 'validLens', 'got -2 at index 4');
  assertArgumentError(call((a) => { delete a.shape.hidden; }), 'shape.hidden', 'undefined');
  assertArgumentError(call((a) => { a.headMask = [1, 0]; }), 'headMask', 'expected null or 3 factors (one per head), got 2');
  assertArgumentError(call((a) => { a.headMask = [1, NaN, 0]; }), 'headMask', 'NaN at index 1');
  assertArgumentError(call((a) => { a.headMask = [1, '0', 0]; }), 'headMask', 'String at index 1');
  assertArgumentError(call((a) => { a.headMask = new Float64Array(2000); }), 'headMask');
  assertArgumentError(call((a) => { a.headMask = 'all'; }), 'headMask', 'String');
});

test('positionalEncoding refuses bad sizes, naming them', () => {
  assertArgumentError(() => api.positionalEncoding(0, 32), 'maxLen', 'got 0');
  assertArgumentError(() => api.positionalEncoding(10001, 32), 'maxLen', 'got 10001');
  assertArgumentError(() => api.positionalEncoding(60, 0), 'dim', 'got 0');
  assertArgumentError(() => api.positionalEncoding(60, 1025), 'dim', 'got 1025');
  assertArgumentError(() => api.positionalEncoding(60.5, 32), 'maxLen', 'whole number');
  assertArgumentError(() => api.positionalEncoding(-1, 32), 'maxLen');
  assertArgumentError(() => api.positionalEncoding(60, NaN), 'dim', 'NaN');
  assertArgumentError(() => api.positionalEncoding('60', 32), 'maxLen', 'String');
  assertArgumentError(() => api.positionalEncoding(60), 'dim', 'undefined');
  assertArgumentError(() => api.positionalEncoding(60, null), 'dim', 'null');
});
