// A property-based fuzzer of the JS API in the wasm build (fast-check,
// seeded, bounded in time). Each run draws one call of one API function:
// sizes near and over every documented limit (and at the values where a
// 32-bit size product wraps), numbers from NaN to 1e308, option objects
// (plain, Proxies, throwing getters, junk), and every array argument in one of
// many disguises: plain, other typed arrays, an own lying `length`, a lying
// subclass, Proxies (transparent, throwing, re-entering the API, growing the
// wasm memory, revoked), detached buffers, DataViews, BigInt arrays, own
// iterators, sparse arrays, bad elements.
//
// The invariant after every call:
//   - it returned, or threw an Error naming one of the function's own
//     arguments (message and fields agreeing, see assertErrorFields);
//   - a disguise that reads as an ordinary array gives exactly what the same
//     call with a plain copy gives (the same bits, or the same error); a
//     disguise that must be refused is;
//   - malloc's live bytes and Embind's live handles are what they were;
//   - a known-good call is still correct.
// ATTENTION_FUZZ_SEED and ATTENTION_FUZZ_SECONDS override the seed and the
// time budget; the runs, the seed and the slowest accepted call are printed.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import {
  api, assertErrorFields, assertStillWorks, QUOTE_ESCAPES, QUOTE_LIMIT, unquote,
  GENERAL_CATEGORIES, codePointsByCategory,
} from './helpers.mjs';

const SEED = Number(process.env.ATTENTION_FUZZ_SEED ?? 20261123);
const SECONDS = Number(process.env.ATTENTION_FUZZ_SECONDS ?? 40);
// Arrays are built at their wanted sizes up to this many numbers in all (the
// fuzzer tests checks and copies, not throughput); bigger calls get short
// arrays, which must then be refused.
const MAX_BUILT_NUMBERS = 2 ** 18;
const { limits } = api;

// ---- numbers and counts ----
// A hair past every limit (the next double up, and a millionth more): an
// error must quote the value given, not one rounded onto the limit.
const hairPastLimits = Object.values(limits).flatMap((v) => [v * (1 + Number.EPSILON), v + 1e-6]);
const specialNumbers = [0, -0, 1, -1, 0.5, 2.5, 1000, 1001, 1e6, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 32, 2 ** 53 - 1,
  NaN, Infinity, -Infinity, ...hairPastLimits];
const number = fc.oneof({ weight: 3, arbitrary: fc.double({ min: -10, max: 10, noNaN: true }) },
  { weight: 1, arbitrary: fc.constantFrom(...specialNumbers) });
// Near every limit, and the 32-bit wrap points (8192^2 * 64 = 2^32, 65536^2 = 2^32).
const nearLimits = [...new Set(Object.values(limits).filter((v) => v <= 2 ** 32).flatMap((v) => [v - 1, v, v + 1])
  .concat([4096, 4097, 8192, 8193, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32]))];
const count = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 6 }) },
  { weight: 3, arbitrary: fc.integer({ min: 7, max: 300 }) },
  { weight: 2, arbitrary: fc.constantFrom(...nearLimits) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 2.5, NaN, Infinity, '3', null, ...hairPastLimits) });
const smallCount = fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 0, max: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom(...nearLimits) }, { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, NaN) });
const seed = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.constantFrom(2 ** 32 - 1, 2 ** 32, -1, 0.5, NaN));
// Objects and arrays made afresh for each run (withField writes into options objects).
const junk = fc.oneof(fc.constantFrom(undefined, null, 'x', true, 1n, Symbol('junk'), () => 1),
  fc.constantFrom('object', 'array').map((kind) => (kind === 'object' ? {} : [])));

// A character of any Unicode general category: the category drawn first,
// then one of its code points (so the rare categories come up as often as
// the letters).
const codePointsOf = codePointsByCategory();
const anyCategoryChar = fc.constantFrom(...GENERAL_CATEGORIES).chain((category) => fc
  .nat(codePointsOf[category].length - 1).map((i) => String.fromCodePoint(codePointsOf[category][i])));
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// ---- arrays in disguise ----
// Transparent disguises read as the array they hold; refused ones must be
// refused. `out`, which is written into, takes only Float64Arrays.
const TRANSPARENT = ['float64', 'float64', 'float64', 'array', 'float32', 'int32', 'ownLength', 'subclass',
  'proxyArray', 'iterator', 'reentrant', 'growing'];
const TRANSPARENT_OUT = ['float64', 'ownLength', 'subclass'];
const REFUSED = ['proxyTyped', 'detached', 'dataView', 'bigint', 'revoked', 'throwingLength', 'throwingElement',
  'string', 'badElement', 'sparse', 'lyingProxyLength'];
const disguise = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...TRANSPARENT) },
  { weight: 1, arbitrary: fc.constantFrom(...REFUSED) });
// An array argument: its disguise, how far its length is off the wanted one,
// and what it holds (a scale and a value planted at one place).
const arrayPlan = fc.record({
  disguise,
  lengthOff: fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constantFrom(-1, 1, -1000) }),
  scale: fc.constantFrom(1, 1, 1, 1e-3, 1e3, 1e150, 1e308),
  planted: fc.oneof({ weight: 6, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(NaN, Infinity, -Infinity, 0, 1e308, -1e308) }),
});

const boom = () => new Error('thrown by the caller');

class LyingFloat64Array extends Float64Array {
  get length() { return 1; }

  set() { throw boom(); }

  [Symbol.iterator]() { throw boom(); }
}

// The plain numbers an array plan holds, for a wanted length: by default
// a wave at the plan's scale; `fill(i)` gives the i-th of arrays of ids.
function contents(plan, wanted, fill = (i) => Math.sin(i * 1.7 + 0.3) * plan.scale) {
  const length = Math.max(0, Math.min(wanted, MAX_BUILT_NUMBERS) + plan.lengthOff);
  const values = new Float64Array(length);
  for (let i = 0; i < length; i += 1) values[i] = fill(i);
  if (plan.planted !== null && length > 0) values[length >> 1] = plan.planted;
  return values;
}

// The disguised object of a plan holding `values`.
function disguised(kind, values) {
  const list = Array.from(values);
  switch (kind) {
    case 'float64': return Float64Array.from(values);
    case 'array': return list;
    case 'float32': return Float32Array.from(values);
    case 'int32': return Int32Array.from(values);
    case 'ownLength': {
      const array = Float64Array.from(values);
      Object.defineProperty(array, 'length', { value: values.length + 3 });
      return array;
    }
    case 'subclass': return LyingFloat64Array.from(values);
    case 'proxyArray': return new Proxy(list, {});
    case 'iterator': return Object.assign(list, { [Symbol.iterator]: function* extra() { yield* [...values, 1, 2]; } });
    case 'reentrant': return new Proxy(list, { get: (t, k) => (k === '0' ? (api.truth([1]), t[k]) : t[k]) });
    case 'growing': return new Proxy(list, { get: (t, k) => (k === '0' ? (api.randomNormal(1 << 18), t[k]) : t[k]) });
    case 'proxyTyped': return new Proxy(Float64Array.from(values), {});
    case 'detached': {
      const array = Float64Array.from(values);
      structuredClone(array.buffer, { transfer: [array.buffer] });
      return array;
    }
    case 'dataView': return new DataView(Float64Array.from(values).buffer);
    case 'bigint': return new BigInt64Array(values.length);
    case 'revoked': {
      const { proxy, revoke } = Proxy.revocable(list, {});
      revoke();
      return proxy;
    }
    case 'throwingLength': return new Proxy(list, { get: (t, k) => { if (k === 'length') throw boom(); return t[k]; } });
    case 'throwingElement': return new Proxy(list, {
      get: (t, k) => { if (k === 'length') return Math.max(1, t.length); if (typeof k === 'string') throw boom(); return t[k]; },
    });
    case 'string': return list.join(',');
    case 'badElement': return [...list, '1'];
    case 'sparse': {
      const array = [...list, 0, 1];
      delete array[list.length];
      return array;
    }
    case 'lyingProxyLength': return new Proxy(list, { get: (t, k) => (k === 'length' ? 2 ** 40 : t[k]) });
    default: throw new Error(`no disguise ${kind}`);
  }
}

// ---- option objects ----
// An options plan: plain, a transparent Proxy, one field's getter throwing, or junk.
function optionsPlan(fields) {
  return fc.record({
    form: fc.constantFrom('plain', 'plain', 'plain', 'proxy', 'throwing', 'absent', 'junk'),
    fields: fc.record(fields, { requiredKeys: [] }),
    junk,
  });
}

function makeOptions(plan) {
  switch (plan.form) {
    case 'absent': return { value: undefined, transparent: true };
    case 'junk': return { value: plan.junk, transparent: false };
    case 'proxy': return { value: new Proxy({ ...plan.fields }, {}), transparent: true };
    case 'throwing': {
      const value = { ...plan.fields };
      const [key = 'anything'] = Object.keys(value);
      Object.defineProperty(value, key, { get() { throw boom(); } });
      return { value, transparent: Object.keys(plan.fields).length === 0 };
    }
    default: return { value: { ...plan.fields }, transparent: true };
  }
}

// ---- the calls ----
const kernel = fc.constantFrom('gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov', 'Gaussian', '');
// Valid lengths in an options object or an argument: a few, junk, or far
// more than any batch (a view of one shared buffer).
const OVERSIZED_LENS = new Int32Array(640001).fill(1);
const lensPlan = fc.oneof({ weight: 8, arbitrary: fc.oneof(fc.constant(null),
  fc.array(fc.integer({ min: -1, max: 12 }), { maxLength: 8 }), fc.constantFrom('junk', 'dataView', 'detached')) },
{ weight: 1, arbitrary: fc.constantFrom(2 ** 16, 640001) });
function makeLens(plan) {
  if (typeof plan === 'number') return { value: OVERSIZED_LENS.subarray(0, plan), transparent: true };
  if (plan === 'junk') return { value: 'abc', transparent: false };
  if (plan === 'dataView') return { value: new DataView(new ArrayBuffer(8)), transparent: false };
  if (plan === 'detached') return { value: disguised('detached', [1]), transparent: false };
  return { value: plan === null ? null : Int32Array.from(plan), transparent: true };
}

// Options with one more field (set on the object itself, so a Proxy or a
// throwing getter stays as it is); junk options stay junk.
function withField(options, key, value) {
  if (value === undefined) return options;
  if (options === undefined) return { [key]: value };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return options;
  Object.defineProperty(options, key, { value, enumerable: true, configurable: true, writable: true });
  return options;
}

// The model the model calls take: small, so that accepted calls stay quick.
const fuzzModel = api.attentionModelInit({ vocab: 5, length: 4, hidden: 4, heads: 2 });
const fuzzParameters = Object.values(fuzzModel.params).reduce((sum, array) => sum + array.length, 0);
// A model with one of its arrays (a parameter, or an Adam moment) of another
// length: short, long, or far over what any model may hold (views of one
// buffer, so a run costs no allocation). Refused by its length, before
// anything is copied: the heap stays as it was.
const OVERSIZED = new Float64Array(2 ** 23 + 1);
const modelArrayPlan = fc.option(fc.record({
  array: fc.constantFrom(...Object.keys(fuzzModel.params), 'm', 'v'),
  length: fc.constantFrom(0, 1, -1, 2, 2 ** 22, 2 ** 22 + 1, 2 ** 23 + 1),
}), { freq: 2 });
function modelWith(plan) {
  if (plan === null) return fuzzModel;
  const expected = plan.array in fuzzModel.params ? fuzzModel.params[plan.array].length : fuzzParameters;
  const array = OVERSIZED.subarray(0, plan.length < 0 ? expected - 1 : plan.length === 2 ? expected + 1 : plan.length);
  if (plan.array in fuzzModel.params) return { ...fuzzModel, params: { ...fuzzModel.params, [plan.array]: array } };
  const moments = { m: new Float64Array(fuzzParameters), v: new Float64Array(fuzzParameters), [plan.array]: array };
  return { ...fuzzModel, optimizerState: { step: 1, ...moments } };
}
const modelArrayNames = [...Object.keys(fuzzModel.params).map((name) => `params.${name}`), 'optimizerState.m',
  'optimizerState.v'];

// An accepted training call's result: finite losses and parameters, one loss
// per step taken, and a stop reason when it stopped early (a diverging run).
function checkTraining(result, plan, model) {
  assert.ok(Array.from(result.loss).every(Number.isFinite), 'a training call returned a loss that is not finite');
  for (const [name, values] of Object.entries(result.model.params)) {
    assert.ok(Array.from(values).every(Number.isFinite), `a training call returned ${name} not finite`);
  }
  const taken = result.model.optimizerState.step - (model.optimizerState?.step ?? 0);
  assert.equal(taken, result.loss.length, 'one loss per step taken');
  const asked = plan.options.fields?.steps;
  if (result.stopReason === null && Number.isInteger(asked) && plan.options.form === 'plain') {
    assert.equal(taken, asked, 'a run that did not stop took every step');
  }
  if (result.stopReason !== null) assert.match(result.stopReason, /try a smaller learning rate/);
}

const product = (...sizes) => (sizes.every((s) => Number.isInteger(s) && s >= 0) ? sizes.reduce((a, b) => a * b, 1) : 3);

// ---- the translators ----
// Small models of both architectures on the reverse task, and a batch of
// its pairs whose rows the token arrays repeat (so many calls are accepted).
const translatorModels = {
  bahdanau: api.seq2seqInit({ task: 'reverse', hidden: 4, embed: 4, layers: 1 }),
  transformer: api.seq2seqInit({ task: 'reverse', architecture: 'transformer', hidden: 4, heads: 2, ffnHidden: 8,
    blocks: 1 }),
};
const translatorPairs = api.seq2seqTaskBatch({ task: 'reverse', batch: 4, seed: 9 });
const translatorParameters = Object.fromEntries(Object.entries(translatorModels).map(([architecture, model]) => [
  architecture, Object.values(model.params).reduce((sum, array) => sum + array.length, 0)]));
const TRANSLATOR_TASKS = ['numbers-en-zh', 'numbers-zh-en', 'dates', 'reverse', 'sort'];
// The tasks' vocabularies, held-out sets and dates are made once, on first
// use, and kept (core/seq2seq/tasks.cpp): made here, before any call is measured.
for (const task of TRANSLATOR_TASKS) {
  api.seq2seqVocabulary(task);
  api.seq2seqTaskIdeal({ task, count: 1 }, 0);
  api.seq2seqTaskBatch({ task, batch: 1 });
  api.seq2seqSourceFromText(task, task === 'dates' ? '2026-11-25' : '12');
}
const translatorTask = fc.constantFrom(...TRANSLATOR_TASKS, ...TRANSLATOR_TASKS, 'Reverse', '', 'numbers');
// A translator with one of its arrays (a parameter, or an Adam moment) of another length, as modelWith does.
const translatorArrayPlan = fc.option(fc.record({
  array: fc.constantFrom(...new Set(Object.values(translatorModels).flatMap((m) => Object.keys(m.params))), 'm', 'v'),
  length: fc.constantFrom(0, 1, -1, 2, 2 ** 22, 2 ** 22 + 1, 2 ** 23 + 1),
}), { freq: 3 });
function translatorWith(architecture, plan) {
  const model = translatorModels[architecture];
  if (plan === null) return model;
  const parameters = translatorParameters[architecture];
  const own = plan.array in model.params;
  const expected = own ? model.params[plan.array].length : plan.array in { m: 1, v: 1 } ? parameters : 1;
  const array = OVERSIZED.subarray(0, plan.length < 0 ? expected - 1 : plan.length === 2 ? expected + 1 : plan.length);
  if (plan.array === 'm' || plan.array === 'v') {
    const moments = { m: new Float64Array(parameters), v: new Float64Array(parameters), [plan.array]: array };
    return { ...model, optimizerState: { step: 1, ...moments } };
  }
  // A name of the other architecture's: a parameter the model has not.
  return { ...model, params: { ...model.params, [plan.array]: array } };
}
const translatorArrayNames = [...new Set(Object.values(translatorModels).flatMap((m) => Object.keys(m.params)))]
  .map((name) => `params.${name}`).concat(['params', 'optimizerState.m', 'optimizerState.v']);
const BATCH_KEYS = ['source', 'sourceLens', 'targetIn', 'targetOut', 'targetLens'];
// The ids of a key's arrays: the batch's own, its rows repeated; lengths sometimes 0 or past the row.
const batchFill = (p, name) => {
  const own = translatorPairs[name];
  return (i) => (p.wild && i === 0 ? p.wild : own[i % own.length]);
};
const translatorBatchPlan = {
  items: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 4 }) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1024, 1025, 40000) }),
  architecture: fc.constantFrom('bahdanau', 'transformer'),
  model: translatorArrayPlan,
  wild: fc.option(fc.constantFrom(0, 9, 12, 13, 14, 1000, -1, 0.5), { freq: 4 }),
  ...Object.fromEntries(BATCH_KEYS.map((key) => [key, arrayPlan])),
};
const batchLengths = (p, keys) => Object.fromEntries(keys.map((key) => [key,
  p.items * (key.endsWith('Lens') ? 1 : 8)]));
const TRANSLATOR_MODEL_NAMES = ['model', 'model.config', 'model.params', 'optimizerState', ...translatorArrayNames];
const TRANSLATOR_FUNCTIONS = {
  seq2seqVocabulary: {
    names: ['task'], plan: fc.record({ task: fc.oneof(translatorTask, junk) }), arrays: () => ({}),
    call: (p) => api.seq2seqVocabulary(p.task),
  },
  seq2seqInit: {
    names: ['config', 'architecture', 'task', 'sourceVocab', 'targetVocab', 'sourceLength', 'targetLength', 'hidden',
      'embed', 'layers', 'bidirectional', 'heads', 'ffnHidden', 'blocks', 'embeddingScale', 'seed'],
    plan: fc.record({ options: optionsPlan({ architecture: fc.constantFrom('bahdanau', 'transformer', 'gru'),
      task: fc.oneof(translatorTask, fc.constant(null)), sourceVocab: fc.option(count), targetVocab: fc.option(count),
      sourceLength: fc.option(smallCount), targetLength: fc.option(smallCount), hidden: smallCount, embed: smallCount,
      layers: smallCount, bidirectional: fc.oneof(fc.boolean(), junk), heads: smallCount, ffnHidden: smallCount,
      blocks: smallCount, embeddingScale: number, seed }) }),
    arrays: () => ({}), call: (p, a, o) => api.seq2seqInit(o.options),
  },
  seq2seqTaskBatch: {
    names: ['options', 'task', 'batch', 'seed'],
    plan: fc.record({ options: optionsPlan({ task: translatorTask, batch: count, seed }) }),
    arrays: () => ({}), call: (p, a, o) => api.seq2seqTaskBatch(o.options),
  },
  seq2seqHeldOut: {
    names: ['options', 'task', 'count'],
    plan: fc.record({ options: optionsPlan({ task: translatorTask, count }) }),
    arrays: () => ({}), call: (p, a, o) => api.seq2seqHeldOut(o.options),
  },
  seq2seqTaskIdeal: {
    names: ['options', 'task', 'count', 'item'],
    plan: fc.record({ options: optionsPlan({ task: translatorTask, count: smallCount }), item: smallCount }),
    arrays: () => ({}), call: (p, a, o) => api.seq2seqTaskIdeal(o.options, p.item),
  },
  ...Object.fromEntries(['seq2seqForward', 'seq2seqLoss'].map((fn) => [fn, {
    names: ['batch', 'source', ...BATCH_KEYS, ...TRANSLATOR_MODEL_NAMES],
    plan: fc.record(translatorBatchPlan),
    arrays: (p) => batchLengths(p, BATCH_KEYS),
    fill: batchFill,
    call: (p, a) => api[fn](translatorWith(p.architecture, p.model), { ...a }),
  }])),
  seq2seqStep: {
    names: ['batch', 'options', 'optimizer', 'lr', 'clip', 'optimizerState.step', ...BATCH_KEYS, ...TRANSLATOR_MODEL_NAMES],
    plan: fc.record({ ...translatorBatchPlan, options: optionsPlan({ optimizer: fc.constantFrom('adam', 'sgd', 'Adam'),
      lr: fc.oneof(number, fc.double({ min: 0.5, max: 1000, noNaN: true })), clip: number }) }),
    arrays: (p) => batchLengths(p, BATCH_KEYS),
    fill: batchFill,
    call: (p, a, o) => api.seq2seqStep(translatorWith(p.architecture, p.model), { ...a }, o.options),
  },
  // With learning rates up to the limit (and SGD without clipping) many runs diverge: they must stop, finite.
  seq2seqTrain: {
    names: ['options', 'task', 'steps', 'batch', 'optimizer', 'lr', 'clip', 'seed', 'evalEvery', 'heldOut',
      'evaluateAtEnd', 'optimizerState.step', ...TRANSLATOR_MODEL_NAMES],
    plan: fc.record({ architecture: fc.constantFrom('bahdanau', 'transformer'), model: translatorArrayPlan,
      options: optionsPlan({ task: fc.constantFrom('reverse', 'reverse', 'reverse', 'sort', 'dates'),
        steps: fc.oneof(smallCount, fc.integer({ min: 10, max: 30 })), batch: smallCount,
        optimizer: fc.constantFrom('adam', 'sgd', 'sgd', 'SGD'), lr: fc.oneof(number, fc.double({ min: 0.5, max: 1000,
          noNaN: true })), clip: fc.oneof(number, fc.constant(0)), seed, evalEvery: smallCount, heldOut: smallCount,
        evaluateAtEnd: fc.boolean() }) }),
    arrays: () => ({}),
    call: (p, a, o) => api.seq2seqTrain(translatorWith(p.architecture, p.model), o.options),
    check: (result, p) => checkTraining(result, p, translatorWith(p.architecture, p.model)),
  },
  seq2seqTranslate: {
    names: ['source', 'sourceLens', 'options', 'maxLength', 'sourceLength', ...TRANSLATOR_MODEL_NAMES],
    // The config's sourceLength too: it sizes a single source's padding, so it is checked before that.
    plan: fc.record({ ...translatorBatchPlan, single: fc.boolean(),
      sourceLength: fc.option(fc.oneof(count, fc.constantFrom(NaN, Infinity, -1, 0, 9, 2 ** 31 - 1, 2 ** 32 + 8, null)),
        { freq: 3, nil: undefined }),
      options: optionsPlan({ maxLength: fc.oneof(smallCount, fc.constantFrom(8, 9, null)) }) }),
    arrays: (p) => (p.single ? { source: Math.min(p.items, 8) } : batchLengths(p, ['source', 'sourceLens'])),
    fill: batchFill,
    call: (p, a, o) => {
      const model = translatorWith(p.architecture, p.model);
      const config = p.sourceLength === undefined ? model.config : { ...model.config, sourceLength: p.sourceLength };
      return api.seq2seqTranslate({ ...model, config }, a.source, p.single ? o.options : withField(o.options, 'sourceLens', a.sourceLens));
    },
  },
  seq2seqSourceFromText: {
    names: ['task', 'text'],
    plan: fc.record({ task: fc.oneof(translatorTask, junk), text: fc.oneof(fc.string({ maxLength: 80 }),
      fc.constantFrom('4782', 'four thousand and two', '2026-11-25', '25 November 2026', '1 2 3', '12345678',
        '四千七百八十二', ' '.repeat(100), '1'.repeat(1 << 16)),
      // Digits with hyphens, lone surrogates, and the characters that reorder or hide text.
      fc.string({ unit: fc.constantFrom('4', '7', '-', ' ', '四', 'four', '\uD800', '\uDC00', '\u202E', '\u200F', '\u2066',
        '\u200B', '\uFEFF', '\u0085', '\u061C', '\u2028'), maxLength: 12 }),
      // Any code point, and characters of every general category among the tasks' own words.
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(fc.oneof(anyCategoryChar, fc.constantFrom('1', ' ', 'four ', '四', '25 ', 'November ')), { maxLength: 40 })
        .map((parts) => parts.join('')),
      // Long texts (past QUOTE_LIMIT code points, within and past the tasks' byte limits) with a word at fault
      // anywhere in them.
      fc.record({ filler: fc.constantFrom('1 ', 'one ', '四', '25 ', '\u{1F600}', '\u00AD', 'x'),
        before: fc.integer({ min: 0, max: 260 }), bad: fc.oneof(anyCategoryChar, fc.constantFrom('x', 'wibble', '')),
        after: fc.integer({ min: 0, max: 260 }) })
        .map(({ filler, before, bad, after }) => `${filler.repeat(before)}${bad}${filler.repeat(after)}`),
      junk) }),
    arrays: () => ({}), call: (p) => api.seq2seqSourceFromText(p.task, p.text),
    // A refusal of the text quotes the text as typed, escaped, never a word cut out of it.
    refusal(error, p) {
      if (error.argument !== 'text' || typeof p.text !== 'string' || !error.got.startsWith("'")) return;
      assertQuotesText(error, p.text);
    },
  },
};

// Each function: its argument names, an arbitrary of its plan, the wanted
// length of each array argument from the plan, and the call.
const FUNCTIONS = {
  makeDataset: {
    names: ['options', 'n', 'seed', 'noise', 'xMax'],
    plan: fc.record({ options: optionsPlan({ n: count, seed, noise: number, xMax: number }) }),
    arrays: () => ({}),
    call: (p, a, o) => api.makeDataset(o.options),
  },
  truth: {
    names: ['x'], plan: fc.record({ n: count, x: arrayPlan }), arrays: (p) => ({ x: p.n }), call: (p, a) => api.truth(a.x),
  },
  averagePool: {
    names: ['values', 'nQueries'],
    plan: fc.record({ n: count, nQueries: count, values: arrayPlan }),
    arrays: (p) => ({ values: p.n }),
    call: (p, a) => api.averagePool(a.values, p.nQueries),
  },
  attentionWeights: {
    names: ['queries', 'keys', 'options', 'kernel', 'w', 'out'],
    plan: fc.record({ nq: count, nk: count, queries: arrayPlan, keys: arrayPlan, out: fc.option(arrayPlan),
      options: optionsPlan({ kernel, w: number }) }),
    arrays: (p) => ({ queries: p.nq, keys: p.nk, ...(p.out ? { out: product(p.nq, p.nk) } : {}) }),
    call: (p, a, o) => api.attentionWeights(a.queries, a.keys, withField(o.options, 'out', a.out)),
  },
  nadarayaWatson: {
    names: ['queries', 'keys', 'values', 'options', 'kernel', 'w'],
    plan: fc.record({ nq: count, nk: count, queries: arrayPlan, keys: arrayPlan, values: arrayPlan,
      options: optionsPlan({ kernel, w: number }) }),
    arrays: (p) => ({ queries: p.nq, keys: p.nk, values: p.nk }),
    call: (p, a, o) => api.nadarayaWatson(a.queries, a.keys, a.values, o.options),
  },
  trainKernelWidth: {
    names: ['x', 'y', 'options', 'w0', 'lr', 'epochs', 'leaveOneOut'],
    plan: fc.record({ n: count, x: arrayPlan, y: arrayPlan,
      options: optionsPlan({ w0: number, lr: number, epochs: smallCount, leaveOneOut: fc.oneof(fc.boolean(), junk) }) }),
    arrays: (p) => ({ x: p.n, y: p.n }),
    call: (p, a, o) => api.trainKernelWidth(a.x, a.y, o.options),
  },
  lossLandscape: {
    names: ['x', 'y', 'ws', 'options', 'leaveOneOut'],
    plan: fc.record({ n: count, m: smallCount, x: arrayPlan, y: arrayPlan, ws: arrayPlan,
      options: optionsPlan({ leaveOneOut: fc.oneof(fc.boolean(), junk) }) }),
    arrays: (p) => ({ x: p.n, y: p.n, ws: p.m }),
    call: (p, a, o) => api.lossLandscape(a.x, a.y, a.ws, o.options),
  },
  kernelWidthLoss: {
    names: ['x', 'y', 'w', 'options', 'leaveOneOut'],
    plan: fc.record({ n: count, w: number, x: arrayPlan, y: arrayPlan,
      options: optionsPlan({ leaveOneOut: fc.oneof(fc.boolean(), junk) }) }),
    arrays: (p) => ({ x: p.n, y: p.n }),
    call: (p, a, o) => api.kernelWidthLoss(a.x, a.y, p.w, o.options),
  },
  ...Object.fromEntries(['maskedSoftmax', 'maskScores'].map((fn) => [fn, {
    names: ['scores', 'shape', 'shape[0] (batch)', 'shape[1] (nq)', 'shape[2] (nk)', 'validLens'],
    plan: fc.record({ batch: smallCount, nq: count, nk: count, scores: arrayPlan, lens: lensPlan }),
    arrays: (p) => ({ scores: product(p.batch, p.nq, p.nk) }),
    call: (p, a, o) => api[fn](a.scores, [p.batch, p.nq, p.nk], o.lens),
  }])),
  additiveAttention: layer(['batch', 'nq', 'nk', 'dq', 'dk', 'dv', 'h'], (s) => ({
    queries: product(s.batch, s.nq, s.dq), keys: product(s.batch, s.nk, s.dk), values: product(s.batch, s.nk, s.dv),
    Wq: product(s.h, s.dq), Wk: product(s.h, s.dk), wv: product(s.h),
  }), (a) => api.additiveAttention(a)),
  dotProductAttention: layer(['batch', 'nq', 'nk', 'd', 'dv'], (s) => ({
    queries: product(s.batch, s.nq, s.d), keys: product(s.batch, s.nk, s.d), values: product(s.batch, s.nk, s.dv),
  }), (a) => api.dotProductAttention(a)),
  multiHeadAttention: layer(['batch', 'nq', 'nk', 'hidden', 'heads'], (s) => ({
    queries: product(s.batch, s.nq, s.hidden), keys: product(s.batch, s.nk, s.hidden),
    values: product(s.batch, s.nk, s.hidden), Wq: product(s.hidden, s.hidden), Wk: product(s.hidden, s.hidden),
    Wv: product(s.hidden, s.hidden), Wo: product(s.hidden, s.hidden), headMask: product(s.heads),
  }), (a) => api.multiHeadAttention(a), ['headMask']),
  positionalEncoding: {
    names: ['maxLen', 'dim'], plan: fc.record({ maxLen: count, dim: count }), arrays: () => ({}),
    call: (p) => api.positionalEncoding(p.maxLen, p.dim),
  },
  randomNormal: {
    names: ['count', 'options', 'seed', 'std'],
    plan: fc.record({ count, options: optionsPlan({ seed, std: number }) }),
    arrays: () => ({}), call: (p, a, o) => api.randomNormal(p.count, o.options),
  },
  randomUniform: {
    names: ['count', 'options', 'seed', 'low', 'high'],
    plan: fc.record({ count, options: optionsPlan({ seed, low: number, high: number }) }),
    arrays: () => ({}), call: (p, a, o) => api.randomUniform(p.count, o.options),
  },
  scalingStudy: {
    names: ['options', 'dims', 'samples', 'keys', 'seed'],
    plan: fc.record({ dims: fc.array(fc.oneof(fc.integer({ min: 1, max: 64 }), fc.constantFrom(0, 1025, 2.5, NaN)),
      { maxLength: 5 }), options: optionsPlan({ samples: smallCount, keys: smallCount, seed }) }),
    arrays: () => ({}),
    call: (p, a, o) => api.scalingStudy(withField(o.options, 'dims', p.dims)),
  },
  consistencyStudy: {
    names: ['options', 'sizes', 'repeats', 'queries', 'w', 'noise', 'xMax', 'seed'],
    plan: fc.record({ sizes: fc.array(fc.oneof(fc.integer({ min: 1, max: 300 }), fc.constantFrom(0, 10001, 2.5, NaN)),
      { maxLength: 4 }), options: optionsPlan({ repeats: smallCount, queries: count, w: number, noise: number, xMax: number,
      seed }) }),
    arrays: () => ({}),
    call: (p, a, o) => api.consistencyStudy(withField(o.options, 'sizes', p.sizes)),
  },
  batchMatrixProduct: {
    names: ['X', 'Y', 'options', 'shapeX', 'shapeY', 'shapeX[0] (n)', 'shapeX[1] (a)', 'shapeX[2] (b)', 'shapeY[0] (n)',
      'shapeY[1] (b)', 'shapeY[2] (c)'],
    // Y's n and b mostly X's, sometimes any count: the mismatch must be refused naming Y.
    plan: fc.record({ n: smallCount, a: count, b: count, c: count, otherN: fc.option(smallCount, { freq: 4 }),
      otherB: fc.option(count, { freq: 4 }), X: arrayPlan, Y: arrayPlan }),
    arrays: (p) => ({ X: product(p.n, p.a, p.b), Y: product(p.otherN ?? p.n, p.otherB ?? p.b, p.c) }),
    call: (p, a) => api.batchMatrixProduct(a.X, a.Y,
      { shapeX: [p.n, p.a, p.b], shapeY: [p.otherN ?? p.n, p.otherB ?? p.b, p.c] }),
  },
  attentionModelInit: {
    names: ['config', 'vocab', 'length', 'hidden', 'heads', 'blocks', 'ffnHidden', 'embeddingScale', 'seed'],
    plan: fc.record({ options: optionsPlan({ vocab: count, length: smallCount, hidden: smallCount, heads: smallCount,
      blocks: smallCount, ffnHidden: smallCount, embeddingScale: number, seed }) }),
    arrays: () => ({}), call: (p, a, o) => api.attentionModelInit(o.options),
  },
  attentionModelForward: {
    names: ['tokens', 'options', 'batch', 'validLens', 'causal', ...modelArrayNames],
    plan: fc.record({ n: count, tokens: arrayPlan, options: optionsPlan({ batch: smallCount, causal: fc.boolean() }),
      lens: lensPlan, model: modelArrayPlan }),
    arrays: (p) => ({ tokens: p.n }),
    call: (p, a, o) => api.attentionModelForward(modelWith(p.model), a.tokens, withField(o.options, 'validLens', o.lens)),
  },
  attentionTaskBatch: {
    names: ['options', 'task', 'batch', 'length', 'vocab', 'seed', 'lag', 'variableLengths'],
    plan: fc.record({ options: optionsPlan({ task: fc.constantFrom('reverse', 'sort', 'shift', 'lookup', 'copy'),
      batch: smallCount, length: count, vocab: count, seed, lag: smallCount, variableLengths: fc.boolean() }) }),
    arrays: () => ({}), call: (p, a, o) => api.attentionTaskBatch(o.options),
  },
  // With learning rates up to the limit (and SGD) many runs diverge: they must stop, finite.
  attentionModelTrain: {
    names: ['options', 'task', 'steps', 'batch', 'optimizer', 'lr', 'seed', 'lag', 'variableLengths', 'causal',
      'evalEvery', 'heldOut', 'evaluateAtEnd', 'vocab', 'optimizerState', 'optimizerState.step', ...modelArrayNames],
    plan: fc.record({ options: optionsPlan({ task: fc.constantFrom('reverse', 'sort', 'shift', 'lookup'),
      steps: fc.oneof(smallCount, fc.integer({ min: 20, max: 80 })), batch: smallCount,
      optimizer: fc.constantFrom('adam', 'sgd', 'sgd', 'SGD'),
      lr: fc.oneof(number, fc.double({ min: 0.5, max: 1000, noNaN: true })), seed,
      lag: smallCount, variableLengths: fc.boolean(), causal: fc.boolean(), evalEvery: smallCount,
      heldOut: smallCount, evaluateAtEnd: fc.boolean() }), model: modelArrayPlan }),
    arrays: () => ({}),
    call: (p, a, o) => api.attentionModelTrain(modelWith(p.model), o.options),
    check: (result, p) => checkTraining(result, p, modelWith(p.model)),
  },
  ...TRANSLATOR_FUNCTIONS,
};

// A layer function: a shape object of whole numbers and its array arguments
// (the optional ones may be left out: null).
function layer(dims, sizes, call, optional = []) {
  const shapeNames = dims.map((d) => `shape.${d}`);
  const arrayNames = Object.keys(sizes(Object.fromEntries(dims.map((d) => [d, 1]))));
  return {
    names: ['arguments', 'shape', ...shapeNames, ...arrayNames, 'validLens'],
    plan: fc.record({
      shape: fc.record(Object.fromEntries(dims.map((d) => [d, smallCount]))),
      ...Object.fromEntries(arrayNames.map((name) => [name, optional.includes(name) ? fc.option(arrayPlan) : arrayPlan])),
      lens: lensPlan,
    }),
    arrays: (p) => Object.fromEntries(Object.entries(sizes(p.shape)).filter(([name]) => p[name] !== null)),
    call: (p, a, o) => call({ ...a, shape: { ...p.shape }, validLens: o.lens }),
  };
}

// Builds the call's arguments twice: disguised, and as plain copies.
function build(spec, plan) {
  const wanted = spec.arrays(plan);
  const total = Object.values(wanted).reduce((sum, n) => sum + (Number.isInteger(n) && n > 0 ? n : 0), 0);
  const disguisedArgs = {};
  const plainArgs = {};
  let transparent = true;
  for (const [name, length] of Object.entries(wanted)) {
    const arrayPlanOf = plan[name];
    const fill = spec.fill?.(plan, name);
    const values = contents(arrayPlanOf, total > MAX_BUILT_NUMBERS ? 3 : length, fill);
    disguisedArgs[name] = disguised(arrayPlanOf.disguise, values);
    // What a correct reader sees: the elements, as doubles (a Float32Array's or an Int32Array's conversion).
    plainArgs[name] = Float64Array.from(arrayPlanOf.disguise === 'float32' ? Float32Array.from(values)
      : arrayPlanOf.disguise === 'int32' ? Int32Array.from(values) : values);
    if (!(name === 'out' ? TRANSPARENT_OUT : TRANSPARENT).includes(arrayPlanOf.disguise)) transparent = false;
  }
  const options = plan.options ? makeOptions(plan.options) : { value: undefined, transparent: true };
  const lens = plan.lens !== undefined ? makeLens(plan.lens) : { value: null, transparent: true };
  const grows = Object.keys(wanted).some((name) => plan[name].disguise === 'growing');
  return { disguisedArgs, plainArgs, transparent: transparent && options.transparent && lens.transparent,
    refused: !transparent, grows, other: { options: options.value, lens: lens.value } };
}

// The outcome of a call: {result} or {error}, with the memory it left behind:
// none, and a refused call has not grown the wasm heap (`mayGrow`: the
// caller's own code grows it while the call reads its arguments).
function outcome(call, mayGrow) {
  const before = api.memoryStats();
  const start = performance.now();
  let result;
  let error;
  try {
    result = call();
  } catch (caught) {
    error = caught;
  }
  const milliseconds = performance.now() - start;
  const after = api.memoryStats();
  assert.equal(after.allocatedBytes, before.allocatedBytes, 'malloc holds more bytes after the call');
  assert.equal(after.liveHandles, before.liveHandles, 'Embind holds more JS values after the call');
  if (error !== undefined && !mayGrow) assert.equal(after.heapBytes, before.heapBytes, 'a refused call grew the wasm heap');
  return { result, error, milliseconds };
}

// The `out` option's result is the caller's own array (maybe a lying
// subclass): compare the numbers it holds, read through its internal slots.
const comparable = (value) => (ArrayBuffer.isView(value) ? Array.from(new Float64Array(value)) : value);
// "x.length" is about the argument x.
const argumentOf = (name) => name.replace(/\.length$/, '');

let slowest = { milliseconds: 0, fn: '' };
const callArbitrary = fc.oneof(...Object.entries(FUNCTIONS).map(([fn, spec]) => spec.plan.map((plan) => ({ fn, plan }))));

function property({ fn, plan }) {
  const spec = FUNCTIONS[fn];
  const { disguisedArgs, plainArgs, transparent, refused, grows, other } = build(spec, plan);
  const hostile = outcome(() => spec.call(plan, disguisedArgs, other), grows);
  if (hostile.error !== undefined) {
    const { error } = hostile;
    assert.ok(error instanceof Error, `${fn} threw a non-Error: ${String(error)}`);
    assert.equal(typeof error.argument, 'string', `${fn}: "${error.message}" names no argument`);
    assert.ok(spec.names.includes(argumentOf(error.argument)),
      `${fn}: "${error.message}" names ${error.argument}, which is none of its arguments (${spec.names.join(', ')})`);
    assertErrorFields(error, fn);
    assertQuotesGiven(error, plan);
    spec.refusal?.(error, plan);
  } else {
    if (refused) assert.fail(`${fn} accepted an argument it must refuse (${JSON.stringify(plan, replacer)})`);
    spec.check?.(hostile.result, plan);
    if (hostile.milliseconds > slowest.milliseconds) slowest = { milliseconds: hostile.milliseconds, fn };
  }
  if (transparent) {
    // The same call with plain copies: the same result or the same error.
    const plain = outcome(() => spec.call(plan, plainArgs, other), grows);
    assert.equal(hostile.error?.message, plain.error?.message, `${fn}: a disguise changed the outcome`);
    if (plain.error === undefined) {
      assert.deepStrictEqual(comparable(hostile.result), comparable(plain.result), `${fn}: a disguise changed the result`);
    }
  }
  assertStillWorks();
}

// An error about a number the caller gave as an option quotes it as
// String() writes it (a value a hair past a limit is not rounded onto it);
// an error about a product of several (x.length^2 * epochs, "this one: ...")
// quotes the product.
function assertQuotesGiven(error, plan) {
  const fields = plan.options?.form === 'plain' ? plan.options.fields : {};
  const given = Object.hasOwn(fields, error.argument) ? fields[error.argument] : undefined;
  const aboutTheValue = !/\*|this one/.test(error.expected);
  if (typeof given === 'number' && aboutTheValue && error.index === undefined &&
      /^-?[\d.]+(e[+-]\d+)?$|^-?Infinity$|^NaN$/.test(error.got)) {
    assert.equal(error.got, String(given), `"${error.message}" quotes another value than the ${given} given`);
  }
}

// A refusal's quote of a typed text (core/contract/errors.hpp): nothing in the
// message that shows nothing or reorders text (QUOTE_ESCAPES); read back
// (escapes undone), the quote is the text typed, whole up to QUOTE_LIMIT code
// points, else that many of them with an ellipsis where it was cut. (A text
// with a backslash or an ellipsis of its own is only checked for the first:
// it may read as an escape or a cut.)
function assertQuotesText(error, typed) {
  assert.doesNotMatch(error.message, new RegExp(QUOTE_ESCAPES.source, 'gu'),
    `"${error.message}" shows a character that shows nothing or reorders text`);
  if (typed.includes('\\') || typed.includes('\u2026')) return;
  const { text, cutBefore, cutAfter } = unquote(error.got);
  const cut = cutBefore || cutAfter;
  // A lone surrogate reaches the core as its six-character escape: the core's count, and its cuts, are of those.
  if (LONE_SURROGATE.test(typed) && cut) return;
  const what = `"${error.message}" of ${JSON.stringify(typed).slice(0, 300)}`;
  if (!LONE_SURROGATE.test(typed)) {
    assert.ok([...text].length <= QUOTE_LIMIT, `${what}: more than ${QUOTE_LIMIT} code points`);
    if (cut) assert.equal([...text].length, QUOTE_LIMIT, `${what}: a cut quote of fewer than ${QUOTE_LIMIT}`);
  }
  assert.ok(typed.includes(text), `${what}: quotes other text than typed`);
  if (!cutBefore) assert.ok(typed.startsWith(text), `${what}: not the text's start, and no ellipsis`);
  if (!cutAfter) assert.ok(typed.endsWith(text), `${what}: not the text's end, and no ellipsis`);
}

function replacer(key, value) {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return String(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return value;
}

test(`the API under fuzzing: correct results or errors naming the argument, no leak (seed ${SEED}, ${SECONDS} s)`, (t) => {
  const details = fc.check(fc.property(callArbitrary, property), {
    seed: SEED, numRuns: 1_000_000, interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false,
  });
  t.diagnostic(`runs: ${details.numRuns}, seed ${SEED}; slowest accepted call: ${slowest.fn} ${slowest.milliseconds.toFixed(1)} ms`);
  console.log(`api-fuzz: ${details.numRuns} runs in at most ${SECONDS} s, seed ${SEED}; slowest accepted call ` +
    `${slowest.fn} ${slowest.milliseconds.toFixed(1)} ms`);
  if (details.failed) {
    assert.fail(`counterexample after ${details.numRuns} runs (seed ${SEED}, path ${details.counterexamplePath}):\n` +
      `${JSON.stringify(details.counterexample, replacer)}\n${details.errorInstance?.stack ?? details.error}`);
  }
  assert.ok(details.numRuns >= 20, `only ${details.numRuns} runs`);
});
