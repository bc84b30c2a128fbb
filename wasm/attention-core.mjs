// The JS API of the attention core: plain JS values in and out, no Embind in
// sight. Inputs are checked for type here; sizes, shapes and values are
// checked in C++, whose errors name the argument. A failed call throws an
// Error carrying fields (argument, expected, got, index) and leaves the module
// ready for the next call. Limits and option defaults come from the core
// (`limits`, `defaults`): no number of the contract is written here.
import createAttentionModule from 'attention-core-wasm';

const typeName = (value) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : value?.constructor?.name ?? typeof value;

// The fields every error of the API carries: `argument` (the name the caller
// used), `expected`, `got` ('' when the error names no value) and `index`
// (the element at fault, or undefined).
function withFields(error, { argument, expected, got, index }) {
  return Object.assign(error, { argument, expected, got, index });
}

// An argument error raised on this side, worded like the core's:
// "<argument>: expected <expected>[, got <got>][ at index <index>]".
function argumentError(argument, expected, got = undefined, index = undefined) {
  let message = `${argument}: expected ${expected}`;
  if (got !== undefined) message += `, got ${got}`;
  if (index !== undefined) message += ` at index ${index}`;
  return withFields(new Error(message), { argument, expected, got: got ?? '', index });
}

function numbers(value, name) {
  if (value instanceof Float64Array) return value;
  if ((Array.isArray(value) || ArrayBuffer.isView(value)) && !(value instanceof DataView) &&
      !(value instanceof BigInt64Array) && !(value instanceof BigUint64Array)) {
    for (let i = 0; i < value.length; i += 1) {
      if (typeof value[i] !== 'number') throw argumentError(name, 'numbers', typeName(value[i]), i);
    }
    return Float64Array.from(value);
  }
  throw argumentError(name, 'a Float64Array or an array of numbers', typeName(value));
}

function lengths(value, name = 'validLens') {
  if (value === null || value === undefined) return new Int32Array(0);
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) {
    throw argumentError(name, 'null, an Int32Array or an array of whole numbers', typeName(value));
  }
  for (let i = 0; i < value.length; i += 1) {
    if (!Number.isInteger(value[i]) || value[i] < 0 || value[i] > 2 ** 31 - 1) {
      throw argumentError(name, 'whole numbers >= 0', String(value[i]).slice(0, 40), i);
    }
  }
  return Int32Array.from(value);
}

function number(value, name) {
  if (typeof value !== 'number') throw argumentError(name, 'a number', typeName(value));
  return value;
}

// An options object (undefined: every default). Arrays and typed arrays are
// refused: read as options they would silently give the defaults.
function options(value, name) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw argumentError(name, 'an object', typeName(value));
  }
  return value;
}

// The one object the layer functions take: required.
function required(value, name) {
  if (value === undefined) throw argumentError(name, 'an object', 'undefined');
  return options(value, name);
}

// An array to write a result into: null (a new one), or a Float64Array.
function target(value, name) {
  if (value === null || value instanceof Float64Array) return value;
  throw argumentError(name, 'null or a Float64Array', typeName(value));
}

function text(value, name) {
  if (typeof value !== 'string') throw argumentError(name, 'a string', typeName(value));
  return value;
}

function flag(value, name) {
  if (typeof value !== 'boolean') throw argumentError(name, 'true or false', typeName(value));
  return value;
}

function shapeOf(value, keys) {
  const shape = options(value, 'shape');
  const result = {};
  for (const key of keys) result[key] = number(shape[key], `shape.${key}`);
  return result;
}

// The arguments of maskedSoftmax and maskScores (scores of shape [batch, nq, nk]).
function scoresArguments(scores, shape, validLens) {
  if (!Array.isArray(shape) || shape.length !== 3) throw argumentError('shape', '[batch, nq, nk]', typeName(shape));
  return [numbers(scores, 'scores'), number(shape[0], 'shape[0] (batch)'), number(shape[1], 'shape[1] (nq)'),
    number(shape[2], 'shape[2] (nk)'), lengths(validLens)];
}

// The bindings return their result, or an error record marked with this key
// (see wasm/bindings.cpp), which no result has.
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

function wrap(core) {
  const { limits, defaults } = deepFreeze(core.contract());
  const { dataset, kernel: pooling, training, scalingStudy: study, randomNormal: normal, randomUniform: uniform } =
    defaults;
  return Object.freeze({
    // The documented limits (core/limits.hpp) and the defaults of every option.
    limits,
    defaults,
    makeDataset(opts) {
      const { n = dataset.n, seed = dataset.seed, noise = dataset.noise, xMax = dataset.xMax } = options(opts, 'options');
      return unwrap(core.makeDataset(number(n, 'n'), number(seed, 'seed'), number(noise, 'noise'), number(xMax, 'xMax')));
    },
    truth(x) {
      return unwrap(core.truth(numbers(x, 'x')));
    },
    averagePool(values, nQueries) {
      return unwrap(core.averagePool(numbers(values, 'values'), number(nQueries, 'nQueries')));
    },
    attentionWeights(queries, keys, opts) {
      const { kernel = pooling.kernel, w = pooling.w, out = null } = options(opts, 'options');
      return unwrap(core.attentionWeights(numbers(queries, 'queries'), numbers(keys, 'keys'),
        text(kernel, 'kernel'), number(w, 'w'), target(out, 'out')));
    },
    nadarayaWatson(queries, keys, values, opts) {
      const { kernel = pooling.kernel, w = pooling.w } = options(opts, 'options');
      return unwrap(core.nadarayaWatson(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), text(kernel, 'kernel'), number(w, 'w')));
    },
    trainKernelWidth(x, y, opts) {
      const { w0 = training.w0, lr = training.lr, epochs = training.epochs, leaveOneOut = training.leaveOneOut } =
        options(opts, 'options');
      return unwrap(core.trainKernelWidth(numbers(x, 'x'), numbers(y, 'y'), number(w0, 'w0'),
        number(lr, 'lr'), number(epochs, 'epochs'), flag(leaveOneOut, 'leaveOneOut')));
    },
    lossLandscape(x, y, ws, opts) {
      const { leaveOneOut = training.leaveOneOut } = options(opts, 'options');
      return unwrap(core.lossLandscape(numbers(x, 'x'), numbers(y, 'y'), numbers(ws, 'ws'),
        flag(leaveOneOut, 'leaveOneOut')));
    },
    kernelWidthLoss(x, y, w, opts) {
      const { leaveOneOut = training.leaveOneOut } = options(opts, 'options');
      return unwrap(core.kernelWidthLoss(numbers(x, 'x'), numbers(y, 'y'), number(w, 'w'),
        flag(leaveOneOut, 'leaveOneOut')));
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
      const { queries, keys, values, shape, Wq, Wk, wv, validLens = null } = required(args, 'arguments');
      return unwrap(core.additiveAttention(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), shapeOf(shape, ['batch', 'nq', 'nk', 'dq', 'dk', 'dv', 'h']),
        numbers(Wq, 'Wq'), numbers(Wk, 'Wk'), numbers(wv, 'wv'), lengths(validLens)));
    },
    dotProductAttention(args) {
      const { queries, keys, values, shape, validLens = null } = required(args, 'arguments');
      return unwrap(core.dotProductAttention(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), shapeOf(shape, ['batch', 'nq', 'nk', 'd', 'dv']), lengths(validLens)));
    },
    multiHeadAttention(args) {
      const { queries, keys, values, shape, Wq, Wk, Wv, Wo, validLens = null, headMask = null } =
        required(args, 'arguments');
      return unwrap(core.multiHeadAttention(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), shapeOf(shape, ['batch', 'nq', 'nk', 'hidden', 'heads']),
        numbers(Wq, 'Wq'), numbers(Wk, 'Wk'), numbers(Wv, 'Wv'), numbers(Wo, 'Wo'), lengths(validLens),
        headMask === null ? new Float64Array(0) : numbers(headMask, 'headMask')));
    },
    positionalEncoding(maxLen, dim) {
      return unwrap(core.positionalEncoding(number(maxLen, 'maxLen'), number(dim, 'dim')));
    },
    randomNormal(count, opts) {
      const { seed = normal.seed, std = normal.std } = options(opts, 'options');
      return unwrap(core.randomNormal(number(count, 'count'), number(seed, 'seed'), number(std, 'std')));
    },
    randomUniform(count, opts) {
      const { seed = uniform.seed, low = uniform.low, high = uniform.high } = options(opts, 'options');
      return unwrap(core.randomUniform(number(count, 'count'), number(seed, 'seed'), number(low, 'low'),
        number(high, 'high')));
    },
    // liveHandles: JS values C++ holds through Embind (emval handles) once
    // the call is over; the API keeps none between calls, so it stays at its
    // baseline unless something leaks them.
    memoryStats() {
      const { allocatedBytes, heapBytes } = core.memoryStats();
      return { allocatedBytes, heapBytes, liveHandles: core.count_emval_handles() };
    },
    scalingStudy(opts) {
      const { dims = study.dims, samples = study.samples, keys = study.keys, seed = study.seed } =
        options(opts, 'options');
      return unwrap(core.scalingStudy(numbers(dims, 'dims'), number(samples, 'samples'), number(keys, 'keys'),
        number(seed, 'seed')));
    },
  });
}

let loading = null;

// Resolves to the API. The wasm module is instantiated once and shared by
// every caller on the page.
export function loadAttentionCore() {
  loading ??= createAttentionModule().then(wrap, (error) => {
    loading = null; // let a later call try again
    throw error;
  });
  return loading;
}
