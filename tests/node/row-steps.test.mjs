// One row of a trained model's map taken apart, through the JS API (wasm):
// attentionModelRowSteps and seq2seqRowSteps against the forward pass of the
// same batch (the softmax row is the map's row, to 1e-12) and PyTorch's maps
// (tests/references), the steps holding together, and hostile choices (NaN,
// out of range, wrong types) refused by name with memory back at its level.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { api, assertArgumentError, assertClose, f64 } from './helpers.mjs';

const modelReferences = JSON.parse(readFileSync(new URL('../references/model_references.json', import.meta.url), 'utf8'));
const seq2seqReferences = JSON.parse(readFileSync(new URL('../references/seq2seq_references.json', import.meta.url), 'utf8'));
const int32 = (list) => Int32Array.from(list);

function encoderOf(c) {
  const params = Object.fromEntries(Object.entries(c.params).map(([name, values]) => [name, f64(values)]));
  return { config: { ...c.config, seed: 0 }, params };
}

function translatorOf(c) {
  const params = Object.fromEntries(c.params.map(({ name, values }) => [name, f64(values)]));
  return { config: { ...c.config, task: null, seed: 0 }, params };
}

const batchOf = (c) => ({
  source: int32(c.source), sourceLens: int32(c.sourceLens), targetIn: int32(c.targetIn), targetOut: int32(c.targetOut),
  targetLens: int32(c.targetLens),
});

// What holds for every row: the mask from the visible keys, weights that
// sum to 1 with exactly 0 where masked, the output their sum of the values.
function assertRowHolds(steps, label) {
  const n = steps.keyCount;
  assert.equal(steps.scores.length, n);
  let total = 0;
  for (let j = 0; j < n; j += 1) {
    assert.equal(steps.maskedScores[j], steps.visible[j] ? steps.scores[j] : -1e6, `${label} key ${j}`);
    if (!steps.visible[j]) assert.equal(steps.weights[j], 0, `${label}: a masked key weighs exactly 0`);
    total += steps.weights[j];
  }
  assert.ok(Math.abs(total - 1) < 1e-12, `${label}: weights sum to ${total}`);
  const sum = Array.from({ length: steps.valueDim }, (_, c) => {
    let s = 0;
    for (let j = 0; j < n; j += 1) s += steps.weights[j] * steps.values[j * steps.valueDim + c];
    return s;
  });
  assertClose(steps.output, sum, 1e-12, `${label} output`);
}

test('attentionModelRowSteps: each row\'s softmax is the map\'s row of the forward pass and PyTorch\'s', () => {
  let rows = 0;
  for (const c of modelReferences.model) {
    const model = encoderOf(c);
    const options = { batch: c.batch, validLens: c.validLens, causal: c.causal, headsOff: c.headsOff ?? null };
    const { weights } = api.attentionModelForward(model, int32(c.tokens), options);
    const { length: n, heads, blocks, hidden } = model.config;
    // Every head of every block, a query that varies with them (all rows are checked natively).
    for (let block = 0; block < blocks; block += 1) {
      for (let item = 0; item < c.batch; item += 1) {
        for (let head = 0; head < heads; head += 1) {
          const query = (item + head + block) % n;
          const steps = api.attentionModelRowSteps(model, int32(c.tokens), options, { block, item, head, query });
          const row = (((block * c.batch + item) * heads + head) * n + query) * n;
          const label = `${c.name} b${block} i${item} h${head} q${query}`;
          assertClose(steps.weights, weights.subarray(row, row + n), 1e-12, label);
          assertClose(steps.weights, c.weights.slice(row, row + n), 1e-12, `${label} vs PyTorch`);
          assert.equal(steps.scoring, 'dot');
          assert.equal(steps.queryDim, hidden / heads);
          assert.equal(steps.scale, Math.sqrt(hidden / heads));
          assert.equal(steps.causal, c.causal);
          const valid = c.validLens ? c.validLens[item] : n;
          assert.equal(steps.validLength, valid);
          const seen = c.causal ? Math.min(valid, query + 1) : valid;
          assert.deepEqual(Array.from(steps.visible), Array.from({ length: n }, (_, j) => (j < seen ? 1 : 0)));
          for (let j = 0; j < n; j += 1) {
            let product = 0;
            for (let k = 0; k < steps.queryDim; k += 1) product += steps.query[k] * steps.keys[j * steps.queryDim + k];
            assert.ok(Math.abs(steps.scores[j] - product / steps.scale) < 1e-12, `${label}: score ${j} is q·k/√d`);
          }
          assert.equal(steps.projectedQuery.length, 0, 'no additive fields for dot products');
          assertRowHolds(steps, label);
          rows += 1;
        }
      }
    }
  }
  assert.ok(rows > 100, `${rows} rows`);
});

test('seq2seqRowSteps: Bahdanau\'s additive or dot-product rows and the Transformer\'s cross and self rows are the maps\' rows', () => {
  for (const c of seq2seqReferences.cases) {
    const model = translatorOf(c);
    const batch = batchOf(c);
    const forward = api.seq2seqForward(model, batch);
    const transformer = c.config.architecture === 'transformer';
    const heads = transformer ? c.config.heads : 1;
    const blocks = transformer ? c.config.blocks : 1;
    const T = c.config.targetLength;
    for (const attention of transformer ? ['cross', 'self'] : ['cross']) {
      const S = attention === 'self' ? T : c.config.sourceLength;
      const map = attention === 'self' ? forward.selfWeights : forward.crossWeights;
      for (let block = 0; block < blocks; block += 1) {
        for (let item = 0; item < c.batch; item += 1) {
          for (let query = 0; query < T; query += 1) {
            const head = (item + query) % heads;
            const steps = api.seq2seqRowSteps(model, batch, { block, item, head, query, attention });
            const row = (((block * c.batch + item) * heads + head) * T + query) * S;
            const label = `${c.name} ${attention} b${block} i${item} h${head} t${query}`;
            assertClose(steps.weights, map.subarray(row, row + S), 1e-12, label);
            const pytorch = c[attention === 'self' ? 'selfWeights' : 'crossWeights'].values;
            assertClose(steps.weights, pytorch.slice(row, row + S), 1e-12, `${label} vs PyTorch`);
            // The architecture's own scoring, or the other (a Transformer's additive heads share one of hidden / heads).
            const additive = (c.config.scoring ?? (transformer ? 'dot' : 'additive')) === 'additive';
            assert.equal(steps.scoring, additive ? 'additive' : 'dot');
            if (additive) {
              assert.equal(steps.hidden, c.config.hidden / heads);
              assert.equal(steps.features.length, S * steps.hidden);
              for (let j = 0; j < S; j += 1) {
                let score = 0;
                for (let r = 0; r < steps.hidden; r += 1) score += steps.wV[r] * steps.features[j * steps.hidden + r];
                assert.ok(Math.abs(score - steps.scores[j]) < 1e-12, `${label}: score ${j} is w_v·tanh(...)`);
              }
            }
            assertRowHolds(steps, label);
          }
        }
      }
    }
  }
});

test('row steps: hostile choices are refused by name; the module and memory stay as they were', () => {
  const c = modelReferences.model[0];
  const model = encoderOf(c);
  const tokens = int32(c.tokens);
  const options = { batch: c.batch };
  const rowSteps = (choice) => api.attentionModelRowSteps(model, tokens, options, choice);
  rowSteps({ query: 0 }); // the buffers' first use, before the baseline
  const before = api.memoryStats();
  assertArgumentError(() => rowSteps(undefined), 'choice');
  assertArgumentError(() => rowSteps([0, 0, 0, 0]), 'choice');
  assertArgumentError(() => rowSteps({}), 'query');
  assertArgumentError(() => rowSteps({ query: NaN }), 'query');
  assertArgumentError(() => rowSteps({ query: '1' }), 'query');
  assertArgumentError(() => rowSteps({ query: 0.5 }), 'query');
  assertArgumentError(() => rowSteps({ query: -1 }), 'query');
  assertArgumentError(() => rowSteps({ query: model.config.length }), 'query');
  assertArgumentError(() => rowSteps({ query: 0, head: NaN }), 'head');
  assertArgumentError(() => rowSteps({ query: 0, head: model.config.heads }), 'head');
  assertArgumentError(() => rowSteps({ query: 0, head: Infinity }), 'head');
  assertArgumentError(() => rowSteps({ query: 0, block: model.config.blocks }), 'block');
  assertArgumentError(() => rowSteps({ query: 0, item: c.batch }), 'item');
  assertArgumentError(() => rowSteps({ query: 0, item: 2 ** 40 }), 'item');
  assertArgumentError(() => rowSteps({ get query() { throw new Error('a getter'); } }), 'query');
  assertArgumentError(() => api.attentionModelRowSteps(model, [1, 2, 99], options, { query: 0 }), 'tokens');
  assert.deepEqual(api.memoryStats(), before);

  const s = seq2seqReferences.cases.find(({ config }) => config.architecture === 'bahdanau');
  const translator = translatorOf(s);
  const batch = batchOf(s);
  api.seq2seqRowSteps(translator, batch, { query: 0 });
  const translatorBefore = api.memoryStats();
  assertArgumentError(() => api.seq2seqRowSteps(translator, batch, { query: NaN }), 'query');
  assertArgumentError(() => api.seq2seqRowSteps(translator, batch, { query: s.config.targetLength }), 'query');
  assertArgumentError(() => api.seq2seqRowSteps(translator, batch, { query: 0, head: 1 }), 'head');
  assertArgumentError(() => api.seq2seqRowSteps(translator, batch, { query: 0, block: 1 }), 'block');
  assertArgumentError(() => api.seq2seqRowSteps(translator, batch, { query: 0, attention: 'self' }), 'attention');
  assertArgumentError(() => api.seq2seqRowSteps(translator, batch, { query: 0, attention: 3 }), 'attention');
  assertArgumentError(() => api.seq2seqRowSteps(translator, { ...batch, sourceLens: int32([99]) }, { query: 0 }), 'sourceLens');
  assert.deepEqual(api.memoryStats(), translatorBefore);
  // Still working after all of that.
  assert.equal(rowSteps({ query: 1 }).keyCount, model.config.length);
});
