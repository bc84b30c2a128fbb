// The JS API of the attention core: plain JS values in and out, no Embind in
// sight. Inputs are read and checked for type here (see arguments.mjs: C++
// only ever receives plain arrays made on this side); sizes, shapes and
// values are checked in C++, whose errors name the argument. A failed call throws an
// Error carrying fields (argument, expected, got, index) and leaves the module
// ready for the next call. Limits and option defaults come from the core
// (`limits`, `defaults`): no number of the contract is written here.
//
// The core comes in parts, each a wasm module of its own: the basics
// (data, kernels, pooling, scoring, multi-head attention, positional
// encoding, studies, random draws) and the trainable models (the encoder and
// the translators), 1.6 times the basics' size. loadAttentionCore() loads both;
// loadAttentionBasics() the basics alone, so that a page can show its first
// screen before the models have arrived. The page has a third, smaller
// part, the cues': the few basics its first section calls
// (loadAttentionCues()); where a build carries no such part (this package's
// one file), its specifier is the basics' module, and so is its API.
import createBasicsModule from 'attention-core-basics-wasm';
import createCuesModule from 'attention-core-cues-wasm';
import createModelsModule from 'attention-core-models-wasm';

import {
  argumentError, escapeLoneSurrogates, isArray, lengths, numbers, read, readOwn, target, textForCore, typeName, wholeNumbers, withFields,
} from './arguments.mjs';

function number(value, name) {
  if (typeof value !== 'number') throw argumentError(name, 'a number', typeName(value));
  return value;
}

// An options object (undefined: every default). Arrays and typed arrays are
// refused: read as options they would silently give the defaults.
function options(value, name) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || isArray(value) || ArrayBuffer.isView(value)) {
    throw argumentError(name, 'an object', typeName(value));
  }
  return value;
}

// The fields of an options object (undefined: every default), each read once
// and only as the object's own property; a field that is undefined takes its
// default. A getter that throws is reported under the field's name.
function fields(value, name, defaults) {
  const object = options(value, name);
  const result = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const field = readOwn(object, key, key);
    if (field !== undefined) result[key] = field;
  }
  return result;
}

// The one object the layer functions take: required, its fields read once.
function required(value, name, keys) {
  if (value === undefined) throw argumentError(name, 'an object', 'undefined');
  return fields(value, name, Object.fromEntries(keys.map((key) => [key, undefined])));
}

function text(value, name) {
  if (typeof value !== 'string') throw argumentError(name, 'a string', typeName(value));
  return textForCore(value);
}

function flag(value, name) {
  if (typeof value !== 'boolean') throw argumentError(name, 'true or false', typeName(value));
  return value;
}

// A shape object of whole numbers, read by name into a plain object.
function shapeOf(value, keys) {
  const shape = options(value, 'shape');
  const result = {};
  for (const key of keys) result[key] = number(readOwn(shape, key, `shape.${key}`), `shape.${key}`);
  return result;
}

// A shape given as an array of three numbers, read into a plain array; each
// element named by its index and letter, e.g. shapeY[1] (b).
function shapeTriple(value, name, letters) {
  if (!isArray(value) || read(value, 'length', name) !== 3) {
    throw argumentError(name, `[${letters.split('').join(', ')}]`, typeName(value));
  }
  return [0, 1, 2].map((i) => {
    const label = `${name}[${i}] (${letters[i]})`;
    return number(read(value, i, label), label);
  });
}

// The arguments of maskedSoftmax and maskScores (scores of shape [batch, nq, nk]).
function scoresArguments(scores, shape, validLens) {
  if (!isArray(shape) || read(shape, 'length', 'shape') !== 3) {
    throw argumentError('shape', '[batch, nq, nk]', typeName(shape));
  }
  const extent = (index, name) => number(read(shape, index, `shape[${index}] (${name})`), `shape[${index}] (${name})`);
  return [numbers(scores, 'scores'), extent(0, 'batch'), extent(1, 'nq'), extent(2, 'nk'), lengths(validLens)];
}

// A model ({config, params, optimizerState}) read once into the plain object
// the bindings take: the config's numbers, the parameters' names and arrays
// in the caller's order (the core checks them against its layout), and the
// optimiser's step and moments (none: a model that has not been trained).
function modelArgument(value, readConfig) {
  if (value === undefined) throw argumentError('model', 'an object', 'undefined');
  const model = options(value, 'model');
  const config = readConfig(readOwn(model, 'config', 'model.config'), 'model.config');
  const params = readOwn(model, 'params', 'model.params');
  if (params === null || typeof params !== 'object' || isArray(params) || ArrayBuffer.isView(params)) {
    throw argumentError('model.params', 'an object of named Float64Arrays', typeName(params));
  }
  let names;
  try {
    names = Object.keys(params);
  } catch (cause) {
    throw argumentError('model.params', 'an object whose names can be read', typeName(params), undefined, cause);
  }
  const arrays = names.map((name) => {
    const label = `params.${textForCore(name)}`;
    return numbers(read(params, name, label), label);
  });
  const state = readOwn(model, 'optimizerState', 'model.optimizerState');
  const { step, m, v } = state === undefined ? { step: 0, m: null, v: null }
    : fields(state, 'model.optimizerState', { step: 0, m: null, v: null });
  const moments = (array, name) => (array === null ? null : numbers(array, name));
  return {
    config, names: names.map(textForCore), arrays, step: number(step, 'optimizerState.step'),
    m: moments(m, 'optimizerState.m'), v: moments(v, 'optimizerState.v'),
  };
}

// Options whose every field has the type of its default (missing ones take
// the defaults): a number, a string or a boolean; a field whose default is
// null takes null, or a number or string as `nullable` says.
function typedFields(value, name, defaults, nullable = 'number') {
  const given = fields(value, name, defaults);
  const checked = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const kind = fallback === null ? nullable : typeof fallback;
    const field = given[key];
    checked[key] = fallback === null && field === null ? null
      : kind === 'string' ? text(field, key) : kind === 'boolean' ? flag(field, key) : number(field, key);
  }
  return checked;
}

// The encoder's config: every field a number.
const modelConfig = (defaults) => (value, name) => typedFields(value, name, defaults);

// A translator's config: its task (a name, or null for sizes given
// directly), its sizes (null: the task's) and its scoring (null: the
// architecture's own).
const seq2seqConfig = (defaults) => (value, name) => {
  const { task, scoring, ...rest } = defaults;
  const config = typedFields(value, name, rest);
  const given = fields(value, name, { task, scoring });
  const nameOrNull = (field, key) => (field === null ? null : text(field, key));
  return { ...config, task: nameOrNull(given.task, 'task'), scoring: nameOrNull(given.scoring, 'scoring') };
};

// A translator's batch: {source, sourceLens, targetIn, targetOut, targetLens}
// as Int32Arrays (no targets for a translation); the core counts the items in the sources.
function seq2seqBatch(value, withTargets = true) {
  const keys = withTargets ? ['source', 'sourceLens', 'targetIn', 'targetOut', 'targetLens'] : ['source', 'sourceLens'];
  const given = required(value, 'batch', keys);
  const batch = {};
  for (const key of keys) batch[key] = wholeNumbers(given[key], key);
  return batch;
}

// {batch, validLens, causal, headsOff} of a batch of token sequences; batch defaults
// to as many sequences of the model's length as the tokens hold.
function batchOptions(opts, tokens, model, extra = {}) {
  const { batch, validLens, causal, headsOff, ...rest } =
    fields(opts, 'options', { batch: undefined, validLens: null, causal: false, headsOff: null, ...extra });
  const inferred = Math.max(1, Math.floor(tokens.length / model.config.length));
  return {
    batch: number(batch ?? inferred, 'batch'), validLens: lengths(validLens), causal: flag(causal, 'causal'),
    headsOff: lengths(headsOff, 'headsOff'), ...rest,
  };
}

// The options of a task batch, each checked for type.
function taskOptions(opts, defaults) {
  const { task, batch, length, vocab, seed, lag, variableLengths } = fields(opts, 'options', defaults);
  return {
    task: text(task, 'task'), batch: number(batch, 'batch'), length: number(length, 'length'),
    vocab: number(vocab, 'vocab'), seed: number(seed, 'seed'), lag: number(lag, 'lag'),
    variableLengths: flag(variableLengths, 'variableLengths'),
  };
}

// Which row of a model's attention to take apart: {block, item, head,
// query}, whole numbers (block, item and head default to 0; query is
// required), and for a translator `attention` ('cross' or 'self').
function rowChoice(value, extra = {}) {
  if (value === undefined) throw argumentError('choice', 'an object', 'undefined');
  const given = fields(value, 'choice', { block: 0, item: 0, head: 0, query: undefined, ...extra });
  const choice = {};
  for (const key of ['block', 'item', 'head', 'query']) choice[key] = number(given[key], key);
  for (const key of Object.keys(extra)) choice[key] = text(given[key], key);
  return choice;
}

// The bindings return their result, or an error record marked with this key
// (see wasm/transfer.hpp), which no result has.
const ERROR_RECORD = Symbol.for('attention-core.error');

function unwrap(result) {
  if (result?.[ERROR_RECORD] === true) throw withFields(new Error(result.message), result);
  return result;
}

// Frozen all the way down: the contract is read-only for every caller.
function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

// The basics' functions over their module, and its contract (every limit,
// the basics' defaults); over a module that binds only some of them (the
// cues' part), those functions only.
function wrapBasics(core) {
  const { limits, defaults } = deepFreeze(core.contract());
  const {
    dataset, kernel: pooling, training, scalingStudy: study, consistencyStudy: consistency, randomNormal: normal,
    randomUniform: uniform,
  } = defaults;
  const leaveOneOut = { leaveOneOut: training.leaveOneOut };
  const api = {
    // The documented limits (core/contract/limits.hpp) and the defaults of every option.
    limits,
    defaults,
    makeDataset(opts) {
      const { n, seed, noise, xMax } = fields(opts, 'options', dataset);
      return unwrap(core.makeDataset(number(n, 'n'), number(seed, 'seed'), number(noise, 'noise'), number(xMax, 'xMax')));
    },
    truth(x) {
      return unwrap(core.truth(numbers(x, 'x')));
    },
    sumSquaredError(predictions, targets) {
      return unwrap(core.sumSquaredError(numbers(predictions, 'predictions'), numbers(targets, 'targets')));
    },
    averagePool(values, nQueries) {
      return unwrap(core.averagePool(numbers(values, 'values'), number(nQueries, 'nQueries')));
    },
    attentionWeights(queries, keys, opts) {
      const { kernel, w, out } = fields(opts, 'options', { ...pooling, out: null });
      return unwrap(core.attentionWeights(numbers(queries, 'queries'), numbers(keys, 'keys'),
        text(kernel, 'kernel'), number(w, 'w'), target(out, 'out')));
    },
    nadarayaWatson(queries, keys, values, opts) {
      const { kernel, w } = fields(opts, 'options', pooling);
      return unwrap(core.nadarayaWatson(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), text(kernel, 'kernel'), number(w, 'w')));
    },
    trainKernelWidth(x, y, opts) {
      const { w0, lr, epochs, leaveOneOut: loo } = fields(opts, 'options', training);
      return unwrap(core.trainKernelWidth(numbers(x, 'x'), numbers(y, 'y'), number(w0, 'w0'),
        number(lr, 'lr'), number(epochs, 'epochs'), flag(loo, 'leaveOneOut')));
    },
    lossLandscape(x, y, ws, opts) {
      const { leaveOneOut: loo } = fields(opts, 'options', leaveOneOut);
      return unwrap(core.lossLandscape(numbers(x, 'x'), numbers(y, 'y'), numbers(ws, 'ws'), flag(loo, 'leaveOneOut')));
    },
    kernelWidthLoss(x, y, w, opts) {
      const { leaveOneOut: loo } = fields(opts, 'options', leaveOneOut);
      return unwrap(core.kernelWidthLoss(numbers(x, 'x'), numbers(y, 'y'), number(w, 'w'), flag(loo, 'leaveOneOut')));
    },
    maskedSoftmax(scores, shape, validLens = null) {
      return unwrap(core.maskedSoftmax(...scoresArguments(scores, shape, validLens)));
    },
    // d2l's masking: {maskedScores (-1e6, defaults.maskedScore, over the masked
    // keys), masked (a Uint8Array, 1 = masked), rowLengths (an Int32Array, the
    // valid length of each of the batch * nq rows)}.
    maskScores(scores, shape, validLens = null) {
      return unwrap(core.maskScores(...scoresArguments(scores, shape, validLens)));
    },
    additiveAttention(args) {
      const { queries, keys, values, shape, Wq, Wk, wv, validLens } =
        required(args, 'arguments', ['queries', 'keys', 'values', 'shape', 'Wq', 'Wk', 'wv', 'validLens']);
      return unwrap(core.additiveAttention(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), shapeOf(shape, ['batch', 'nq', 'nk', 'dq', 'dk', 'dv', 'h']),
        numbers(Wq, 'Wq'), numbers(Wk, 'Wk'), numbers(wv, 'wv'), lengths(validLens)));
    },
    dotProductAttention(args) {
      const { queries, keys, values, shape, validLens } =
        required(args, 'arguments', ['queries', 'keys', 'values', 'shape', 'validLens']);
      return unwrap(core.dotProductAttention(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), shapeOf(shape, ['batch', 'nq', 'nk', 'd', 'dv']), lengths(validLens)));
    },
    // torch.bmm: X of shape [n, a, b] times Y of shape [n, b, c] is {values, shape: [n, a, c]}.
    batchMatrixProduct(X, Y, opts) {
      const { shapeX, shapeY } = required(opts, 'options', ['shapeX', 'shapeY']);
      return unwrap(core.batchMatrixProduct(numbers(X, 'X'), numbers(Y, 'Y'), shapeTriple(shapeX, 'shapeX', 'nab'),
        shapeTriple(shapeY, 'shapeY', 'nbc')));
    },
    // headMask: null (every head), or one factor per head.
    multiHeadAttention(args) {
      const { queries, keys, values, shape, Wq, Wk, Wv, Wo, validLens, headMask } = required(args, 'arguments',
        ['queries', 'keys', 'values', 'shape', 'Wq', 'Wk', 'Wv', 'Wo', 'validLens', 'headMask']);
      return unwrap(core.multiHeadAttention(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), shapeOf(shape, ['batch', 'nq', 'nk', 'hidden', 'heads']),
        numbers(Wq, 'Wq'), numbers(Wk, 'Wk'), numbers(Wv, 'Wv'), numbers(Wo, 'Wo'), lengths(validLens),
        headMask === undefined || headMask === null ? null : numbers(headMask, 'headMask')));
    },
    positionalEncoding(maxLen, dim) {
      return unwrap(core.positionalEncoding(number(maxLen, 'maxLen'), number(dim, 'dim')));
    },
    randomNormal(count, opts) {
      const { seed, std } = fields(opts, 'options', normal);
      return unwrap(core.randomNormal(number(count, 'count'), number(seed, 'seed'), number(std, 'std')));
    },
    randomUniform(count, opts) {
      const { seed, low, high } = fields(opts, 'options', uniform);
      return unwrap(core.randomUniform(number(count, 'count'), number(seed, 'seed'), number(low, 'low'),
        number(high, 'high')));
    },
    memoryStats: () => memoryStatsOf(core),
    scalingStudy(opts) {
      const { dims, samples, keys, seed } = fields(opts, 'options', study);
      return unwrap(core.scalingStudy(numbers(dims, 'dims'), number(samples, 'samples'), number(keys, 'keys'),
        number(seed, 'seed')));
    },
    consistencyStudy(opts) {
      const { sizes, repeats, queries, w, noise, xMax, seed } = fields(opts, 'options', consistency);
      return unwrap(core.consistencyStudy({
        sizes: numbers(sizes, 'sizes'), repeats: number(repeats, 'repeats'), queries: number(queries, 'queries'),
        w: number(w, 'w'), noise: number(noise, 'noise'), xMax: number(xMax, 'xMax'), seed: number(seed, 'seed'),
      }));
    },
  };
  // Each function calls the binding of its own name.
  return Object.freeze(Object.fromEntries(Object.entries(api).filter(([name, value]) => typeof value !== 'function'
    || typeof core[name] === 'function')));
}

// The trainable models' functions over their module, its defaults, and
// the names each kind takes (the core's one table per kind).
function wrapModels(core) {
  const { defaults, kinds } = deepFreeze(core.modelContract());
  const { attentionModel: modelDefaults, attentionTask: taskDefaults, attentionTraining: trainingDefaults } = defaults;
  const stepDefaults = { optimizer: trainingDefaults.optimizer, lr: trainingDefaults.lr };
  const readModelConfig = modelConfig(modelDefaults);
  const { seq2seqModel: translatorDefaults, seq2seqTraining: translatorTraining } = defaults;
  const readTranslatorConfig = seq2seqConfig(translatorDefaults);
  const translatorStep = { optimizer: translatorTraining.optimizer, lr: translatorTraining.lr, clip: translatorTraining.clip };
  return Object.freeze({
    defaults,
    kinds,
    memoryStats: () => memoryStatsOf(core),
    // The trainable attention model (docs/js-api.md: "Training an attention model").
    attentionModelInit(config) {
      return unwrap(core.attentionModelInit(readModelConfig(config, 'config')));
    },
    attentionModelForward(model, tokens, opts) {
      const m = modelArgument(model, readModelConfig);
      const ids = wholeNumbers(tokens, 'tokens');
      return unwrap(core.attentionModelForward(m, ids, batchOptions(opts, ids, m)));
    },
    // One row of a head's map taken apart: query and keys, scores, mask, softmax, weighted sum.
    attentionModelRowSteps(model, tokens, opts, choice) {
      const m = modelArgument(model, readModelConfig);
      const ids = wholeNumbers(tokens, 'tokens');
      return unwrap(core.attentionModelRowSteps(m, ids, batchOptions(opts, ids, m), rowChoice(choice)));
    },
    attentionModelLoss(model, tokens, targets, opts) {
      const m = modelArgument(model, readModelConfig);
      const ids = wholeNumbers(tokens, 'tokens');
      return unwrap(core.attentionModelLoss(m, ids, wholeNumbers(targets, 'targets'), batchOptions(opts, ids, m)));
    },
    attentionModelStep(model, tokens, targets, opts) {
      const m = modelArgument(model, readModelConfig);
      const ids = wholeNumbers(tokens, 'tokens');
      const { optimizer, lr, ...batch } = batchOptions(opts, ids, m, stepDefaults);
      return unwrap(core.attentionModelStep(m, ids, wholeNumbers(targets, 'targets'),
        { ...batch, optimizer: text(optimizer, 'optimizer'), lr: number(lr, 'lr') }));
    },
    attentionModelAccuracy(model, tokens, targets, opts) {
      const m = modelArgument(model, readModelConfig);
      const ids = wholeNumbers(tokens, 'tokens');
      return unwrap(core.attentionModelAccuracy(m, ids, wholeNumbers(targets, 'targets'), batchOptions(opts, ids, m)));
    },
    attentionTaskBatch(opts) {
      return unwrap(core.attentionTaskBatch(taskOptions(opts, taskDefaults)));
    },
    attentionTaskIdeal(opts, item) {
      return unwrap(core.attentionTaskIdeal(taskOptions(opts, taskDefaults), number(item, 'item')));
    },
    attentionModelTrain(model, opts) {
      const m = modelArgument(model, readModelConfig);
      return unwrap(core.attentionModelTrain(m, typedFields(opts, 'options', trainingDefaults)));
    },
    // The translators (docs/js-api.md: "Training a translator").
    seq2seqVocabulary(task) {
      return unwrap(core.seq2seqVocabulary(text(task, 'task')));
    },
    seq2seqInit(config) {
      return unwrap(core.seq2seqInit(readTranslatorConfig(config, 'config')));
    },
    seq2seqTaskBatch(opts) {
      const { task, batch, seed } = typedFields(opts, 'options', { task: translatorTraining.task, batch: translatorTraining.batch, seed: translatorTraining.seed });
      return unwrap(core.seq2seqTaskBatch({ task, batch, seed }));
    },
    seq2seqHeldOut(opts) {
      return unwrap(core.seq2seqHeldOut(typedFields(opts, 'options', { task: translatorTraining.task, count: translatorTraining.heldOut })));
    },
    seq2seqTaskIdeal(opts, item) {
      const checked = typedFields(opts, 'options', { task: translatorTraining.task, count: translatorTraining.heldOut });
      return unwrap(core.seq2seqTaskIdeal(checked, number(item, 'item')));
    },
    seq2seqForward(model, batch) {
      const m = modelArgument(model, readTranslatorConfig);
      return unwrap(core.seq2seqForward(m, seq2seqBatch(batch)));
    },
    seq2seqAlignment(model, opts) {
      const m = modelArgument(model, readTranslatorConfig);
      return unwrap(core.seq2seqAlignment(m, typedFields(opts, 'options', { task: translatorTraining.task, count: translatorTraining.heldOut })));
    },
    // One row of the decoder's attention taken apart, on the teacher-forced pass of the batch.
    seq2seqRowSteps(model, batch, choice) {
      const m = modelArgument(model, readTranslatorConfig);
      return unwrap(core.seq2seqRowSteps(m, seq2seqBatch(batch), rowChoice(choice, { attention: 'cross' })));
    },
    seq2seqLoss(model, batch) {
      const m = modelArgument(model, readTranslatorConfig);
      return unwrap(core.seq2seqLoss(m, seq2seqBatch(batch)));
    },
    seq2seqStep(model, batch, opts) {
      const m = modelArgument(model, readTranslatorConfig);
      return unwrap(core.seq2seqStep(m, seq2seqBatch(batch), typedFields(opts, 'options', translatorStep)));
    },
    seq2seqTrain(model, opts) {
      const m = modelArgument(model, readTranslatorConfig);
      return unwrap(core.seq2seqTrain(m, typedFields(opts, 'options', translatorTraining)));
    },
    // One source (its ids, <eos> included, unpadded), or a batch of them
    // padded to the model's sourceLength with their sourceLens.
    seq2seqTranslate(model, source, opts) {
      const m = modelArgument(model, readTranslatorConfig);
      // The config checked by the core before its sizes size anything here (a
      // NaN or 2^31 - 1 sourceLength is refused, not allocated); sizes left null are its task's.
      const { sourceLength: length, targetLength } = unwrap(core.seq2seqCheckedConfig(m.config));
      const { maxLength, sourceLens } = fields(opts, 'options', { maxLength: targetLength, sourceLens: null });
      const ids = wholeNumbers(source, 'source');
      let batch;
      if (sourceLens === null) {
        if (ids.length < 1 || ids.length > length) {
          throw argumentError('source', `one source of 1 to ${length} tokens (sourceLength), or sourceLens`, String(ids.length));
        }
        const padded = new Int32Array(length);
        padded.set(ids);
        batch = { source: padded, sourceLens: Int32Array.of(ids.length) };
      } else {
        batch = { source: ids, sourceLens: wholeNumbers(sourceLens, 'sourceLens') };
      }
      return unwrap(core.seq2seqTranslate(m, { ...batch, maxLength: number(maxLength ?? NaN, 'maxLength') }));
    },
    // The text whole (not cut as names are: every word of it counts), its
    // lone surrogates escaped; C++ refuses one too long before copying it.
    seq2seqSourceFromText(task, words) {
      if (typeof words !== 'string') throw argumentError('text', 'a string', typeName(words));
      return unwrap(core.seq2seqSourceFromText(text(task, 'task'), escapeLoneSurrogates(words)));
    },
  });
}

// {allocatedBytes, heapBytes, liveHandles} of one module. liveHandles: JS
// values C++ holds through Embind (emval handles) once the call is over;
// the API keeps none between calls, so it stays at its baseline unless
// something leaks them.
function memoryStatsOf(core) {
  const { allocatedBytes, heapBytes } = core.memoryStats();
  return { allocatedBytes, heapBytes, liveHandles: core.count_emval_handles() };
}

// Both parts as one API: the basics' functions and the models', every
// default, and the memory figures of both modules added up.
function bothParts(basics, models) {
  const { memoryStats: basicsMemory, ...basicsApi } = basics;
  const { memoryStats: modelsMemory, defaults, ...modelsApi } = models;
  return Object.freeze({
    ...basicsApi,
    defaults: Object.freeze({ ...basics.defaults, ...defaults }),
    ...modelsApi,
    memoryStats() {
      const [a, b] = [basicsMemory(), modelsMemory()];
      return {
        allocatedBytes: a.allocatedBytes + b.allocatedBytes,
        heapBytes: a.heapBytes + b.heapBytes,
        liveHandles: a.liveHandles + b.liveHandles,
      };
    },
  });
}

// Each part is instantiated once and shared by every caller on the page; a
// failed load is forgotten, so that a later call tries again.
function once(load) {
  let loading = null;
  return () => {
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

const basicsPart = once(() => createBasicsModule().then(wrapBasics));
const modelsPart = once(() => createModelsModule().then(wrapModels));
const wholeCore = once(() => Promise.all([basicsPart(), modelsPart()]).then(([basics, models]) => bothParts(basics, models)));

// Resolves to the basics' API: every function but the trainable models'
// (attentionModel*, attentionTask*, seq2seq*), every limit, and the basics'
// defaults. A page loads it first, and the whole core while its learner reads.
export function loadAttentionBasics() {
  return basicsPart();
}

// Resolves to the cues' part: averagePool, maskedSoftmax,
// batchMatrixProduct, randomUniform and memoryStats, every limit and the
// basics' defaults; a module of its own where the build has one (the page),
// else the basics' API. (Made when first asked for: a bundle that never
// asks, such as the training worker's, leaves the part's glue out.)
let cuesPart = null;
export function loadAttentionCues() {
  cuesPart ??= createCuesModule === createBasicsModule ? basicsPart : once(() => createCuesModule().then(wrapBasics));
  return cuesPart();
}

// Resolves to the whole API, both parts; its basics are the module
// loadAttentionBasics() loads (one instance per page either way).
export function loadAttentionCore() {
  return wholeCore();
}
