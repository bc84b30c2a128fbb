// The JS API of the attention core: plain JS values in and out, no Embind in
// sight. Inputs are checked for type here; sizes, shapes and values are
// checked in C++, whose messages name the argument. A failed call throws an
// Error and leaves the module ready for the next call.
import createAttentionModule from 'attention-core-wasm';

const typeName = (value) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : value?.constructor?.name ?? typeof value;

function numbers(value, name) {
  if (value instanceof Float64Array) return value;
  if ((Array.isArray(value) || ArrayBuffer.isView(value)) && !(value instanceof DataView) &&
      !(value instanceof BigInt64Array) && !(value instanceof BigUint64Array)) {
    for (let i = 0; i < value.length; i += 1) {
      if (typeof value[i] !== 'number') {
        throw new Error(`${name}: expected numbers, got ${typeName(value[i])} at index ${i}`);
      }
    }
    return Float64Array.from(value);
  }
  throw new Error(`${name}: expected a Float64Array or an array of numbers, got ${typeName(value)}`);
}

function lengths(value, name = 'validLens') {
  if (value === null || value === undefined) return new Int32Array(0);
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) {
    throw new Error(`${name}: expected null, an Int32Array or an array of whole numbers, got ${typeName(value)}`);
  }
  for (let i = 0; i < value.length; i += 1) {
    if (!Number.isInteger(value[i]) || value[i] < 0 || value[i] > 2 ** 31 - 1) {
      throw new Error(`${name}: expected whole numbers >= 0, got ${String(value[i]).slice(0, 40)} at index ${i}`);
    }
  }
  return Int32Array.from(value);
}

function number(value, name) {
  if (typeof value !== 'number') throw new Error(`${name}: expected a number, got ${typeName(value)}`);
  return value;
}

// An options object (undefined: every default). Arrays and typed arrays are
// refused: read as options they would silently give the defaults.
function options(value, name) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new Error(`${name}: expected an object, got ${typeName(value)}`);
  }
  return value;
}

// The one object the layer functions take: required.
function required(value, name) {
  if (value === undefined) throw new Error(`${name}: expected an object, got undefined`);
  return options(value, name);
}

// An array to write a result into: null (a new one), or a Float64Array.
function target(value, name) {
  if (value === null || value instanceof Float64Array) return value;
  throw new Error(`${name}: expected null or a Float64Array, got ${typeName(value)}`);
}

function text(value, name) {
  if (typeof value !== 'string') throw new Error(`${name}: expected a string, got ${typeName(value)}`);
  return value;
}

function flag(value, name) {
  if (typeof value !== 'boolean') throw new Error(`${name}: expected true or false, got ${typeName(value)}`);
  return value;
}

function shapeOf(value, keys) {
  const shape = options(value, 'shape');
  const result = {};
  for (const key of keys) result[key] = number(shape[key], `shape.${key}`);
  return result;
}

// Embind functions return their result, or a string: the error message.
function unwrap(result) {
  if (typeof result === 'string') throw new Error(result);
  return result;
}

function wrap(core) {
  return Object.freeze({
    makeDataset(opts) {
      const { n = 50, seed = 0, noise = 0.5, xMax = 5 } = options(opts, 'options');
      return unwrap(core.makeDataset(number(n, 'n'), number(seed, 'seed'), number(noise, 'noise'), number(xMax, 'xMax')));
    },
    truth(x) {
      return unwrap(core.truth(numbers(x, 'x')));
    },
    averagePool(values, nQueries) {
      return unwrap(core.averagePool(numbers(values, 'values'), number(nQueries, 'nQueries')));
    },
    attentionWeights(queries, keys, opts) {
      const { kernel = 'gaussian', w = 1, out = null } = options(opts, 'options');
      return unwrap(core.attentionWeights(numbers(queries, 'queries'), numbers(keys, 'keys'),
        text(kernel, 'kernel'), number(w, 'w'), target(out, 'out')));
    },
    nadarayaWatson(queries, keys, values, opts) {
      const { kernel = 'gaussian', w = 1 } = options(opts, 'options');
      return unwrap(core.nadarayaWatson(numbers(queries, 'queries'), numbers(keys, 'keys'),
        numbers(values, 'values'), text(kernel, 'kernel'), number(w, 'w')));
    },
    trainKernelWidth(x, y, opts) {
      const { w0 = 1, lr = 0.5, epochs = 5, leaveOneOut = true } = options(opts, 'options');
      return unwrap(core.trainKernelWidth(numbers(x, 'x'), numbers(y, 'y'), number(w0, 'w0'),
        number(lr, 'lr'), number(epochs, 'epochs'), flag(leaveOneOut, 'leaveOneOut')));
    },
    leaveOneOutLoss(x, y, ws, opts) {
      const { leaveOneOut = true } = options(opts, 'options');
      return unwrap(core.leaveOneOutLoss(numbers(x, 'x'), numbers(y, 'y'), numbers(ws, 'ws'),
        flag(leaveOneOut, 'leaveOneOut')));
    },
    kernelWidthLoss(x, y, w, opts) {
      const { leaveOneOut = true } = options(opts, 'options');
      return unwrap(core.kernelWidthLoss(numbers(x, 'x'), numbers(y, 'y'), number(w, 'w'),
        flag(leaveOneOut, 'leaveOneOut')));
    },
    maskedSoftmax(scores, shape, validLens = null) {
      if (!Array.isArray(shape) || shape.length !== 3) {
        throw new Error(`shape: expected [batch, nq, nk], got ${typeName(shape)}`);
      }
      return unwrap(core.maskedSoftmax(numbers(scores, 'scores'), number(shape[0], 'shape[0] (batch)'),
        number(shape[1], 'shape[1] (nq)'), number(shape[2], 'shape[2] (nk)'), lengths(validLens)));
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
      const { seed = 0, std = 1 } = options(opts, 'options');
      return unwrap(core.randomNormal(number(count, 'count'), number(seed, 'seed'), number(std, 'std')));
    },
    randomUniform(count, opts) {
      const { seed = 0, low = 0, high = 1 } = options(opts, 'options');
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
      const { dims = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512], samples = 500, keys = 10, seed = 0 } =
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
