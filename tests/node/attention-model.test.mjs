// The trainable attention model through the JS API (wasm): forward pass,
// loss and gradients and optimiser steps against PyTorch
// (tests/references/model_references.json), the tasks, the training loop's
// promises (chunks train as one call does; held-out accuracy), errors that
// name their argument, memory back at its level after every call, and the
// native build's bits (model_dump).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import { api, assertArgumentError, assertClose, assertSameBits, f64, fromHex } from './helpers.mjs';

const references = JSON.parse(readFileSync(new URL('../references/model_references.json', import.meta.url), 'utf8'));

// A model of the API from a reference case: its config and parameters.
function referenceModel(c) {
  const params = Object.fromEntries(Object.entries(c.params).map(([name, values]) => [name, f64(values)]));
  return { config: { ...c.config, seed: 0 }, params };
}
const int32 = (list) => Int32Array.from(list);

test('forward pass, loss and gradients equal PyTorch autograd for every reference model', () => {
  for (const c of references.model) {
    const model = referenceModel(c);
    const options = { batch: c.batch, validLens: c.validLens, causal: c.causal, headsOff: c.headsOff ?? null };
    const forward = api.attentionModelForward(model, int32(c.tokens), options);
    assertClose(forward.logits, c.logits, 1e-12, `${c.name} logits`);
    assertClose(forward.weights, c.weights, 1e-12, `${c.name} weights`);
    const { loss, gradients } = api.attentionModelLoss(model, int32(c.tokens), int32(c.targets), options);
    assertClose([loss], [c.loss], 1e-12, `${c.name} loss`);
    assert.deepEqual(Object.keys(gradients), Object.keys(c.gradients), `${c.name}: gradient names`);
    for (const [name, values] of Object.entries(c.gradients)) {
      assertClose(gradients[name], values, 1e-10, `${c.name} d${name}`);
    }
  }
});

test('attentionModelAccuracy: the share of valid positions whose top logit is the target, with heads switched off', () => {
  const c = references.model.find((r) => r.headsOff);
  assert.ok(c, 'a reference case with heads switched off');
  const model = referenceModel(c);
  const options = { batch: c.batch, validLens: c.validLens, headsOff: c.headsOff };
  const { length, vocab } = c.config;
  // The targets: each valid position's largest logit without those heads, then one position made wrong.
  const argmax = (row) => row.indexOf(Math.max(...row));
  const targets = Array.from({ length: c.batch * length }, (_, r) => argmax(c.logits.slice(r * vocab, (r + 1) * vocab)));
  targets[0] = (targets[0] + 1) % vocab;
  const valid = c.validLens.reduce((sum, n) => sum + n, 0);
  const without = api.attentionModelAccuracy(model, int32(c.tokens), int32(targets), options);
  assert.equal(without.positions, valid);
  assert.equal(without.accuracy, (valid - 1) / valid);
  assert.ok(Number.isFinite(without.loss) && without.loss > 0);
  // Every head on: other logits, so another accuracy on the same targets.
  const all = api.attentionModelAccuracy(model, int32(c.tokens), int32(targets), { ...options, headsOff: null });
  assert.equal(all.positions, valid);
  assert.notEqual(all.loss, without.loss);
  assertArgumentError(() => api.attentionModelAccuracy(model, int32(c.tokens), int32(targets),
    { ...options, headsOff: [1] }), 'headsOff');
});

test('optimiser steps equal torch.optim step for step (SGD and Adam)', () => {
  for (const c of references.training) {
    let model = referenceModel(c);
    c.batches.forEach((b, step) => {
      const result = api.attentionModelStep(model, int32(b.tokens), int32(b.targets),
        { batch: c.batch, validLens: b.validLens, causal: b.causal, optimizer: c.optimizer, lr: c.lr });
      assertClose([result.loss], [c.losses[step]], 1e-12, `${c.name} loss ${step}`);
      assert.equal(result.model.optimizerState.step, step + 1);
      assert.equal(result.model.optimizerState.m === null, c.optimizer === 'sgd', `${c.name}: moments`);
      model = result.model;
    });
    for (const [name, values] of Object.entries(c.paramsAfter)) {
      assertClose(model.params[name], values, 1e-12, `${c.name} ${name} after`);
    }
  }
});

test('attentionModelInit: PyTorch layout and shapes, the seed decides, the config is filled in', () => {
  const model = api.attentionModelInit({ ffnHidden: 16, blocks: 2, seed: 5 });
  assert.deepEqual(model.config, { ...api.defaults.attentionModel, ffnHidden: 16, blocks: 2, seed: 5 });
  const block = ['Wq', 'Wk', 'Wv', 'Wo', 'ln1.gamma', 'ln1.beta', 'W1', 'b1', 'W2', 'b2', 'ln2.gamma', 'ln2.beta'];
  assert.deepEqual(Object.keys(model.params),
    ['embedding', ...block.map((n) => `b0.${n}`), ...block.map((n) => `b1.${n}`), 'readout', 'readoutBias']);
  assert.equal(model.params.embedding.length, 10 * 32);
  assert.equal(model.params['b1.W1'].length, 16 * 32);
  assert.ok(model.params['b0.ln1.gamma'].every((g) => g === 1));
  assert.ok(model.params['b0.Wq'].every((w) => Math.abs(w) <= 1 / Math.sqrt(32)));
  assert.ok(model.params['b0.W2'].every((w) => Math.abs(w) <= 1 / Math.sqrt(16)));
  assert.deepEqual(model.optimizerState, { step: 0, m: null, v: null });
  assert.deepEqual(api.attentionModelInit({ seed: 5 }).params.embedding,
    api.attentionModelInit({ seed: 5 }).params.embedding);
  assert.notDeepEqual(api.attentionModelInit({ seed: 6 }).params.embedding, model.params.embedding);
});

test('attentionModelStep returns a new model and leaves its argument as it was', () => {
  const model = api.attentionModelInit({});
  const before = Float64Array.from(model.params['b0.Wq']);
  const { tokens, targets } = api.attentionTaskBatch({ batch: 4 });
  const { model: after, loss } = api.attentionModelStep(model, tokens, targets, { batch: 4 });
  assert.ok(Number.isFinite(loss));
  assert.deepEqual(model.params['b0.Wq'], before);
  assert.notDeepEqual(after.params['b0.Wq'], before);
  assert.equal(model.optimizerState.step, 0);
  assert.equal(after.optimizerState.m.length, Object.values(after.params).reduce((n, p) => n + p.length, 0));
});

test('tasks: every target is the token the ideal pattern points at; padding is 0 and masked', () => {
  for (const task of ['reverse', 'sort', 'shift', 'lookup']) {
    const options = { task, batch: 6, length: 8, vocab: 10, seed: 4, lag: 2, variableLengths: true };
    const batch = api.attentionTaskBatch(options);
    assert.deepEqual(api.attentionTaskBatch(options), batch, `${task}: the seed decides`);
    for (let item = 0; item < 6; item += 1) {
      const ideal = api.attentionTaskIdeal(options, item);
      const valid = batch.validLens[item];
      for (let i = 0; i < 8; i += 1) {
        const row = ideal.subarray(i * 8, i * 8 + 8);
        const target = batch.targets[item * 8 + i];
        if (i >= valid) {
          assert.ok(row.every((w) => w === 0), `${task}: padding row ${i}`);
          assert.equal(batch.tokens[item * 8 + i], 0);
          continue;
        }
        const key = row.indexOf(1);
        assert.equal(row.reduce((a, b) => a + b, 0), 1, `${task}: row ${i} sums to 1`);
        assert.ok(key < valid, `${task}: looks at a valid key`);
        // lookup's later targets are positions: the key's own position.
        const expected = task === 'lookup' && i >= Math.floor(valid / 2) ? key : batch.tokens[item * 8 + key];
        assert.equal(target, expected, `${task} item ${item} position ${i}`);
      }
    }
  }
});

test('attentionModelTrain: ten calls of five steps give the model of one call of fifty', () => {
  const options = { task: 'sort', steps: 50, batch: 8, seed: 3, evalEvery: 10, heldOut: 32, variableLengths: true };
  const once = api.attentionModelTrain(api.attentionModelInit({ seed: 2 }), options);
  let model = api.attentionModelInit({ seed: 2 });
  const losses = [];
  const evaluatedAt = [];
  for (let call = 0; call < 10; call += 1) {
    const part = api.attentionModelTrain(model, { ...options, steps: 5 });
    losses.push(...part.loss);
    evaluatedAt.push(...part.evaluatedAt);
    model = part.model;
  }
  assert.deepEqual(model.params, once.model.params);
  assert.deepEqual(model.optimizerState, once.model.optimizerState);
  assert.deepEqual(Float64Array.from(losses), once.loss);
  assert.deepEqual(evaluatedAt, [10, 20, 30, 40, 50]);
  assert.deepEqual(Array.from(once.evaluatedAt), evaluatedAt);
  assert.equal(once.heldOutAccuracy, once.accuracy[4]);
  // A call ending between evaluations evaluates at its end, unless told not to.
  const between = { ...options, steps: 3 };
  assert.equal(typeof api.attentionModelTrain(model, between).heldOutAccuracy, 'number');
  assert.equal(api.attentionModelTrain(model, { ...between, evaluateAtEnd: false }).heldOutAccuracy, null);
  // The first step's loss is the loss of the batch of seed 3 + 0 before any step.
  const first = api.attentionTaskBatch({ task: 'sort', batch: 8, seed: 3, variableLengths: true });
  const { loss } = api.attentionModelLoss(api.attentionModelInit({ seed: 2 }), first.tokens, first.targets,
    { batch: 8, validLens: first.validLens });
  assert.equal(once.loss[0], loss);
});

test('the attention-only default learns reverse: >= 99% held out within 2,000 steps; causal masking cannot', () => {
  let model = api.attentionModelInit({});
  let accuracy = 0;
  while (model.optimizerState.step < 2000 && accuracy < 0.99) {
    ({ model, heldOutAccuracy: accuracy } = api.attentionModelTrain(model, { steps: 50 }));
  }
  assert.ok(accuracy >= 0.99, `held-out accuracy ${accuracy} after ${model.optimizerState.step} steps`);
  // Causal: position 0 cannot see the last token it must output.
  const causal = api.attentionModelTrain(api.attentionModelInit({}), { steps: 400, causal: true });
  assert.ok(causal.heldOutAccuracy < 0.8, `causal reverse reached ${causal.heldOutAccuracy}`);
});

test('refused arguments name themselves; the module and memory stay as they were', () => {
  const model = api.attentionModelInit({});
  const tokens = new Int32Array(8);
  const before = api.memoryStats();
  assertArgumentError(() => api.attentionModelInit({ heads: 5 }), 'heads', 'divisor of hidden');
  assertArgumentError(() => api.attentionModelInit({ vocab: 'ten' }), 'vocab');
  assertArgumentError(() => api.attentionModelInit({ hidden: 1024, ffnHidden: 4096, blocks: 8 }), 'hidden');
  assertArgumentError(() => api.attentionModelForward(undefined, tokens), 'model');
  assertArgumentError(() => api.attentionModelForward({ config: {}, params: [] }, tokens), 'model.params');
  assertArgumentError(() => api.attentionModelForward(model, [1, 2, 10, 0, 0, 0, 0, 0]), 'tokens', 'index 2');
  assertArgumentError(() => api.attentionModelForward(model, [1, 2, -1]), 'tokens');
  assertArgumentError(() => api.attentionModelForward(model, tokens, { batch: 2 }), 'tokens');
  assertArgumentError(() => api.attentionModelForward(model, tokens, { validLens: [9] }), 'validLens');
  assertArgumentError(() => api.attentionModelForward(model, tokens, { causal: 1 }), 'causal');
  const { embedding, ...missing } = model.params;
  assertArgumentError(() => api.attentionModelForward({ ...model, params: missing }, tokens), 'params');
  assertArgumentError(() => api.attentionModelForward(
    { ...model, params: { ...model.params, 'b0.Wq': new Float64Array(3) } }, tokens), 'params.b0.Wq');
  const poisoned = Float64Array.from(model.params.readout);
  poisoned[7] = NaN;
  assertArgumentError(() => api.attentionModelForward({ ...model, params: { ...model.params, readout: poisoned } },
    tokens), 'params.readout');
  assertArgumentError(() => api.attentionModelLoss(model, tokens, new Int32Array(7)), 'targets');
  assertArgumentError(() => api.attentionModelStep(model, tokens, tokens, { optimizer: 'rmsprop' }), 'optimizer');
  assertArgumentError(() => api.attentionModelStep(model, tokens, tokens, { lr: NaN }), 'lr');
  assertArgumentError(() => api.attentionModelStep({ ...model, optimizerState: { step: 1, m: new Float64Array(3), v: null } },
    tokens, tokens), 'optimizerState');
  assertArgumentError(() => api.attentionModelStep({ ...model, optimizerState: { step: -1 } }, tokens, tokens),
    'optimizerState.step');
  assertArgumentError(() => api.attentionTaskBatch({ task: 'copy' }), 'task');
  assertArgumentError(() => api.attentionTaskBatch({ task: 'shift', lag: 8 }), 'lag');
  assertArgumentError(() => api.attentionTaskBatch({ task: 'lookup', length: 30, vocab: 10 }), 'vocab');
  assertArgumentError(() => api.attentionTaskIdeal({}, 32), 'item');
  assertArgumentError(() => api.attentionModelTrain(model, { steps: 0 }), 'steps');
  assertArgumentError(() => api.attentionModelTrain(model, { steps: 10000, batch: 1024 }), 'steps');
  assertArgumentError(() => api.attentionModelTrain(model, { evalEvery: 0 }), 'evalEvery');
  assertArgumentError(() => api.attentionModelTrain(model, { heldOut: 2000 }), 'heldOut');
  assertArgumentError(() => api.attentionModelTrain(model, { seed: 2 ** 32 }), 'seed');
  assert.deepEqual(api.memoryStats(), before);
  // After valid calls too: the core's pass buffers are released at the end of each.
  api.attentionModelTrain(model, { steps: 3 });
  api.attentionModelForward(model, tokens);
  assert.deepEqual(api.memoryStats(), before);
});

test('training in wasm gives the native build\'s bits: losses, accuracies, parameters (model_dump)', () => {
  const dump = process.env.ATTENTION_MODEL_DUMP;
  assert.ok(dump && existsSync(dump),
    `native model_dump not found at ${dump}: run through ctest after the native preset (cmake --workflow --preset native)`);
  const { cases } = JSON.parse(execFileSync(dump, { encoding: 'utf8', maxBuffer: 2 ** 26 }));
  assert.equal(cases.length, 4);
  for (const { config, training, loss, accuracy, params } of cases) {
    const label = `${training.task} hidden ${config.hidden}`;
    const model = api.attentionModelInit({ ...config, embeddingScale: fromHex(config.embeddingScale) });
    const run = api.attentionModelTrain(model, { ...training, lr: fromHex(training.lr) });
    assertSameBits(run.loss, f64(loss), `${label} loss`);
    assertSameBits(run.accuracy, f64(accuracy), `${label} accuracy`);
    assertSameBits(Float64Array.from(Object.values(run.model.params).flatMap((p) => Array.from(p))), f64(params),
      `${label} parameters`);
  }
});

test('positions: without them reverse is not learnt, with sinusoidal or learned ones it is (five seeds, 1000 steps)', () => {
  // What the section's note says of a model without positions (attention-training.positionsNote).
  const rows = [];
  for (const positional of api.kinds.positional) {
    const accuracies = [];
    for (let seed = 0; seed < 5; seed += 1) {
      const model = api.attentionModelInit({ seed, positional });
      const run = api.attentionModelTrain(model, { task: 'reverse', steps: 1000, seed, evalEvery: 1000, heldOut: 256 });
      accuracies.push(run.heldOutAccuracy);
    }
    rows.push(`${positional}: ${accuracies.map((a) => a.toFixed(3)).join(' ')}`);
    if (positional === 'none') assert.ok(Math.max(...accuracies) < 0.5, `none: ${accuracies}`);
    else assert.ok(Math.min(...accuracies) >= 0.99, `${positional}: ${accuracies}`);
  }
  console.log(`held-out accuracy on reverse after 1000 steps, seeds 0-4:\n  ${rows.join('\n  ')}`);
});
