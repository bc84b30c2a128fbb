// Training the kernel width through the JS API: loss, gradient, the book's SGD
// loop and the loss landscape against PyTorch; divergence; bad inputs.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertArgumentError, assertClose, f64, references } from './helpers.mjs';

const section = references.kernelWidth;
const x = f64(section.x);
const y = f64(section.y);

test('kernelWidthLoss: loss and gradient match PyTorch autograd', () => {
  for (const c of section.loss) {
    const label = `w=${c.w} leaveOneOut=${c.leaveOneOut}`;
    const { loss, gradient } = api.kernelWidthLoss(x, y, c.w, { leaveOneOut: c.leaveOneOut });
    assertClose([loss], [c.loss], 1e-10, `${label} loss`);
    assertClose([gradient], [c.gradient], 1e-9, `${label} gradient`);
  }
});

test('kernelWidthLoss: the gradient agrees with central differences', () => {
  for (const leaveOneOut of [true, false]) {
    for (const w of [-4, -0.6, 0.02, 0.9, 3, 11]) {
      const h = 1e-5 * Math.max(1, Math.abs(w));
      const loss = (v) => api.kernelWidthLoss(x, y, v, { leaveOneOut }).loss;
      const numeric = (loss(w + h) - loss(w - h)) / (2 * h);
      const { gradient } = api.kernelWidthLoss(x, y, w, { leaveOneOut });
      assert.ok(Math.abs(gradient - numeric) <= 1e-6 + 1e-5 * Math.abs(numeric),
        `w=${w} leaveOneOut=${leaveOneOut}: analytic ${gradient}, numeric ${numeric}`);
    }
  }
  assert.equal(api.kernelWidthLoss(x, y, 0).gradient, 0);
});

test('trainKernelWidth follows the book\'s SGD loop in PyTorch', () => {
  for (const c of section.training) {
    const label = `w0=${c.w0} lr=${c.lr} epochs=${c.epochs} leaveOneOut=${c.leaveOneOut}`;
    const result = api.trainKernelWidth(x, y, { w0: c.w0, lr: c.lr, epochs: c.epochs, leaveOneOut: c.leaveOneOut });
    assert.equal(result.stopReason, null, label);
    assert.ok(result.w instanceof Float64Array && result.loss instanceof Float64Array);
    assertClose(result.w, c.w, 1e-9, `${label} w`);
    assertClose(result.loss, c.loss, 1e-9, `${label} loss`);
  }
});

test('trainKernelWidth defaults: the book\'s lr 0.5 and 5 epochs with leave-one-out', () => {
  const book = section.training.find((c) => c.w0 === 1 && c.epochs === 5 && c.leaveOneOut);
  const result = api.trainKernelWidth(x, y, { w0: 1 });
  assertClose(result.w, book.w, 1e-9, 'w');
  assertClose(api.trainKernelWidth(x, y).loss, book.loss, 1e-9, 'all defaults');
});

test('lossLandscape gives the loss landscape of PyTorch', () => {
  const { ws, leaveOneOut, noLeaveOneOut } = section.landscape;
  assertClose(api.lossLandscape(x, y, f64(ws)), leaveOneOut, 1e-9, 'leave-one-out');
  assertClose(api.lossLandscape(x, y, ws, { leaveOneOut: false }), noLeaveOneOut, 1e-9, 'without');
});

test('a diverging training run stops and says why', () => {
  const result = api.trainKernelWidth(x, y, { w0: 1, lr: 1e308, epochs: 50 }); // the first step overflows w
  assert.equal(typeof result.stopReason, 'string');
  assert.match(result.stopReason, /training stopped at epoch \d+: .*learning rate/);
  assert.ok(result.loss.length < 50);
  assert.equal(result.w.length, result.loss.length + 1);
  assert.ok(result.w.every(Number.isFinite) && result.loss.every(Number.isFinite));
  assert.ok(result.stopReason.includes(`epoch ${result.loss.length + 1}:`));
});

test('training refuses bad inputs, naming them', () => {
  const train = (options, xs = x, ys = y) => () => api.trainKernelWidth(xs, ys, options);
  assertArgumentError(train({ lr: 0 }), 'lr', 'expected a positive learning rate, got 0');
  assertArgumentError(train({ lr: -0.5 }), 'lr', 'got -0.5');
  assertArgumentError(train({ lr: NaN }), 'lr', 'NaN');
  assertArgumentError(train({ lr: Infinity }), 'lr', 'Infinity');
  assertArgumentError(train({ lr: '0.5' }), 'lr', 'String');
  assertArgumentError(train({ lr: null }), 'lr', 'null');
  assertArgumentError(train({ w0: NaN }), 'w0', 'NaN');
  assertArgumentError(train({ w0: -Infinity }), 'w0');
  assertArgumentError(train({ w0: [1] }), 'w0', 'an array');
  assertArgumentError(train({ epochs: 0 }), 'epochs', 'got 0');
  assertArgumentError(train({ epochs: 10001 }), 'epochs', '[1, 10000], got 10001');
  assertArgumentError(train({ epochs: 2.5 }), 'epochs', 'whole number');
  assertArgumentError(train({ epochs: -1 }), 'epochs');
  assertArgumentError(train({ epochs: NaN }), 'epochs');
  assertArgumentError(train({ leaveOneOut: 'yes' }), 'leaveOneOut', 'true or false');
  assertArgumentError(train({ leaveOneOut: 1 }), 'leaveOneOut');
  assertArgumentError(train({}, [1], [2]), 'x.length', '[2, 10000], got 1');
  assertArgumentError(train({ leaveOneOut: false }, [], []), 'x.length', 'got 0');
  assertArgumentError(train({}, x, y.subarray(1)), 'y', 'expected 50 values (one per x), got 49');
  assertArgumentError(train({}, [1, 2, NaN], [1, 2, 3]), 'x', 'NaN at index 2');
  assertArgumentError(train({}, [1, 2, 3], [1, Infinity, 3]), 'y', 'Infinity at index 1');
  assertArgumentError(train({}, 'x', y), 'x', 'String');
  assertArgumentError(train({}, x, null), 'y', 'null');
  assertArgumentError(train({}, new Float64Array(10001), new Float64Array(10001)), 'x', 'at most 10000');
  assertArgumentError(train(null), 'options', 'null');

  assertArgumentError(() => api.kernelWidthLoss(x, y, NaN), 'w', 'NaN');
  assertArgumentError(() => api.kernelWidthLoss(x, y, '1'), 'w', 'String');
  assertArgumentError(() => api.kernelWidthLoss(x, y), 'w', 'undefined');
  assertArgumentError(() => api.kernelWidthLoss([1], [1], 1), 'x.length');

  assertArgumentError(() => api.lossLandscape(x, y, []), 'ws.length', 'got 0');
  assertArgumentError(() => api.lossLandscape(x, y, [1, NaN]), 'ws', 'NaN at index 1');
  assertArgumentError(() => api.lossLandscape(x, y, [1, '2']), 'ws', 'String at index 1');
  assertArgumentError(() => api.lossLandscape(x, y, null), 'ws', 'null');
  assertArgumentError(() => api.lossLandscape(x, y, new Float64Array(10001)), 'ws', 'at most 10000');
  assertArgumentError(() => api.lossLandscape(x, y.subarray(2), [1]), 'y');
  const big = Float64Array.from({ length: 10000 }, (_, i) => i / 2000);
  assertArgumentError(() => api.lossLandscape(big, big, new Float64Array(11)), 'ws.length',
    'x.length^2 * ws.length');
  assertArgumentError(() => api.lossLandscape(x, y, [1], { leaveOneOut: null }), 'leaveOneOut');
});
