// The one table of the page's parameters: type, default, bounds and step.
// Controls are built from it and clamp through it; the URL hash and the
// <attention-lab> element's attributes read and write the same entries.
// Nothing else in the page holds a parameter: a section lists the ones it
// depends on by name (its `inputs`, sections/registry.js). Parameters the
// core accepts only in some combinations are kept consistent here too
// (`constraints`, below): the store repairs every state it is given.

export const KERNELS = ['gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov'];
export const ESTIMATORS = ['average', 'nadaraya-watson'];
export const SERIES_WEIGHTS = Object.freeze(['time', 'values', 'positions']);
export const LANGUAGES = ['en', 'zh'];
// The scoring functions, masks and demo inputs a learner can pick.
export const PIPELINE_SCORINGS = ['dot', 'additive'];
export const MASK_MODES = ['1d', '2d'];
export const SCORING_KEYS = ['ones', 'random'];
export const ADDITIVE_QUERIES = ['20d', 'shared'];
// The toy tasks of the trainable attention model and its optimisers.
export const ATTENTION_TASKS = ['reverse', 'sort', 'shift', 'lookup'];
export const OPTIMIZERS = ['adam', 'sgd'];
// The positions the encoder adds to its embeddings (the core's kinds.positional).
export const POSITIONAL_KINDS = ['sinusoidal', 'learned', 'none'];
// The translator's tasks (the core's seq2seq tasks) and its three models:
// d2l 10.4's one-directional GRU, Bahdanau et al.'s bidirectional GRU, d2l 10.7's Transformer.
export const TRANSLATION_TASKS = ['numbers-en-zh', 'numbers-zh-en', 'dates', 'reverse', 'sort'];
export const TRANSLATION_ARCHITECTURES = ['gru', 'bigru', 'transformer'];
// How a translator's attention scores (the core's kinds.seq2seqScoring): the
// GRU translators' decoder by d2l 10.4's additive attention or its exercise
// 2's scaled dot product; the Transformer's heads by 10.7's scaled dot
// product or, its exercise, one additive attention they share.
export const TRANSLATION_SCORINGS = ['additive', 'dot'];
// The recurrent translators' layers (the core's kinds.seq2seqCell): d2l 10.4's GRU, or its exercise 1's LSTM.
export const TRANSLATION_CELLS = ['gru', 'lstm'];
// The values of the batch matrix product's operands: the book's ones, or seeded normal draws.
export const BMM_VALUES = ['ones', 'normal'];

// The self-attention section's word vectors: the features each component
// stands for, and one number parameter per component of a word (bounds wide
// enough to make any word dominate, step fine enough to nudge one).
export const SA_FEATURES = ['Person', 'Action', 'Food', 'Colour', 'Grammar'];
export const SA_COMPONENT = Object.freeze({ min: -3, max: 3, step: 0.1 });
function saWordVector(word, vector) {
  return Object.fromEntries(SA_FEATURES.map((feature, i) =>
    [`sa${word}${feature}`, { type: 'number', default: vector[i], ...SA_COMPONENT }]));
}

export const parameters = {
  // Data (d2l 10.2.1): n sorted inputs on [0, 5), noise of standard deviation `noise`.
  n: { type: 'integer', default: 50, min: 2, max: 1000, step: 1 },
  noise: { type: 'number', default: 0.5, min: 0, max: 2, step: 0.05 },
  seed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },

  // Pooling (d2l 10.2.2-10.2.3 and the 2nd edition's kernels).
  estimator: { type: 'choice', default: 'nadaraya-watson', options: ESTIMATORS },
  kernel: { type: 'choice', default: 'gaussian', options: KERNELS },
  w: { type: 'number', default: 1, min: 0.1, max: 50, step: 0.01, scale: 'log' },
  query: { type: 'number', default: 2.5, min: 0, max: 5, step: 0.01 },

  // Training the width w (d2l 10.2.4): plain gradient descent on the full batch.
  lr: { type: 'number', default: 0.5, min: 0.001, max: 10, step: 0.001, scale: 'log' },
  epochs: { type: 'integer', default: 5, min: 1, max: 1000, step: 1 },
  w0: { type: 'number', default: 1, min: 0, max: 30, step: 0.001 },
  leaveOneOut: { type: 'boolean', default: true },
  // Batch matrix multiplication, torch.bmm (d2l 10.2.4): X (bmmN, bmmA, bmmB) times Y (bmmN, bmmBY, bmmC);
  // the book's (2, 1, 4) x (2, 4, 6). bmmBY may differ from bmmB, for the core to refuse; the values are
  // the book's torch.ones or seeded N(0, 1) draws.
  bmmN: { type: 'integer', default: 2, min: 1, max: 4, step: 1 },
  bmmA: { type: 'integer', default: 1, min: 1, max: 4, step: 1 },
  bmmB: { type: 'integer', default: 4, min: 1, max: 6, step: 1 },
  bmmBY: { type: 'integer', default: 4, min: 1, max: 6, step: 1 },
  bmmC: { type: 'integer', default: 6, min: 1, max: 8, step: 1 },
  bmmValues: { type: 'choice', default: 'ones', options: BMM_VALUES },
  bmmSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },

  // One query through score, softmax and weighted sum (d2l 10.3, its Fig. 10.3.1).
  pipelineScoring: { type: 'choice', default: 'dot', options: PIPELINE_SCORINGS },
  pipelineKeys: { type: 'integer', default: 5, min: 2, max: 8, step: 1 },
  pipelineQ1: { type: 'number', default: 1, min: -3, max: 3, step: 0.01 },
  pipelineQ2: { type: 'number', default: 0.5, min: -3, max: 3, step: 0.01 },
  pipelineSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  // Masked softmax (d2l 10.3.1) on scores of the book's shape (2, 2, 4): valid
  // lengths 1-D (one per batch item) or 2-D (one per query row).
  maskMode: { type: 'choice', default: '1d', options: MASK_MODES },
  maskLen1: { type: 'integer', default: 2, min: 0, max: 4, step: 1 },
  maskLen2: { type: 'integer', default: 3, min: 0, max: 4, step: 1 },
  maskLen11: { type: 'integer', default: 1, min: 0, max: 4, step: 1 },
  maskLen12: { type: 'integer', default: 3, min: 0, max: 4, step: 1 },
  maskLen21: { type: 'integer', default: 2, min: 0, max: 4, step: 1 },
  maskLen22: { type: 'integer', default: 4, min: 0, max: 4, step: 1 },
  maskSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  // Additive vs scaled dot-product attention (d2l 10.3.2-10.3.3) on the book's
  // demo: keys (2, 10, 2), values arange(40) as (2, 10, 4), valid lengths [2, 6].
  scoringKeys: { type: 'choice', default: 'ones', options: SCORING_KEYS },
  additiveQueries: { type: 'choice', default: '20d', options: ADDITIVE_QUERIES },
  scoringQueries: { type: 'integer', default: 1, min: 1, max: 4, step: 1 },
  scoringLen1: { type: 'integer', default: 2, min: 0, max: 10, step: 1 },
  scoringLen2: { type: 'integer', default: 6, min: 0, max: 10, step: 1 },
  additiveHidden: { type: 'integer', default: 8, min: 1, max: 64, step: 1 },
  scoringSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  // Why divide by sqrt(d): the core's scaling study for d = 1 ... 512. One core
  // call per d; the bounds keep the largest (d = 512) near 100 ms at most.
  scalingKeys: { type: 'integer', default: 10, min: 2, max: 30, step: 1 },
  scalingSamples: { type: 'integer', default: 100, min: 20, max: 100, step: 10 },
  scalingSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  // Multi-head self-attention (d2l 10.5-10.6): hidden size, heads (one of
  // offeredHeads(hidden): see the constraints below), the heads switched off
  // (bit i = head i + 1, the first 32 heads), seed.
  mhaHidden: { type: 'integer', default: 100, min: 1, max: 128, step: 1 },
  mhaHeads: { type: 'integer', default: 5, min: 1, max: 128, step: 1 },
  mhaHeadsOff: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  mhaSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  // Self-attention by hand (the course notes' sentence 她正在吃一个绿色的苹果):
  // each word's hand-built vector, one entry per component, named
  // sa<Word><Feature> (features: person, action, food, colour, grammar), so
  // that an edited vector travels in the URL like any other number; then
  // the switch to seeded random projections W_q, W_k, W_v and their seed.
  ...saWordVector('She', [2, 0, 0, 0, 0.5]),
  ...saWordVector('Is', [0, 1, 0, 0, 1.5]),
  ...saWordVector('Eat', [0.5, 2, 1.5, 0, 0]),
  ...saWordVector('A', [0, 0, 0, 0, 1.5]),
  ...saWordVector('Green', [0, 0, 1, 2, 0.5]),
  ...saWordVector('Apple', [0, 0.5, 2, 1, 0]),
  // The notes' noisy series re-weighted by self-attention (Nadaraya–Watson
  // with queries = keys): its points, noise, seed and the Gaussian's width.
  seriesPoints: { type: 'integer', default: 50, min: 10, max: 200, step: 1 },
  seriesNoise: { type: 'number', default: 0.5, min: 0, max: 2, step: 0.05 },
  seriesSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  seriesWidth: { type: 'number', default: 3, min: 0.1, max: 50, step: 0.01, scale: 'log' },
  // Which weights the series' heatmap shows: a kernel on time, the notes' dot
  // product of the values, or the dot product of the points' positional encodings.
  seriesWeights: { type: 'choice', default: 'time', options: SERIES_WEIGHTS, view: true },
  saProjections: { type: 'boolean', default: false },
  saSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },
  // Positional encoding (d2l 10.6.3): positions x encoding dimension, and the
  // first of the four columns drawn over position (the book's 6-9).
  peLength: { type: 'integer', default: 60, min: 1, max: 200, step: 1 },
  peDim: { type: 'integer', default: 32, min: 2, max: 128, step: 1 },
  peColumn: { type: 'integer', default: 6, min: 0, max: 124, step: 1 },
  // Watch attention learn (d2l 10.7): a small Transformer encoder trained in
  // the page on a toy task of sequences of AT_LENGTH tokens from a vocabulary
  // of AT_VOCAB (the core's defaults). The defaults are the core's
  // (defaults.attentionModel, .attentionTraining): the attention-only model
  // that learns reverse. Heads must divide the hidden size (a constraint
  // below); the lag (shift only) stays below the length by its bounds. The
  // bounds keep a frame within 50 ms: the largest model (hidden 64, 8 heads,
  // 2 blocks, FFN 64) takes about 11 ms a step in headless Chromium here and
  // 25 ms to evaluate the held-out set; 3 blocks with FFN 128 took 22 and 50.
  atTask: { type: 'choice', default: 'reverse', options: ATTENTION_TASKS },
  atLag: { type: 'integer', default: 1, min: 0, max: 7, step: 1 },
  atCausal: { type: 'boolean', default: false },
  atVariable: { type: 'boolean', default: false },
  atHidden: { type: 'integer', default: 32, min: 4, max: 64, step: 4 },
  atHeads: { type: 'integer', default: 4, min: 1, max: 8, step: 1 },
  atBlocks: { type: 'integer', default: 1, min: 1, max: 2, step: 1 },
  atFfn: { type: 'integer', default: 0, min: 0, max: 64, step: 16 },
  atD2lScale: { type: 'boolean', default: false },
  atPositional: { type: 'choice', default: 'sinusoidal', options: POSITIONAL_KINDS },
  atOptimizer: { type: 'choice', default: 'adam', options: OPTIMIZERS },
  atLr: { type: 'number', default: 0.01, min: 0.0001, max: 1, step: 0.0001, scale: 'log' },
  atSteps: { type: 'integer', default: 2000, min: 100, max: 10000, step: 100 },
  // Steps a second while a run plays: slow enough by default to watch the heads
  // form (reverse reaches 99 % near step 150: about 5 s); at the top, as fast
  // as the machine allows (AT_FULL_SPEED). A view setting (`view`): it changes
  // how a run is shown, no number of it, so the PyTorch snippets leave it out.
  atSpeed: { type: 'integer', default: 30, min: 1, max: 1000, step: 1, scale: 'log', view: true },
  atSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },

  // Attention between two sequences (d2l 10.4, 10.7): an encoder-decoder
  // trained in the page on a toy translation; the default (the bidirectional
  // GRU on numbers-en-zh) reaches 95 % held-out exact match within a few
  // hundred steps. The model's sizes and the recipe are d2l's (translation/setup.js).
  trTask: { type: 'choice', default: 'numbers-en-zh', options: TRANSLATION_TASKS },
  trArchitecture: { type: 'choice', default: 'bigru', options: TRANSLATION_ARCHITECTURES },
  // The GRU translators' scoring, and the Transformer's heads': each architecture reads its own.
  trScoring: { type: 'choice', default: 'additive', options: TRANSLATION_SCORINGS },
  trHeadScoring: { type: 'choice', default: 'dot', options: TRANSLATION_SCORINGS },
  // The recurrent translators' cell; the Transformer has none.
  trCell: { type: 'choice', default: 'gru', options: TRANSLATION_CELLS },
  trSteps: { type: 'integer', default: 600, min: 50, max: 5000, step: 50 },
  // Steps a second while a run plays (a view setting, as atSpeed): at the top, as fast as the machine allows.
  trSpeed: { type: 'integer', default: 1000, min: 1, max: 1000, step: 1, scale: 'log', view: true },
  trSeed: { type: 'integer', default: 0, min: 0, max: 4294967295, step: 1 },

  language: { type: 'choice', default: 'en', options: LANGUAGES },
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

// The attention-training section's sequences: positions and vocabulary (the
// core's defaults.attentionModel; the lag's bounds follow the length).
export const AT_LENGTH = 8;
// The speed setting that means no pacing: every frame trains what its budget allows.
export const AT_FULL_SPEED = parameters.atSpeed.max;
export const AT_VOCAB = 10;
// The translator's speed setting that means no pacing.
export const TR_FULL_SPEED = parameters.trSpeed.max;

// The head counts the attention-training section offers for a hidden size:
// the divisors of the hidden size within the heads' bounds (the heads split
// it evenly). Choosing among a control's values, not arithmetic on data.
export function offeredModelHeads(hidden) {
  const offered = [];
  for (let heads = parameters.atHeads.min; heads <= Math.min(hidden, parameters.atHeads.max); heads += 1) {
    if (hidden % heads === 0) offered.push(heads);
  }
  return offered;
}

// The multi-head section attends one sentence: its batch is 1.
export const MHA_BATCH = 1;
// Heads that can be switched off: the bits of mhaHeadsOff.
export const MHA_SWITCHES = 32;

// The most heads the core runs for the multi-head section's one sentence.
export const mostHeads = (limits) => Math.floor((limits?.maxBatch ?? Infinity) / MHA_BATCH);

// The head counts the multi-head section offers for a hidden size: those the
// core's multi-head attention accepts, which are the divisors of the hidden
// size (the heads split it evenly) with batch * heads within the core's batch
// limit (`limits.maxBatch`, from the core once it is loaded; without it,
// divisibility alone). Choosing among a control's values, not arithmetic on
// data: the core still checks every call.
export function offeredHeads(hidden, limits = null) {
  const most = Math.min(hidden, mostHeads(limits));
  const offered = [];
  for (let heads = 1; heads <= most; heads += 1) if (hidden % heads === 0) offered.push(heads);
  return offered;
}

// The offered value closest to `wanted` (the smaller one on a tie).
function nearest(offered, wanted) {
  return offered.reduce((best, value) => (Math.abs(value - wanted) < Math.abs(best - wanted) ? value : best), offered[0]);
}

// Pairs of parameters that are each within their bounds but that the core
// refuses in some combinations. Each entry repairs a state (returning the
// values it changes, or nothing): the store applies them to every state it
// takes, so the controls, the URL hash and the element's attributes all give
// the core a combination it accepts. One place for each rule.
//
// The parameter that gives way (`wish`) keeps the learner's wish: the value
// last set for it. Each repair moves it to the offered value nearest that
// wish, so dragging the hidden size through primes (which allow one head)
// shows the heads nearest the chosen count at every step, and the chosen
// count itself wherever the hidden size allows it.
export const constraints = [
  {
    // Heads must divide the hidden size, and batch * heads stay within the
    // core's batch limit: the heads give way to the hidden size (it is what
    // the learner changes, and the heads slider offers only valid counts).
    // Moved heads are other heads: the switches go back on. Switches of
    // heads that do not exist are dropped, so the hash carries none.
    names: ['mhaHidden', 'mhaHeads', 'mhaHeadsOff'],
    wish: 'mhaHeads',
    repair({ mhaHidden, mhaHeads, mhaHeadsOff }, limits, wished = mhaHeads) {
      const heads = nearest(offeredHeads(mhaHidden, limits), wished);
      if (heads !== mhaHeads) return { mhaHeads: heads, mhaHeadsOff: 0 };
      const existing = mhaHeads >= MHA_SWITCHES ? mhaHeadsOff : (mhaHeadsOff & (2 ** mhaHeads - 1)) >>> 0;
      return existing === mhaHeadsOff ? null : { mhaHeadsOff: existing };
    },
  },
  {
    // The trained model's heads must divide its hidden size: the heads give
    // way to the nearest count that does (the fewer on a tie).
    names: ['atHidden', 'atHeads'],
    wish: 'atHeads',
    repair({ atHidden, atHeads }, limits, wished = atHeads) {
      const heads = nearest(offeredModelHeads(atHidden), wished);
      return heads === atHeads ? null : { atHeads: heads };
    },
  },
];

// The state with every constraint satisfied: the same object when it already
// was. `wishes`: the values last set for the parameters that give way.
export function repairState(state, limits = null, wishes = {}) {
  let repaired = state;
  for (const { repair, wish } of constraints) {
    const patch = repair(repaired, limits, wishes[wish] ?? repaired[wish]);
    if (patch && Object.keys(patch).some((name) => !Object.is(patch[name], repaired[name]))) {
      repaired = { ...repaired, ...patch };
    }
  }
  return repaired;
}

const WISHED = new Set(constraints.map(({ wish }) => wish));

// A value the code puts in the store, clamped by the table. A choice (a
// kind: an optimiser, a task, an architecture…) outside its options is
// refused by name, never read as another: text from outside (the hash, an
// attribute, stored settings) is checked before it comes here (url-state.js).
function admitted(name, value, previous) {
  const spec = parameters[name];
  if (spec.type === 'choice' && !spec.options.includes(value)) {
    throw new Error(`${name}: one of ${spec.options.join(', ')}, not ${JSON.stringify(String(value)).slice(0, 80)}`);
  }
  return clampValue(name, value, previous);
}

// A small store: one state object, changes through set(), listeners told
// which names changed. Every value that enters is clamped by the table (a
// choice outside its options refused), and
// every state is repaired by its constraints (with the core's limits once
// useLimits() has given them).
export function createStore(initial = {}, { limits: initialLimits = null } = {}) {
  let limits = initialLimits;
  let state = defaultState();
  const wishes = {};
  const remember = (values) => {
    for (const name of Object.keys(values)) if (WISHED.has(name)) wishes[name] = values[name];
  };
  for (const [name, value] of Object.entries(initial)) {
    if (Object.hasOwn(parameters, name)) state[name] = admitted(name, value, state[name]);
  }
  for (const name of WISHED) wishes[name] = state[name];
  state = repairState(state, limits, wishes);
  const listeners = new Set();

  function commit(next, { repair = true } = {}) {
    const merged = { ...state, ...next };
    const candidate = repair ? repairState(merged, limits, wishes) : merged;
    const changed = Object.keys(candidate).filter((name) => !Object.is(candidate[name], state[name]));
    if (changed.length === 0) return changed;
    state = candidate;
    for (const listener of listeners) listener(state, new Set(changed));
    return changed;
  }

  return {
    get: () => state,
    // Returns the names that really changed (a clamped value may equal the
    // old one; a repair may move others).
    set(patch) {
      const next = {};
      for (const [name, value] of Object.entries(patch)) {
        if (Object.hasOwn(parameters, name)) next[name] = admitted(name, value, state[name]);
      }
      remember(next);
      return commit(next);
    },
    // For tests of the error path only: puts a value in without the table's
    // clamping or repair, as if the bounds had let it through.
    setUnchecked(patch) {
      return commit(Object.fromEntries(Object.entries(patch).filter(([name]) => Object.hasOwn(parameters, name))),
        { repair: false });
    },
    // The core's limits (core.limits), once it is loaded: the state is
    // repaired with them at once. Returns the names that changed.
    useLimits(coreLimits) {
      limits = coreLimits ?? null;
      return commit({});
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
