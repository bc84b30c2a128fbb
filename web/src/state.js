// The one table of the page's parameters: type, default, bounds and step.
// Controls are built from it and clamp through it; the URL hash (later) reads
// and writes the same entries. Nothing else in the page holds a parameter.

export const KERNELS = ['gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov'];
export const ESTIMATORS = ['average', 'nadaraya-watson'];
export const LANGUAGES = ['en', 'zh'];

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
  const spec = parameters[name];
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
    if (name in parameters) state[name] = clampValue(name, value, state[name]);
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
        if (name in parameters) next[name] = clampValue(name, value, state[name]);
      }
      return commit(next);
    },
    // For tests of the error path only: puts a value in without the table's
    // clamping, as if the bounds had let it through.
    setUnchecked(patch) {
      return commit(Object.fromEntries(Object.entries(patch).filter(([name]) => name in parameters)));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
