// The one table of the page's parameters: type, default, bounds and step.
// Controls are built from it and clamp through it; the URL hash (later) reads
// and writes the same entries. Nothing else in the page holds a parameter.

export const KERNELS = ['gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov'];
export const ESTIMATORS = ['average', 'nadaraya-watson'];
export const LANGUAGES = ['en', 'zh'];
// Issue 4: the scoring functions, masks and demo inputs a learner can pick.
export const PIPELINE_SCORINGS = ['dot', 'additive'];
export const MASK_MODES = ['1d', '2d'];
export const SCORING_KEYS = ['ones', 'random'];
export const ADDITIVE_QUERIES = ['20d', 'shared'];

export const parameters = {
  // Data (d2l 10.2.1): n sorted inputs on [0, 5), noise of standard deviation `noise`.
  n: { type: 'integer', default: 50, min: 2, max: 1000, step: 1, section: 'data' },
  noise: { type: 'number', default: 0.5, min: 0, max: 2, step: 0.05, section: 'data' },
  seed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'data' },

  // Pooling (d2l 10.2.2-10.2.3 and the 2nd edition's kernels).
  estimator: { type: 'choice', default: 'nadaraya-watson', options: ESTIMATORS, section: 'pooling' },
  kernel: { type: 'choice', default: 'gaussian', options: KERNELS, section: 'pooling' },
  w: { type: 'number', default: 1, min: 0.1, max: 50, step: 0.01, scale: 'log', section: 'pooling' },
  query: { type: 'number', default: 2.5, min: 0, max: 5, step: 0.01, section: 'heatmap' },

  // Training the width w (d2l 10.2.4): plain gradient descent on the full batch.
  lr: { type: 'number', default: 0.5, min: 0.001, max: 10, step: 0.001, scale: 'log', section: 'training' },
  epochs: { type: 'integer', default: 5, min: 1, max: 1000, step: 1, section: 'training' },
  w0: { type: 'number', default: 1, min: 0, max: 30, step: 0.001, section: 'training' },
  leaveOneOut: { type: 'boolean', default: true, section: 'training' },

  // --- Attention scoring, multi-head attention and positional encoding (issue 4) ---
  // One query through score, softmax and weighted sum (d2l 10.3, its Fig. 10.3.1).
  pipelineScoring: { type: 'choice', default: 'dot', options: PIPELINE_SCORINGS, section: 'pipeline' },
  pipelineKeys: { type: 'integer', default: 5, min: 2, max: 8, step: 1, section: 'pipeline' },
  pipelineQ1: { type: 'number', default: 1, min: -3, max: 3, step: 0.01, section: 'pipeline' },
  pipelineQ2: { type: 'number', default: 0.5, min: -3, max: 3, step: 0.01, section: 'pipeline' },
  pipelineSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'pipeline' },
  // Masked softmax (d2l 10.3.1) on scores of the book's shape (2, 2, 4): valid
  // lengths 1-D (one per batch item) or 2-D (one per query row).
  maskMode: { type: 'choice', default: '1d', options: MASK_MODES, section: 'masking' },
  maskLen1: { type: 'integer', default: 2, min: 0, max: 4, step: 1, section: 'masking' },
  maskLen2: { type: 'integer', default: 3, min: 0, max: 4, step: 1, section: 'masking' },
  maskLen11: { type: 'integer', default: 1, min: 0, max: 4, step: 1, section: 'masking' },
  maskLen12: { type: 'integer', default: 3, min: 0, max: 4, step: 1, section: 'masking' },
  maskLen21: { type: 'integer', default: 2, min: 0, max: 4, step: 1, section: 'masking' },
  maskLen22: { type: 'integer', default: 4, min: 0, max: 4, step: 1, section: 'masking' },
  maskSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'masking' },
  // Additive vs scaled dot-product attention (d2l 10.3.2-10.3.3) on the book's
  // demo: keys (2, 10, 2), values arange(40) as (2, 10, 4), valid lengths [2, 6].
  scoringKeys: { type: 'choice', default: 'ones', options: SCORING_KEYS, section: 'scoring' },
  additiveQueries: { type: 'choice', default: '20d', options: ADDITIVE_QUERIES, section: 'scoring' },
  scoringQueries: { type: 'integer', default: 1, min: 1, max: 4, step: 1, section: 'scoring' },
  scoringLen1: { type: 'integer', default: 2, min: 0, max: 10, step: 1, section: 'scoring' },
  scoringLen2: { type: 'integer', default: 6, min: 0, max: 10, step: 1, section: 'scoring' },
  additiveHidden: { type: 'integer', default: 8, min: 1, max: 64, step: 1, section: 'scoring' },
  scoringSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'scoring' },
  // Why divide by sqrt(d): the core's scaling study for d = 1 ... 512. One core
  // call per d; the bounds keep the largest (d = 512) near 100 ms at most.
  scalingKeys: { type: 'integer', default: 10, min: 2, max: 30, step: 1, section: 'scoring' },
  scalingSamples: { type: 'integer', default: 100, min: 20, max: 100, step: 10, section: 'scoring' },
  scalingSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'scoring' },
  // Multi-head self-attention (d2l 10.5-10.6): hidden size, heads (a divisor of
  // it), the heads switched off (bit i = head i + 1, the first 32 heads), seed.
  mhaHidden: { type: 'integer', default: 100, min: 1, max: 128, step: 1, section: 'multihead' },
  mhaHeads: { type: 'integer', default: 5, min: 1, max: 128, step: 1, section: 'multihead' },
  mhaHeadsOff: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'multihead' },
  mhaSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1, section: 'multihead' },
  // Positional encoding (d2l 10.6.3): positions x encoding dimension, and the
  // first of the four columns drawn over position (the book's 6-9).
  peLength: { type: 'integer', default: 60, min: 1, max: 200, step: 1, section: 'positional' },
  peDim: { type: 'integer', default: 32, min: 2, max: 128, step: 1, section: 'positional' },
  peColumn: { type: 'integer', default: 6, min: 0, max: 124, step: 1, section: 'positional' },
  // --- end of issue 4 ---

  language: { type: 'choice', default: 'en', options: LANGUAGES, section: 'page' },
};

// Fixed facts of the book's set-up, not parameters a learner changes.
export const setup = {
  xMax: 5, // inputs are drawn on [0, xMax)
  testStep: 0.1, // test queries 0, 0.1, ..., 4.9 (n_test = 50)
  curveStep: 0.01, // the drawn prediction curve is sampled finer than the test grid
  plotY: [-1, 5], // the book's ylim
  bookWidths: [0.1, 0.2, 0.5, 1], // the 2nd edition's kernel widths sigma (w = 1 / sigma)
  bookWidthW: [10, 5, 2, 1],
  landscapeW: [0, 20], // the loss landscape's w range before training leaves it
};

function decimalsOf(step) {
  const text = String(step);
  return text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
}

// Brings any input (a control's string, a hash value, a number) into the
// parameter's domain: out-of-range numbers are clamped and snapped to the
// step; anything unreadable gives `fallback` (the current value).
export function clampValue(name, raw, fallback = parameters[name].default) {
  // Own entries only: "constructor" or "__proto__" (from a URL, say) are no parameters.
  const spec = Object.hasOwn(parameters, name) ? parameters[name] : undefined;
  if (!spec) throw new Error(`${name}: no such parameter`);
  switch (spec.type) {
    case 'boolean':
      if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
      if (raw === false || raw === 'false' || raw === '0' || raw === 0) return false;
      return fallback;
    case 'choice':
      return spec.options.includes(raw) ? raw : fallback;
    case 'integer':
    case 'number': {
      if (typeof raw === 'string' && raw.trim() === '') return fallback;
      const value = typeof raw === 'number' ? raw : Number(raw);
      if (Number.isNaN(value)) return fallback;
      const bounded = Math.min(spec.max, Math.max(spec.min, value));
      const snapped = spec.min + Math.round((bounded - spec.min) / spec.step) * spec.step;
      return Number(Math.min(spec.max, snapped).toFixed(decimalsOf(spec.step)));
    }
    default:
      return fallback;
  }
}

export function defaultState() {
  return Object.fromEntries(Object.entries(parameters).map(([name, spec]) => [name, spec.default]));
}

// A small store: one state object, changes through set(), listeners told
// which names changed. Every value that enters is clamped by the table.
export function createStore(initial = {}) {
  let state = defaultState();
  for (const [name, value] of Object.entries(initial)) {
    if (Object.hasOwn(parameters, name)) state[name] = clampValue(name, value, state[name]);
  }
  const listeners = new Set();

  function commit(next) {
    const changed = Object.keys(next).filter((name) => !Object.is(next[name], state[name]));
    if (changed.length === 0) return changed;
    state = { ...state, ...next };
    for (const listener of listeners) listener(state, new Set(changed));
    return changed;
  }

  return {
    get: () => state,
    // Returns the names that really changed (a clamped value may equal the old one).
    set(patch) {
      const next = {};
      for (const [name, value] of Object.entries(patch)) {
        if (Object.hasOwn(parameters, name)) next[name] = clampValue(name, value, state[name]);
      }
      return commit(next);
    },
    // For tests of the error path only: puts a value in without the table's
    // clamping, as if the bounds had let it through.
    setUnchecked(patch) {
      return commit(Object.fromEntries(Object.entries(patch).filter(([name]) => Object.hasOwn(parameters, name))));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
