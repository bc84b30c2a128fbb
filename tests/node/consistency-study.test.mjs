// consistencyStudy: each row is the error of the module's own Nadaraya-Watson
// against truth, composed here from makeDataset, nadarayaWatson and truth and
// compared bit for bit; the growing width keeps lowering the error while the
// fixed one stalls at its bias; and a call without options is the defaults'.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api } from './helpers.mjs';

// The error of one size, as the study defines it, from the public API.
function composedError({ repeats, queries, noise, xMax, seed }, n, w) {
  const grid = Float64Array.from({ length: queries }, (_, i) => (i * xMax) / queries);
  const target = api.truth(grid);
  let total = 0;
  for (let r = 0; r < repeats; r += 1) {
    const { x, y } = api.makeDataset({ n, seed: (seed + r) % 2 ** 32, noise, xMax });
    const prediction = api.nadarayaWatson(grid, x, y, { kernel: 'gaussian', w });
    let sum = 0;
    for (let i = 0; i < queries; i += 1) sum += (prediction[i] - target[i]) * (prediction[i] - target[i]);
    total += sum / queries;
  }
  return total / repeats;
}

test('each row is the composed error of Nadaraya-Watson against truth, to the bit', () => {
  const options = { sizes: [5, 50, 400], repeats: 4, queries: 13, w: 2, noise: 0.3, xMax: 3, seed: 2 ** 32 - 2 };
  const rows = api.consistencyStudy(options);
  assert.deepEqual(rows.map((row) => row.n), options.sizes);
  for (const row of rows) {
    assert.ok(Math.abs(row.growingW - 2 * (row.n / 50) ** 0.2) < 1e-15, `growingW at n = ${row.n}`);
    assert.equal(row.fixedError, composedError(options, row.n, 2), `fixed width, n = ${row.n}`);
    assert.equal(row.growingError, composedError(options, row.n, row.growingW), `growing width, n = ${row.n}`);
  }
});

test('with the defaults the growing width keeps lowering the error, the fixed width stalls', () => {
  const rows = api.consistencyStudy();
  assert.deepEqual(rows, api.consistencyStudy(api.defaults.consistencyStudy), 'no options = the defaults');
  assert.deepEqual(rows.map((row) => row.n), [...api.defaults.consistencyStudy.sizes]);
  for (let k = 1; k < rows.length; k += 1) assert.ok(rows[k].growingError < rows[k - 1].growingError, `n = ${rows[k].n}`);
  const last = rows[rows.length - 1];
  assert.ok(last.fixedError > 3 * last.growingError, `at n = 2000: ${last.fixedError} vs ${last.growingError}`);
  assert.ok(last.growingError < 0.1 * rows[0].growingError);
});
