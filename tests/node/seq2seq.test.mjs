// The translators through the JS API (wasm): d2l 10.4's Bahdanau model and
// d2l 10.7's Transformer encoder-decoder. Their forward pass, loss,
// gradients, optimiser steps and greedy translation against PyTorch
// (tests/references/seq2seq_references.json), the tasks and vocabularies,
// the training loop's promises (chunks train as one call does; the held-out
// exact match reaches its target), errors that name their argument, and
// memory back at its level after every call.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { api, assertArgumentError, assertStillWorks } from './helpers.mjs';

const TASKS = ['numbers-en-zh', 'numbers-zh-en', 'dates', 'reverse', 'sort'];
const small = { hidden: 8, embed: 8, layers: 1, heads: 2, ffnHidden: 16, blocks: 1 };

// The words of an item's tokens, up to <eos>.
function words(list, ids) {
  const out = [];
  for (const id of ids) {
    if (list[id] === '<eos>') break;
    out.push(list[id]);
  }
  return out;
}

test('every task has a vocabulary that starts <pad> <bos> <eos>, lengths and a held-out set', () => {
  for (const task of TASKS) {
    const v = api.seq2seqVocabulary(task);
    assert.deepEqual(v.source.slice(0, 3), ['<pad>', '<bos>', '<eos>'], task);
    assert.deepEqual(v.target.slice(0, 3), ['<pad>', '<bos>', '<eos>'], task);
    assert.ok(v.sourceLength >= 2 && v.targetLength >= 2 && v.heldOut >= 100, task);
  }
  const numbers = api.seq2seqVocabulary('numbers-en-zh');
  assert.equal(numbers.source.length, 34);
  assert.equal(numbers.target.length, 16);
  assertArgumentError(() => api.seq2seqVocabulary('numbers-fr'), 'task');
});

test('a typed number is spelled in the task\'s words, and a batch reads as its pairs', () => {
  const v = api.seq2seqVocabulary('numbers-en-zh');
  const ids = api.seq2seqSourceFromText('numbers-en-zh', '4782');
  assert.deepEqual(words(v.source, ids), ['four', 'thousand', 'seven', 'hundred', 'and', 'eighty', 'two']);
  assert.equal(v.source[ids.at(-1)], '<eos>');
  assert.deepEqual(api.seq2seqSourceFromText('numbers-en-zh', 'four thousand seven hundred and eighty two'), ids);
  assertArgumentError(() => api.seq2seqSourceFromText('numbers-en-zh', 'four lakh'), 'text');
  assertArgumentError(() => api.seq2seqSourceFromText('numbers-en-zh', '123456'), 'text');

  const { source, sourceLens, targetIn, targetOut, targetLens } = api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 4, seed: 3 });
  assert.equal(sourceLens.length, 4);
  assert.equal(source.length, 4 * v.sourceLength);
  for (let b = 0; b < 4; b += 1) {
    const out = targetOut.slice(b * v.targetLength, (b + 1) * v.targetLength);
    const into = targetIn.slice(b * v.targetLength, (b + 1) * v.targetLength);
    assert.equal(into[0], 1, '<bos> first');
    assert.deepEqual([...into.slice(1, targetLens[b])], [...out.slice(0, targetLens[b] - 1)], 'teacher forcing');
    assert.equal(out[targetLens[b] - 1], 2, '<eos> last');
    assert.equal(source[b * v.sourceLength + sourceLens[b] - 1], 2, 'the source ends with <eos>');
  }
  const again = api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 4, seed: 3 });
  assert.deepEqual(again.source, source, 'a seed gives its batch');
  assert.notDeepEqual(api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 4, seed: 4 }).source, source);
});

test('seq2seqInit: d2l\'s state_dict names in order, the task\'s sizes in the config', () => {
  const gru = api.seq2seqInit({ architecture: 'bahdanau', bidirectional: false });
  const names = Object.keys(gru.params);
  assert.deepEqual(names.slice(0, 5), ['encoder.embedding.weight', 'encoder.rnn.weight_ih_l0', 'encoder.rnn.weight_hh_l0',
    'encoder.rnn.bias_ih_l0', 'encoder.rnn.bias_hh_l0']);
  assert.ok(names.includes('decoder.attention.W_q.weight') && names.includes('decoder.attention.w_v.weight'));
  assert.deepEqual(names.slice(-2), ['decoder.dense.weight', 'decoder.dense.bias']);
  assert.equal(gru.params['encoder.rnn.weight_ih_l0'].length, 3 * 32 * 32);
  assert.equal(gru.params['decoder.rnn.weight_ih_l0'].length, 3 * 32 * (32 + 32), 'the decoder reads [context, embedding]');
  assert.equal(gru.config.sourceVocab, 34);
  assert.equal(gru.config.task, 'numbers-en-zh');

  const both = api.seq2seqInit({});
  assert.ok(Object.keys(both.params).includes('encoder.rnn.weight_ih_l0_reverse'), 'bidirectional by default');
  assert.equal(both.params['encoder.rnn.weight_hh_l0'].length, 3 * 16 * 16, 'hidden / 2 units each way');

  const transformer = api.seq2seqInit({ architecture: 'transformer' });
  const tnames = Object.keys(transformer.params);
  for (const name of ['encoder.blks.block0.attention.W_q.weight', 'encoder.blks.block0.addnorm1.ln.weight',
    'encoder.blks.block1.ffn.dense1.weight', 'decoder.blks.block0.attention2.W_k.weight',
    'decoder.blks.block1.addnorm3.ln.bias', 'decoder.dense.weight']) {
    assert.ok(tnames.includes(name), name);
  }
  assert.notDeepEqual(api.seq2seqInit({ seed: 1 }).params['decoder.dense.weight'], both.params['decoder.dense.weight']);
});

test('forward pass: logits, and attention rows over the valid source summing to 1', () => {
  for (const architecture of ['bahdanau', 'transformer']) {
    const model = api.seq2seqInit({ architecture, ...small, seed: 5 });
    const batch = api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 3, seed: 1 });
    const { logits, crossWeights } = api.seq2seqForward(model, batch);
    const { sourceLength: S, targetLength: T, targetVocab } = model.config;
    assert.equal(logits.length, 3 * T * targetVocab);
    const heads = architecture === 'bahdanau' ? 1 : small.heads;
    const blocks = architecture === 'bahdanau' ? 1 : small.blocks;
    assert.equal(crossWeights.length, blocks * 3 * heads * T * S, architecture);
    for (let row = 0; row < blocks * 3 * heads * T; row += 1) {
      const item = Math.floor(row / (heads * T)) % 3;
      const weights = crossWeights.slice(row * S, (row + 1) * S);
      const sum = weights.reduce((a, w) => a + w, 0);
      assert.ok(Math.abs(sum - 1) < 1e-12, `${architecture} row ${row} sums to ${sum}`);
      for (let k = batch.sourceLens[item]; k < S; k += 1) assert.equal(weights[k], 0, 'padding gets no weight');
    }
  }
});

test('gradients match central differences of the loss (a few parameters of each kind)', () => {
  for (const architecture of ['bahdanau', 'transformer']) {
    const model = api.seq2seqInit({ architecture, ...small, seed: 7 });
    const batch = api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 2, seed: 2 });
    const { gradients } = api.seq2seqLoss(model, batch);
    for (const name of Object.keys(model.params).filter((_, i) => i % 3 === 0)) {
      const values = model.params[name];
      const i = values.length >> 1;
      const h = 1e-6;
      const at = (delta) => {
        const changed = Float64Array.from(values);
        changed[i] += delta;
        return api.seq2seqLoss({ ...model, params: { ...model.params, [name]: changed } }, batch).loss;
      };
      const numeric = (at(h) - at(-h)) / (2 * h);
      const scale = Math.max(1, Math.abs(numeric));
      assert.ok(Math.abs(gradients[name][i] - numeric) < 1e-6 * scale,
        `${architecture} d${name}[${i}]: ${gradients[name][i]} against ${numeric}`);
    }
  }
});

test('seq2seqTrain: calls of a few steps train exactly the model of one call', () => {
  const options = { steps: 6, batch: 8, heldOut: 16, evalEvery: 3 };
  const init = api.seq2seqInit({ ...small, seed: 3 });
  const once = api.seq2seqTrain(init, options);
  let model = init;
  const losses = [];
  for (let k = 0; k < 3; k += 1) {
    const part = api.seq2seqTrain(model, { ...options, steps: 2 });
    losses.push(...part.loss);
    model = part.model;
  }
  assert.deepEqual(losses, [...once.loss]);
  assert.deepEqual(model.params, once.model.params);
  assert.equal(once.model.optimizerState.step, 6);
  assert.deepEqual([...once.evaluatedAt], [3, 6]);
  assert.equal(once.accuracy.length, 2);
  assert.equal(once.bleu.length, 2);
  assert.equal(once.stopReason, null);
  const step = api.seq2seqStep(init, api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 8, seed: 0 }), {});
  assert.deepEqual(step.model.params, api.seq2seqTrain(init, { ...options, steps: 1 }).model.params,
    'one step of a training call is seq2seqStep on the batch of seed + step');
});

test('greedy translation: a single typed source, tokens to <eos>, one map row per token', () => {
  const model = api.seq2seqInit({ ...small, seed: 4 });
  const source = api.seq2seqSourceFromText('numbers-en-zh', '305');
  const { tokens, lengths, crossWeights } = api.seq2seqTranslate(model, source);
  const { sourceLength: S, targetLength: T } = model.config;
  assert.equal(tokens.length, T);
  assert.ok(lengths[0] >= 1 && lengths[0] <= T);
  assert.equal(crossWeights.length, T * S);
  for (let t = 0; t < T; t += 1) {
    const sum = crossWeights.slice(t * S, (t + 1) * S).reduce((a, w) => a + w, 0);
    assert.ok(t < lengths[0] ? Math.abs(sum - 1) < 1e-12 : sum === 0, `row ${t}: ${sum}`);
  }
  assertArgumentError(() => api.seq2seqTranslate(model, source, { maxLength: T + 1 }), 'maxLength');
  assertArgumentError(() => api.seq2seqTranslate(model, [3, 4, 5, 6, 7, 8, 9, 10, 11, 2]), 'source');
  assertArgumentError(() => api.seq2seqTranslate(model, [99, 2]), 'source');
});

test('bad arguments are refused naming them, and the module keeps working', () => {
  const model = api.seq2seqInit(small);
  const batch = api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 2, seed: 0 });
  assertArgumentError(() => api.seq2seqInit({ architecture: 'lstm' }), 'architecture');
  assertArgumentError(() => api.seq2seqInit({ architecture: 'transformer', heads: 5 }), 'heads');
  assertArgumentError(() => api.seq2seqInit({ hidden: 31 }), 'hidden');
  assertArgumentError(() => api.seq2seqInit({ task: 'dates', sourceVocab: 34 }), 'sourceVocab');
  assertArgumentError(() => api.seq2seqForward(model, { ...batch, sourceLens: [1] }), 'sourceLens');
  assertArgumentError(() => api.seq2seqForward(model, { ...batch, targetIn: batch.targetIn.slice(1) }), 'targetIn');
  assertArgumentError(() => api.seq2seqLoss(model, { ...batch, targetOut: batch.targetOut.map(() => 16) }), 'targetOut');
  assertArgumentError(() => api.seq2seqLoss(model, { ...batch, sourceLens: [0, 1] }), 'sourceLens');
  assertArgumentError(() => api.seq2seqStep(model, batch, { clip: -1 }), 'clip');
  assertArgumentError(() => api.seq2seqStep(model, batch, { lr: Number.NaN }), 'lr');
  assertArgumentError(() => api.seq2seqTrain(model, { task: 'dates' }), 'task');
  assertArgumentError(() => api.seq2seqTrain(model, { steps: 0 }), 'steps');
  assertArgumentError(() => api.seq2seqTrain(model, { steps: 10000 }), 'steps');
  assertArgumentError(() => api.seq2seqTrain(model, { heldOut: 1e6 }), 'heldOut');
  const nan = Float64Array.from(model.params['decoder.dense.bias']);
  nan[1] = Number.NaN;
  assertArgumentError(() => api.seq2seqLoss({ ...model, params: { ...model.params, 'decoder.dense.bias': nan } }, batch),
    'params.decoder.dense.bias');
  assertStillWorks();
});

test('memory returns to its level after every call', () => {
  const model = api.seq2seqInit({ ...small });
  const batch = api.seq2seqTaskBatch({ task: 'numbers-en-zh', batch: 4, seed: 0 });
  api.seq2seqTrain(model, { steps: 2, batch: 4, heldOut: 8 });
  const before = api.memoryStats();
  for (let k = 0; k < 3; k += 1) {
    api.seq2seqForward(model, batch);
    api.seq2seqLoss(model, batch);
    api.seq2seqTrain(model, { steps: 2, batch: 4, heldOut: 8 });
    api.seq2seqTranslate(model, api.seq2seqSourceFromText('numbers-en-zh', '15'));
    assert.throws(() => api.seq2seqLoss(model, { ...batch, sourceLens: [0, 0, 0, 0] }));
  }
  const after = api.memoryStats();
  assert.equal(after.allocatedBytes, before.allocatedBytes);
  assert.equal(after.liveHandles, before.liveHandles);
});

// A batch this large holds more than the core's workspace keeps between
// calls: its buffers still last from the forward pass to the backward pass.
test('a large batch trains in both architectures, and memory returns to its level', () => {
  for (const architecture of ['transformer', 'bahdanau']) {
    const model = api.seq2seqInit({ architecture });
    const before = api.memoryStats();
    const run = api.seq2seqTrain(model, { steps: 1, batch: 600, heldOut: 8 });
    assert.ok(Number.isFinite(run.loss[0]) && run.loss[0] > 0, `${architecture}: loss ${run.loss[0]}`);
    assert.equal(api.memoryStats().allocatedBytes, before.allocatedBytes, architecture);
  }
  assertStillWorks();
});

// Each architecture in calls with the defaults (50 steps: a call's work must
// allow them): d2l's one-directional GRU reaches 97 % by about step 250, the
// bidirectional one and the Transformer 95 % by about 100 to 150.
for (const [name, config] of [['the default (bidirectional GRU)', {}], ['d2l\'s one-directional GRU', { bidirectional: false }],
  ['the Transformer', { architecture: 'transformer' }]]) {
  test(`${name} learns numbers-en-zh: at least 95 % held-out exact match`, () => {
    let model = api.seq2seqInit(config);
    let run;
    for (let step = 0; step < 600 && !(run?.heldOutAccuracy >= 0.95); step += 50) {
      run = api.seq2seqTrain(model);
      model = run.model;
    }
    assert.ok(run.heldOutAccuracy >= 0.95, `held-out exact match ${run.heldOutAccuracy} after ${model.optimizerState.step} steps`);
    assert.ok(run.heldOutBleu >= 0.95);
    const v = api.seq2seqVocabulary('numbers-en-zh');
    const { tokens } = api.seq2seqTranslate(model, api.seq2seqSourceFromText('numbers-en-zh', '4782'));
    assert.deepEqual(words(v.target, tokens).join(''), '四千七百八十二');
  });
}

// Steps each scoring of `config` takes to 95 % held-out exact match on
// numbers, seeds 0 to 4, with the translation section's recipe
// (translation/setup.js): batch 64, Adam at 0.005, clipping at 1, the first
// 200 held-out pairs every 25 steps; null where it did not within `limit`.
function scoringRace(config, scorings, limit) {
  const stepsTo = Object.fromEntries(scorings.map((scoring) => [scoring, []]));
  for (const scoring of scorings) {
    for (let seed = 0; seed < 5; seed += 1) {
      let model = api.seq2seqInit({ ...config, task: 'numbers-en-zh', scoring, seed });
      let reached = null;
      for (let done = 0; done < limit && reached === null; done += 25) {
        const run = api.seq2seqTrain(model, {
          task: 'numbers-en-zh', steps: 25, batch: 64, lr: 0.005, clip: 1, seed, evalEvery: 25, heldOut: 200,
        });
        model = run.model;
        if (run.heldOutAccuracy >= 0.95) reached = done + 25;
      }
      stepsTo[scoring].push(reached);
    }
  }
  console.log(`${config.architecture ?? 'bahdanau'}${config.cell ? ` ${config.cell}` : ''}: steps to 95 % held-out exact match, seeds 0-4: ` +
    scorings.map((scoring) => `${scoring} ${stepsTo[scoring].join(' ')}`).join('; '));
  for (const scoring of scorings) assert.ok(stepsTo[scoring].every((steps) => steps !== null), `${scoring}: ${stepsTo[scoring]}`);
  return stepsTo;
}

// What the dot-scoring and head-scoring exercises race (d2l 10.4, exercise 2;
// 10.7, exercise 2) and docs/exercises.md says of them: no answer holds for every seed.
test('scoring: additive and dot-product attention both reach 95 % held-out exact match on numbers within 250 steps, neither always first (five seeds)', () => {
  const stepsTo = scoringRace({ bidirectional: true }, ['additive', 'dot'], 250);
  const dotFirst = stepsTo.dot.map((steps, seed) => steps < stepsTo.additive[seed]);
  assert.ok(dotFirst.some(Boolean) && !dotFirst.every(Boolean), `the dot product first on seeds ${dotFirst}: no answer holds for every seed`);
});

test('cell: GRU and LSTM translators both reach 95 % held-out exact match on numbers within 350 steps (five seeds)', () => {
  // What the lstm-cell exercise races (d2l 10.4, exercise 1): at the defaults the GRU is first on every
  // seed (docs/exercises.md says so); the exercise judges the runs on screen whichever it is.
  const stepsTo = scoringRace({ bidirectional: true, cell: 'gru' }, ['additive'], 350);
  const lstm = scoringRace({ bidirectional: true, cell: 'lstm' }, ['additive'], 350);
  assert.ok(stepsTo.additive.every((steps, seed) => steps < lstm.additive[seed]),
    `the GRU first on every seed: ${stepsTo.additive} against ${lstm.additive}`);
});

test('the Transformer\'s heads: dot-product and additive scoring both reach 95 % held-out exact match on numbers within 250 steps, neither always first (five seeds)', () => {
  const stepsTo = scoringRace({ architecture: 'transformer' }, ['dot', 'additive'], 250);
  const additiveFirst = stepsTo.additive.map((steps, seed) => steps < stepsTo.dot[seed]);
  assert.ok(additiveFirst.some(Boolean) && !additiveFirst.every(Boolean),
    `additive heads first on seeds ${additiveFirst}: no answer holds for every seed`);
});
