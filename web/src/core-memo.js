// The core's pure functions, each remembering its last few calls: sections
// that ask for the same data set or the same weights in one redraw (or keep
// asking while another input changes) share one call. Arguments are compared
// by value, except typed arrays, which are compared by identity: an array the
// core returned is passed on unchanged, so an identical one means the same
// call. Results are shared between callers, who treat them as read-only.
// Nothing here computes: it only decides when to ask the core again.
const REMEMBERED = 4; // calls kept per function: one redraw asks for a handful at most

// Functions whose result depends on their arguments alone. Not memoryStats,
// nor attentionWeights with an `out` array (it writes into its argument).
const PURE = new Set([
  'makeDataset', 'truth', 'averagePool', 'attentionWeights', 'nadarayaWatson', 'trainKernelWidth',
  'lossLandscape', 'kernelWidthLoss', 'maskedSoftmax', 'maskScores', 'additiveAttention',
  'dotProductAttention', 'multiHeadAttention', 'positionalEncoding', 'randomNormal', 'randomUniform',
  'scalingStudy',
]);

const identities = new WeakMap();
let nextIdentity = 0;

// A string that two argument lists share exactly when the core would be
// called with the same values (typed arrays: the same objects); undefined
// for arguments that cannot be compared.
export function callKey(value) {
  if (value === null || value === undefined) return String(value);
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return String(value);
    case 'object':
      if (ArrayBuffer.isView(value)) {
        if (!identities.has(value)) identities.set(value, (nextIdentity += 1));
        return `#${identities.get(value)}`;
      }
      if (Array.isArray(value)) return joined(value.map(callKey), '[', ']');
      return joined(Object.keys(value).sort().map((key) => {
        const part = callKey(value[key]);
        return part === undefined ? undefined : `${JSON.stringify(key)}:${part}`;
      }), '{', '}');
    default:
      return undefined; // functions, symbols, BigInts: never remembered
  }
}

function joined(parts, open, close) {
  return parts.includes(undefined) ? undefined : `${open}${parts.join(',')}${close}`;
}

function remembering(compute) {
  const calls = []; // [key, result], most recent last
  return (...args) => {
    const key = callKey(args);
    if (key === undefined) return compute(...args);
    const found = calls.findIndex(([known]) => known === key);
    if (found >= 0) {
      const hit = calls.splice(found, 1)[0];
      calls.push(hit);
      return hit[1];
    }
    const result = compute(...args); // a failed call throws and is not remembered
    calls.push([key, result]);
    if (calls.length > REMEMBERED) calls.shift();
    return result;
  };
}

export function memoizeCore(core) {
  const memoized = { ...core };
  for (const name of PURE) {
    if (typeof core[name] === 'function') memoized[name] = remembering(core[name]);
  }
  // attentionWeights with `out` writes into the caller's array: never remembered.
  if (core.attentionWeights) {
    const remembered = memoized.attentionWeights;
    memoized.attentionWeights = (queries, keys, options) =>
      (options?.out ? core.attentionWeights(queries, keys, options) : remembered(queries, keys, options));
  }
  return Object.freeze(memoized);
}
