// The Gaussian row kernels compute the same bits natively and in wasm: the
// native build runs the portable loops (compiler-vectorised), the wasm build
// the wasm SIMD ones (core/numerics/wasm_simd.hpp), both in the same order. Checked
// against the native benchmark executable, which prints its data set and
// results with 17 significant digits (exact for doubles), at sizes that take
// every tail of the SIMD loops (n % 8 from 0 to 7), and at widths (9, 12) where
// the rows of far queries leave the table exp2's normal range and take its
// general form.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { api, assertSameBits } from './helpers.mjs';

function nativeBenchmark() {
  const dump = process.env.ATTENTION_DATASET_DUMP;
  assert.ok(dump, 'ATTENTION_DATASET_DUMP is not set: run this test through ctest (cmake --workflow --preset web)');
  const executable = path.join(path.dirname(dump), '../benchmarks/attention_benchmark');
  assert.ok(existsSync(executable), `native ${executable} not found: build the native preset first`);
  return executable;
}

test('pooling, weights and a training epoch: the same bits natively and in wasm', () => {
  const executable = nativeBenchmark();
  for (const [n, w] of [[2, 1], [3, 0.7], [9, 1], [50, 1], [61, 2.5], [100, 0.3], [203, 1], [1000, 4], [77, 9], [500, 12]]) {
    const native = JSON.parse(execFileSync(executable, ['--n', String(n), '--seed', '11', '--x-max', '5',
      '--w', String(w), '--serve'], { input: 'quit\n', encoding: 'utf8', maxBuffer: 64 << 20 }).split('\n')[0]);
    const { x, y } = api.makeDataset({ n, seed: 11, xMax: 5 });
    assertSameBits(x, Float64Array.from(native.data.x), `n=${n} data set x`);
    const queries = Float64Array.from({ length: n }, (_, i) => (i * 5) / n);
    assertSameBits(api.nadarayaWatson(queries, x, y, { w }), Float64Array.from(native.results.prediction),
      `n=${n} prediction`);
    const trained = api.trainKernelWidth(x, y, { w0: w, lr: 0.5, epochs: 1 });
    assertSameBits(trained.w, Float64Array.from(native.results.w), `n=${n} w`);
    assertSameBits(trained.loss, Float64Array.from(native.results.loss), `n=${n} loss`);
    const weights = api.attentionWeights(queries, x, { w });
    const rows = native.results.weightRows.index.flatMap((i) => Array.from(weights.subarray(i * n, (i + 1) * n)));
    assertSameBits(Float64Array.from(rows), Float64Array.from(native.results.weightRows.values), `n=${n} weights`);
  }
});
