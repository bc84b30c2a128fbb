// Hostile inputs an adversarial review of the JS API once found held badly,
// each a named test (the table in hostile-input.test.mjs covers the sizes
// that must be refused before anything is copied): training that diverged
// in silence, values the core accepted that broke a model, error messages
// that quoted another value than the caller's, echoed strings of any
// length, inherited options, and typed arrays out of their buffer's bounds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';

import {
  api, assertArgumentError, assertStillWorks, QUOTE_ESCAPES, QUOTE_LIMIT, unquote,
  GENERAL_CATEGORIES, codePointsByCategory,
} from './helpers.mjs';

const finite = (array) => Array.from(array).every(Number.isFinite);
const allFinite = (model) => Object.values(model.params).every(finite);
const MAX_STEP = 2 ** 53 - 1;

// Trains from `model` in calls of `chunk` steps until `steps` steps or a stop.
function trainInChunks(model, options, steps, chunk) {
  let current = model;
  const losses = [];
  let stopReason = null;
  while (losses.length < steps && stopReason === null) {
    const result = api.attentionModelTrain(current, { ...options, steps: Math.min(chunk, steps - losses.length) });
    losses.push(...result.loss);
    current = result.model;
    ({ stopReason } = result);
  }
  return { model: current, losses, stopReason };
}

// What a learner sees of a model: its predictions and maps on a batch.
function forwardIsFinite(model) {
  const { tokens } = api.attentionTaskBatch({ batch: 4, length: model.config.length, vocab: model.config.vocab });
  const out = api.attentionModelForward(model, tokens, { batch: 4 });
  return finite(out.logits) && finite(out.weights);
}

test('a diverging training run stops at its last finite model and says why', () => {
  const result = api.attentionModelTrain(api.attentionModelInit(), { optimizer: 'sgd', lr: 1, steps: 100 });
  assert.match(result.stopReason, /^training stopped after step \d+: .*try a smaller learning rate/);
  const step = result.model.optimizerState.step;
  assert.ok(step > 0 && step < 100, `stopped after ${step} steps`);
  assert.equal(result.loss.length, step, 'one loss per step taken');
  assert.ok(finite(result.loss), 'every loss reported is finite');
  assert.ok(allFinite(result.model), 'every parameter is finite');
  assert.ok(result.heldOutAccuracy === null || Number.isFinite(result.heldOutAccuracy));
  assert.ok(result.evaluatedAt.every((at) => at <= step), 'no evaluation of an undone step');
  // The model returned is usable: the next call takes it, and its maps are numbers.
  assert.ok(forwardIsFinite(result.model));
  const again = api.attentionModelTrain(result.model, { optimizer: 'sgd', lr: 1, steps: 5 });
  assert.equal(again.loss.length, 0, 'the same step diverges again: nothing is taken');
  assert.equal(again.model.optimizerState.step, step);
  assert.ok(again.stopReason);
});

test('a diverging run stops at the same step with the same model however it is cut into calls', () => {
  const options = { optimizer: 'sgd', lr: 1, evaluateAtEnd: false };
  const whole = trainInChunks(api.attentionModelInit(), options, 100, 100);
  for (const chunk of [1, 3, 7]) {
    const cut = trainInChunks(api.attentionModelInit(), options, 100, chunk);
    assert.equal(cut.model.optimizerState.step, whole.model.optimizerState.step, `chunks of ${chunk}`);
    assert.deepEqual(cut.losses, whole.losses, `chunks of ${chunk}: losses`);
    assert.deepEqual(cut.model.params, whole.model.params, `chunks of ${chunk}: parameters`);
    assert.ok(cut.stopReason);
  }
});

test('SGD at learning rates up to the limit, and d2l\'s embedding scale, stop instead of going NaN', () => {
  const runs = [];
  for (const lr of [10, 100, 1000]) {
    for (const task of ['reverse', 'sort', 'lookup']) runs.push([`SGD lr ${lr} on ${task}`, {}, { optimizer: 'sgd', lr, task }]);
  }
  runs.push(['d2l\'s embedding scale', { embeddingScale: Math.sqrt(32) }, { optimizer: 'sgd', lr: 1 }]);
  for (const [label, config, options] of runs) {
    const result = trainInChunks(api.attentionModelInit(config), options, 100, 5);
    assert.ok(result.stopReason, `${label}: no stop reason`);
    assert.ok(finite(result.losses) && allFinite(result.model), `${label}: not finite`);
    assert.ok(forwardIsFinite(result.model), `${label}: the model's maps are not finite`);
  }
});

test('a run that does not diverge has no stop reason', () => {
  const result = api.attentionModelTrain(api.attentionModelInit(), { steps: 20 });
  assert.equal(result.stopReason, null);
  assert.equal(result.loss.length, 20);
});

test('negative Adam second moments are refused, naming the moment', () => {
  const model = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
  const tokens = [1, 2, 3, 4];
  const { model: trained } = api.attentionModelStep(model, tokens, tokens);
  const v = Float64Array.from(trained.optimizerState.v);
  v[3] = -1e-12;
  const error = assertArgumentError(() => api.attentionModelStep({ ...trained,
    optimizerState: { ...trained.optimizerState, v } }, tokens, tokens), 'optimizerState.v', 'second moments >= 0');
  assert.equal(error.index, 3);
  assert.equal(error.got, '-1e-12');
  assertArgumentError(() => api.attentionModelTrain({ ...trained, optimizerState: { ...trained.optimizerState,
    v: trained.optimizerState.v.map(() => -1) } }, { steps: 1 }), 'optimizerState.v');
});

test('an error quotes the value the caller gave, as String() writes it', () => {
  const model = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
  const cases = [
    ['n', 10000.000001, () => api.makeDataset({ n: 10000.000001 })],
    ['n', 10000.5, () => api.makeDataset({ n: 10000.5 })],
    ['xMax', 1000.0000000001, () => api.makeDataset({ xMax: 1000.0000000001 })],
    ['seed', 4294967295.5, () => api.makeDataset({ seed: 4294967295.5 })],
    ['lr', 1000.0000001, () => api.attentionModelStep(model, [1, 2, 3, 4], [1, 2, 3, 4], { lr: 1000.0000001 })],
    ['x', 1000.0000000001, () => api.truth([1000.0000000001])],
    ['embeddingScale', 1000.00000001, () => api.attentionModelInit({ embeddingScale: 1000.00000001 })],
    ['std', 1000000.0000001, () => api.randomNormal(3, { std: 1000000.0000001 })],
    ['high', 1e-7 + 2e-7, () => api.randomUniform(3, { low: 1e-7 + 2e-7, high: 1e-7 + 2e-7 })],
  ];
  for (const [argument, value, call] of cases) {
    const error = assertArgumentError(call, argument);
    assert.equal(error.got, String(value), `${argument}: got "${error.got}" for ${value}`);
    assert.ok(error.message.includes(`, got ${String(value)}`), error.message);
  }
});

test('one rule for the optimiser\'s step count: within 2^53 - 1 after the call, as the caller gave it', () => {
  const model = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
  const tokens = [1, 2, 3, 4];
  const at = (step) => ({ ...model, optimizerState: { step, m: null, v: null } });
  // The largest count a step can start from, and its result handed back.
  const last = api.attentionModelStep(at(MAX_STEP - 1), tokens, tokens);
  assert.equal(last.model.optimizerState.step, MAX_STEP);
  assert.ok(Number.isFinite(api.attentionModelLoss(last.model, tokens, tokens).loss));
  let error = assertArgumentError(() => api.attentionModelStep(last.model, tokens, tokens), 'optimizerState.step');
  assert.equal(error.got, String(MAX_STEP));
  error = assertArgumentError(() => api.attentionModelTrain(at(MAX_STEP - 1), { steps: 3 }), 'optimizerState.step');
  assert.equal(error.got, String(MAX_STEP - 1), 'the step the caller passed, not one the run reached');
  assert.match(error.expected, /^a step count in \[0, 9007199254740988\]/);
  assert.equal(api.attentionModelTrain(at(MAX_STEP - 3), { steps: 3 }).model.optimizerState.step, MAX_STEP);
  assertArgumentError(() => api.attentionModelStep(at(2 ** 53), tokens, tokens), 'optimizerState.step',
    'got 9007199254740992');
});

test('batchMatrixProduct refuses a product that overflows, as the attention layers do', () => {
  const error = assertArgumentError(() => api.batchMatrixProduct([1e308, 1e308], [1e308, 1e308],
    { shapeX: [1, 1, 2], shapeY: [1, 2, 1] }), 'X', 'stay finite');
  assert.equal(error.got, 'an entry of Infinity (batch item 0, row 0, column 0)');
  assertArgumentError(() => api.dotProductAttention({ queries: [1e200], keys: [1e200], values: [1],
    shape: { batch: 1, nq: 1, nk: 1, d: 1, dv: 1 }, validLens: null }), 'queries', 'stay finite');
});

test('every string the API echoes is cut the same way, however long', () => {
  const long = `${'q'.repeat(50)}${'z'.repeat(1 << 20)}`;
  const quotedCut = `'${'q'.repeat(50)}${'z'.repeat(150)}\u2026'`;
  const model = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
  const tokens = [1, 2, 3, 4];
  const params = { ...model.params, [long]: model.params.embedding };
  delete params.embedding;
  const calls = [
    ['kernel', () => api.nadarayaWatson([1], [1], [1], { kernel: long })],
    ['optimizer', () => api.attentionModelStep(model, tokens, tokens, { optimizer: long })],
    ['optimizer', () => api.attentionModelTrain(model, { optimizer: long })],
    ['task', () => api.attentionTaskBatch({ task: long })],
    ['task', () => api.attentionModelTrain(model, { task: long })],
    ['params', () => api.attentionModelForward({ ...model, params }, tokens)],
  ];
  for (const [argument, call] of calls) {
    const error = assertArgumentError(call, argument);
    assert.equal(error.got, quotedCut, `${argument}: ${error.message.slice(0, 300)}`);
    assert.ok(error.message.length < 400, `${argument}: a message of ${error.message.length} characters`);
  }
});

test('a name with a lone surrogate is quoted as written, escaped', () => {
  const model = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
  const params = { ...model.params, '\uD800': model.params.embedding, 'b\uDC00': model.params.readout };
  delete params.embedding;
  delete params.readout;
  const error = assertArgumentError(() => api.attentionModelForward({ ...model, params }, [1, 2, 3, 4]), 'params');
  assert.equal(error.got, "'\\uD800'");
  assert.ok(!error.message.includes('\u{10000}'));
  assert.equal(assertArgumentError(() => api.attentionTaskBatch({ task: 'rev\uDBFFerse' }), 'task').got, "'rev\\uDBFFerse'");
  // A well-formed pair is a character like any other.
  assert.equal(assertArgumentError(() => api.attentionTaskBatch({ task: '\u{1F600}' }), 'task').got, "'\u{1F600}'");
});

test('options are read as own properties: what other code puts on Object.prototype changes nothing', () => {
  const plain = {
    pooled: api.nadarayaWatson([1], [0, 2], [1, 3]),
    dataset: api.makeDataset(),
    trained: api.attentionModelTrain(api.attentionModelInit(), { steps: 2 }).loss,
  };
  const inherited = { kernel: 'boxcar', w: 7, n: 3, seed: 5, optimizer: 'sgd', lr: 1, steps: 9, config: {}, validLens: [0] };
  try {
    Object.assign(Object.prototype, inherited); // eslint-disable-line no-extend-native
    assert.deepEqual(api.nadarayaWatson([1], [0, 2], [1, 3]), plain.pooled);
    assert.deepEqual(api.nadarayaWatson([1], [0, 2], [1, 3], {}), plain.pooled);
    assert.deepEqual(api.makeDataset({}), plain.dataset);
    assert.deepEqual(api.attentionModelTrain(api.attentionModelInit(), { steps: 2 }).loss, plain.trained);
  } finally {
    for (const key of Object.keys(inherited)) delete Object.prototype[key];
  }
  assertStillWorks();
});

test('a typed array out of its shrunk resizable buffer\'s bounds is refused, not read as empty', () => {
  const buffer = new ArrayBuffer(32, { maxByteLength: 64 });
  const fixed = new Float64Array(buffer, 0, 4);
  const tracking = new Float64Array(buffer, 16);
  const integers = new Int32Array(buffer, 0, 4);
  fixed.set([1, 2, 3, 4]);
  assert.equal(api.truth(tracking).length, 2, 'in bounds, a tracking view reads as its elements');
  buffer.resize(8);
  for (const [label, array] of [['a fixed-length view', fixed], ['a length-tracking view past the end', tracking]]) {
    const error = assertArgumentError(() => api.truth(array), 'x', 'out of its resizable buffer');
    assert.equal(error.expected, 'an array within its buffer', label);
  }
  assertArgumentError(() => api.attentionWeights([1], [1], { out: fixed }), 'out', 'out of its resizable buffer');
  buffer.resize(12);
  assertArgumentError(() => api.averagePool(integers, 2), 'values', 'out of its resizable buffer');
  // Empty but in bounds: an empty array, as before.
  buffer.resize(16);
  assert.equal(api.truth(new Float64Array(buffer, 16)).length, 0);
});

// The translators under SGD at the largest learning rate without clipping.
// The Transformer diverges as the encoder does: it stops at the last finite
// model, with a stop reason, at the same step however the run is cut into
// calls. The Bahdanau model's GRU saturates: its loss grows but stays finite,
// so it trains on; handed a readout whose logits overflow, it stops before
// its first step with the model as given.
const TRANSLATOR = { task: 'reverse', hidden: 8, embed: 8, layers: 1, heads: 2, ffnHidden: 16, blocks: 1 };
const DIVERGING = { task: 'reverse', optimizer: 'sgd', lr: 1000, clip: 0, batch: 8, heldOut: 8, evalEvery: 4 };

function trainTranslatorInChunks(model, options, steps, chunk) {
  let current = model;
  const losses = [];
  let stopReason = null;
  while (losses.length < steps && stopReason === null) {
    const result = api.seq2seqTrain(current, { ...options, steps: Math.min(chunk, steps - losses.length) });
    assert.equal(result.loss.length, result.model.optimizerState.step - current.optimizerState.step);
    losses.push(...result.loss);
    current = result.model;
    ({ stopReason } = result);
  }
  return { model: current, losses, stopReason };
}

// What a learner sees of a translator: its logits and maps on held-out pairs, and a translation.
function translatorIsFinite(model, task) {
  const pairs = api.seq2seqHeldOut({ task, count: 4 });
  const out = api.seq2seqForward(model, pairs);
  const { crossWeights } = api.seq2seqTranslate(model, pairs.source, { sourceLens: pairs.sourceLens });
  return [out.logits, out.crossWeights, out.selfWeights, out.encoderWeights, crossWeights].every(finite);
}

test('a diverging Transformer translator stops at its last finite model and says why', () => {
  const init = api.seq2seqInit({ ...TRANSLATOR, architecture: 'transformer' });
  const result = api.seq2seqTrain(init, { ...DIVERGING, steps: 40 });
  assert.match(result.stopReason, /^training stopped after step \d+: .*try a smaller learning rate/);
  const { step } = result.model.optimizerState;
  assert.ok(step > 0 && step < 40, `stopped after ${step} steps`);
  assert.ok(result.stopReason.startsWith(`training stopped after step ${step}:`), result.stopReason);
  assert.equal(result.loss.length, step, 'one loss per step taken');
  assert.ok(finite(result.loss), 'every loss reported is finite');
  assert.ok(allFinite(result.model), 'every parameter is finite');
  assert.ok(result.evaluatedAt.every((at) => at <= step), 'no evaluation of an undone step');
  assert.ok(finite(result.accuracy) && finite(result.bleu));
  assert.ok(Number.isFinite(result.heldOutAccuracy) && Number.isFinite(result.heldOutBleu), 'evaluated at the end');
  assert.ok(translatorIsFinite(result.model, 'reverse'), 'the model returned gives finite logits and maps');
  // The next call takes the model and stops at once: the same step diverges again.
  const again = api.seq2seqTrain(result.model, { ...DIVERGING, steps: 5 });
  assert.equal(again.loss.length, 0, 'nothing is taken');
  assert.equal(again.model.optimizerState.step, step);
  assert.deepEqual(again.model.params, result.model.params);
  assert.equal(again.stopReason, result.stopReason);
});

test('a diverging Transformer translator stops at the same step with the same model however it is cut into calls', () => {
  const init = api.seq2seqInit({ ...TRANSLATOR, architecture: 'transformer' });
  const options = { ...DIVERGING, evaluateAtEnd: false };
  const whole = trainTranslatorInChunks(init, options, 40, 40);
  assert.ok(whole.stopReason, 'the run diverges');
  for (const chunk of [1, 3, 7]) {
    const cut = trainTranslatorInChunks(init, options, 40, chunk);
    assert.equal(cut.model.optimizerState.step, whole.model.optimizerState.step, `chunks of ${chunk}`);
    assert.deepEqual(cut.losses, whole.losses, `chunks of ${chunk}: losses`);
    assert.deepEqual(cut.model.params, whole.model.params, `chunks of ${chunk}: parameters`);
    assert.equal(cut.stopReason, whole.stopReason, `chunks of ${chunk}: stop reason`);
  }
});

test('a Bahdanau translator whose logits overflow stops before its first step, the model as given', () => {
  const init = api.seq2seqInit({ ...TRANSLATOR, architecture: 'bahdanau' });
  const dense = init.params['decoder.dense.weight'].map((w) => w * 1e300);
  const model = { ...init, params: { ...init.params, 'decoder.dense.weight': dense } };
  for (const chunk of [1, 5]) {
    const result = api.seq2seqTrain(model, { ...DIVERGING, steps: chunk });
    assert.match(result.stopReason, /^training stopped after step 0: /);
    assert.equal(result.loss.length, 0);
    assert.equal(result.model.optimizerState.step, 0);
    assert.deepEqual(result.model.params, model.params, 'the model as it was handed in');
    assert.deepEqual(Array.from(result.evaluatedAt), []);
  }
});

test('translators trained with SGD up to the largest learning rate, on every task, stay finite; the Transformer stops', () => {
  for (const architecture of ['bahdanau', 'transformer']) {
    for (const task of ['numbers-en-zh', 'numbers-zh-en', 'dates', 'reverse', 'sort']) {
      for (const lr of [100, 1000]) {
        const label = `${architecture} on ${task}, SGD lr ${lr}`;
        const init = api.seq2seqInit({ ...TRANSLATOR, architecture, task });
        const result = trainTranslatorInChunks(init, { ...DIVERGING, task, lr }, 30, 10);
        if (architecture === 'transformer') assert.ok(result.stopReason, `${label}: no stop reason`);
        else assert.ok(result.stopReason === null || result.losses.length < 30, label);
        assert.ok(finite(result.losses) && allFinite(result.model), `${label}: not finite`);
        assert.ok(translatorIsFinite(result.model, task), `${label}: the model's maps are not finite`);
      }
    }
  }
});

test('a translator whose config leaves its sizes to its task translates as with them', () => {
  for (const architecture of ['bahdanau', 'transformer']) {
    const model = api.seq2seqInit({ ...TRANSLATOR, architecture });
    const sized = api.seq2seqTranslate(model, [3, 4, 5, 2]);
    const bare = { ...model, config: { ...model.config, sourceVocab: null, targetVocab: null, sourceLength: null,
      targetLength: null } };
    // One source shorter than the rows, padded to the task's length; maxLength the task's target length.
    assert.deepEqual(api.seq2seqTranslate(bare, [3, 4, 5, 2]), sized, architecture);
  }
});

test('a typed source is read whole: words after the 64th character count', () => {
  const spaced = `1 2 3${' '.repeat(70)}4`;
  assert.deepEqual(Array.from(api.seq2seqSourceFromText('reverse', spaced)),
    Array.from(api.seq2seqSourceFromText('reverse', '1 2 3 4')));
  assertArgumentError(() => api.seq2seqSourceFromText('reverse', `1 2 3 4 5 6 7${' '.repeat(60)}8`), 'text',
    'at most 7 source words');
  // A lone surrogate is quoted as written, escaped, not replaced.
  assert.equal(assertArgumentError(() => api.seq2seqSourceFromText('numbers-en-zh', 'four \uD800'), 'text').got, "'four \\uD800'");
});

test('a refused typed text is quoted as typed: whole, its lone surrogates and direction marks escaped', () => {
  const got = (task, typed) => assertArgumentError(() => api.seq2seqSourceFromText(task, typed), 'text').got;
  // Once '\\' (the escape cut after its backslash), '4782' of '-4782' (digits refused as no digits), '4' of '4-7-8-2'.
  assert.equal(got('numbers-zh-en', '\uD800四'), "'\\uD800四'");
  assert.equal(got('numbers-en-zh', '-4782'), "'-4782'");
  assert.equal(got('numbers-en-zh', '4782-'), "'4782-'");
  assert.equal(got('numbers-zh-en', '4-7-8-2'), "'4-7-8-2'");
  // Once echoed raw: U+202E reversed the rest of the message where the page shows it.
  assert.equal(got('numbers-en-zh', 'four\u202Ethousand'), "'four\\u202Ethousand'");
  assert.equal(got('reverse', '\u200F12'), "'\\u200F12'");
  const { message } = assertArgumentError(() => api.seq2seqSourceFromText('dates', '\u2067x\u2069'), 'text');
  assert.doesNotMatch(message, /[\u2066-\u2069\u202a-\u202e\u200e\u200f]/u, message);
});

test('seq2seqTranslate checks the config\'s sourceLength before anything is sized by it', () => {
  const model = api.seq2seqInit({ ...TRANSLATOR, architecture: 'bahdanau' });
  const sizes = { task: null, sourceVocab: 13, targetVocab: 13, targetLength: 8 };
  for (const sourceLength of [NaN, Infinity, 2 ** 32 + 8, -1, 2 ** 31 - 1]) {
    for (const config of [model.config, { ...model.config, ...sizes }]) {
      const before = api.memoryStats();
      // Once RangeError "offset is out of bounds", "Invalid typed array length", or an 8 GB Int32Array.
      assertArgumentError(() => api.seq2seqTranslate({ ...model, config: { ...config, sourceLength } }, [3, 2]), 'sourceLength');
      assert.equal(api.memoryStats().heapBytes, before.heapBytes);
    }
  }
  assertStillWorks();
});

test('the translators\' work bound counts a GRU\'s work as it is done: calls of seconds are refused', () => {
  // Each once accepted, taking 3-8 s where the docs promise about a second
  // (tests/benchmarks/translator-work-bound.bench.mjs times the largest accepted ones).
  const lean = { batch: 1, heldOut: 1, evalEvery: 10000 };
  for (const [config, steps] of [[{ hidden: 512, embed: 512, layers: 1 }, 22], [{ hidden: 256, embed: 256, layers: 4 }, 44],
    [{}, 4241]]) {
    const model = api.seq2seqInit(config);
    assertArgumentError(() => api.seq2seqTrain(model, { ...lean, steps }), 'steps', 'multiply-adds');
  }
});

const TASKS = ['numbers-en-zh', 'numbers-zh-en', 'dates', 'reverse', 'sort'];
const textGot = (task, typed) => assertArgumentError(() => api.seq2seqSourceFromText(task, typed), 'text').got;
const codePoints = (text) => [...text].length;

test('a refused text is quoted whole up to 200 characters in every task, past them around the word at fault', () => {
  // Once cut at 40 bytes: 'four thousand seven hundred and eighty t…', the word at fault behind the ellipsis.
  assert.equal(textGot('numbers-en-zh', 'four thousand seven hundred and eighty two wibble'),
    "'four thousand seven hundred and eighty two wibble'");
  const whole = {
    'numbers-en-zh': 'one two three four five six seven eight nine ten eleven twelve wibble',
    'numbers-zh-en': '四千七百四千七百四千七百 四千七百四千七百x',
    dates: '25 November 20 26 25 November 20 26 25 November Novembre',
    reverse: `${'1 2 3 4 5 6 7 8 9 0 '.repeat(3)}x`,
    sort: `${'1 2 3 4 5 6 7 8 9 0 '.repeat(3)}a`,
  };
  for (const task of TASKS) {
    assert.ok(Buffer.byteLength(whole[task]) > 40);
    assert.equal(textGot(task, whole[task]), `'${whole[task]}'`, task);
  }
  // The word at fault at the end of a text of more than 200 characters: 200 of them, the word among them.
  const long = {
    'numbers-en-zh': [`${'one '.repeat(70)}wibble`, 'wibble'],
    'numbers-zh-en': [`${'四 '.repeat(105)}x`, 'x'],
    dates: [`${'25 '.repeat(75)}Novembre`, 'Novembre'],
    reverse: [`${'1 '.repeat(200)}x 2 3`, 'x'],
    sort: [`${'1 '.repeat(200)}a`, 'a'],
  };
  for (const task of TASKS) {
    const [typed, word] = long[task];
    assert.ok(codePoints(typed) > QUOTE_LIMIT);
    const { text, cutBefore } = unquote(textGot(task, typed));
    assert.ok(cutBefore, task);
    assert.equal(codePoints(text), QUOTE_LIMIT, task);
    assert.ok(typed.includes(text) && text.includes(word), `${task}: ${text}`);
  }
  // A name: 200 characters of four bytes shown whole, one more cut with an ellipsis; the JS API's
  // own cut of a long name never splits a surrogate pair (nor leaves 200 characters that would read as whole).
  const emoji = '\u{1F600}'.repeat(200);
  assert.equal(assertArgumentError(() => api.attentionTaskBatch({ task: emoji }), 'task').got, `'${emoji}'`);
  assert.equal(assertArgumentError(() => api.attentionTaskBatch({ task: `${emoji}\u{1F601}${'z'.repeat(1000)}` }), 'task').got,
    `'${emoji}\u2026'`);
  assert.equal(assertArgumentError(() => api.attentionTaskBatch({ task: `a${'\u{1F600}'.repeat(300)}` }), 'task').got,
    `'a${'\u{1F600}'.repeat(199)}\u2026'`);
});


// The code points assigned in the core's Unicode (the table's, Debian's unicode-data: DerivedAge.txt).
function assignedInCoresUnicode() {
  const ranges = readFileSync('/usr/share/unicode/DerivedAge.txt', 'utf8').split('\n')
    .map((line) => /^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;/.exec(line)).filter(Boolean)
    .map(([, first, last]) => [parseInt(first, 16), parseInt(last ?? first, 16)]);
  return (c) => ranges.some(([first, last]) => c >= first && c <= last);
}

test('invisible characters in a refused text are escaped in every task, every general category read back whole', () => {
  // Each once passed through raw: '\u00AD12' showed as '12'.
  const hex = (c) => c.toString(16).toUpperCase().padStart(4, '0');
  for (const task of TASKS) {
    for (const c of [0x00AD, 0x180E, 0x034F, 0x115F, 0x3164, 0xFFA0, 0xFFF9, 0xE0001, 0xE0041, 0x1D173]) {
      const escape = c > 0xffff ? `\\u{${hex(c)}}` : `\\u${hex(c)}`;
      assert.equal(textGot(task, `${String.fromCodePoint(c)}12`), `'${escape}12'`, `${task}: U+${hex(c)}`);
    }
  }
  // Code points of every general category, spread over each: a quote shows each one, or its escape, and reads
  // back as the text typed; none that shows nothing or reorders text is left raw; a character is escaped only
  // when it is one of those, or unassigned in the core's Unicode (Node's may be newer).
  const byCategory = codePointsByCategory();
  const assigned = assignedInCoresUnicode();
  const anyEscaped = new RegExp(QUOTE_ESCAPES.source, 'gu');
  let escapedNewer = 0;
  for (const category of GENERAL_CATEGORIES) {
    const all = byCategory[category];
    assert.ok(all.length > 0, category);
    const samples = [...new Set(Array.from({ length: 41 }, (_, i) => all[Math.floor((i * (all.length - 1)) / 40)]))];
    for (let at = 0; at < samples.length; at += 20) {
      const typed = `x ${samples.slice(at, at + 20).map((c) => String.fromCodePoint(c)).join(' ')}`;
      const got = textGot('reverse', typed);
      assert.doesNotMatch(got, anyEscaped, `${category}: ${JSON.stringify(got)}`);
      const { text, cutBefore, cutAfter } = unquote(got);
      assert.ok(!cutBefore && !cutAfter, `${category}: cut`);
      assert.equal(text, typed, `${category}: read back`);
      for (const [, bmp, astral] of got.matchAll(/\\u([0-9A-F]{4})|\\u\{([0-9A-F]+)\}/g)) {
        const c = parseInt(bmp ?? astral, 16);
        if (QUOTE_ESCAPES.test(String.fromCodePoint(c))) continue;
        assert.ok(!assigned(c), `${category}: U+${hex(c)} escaped, visible and assigned`);
        escapedNewer += 1;
      }
    }
  }
  console.log(`${GENERAL_CATEGORIES.length} general categories; ${escapedNewer} sampled characters newer than the core's Unicode escaped`);
});

test('a work-bound refusal names the argument the caller passed: count, heldOut, evalEvery, source', () => {
  const large = api.seq2seqInit({ hidden: 384, embed: 384 });
  // Once named `batch`, an option seq2seqAlignment does not have.
  const alignment = assertArgumentError(() => api.seq2seqAlignment(large, { count: 64 }), 'count', 'multiply-adds');
  assert.equal(alignment.got, '64');
  const most = Number(/^at most (\d+) pairs/.exec(alignment.expected)?.[1]);
  assert.ok(most >= 1 && most < 64, alignment.message);
  assert.equal(api.seq2seqAlignment(large, { count: most }).count, most);
  assertArgumentError(() => api.seq2seqAlignment(large, { count: most + 1 }), 'count');
  // Once named `steps ... got 1`: the held-out pairs are what to lower.
  assert.equal(assertArgumentError(() => api.seq2seqTrain(large, { steps: 1, batch: 1, heldOut: 500 }), 'heldOut').got, '500');
  const medium = api.seq2seqInit({ hidden: 128, embed: 128 });
  assertArgumentError(() => api.seq2seqTrain(medium, { steps: 3, batch: 1, evalEvery: 1, heldOut: 500 }), 'heldOut',
    'multiply-adds');
  assertArgumentError(() => api.seq2seqTrain(medium, { steps: 40, batch: 1, evalEvery: 1, heldOut: 20 }), 'evalEvery',
    'multiply-adds');
  // A translation takes no batch: its sources are what to cut.
  const { source, sourceLens } = api.seq2seqHeldOut({ count: 40 });
  const translation = assertArgumentError(() => api.seq2seqTranslate(large, source, { sourceLens }), 'source', 'multiply-adds');
  assert.match(translation.expected, /^at most \d+ sources /);
  // The encoder's held-out set, evaluated in one pass (once refused naming `batch` after 50 steps).
  const long = api.attentionModelInit({ vocab: 2, length: 256, hidden: 2, heads: 1 });
  assert.equal(assertArgumentError(() => api.attentionModelTrain(long, { steps: 60 }), 'heldOut').got, '256');
});

test('a config size of 2^31 or more is refused with the field\'s own range, as one past the limit is', () => {
  const { limits } = api;
  const encoder = { vocab: limits.maxVocab, length: limits.maxModelLength, hidden: limits.maxDimension,
    heads: limits.maxHeads, blocks: limits.maxBlocks, ffnHidden: limits.maxFfnHidden };
  const transformer = { architecture: 'transformer' };
  const translator = [['sourceVocab', limits.maxVocab, { task: null, targetVocab: 16, sourceLength: 8, targetLength: 8 }],
    ['sourceLength', limits.maxModelLength, { task: null, sourceVocab: 34, targetVocab: 16, targetLength: 8 }],
    ['hidden', limits.maxDimension, {}], ['embed', limits.maxDimension, {}], ['layers', limits.maxBlocks, {}],
    ['heads', limits.maxHeads, transformer], ['ffnHidden', limits.maxFfnHidden, transformer], ['blocks', limits.maxBlocks, transformer]];
  const cases = [
    ...Object.entries(encoder).map(([field, limit]) => [field, limit, (v) => api.attentionModelInit({ [field]: v })]),
    ...translator.map(([field, limit, base]) => [field, limit, (v) => api.seq2seqInit({ ...base, [field]: v })]),
  ];
  for (const [field, limit, init] of cases) {
    const over = assertArgumentError(() => init(limit + 1), field);
    for (const value of [2 ** 31, 2 ** 32 + 8, 2 ** 53, 1e300]) {
      // Once "expected a whole number >= 0, got 2147483648", which it is.
      const error = assertArgumentError(() => init(value), field);
      assert.equal(error.expected, over.expected, `${field} = ${value}: ${error.message}`);
      assert.equal(error.got, String(value));
    }
  }
  // A size the config's task sets: any other number is refused with the task's.
  const taskSize = assertArgumentError(() => api.seq2seqInit({ sourceLength: 2 ** 31 }), 'sourceLength');
  assert.equal(taskSize.expected, "8 (the task's), or null");
  // Counts elsewhere, and whole numbers in arrays, say the most a count holds.
  assert.match(assertArgumentError(() => api.makeDataset({ n: 2 ** 31 }), 'n').expected, /\b2147483647\]$/);
  assert.match(assertArgumentError(() => api.seq2seqTranslate(api.seq2seqInit(), [3, 2 ** 31]), 'source').expected,
    /\b2147483647\]$/);
});
