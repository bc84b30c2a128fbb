// batchMatrixProduct (torch.bmm) through the JS API: PyTorch's references
// (the book's ones example, seeded operands, the training's weights times
// values) to 1e-13, the same bits as the triple loop it stands for, and the
// mismatch error a learner meets, with its fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertArgumentError, f64, references } from './helpers.mjs';

const cases = references.batchMatrixProduct;

test('the book\'s example: ones (2, 1, 4) x ones (2, 4, 6) is (2, 1, 6), every entry 4', () => {
  const { values, shape } = api.batchMatrixProduct(new Float64Array(8).fill(1), new Float64Array(48).fill(1),
    { shapeX: [2, 1, 4], shapeY: [2, 4, 6] });
  assert.deepEqual(shape, [2, 1, 6]);
  assert.ok(values instanceof Float64Array);
  assert.deepEqual([...values], new Array(12).fill(4));
});

test('every reference case matches torch.bmm to 1e-13', () => {
  assert.ok(cases.length >= 6);
  for (const c of cases) {
    const { values, shape } = api.batchMatrixProduct(f64(c.X), f64(c.Y), { shapeX: c.shapeX, shapeY: c.shapeY });
    assert.deepEqual(shape, c.shape, c.name);
    assert.equal(values.length, c.product.length, c.name);
    values.forEach((v, i) => assert.ok(Math.abs(v - c.product[i]) <= 1e-13 * Math.max(1, Math.abs(c.product[i])),
      `${c.name}: entry ${i} is ${v}, torch.bmm gives ${c.product[i]}`));
  }
});

test('each entry is the sum over b in order, as a plain triple loop gives it', () => {
  const [n, a, b, c] = [3, 5, 7, 4];
  const X = Float64Array.from({ length: n * a * b }, (_, i) => Math.sin(i + 1));
  const Y = Float64Array.from({ length: n * b * c }, (_, i) => Math.cos(3 * i));
  const { values } = api.batchMatrixProduct(X, Y, { shapeX: [n, a, b], shapeY: [n, b, c] });
  for (let item = 0; item < n; item += 1) {
    for (let i = 0; i < a; i += 1) {
      for (let j = 0; j < c; j += 1) {
        let sum = 0;
        for (let k = 0; k < b; k += 1) sum += X[(item * a + i) * b + k] * Y[(item * b + k) * c + j];
        assert.equal(values[(item * a + i) * c + j], sum, `(${item}, ${i}, ${j})`);
      }
    }
  }
});

test('plain arrays work as well as Float64Arrays', () => {
  const result = api.batchMatrixProduct([1, 2, 3, 4], [5, 6, 7, 8], { shapeX: [1, 2, 2], shapeY: [1, 2, 2] });
  assert.deepEqual(result, { values: f64([19, 22, 43, 50]), shape: [1, 2, 2] });
});

test('a mismatched b names Y and quotes both shapes, and the next call works', () => {
  const mismatched = () => api.batchMatrixProduct(new Float64Array(8), new Float64Array(60),
    { shapeX: [2, 1, 4], shapeY: [2, 5, 6] });
  assertArgumentError(mismatched, 'Y');
  let error = null;
  try {
    mismatched();
  } catch (caught) {
    error = caught;
  }
  assert.equal(error.message, 'Y: expected shape (2, 4, c) to match X (2, 1, 4), got (2, 5, 6)');
  assert.equal(error.expected, 'shape (2, 4, c) to match X (2, 1, 4)');
  assert.equal(error.got, '(2, 5, 6)');
  assert.deepEqual(api.batchMatrixProduct([2], [3], { shapeX: [1, 1, 1], shapeY: [1, 1, 1] }).values, f64([6]));
});
