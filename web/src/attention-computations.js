// The core calls of the scoring, multi-head and positional-encoding sections
// (issue 4), each remembered for the parameters it was made from. Every
// number comes from the core: random draws (randomNormal, randomUniform),
// softmax, attention and encodings. This file only lays the draws out in the
// shapes the core expects (slicing, filling with constants) and picks which
// parameter feeds which argument. No arithmetic on the data happens here.
// Each random input has its own stream: the section's seed mixed with a
// fixed salt per role, so that e.g. W_q and W_k are not the same draws.
// (Integer mixing of a seed, not arithmetic on data.)
import { remember } from './remember.js';

export const SALTS = Object.freeze({
  keys: 0x1b873593, values: 0x2545f491, wq: 0x6c078965, wk: 0x5bd1e995, wv: 0x7feb352d,
  wo: 0x3243f6a9, queries: 0x19660d11, queries20: 0x41c64e6d, tokens: 0x68e31da4,
});
export const streamSeed = (seed, role) => (seed ^ SALTS[role]) >>> 0;

// The largest shapes the controls allow: draws are made once at that size and
// sliced, so more keys or hidden units add draws without changing the others.
export const LIMITS = Object.freeze({ pipelineKeys: 8, pipelineHidden: 8, scoringQueries: 4, scoringHidden: 64 });

// The book's demo values: torch.arange(40).reshape(1, 10, 4).repeat(2, 1, 1).
export const BOOK_VALUES = Float64Array.from({ length: 80 }, (_, i) => i % 40);
export const BOOK_KEYS_ONES = new Float64Array(2 * 10 * 2).fill(1);
// The masked-softmax demo shape, torch.rand(2, 2, 4) in the book.
export const MASK_SHAPE = Object.freeze([2, 2, 4]);
// The value d2l writes over masked scores.
export const MASKED_SCORE = -1e6;
// The bound of PyTorch's default nn.Linear initialisation, U(-1/sqrt(in), 1/sqrt(in)):
// a setting of the core's random draw (like its seed), not a computation on data.
export const linearBound = (fanIn) => 1 / Math.sqrt(fanIn);
// The self-attention example: six tokens (a sentence from the course notes).
export const TOKEN_COUNT = 6;
// d from 1 to 512 for the "why divide by sqrt(d)" panel, one core call per d.
export const SCALING_DIMS = Object.freeze([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512]);

export function maskValidLens(state) {
  return state.maskMode === '1d'
    ? [state.maskLen1, state.maskLen2]
    : [state.maskLen11, state.maskLen12, state.maskLen21, state.maskLen22];
}

export function headMaskOf(state) {
  // One factor per head: 0 for a head switched off (bit i of mhaHeadsOff), else 1.
  return Float64Array.from({ length: state.mhaHeads }, (_, i) => (i < 32 && (state.mhaHeadsOff >>> i) & 1 ? 0 : 1));
}

export function createAttentionComputations(core) {
  // --- 1. The pipeline of one query: keys and values in 2-D, a query the learner drags.
  const pipelineDraws = remember((seed) => ({
    keys: core.randomNormal(LIMITS.pipelineKeys * 2, { seed: streamSeed(seed, 'keys') }),
    values: core.randomNormal(LIMITS.pipelineKeys, { seed: streamSeed(seed, 'values') }),
    Wq: core.randomUniform(LIMITS.pipelineHidden * 2, { seed: streamSeed(seed, 'wq'), low: -linearBound(2), high: linearBound(2) }),
    Wk: core.randomUniform(LIMITS.pipelineHidden * 2, { seed: streamSeed(seed, 'wk'), low: -linearBound(2), high: linearBound(2) }),
    wv: core.randomUniform(LIMITS.pipelineHidden, { seed: streamSeed(seed, 'wv'), low: -linearBound(LIMITS.pipelineHidden), high: linearBound(LIMITS.pipelineHidden) }),
  }));
  const pipeline = remember((scoring, m, q1, q2, draws) => {
    const keys = draws.keys.subarray(0, m * 2);
    const values = draws.values.subarray(0, m);
    const queries = Float64Array.of(q1, q2);
    const result = scoring === 'dot'
      ? core.dotProductAttention({ queries, keys, values, shape: { batch: 1, nq: 1, nk: m, d: 2, dv: 1 } })
      : core.additiveAttention({
        queries, keys, values, shape: { batch: 1, nq: 1, nk: m, dq: 2, dk: 2, dv: 1, h: LIMITS.pipelineHidden },
        Wq: draws.Wq, Wk: draws.Wk, wv: draws.wv,
      });
    return { queries, keys, values, scores: result.scores, weights: result.weights, output: result.output[0] };
  });

  // --- 2. Masked softmax of a (2, 2, 4) score matrix.
  const maskScores = remember((seed) => core.randomNormal(MASK_SHAPE[0] * MASK_SHAPE[1] * MASK_SHAPE[2], { seed }));
  const masked = remember((scores, lens) => core.maskedSoftmax(scores, MASK_SHAPE, lens));
  const bookMasked = remember((maskedScores) => core.maskedSoftmax(maskedScores, MASK_SHAPE, null));

  // --- 3. Additive vs scaled dot-product attention on the book's demo.
  const scoringDraws = remember((seed) => ({
    queries20: core.randomNormal(2 * LIMITS.scoringQueries * 20, { seed: streamSeed(seed, 'queries20') }),
    queries2: core.randomNormal(2 * LIMITS.scoringQueries * 2, { seed: streamSeed(seed, 'queries') }),
    randomKeys: core.randomNormal(2 * 10 * 2, { seed: streamSeed(seed, 'keys') }),
  }));
  const additiveWeights = remember((seed, dq, h) => ({
    Wq: core.randomUniform(h * dq, { seed: streamSeed(seed, 'wq'), low: -linearBound(dq), high: linearBound(dq) }),
    Wk: core.randomUniform(h * 2, { seed: streamSeed(seed, 'wk'), low: -linearBound(2), high: linearBound(2) }),
    wv: core.randomUniform(h, { seed: streamSeed(seed, 'wv'), low: -linearBound(h), high: linearBound(h) }),
  }));
  const scoringInputs = (state) => {
    const draws = scoringDraws(state.scoringSeed, state.scoringSeed);
    const nq = state.scoringQueries;
    const dq = state.additiveQueries === '20d' ? 20 : 2;
    return {
      nq,
      dq,
      dotQueries: draws.queries2.subarray(0, 2 * nq * 2),
      additiveQueries: dq === 20 ? draws.queries20.subarray(0, 2 * nq * 20) : draws.queries2.subarray(0, 2 * nq * 2),
      keys: state.scoringKeys === 'ones' ? BOOK_KEYS_ONES : draws.randomKeys,
      values: BOOK_VALUES,
      validLens: [state.scoringLen1, state.scoringLen2],
    };
  };
  const additive = remember((state, inputs) => {
    const w = additiveWeights(`${state.scoringSeed}|${inputs.dq}|${state.additiveHidden}`,
      state.scoringSeed, inputs.dq, state.additiveHidden);
    return core.additiveAttention({
      queries: inputs.additiveQueries, keys: inputs.keys, values: inputs.values,
      shape: { batch: 2, nq: inputs.nq, nk: 10, dq: inputs.dq, dk: 2, dv: 4, h: state.additiveHidden },
      Wq: w.Wq, Wk: w.Wk, wv: w.wv, validLens: inputs.validLens,
    });
  });
  const dot = remember((inputs) => core.dotProductAttention({
    queries: inputs.dotQueries, keys: inputs.keys, values: inputs.values,
    shape: { batch: 2, nq: inputs.nq, nk: 10, d: 2, dv: 4 }, validLens: inputs.validLens,
  }));

  // --- 4. Multi-head self-attention over a short token sequence.
  const mhaDraws = remember((seed, n, hidden) => {
    const projection = (role) => core.randomNormal(hidden * hidden, { seed: streamSeed(seed, role), std: linearBound(hidden) });
    return {
      tokens: core.randomNormal(n * hidden, { seed: streamSeed(seed, 'tokens') }),
      Wq: projection('wq'), Wk: projection('wk'), Wv: projection('wv'), Wo: projection('wo'),
    };
  });
  const mhaCall = (draws, n, hidden, heads, headMask) => core.multiHeadAttention({
    queries: draws.tokens, keys: draws.tokens, values: draws.tokens,
    shape: { batch: 1, nq: n, nk: n, hidden, heads },
    Wq: draws.Wq, Wk: draws.Wk, Wv: draws.Wv, Wo: draws.Wo, headMask,
  });
  const mhaFull = remember(mhaCall);
  const mhaKept = remember(mhaCall);
  const mhaDropped = remember(mhaCall);

  // --- 5. Positional encoding.
  const encoding = remember((length, dim) => core.positionalEncoding(length, dim));

  const mhaKey = (state) => `${state.mhaSeed}|${TOKEN_COUNT}|${state.mhaHidden}`;

  return {
    pipeline(state) {
      const draws = pipelineDraws(state.pipelineSeed, state.pipelineSeed);
      return pipeline(`${state.pipelineSeed}|${state.pipelineScoring}|${state.pipelineKeys}|${state.pipelineQ1}|${state.pipelineQ2}`,
        state.pipelineScoring, state.pipelineKeys, state.pipelineQ1, state.pipelineQ2, draws);
    },
    pipelineDraws: (state) => pipelineDraws(state.pipelineSeed, state.pipelineSeed),
    maskScores: (seed) => maskScores(seed, seed),
    // scores: the (possibly edited) (2, 2, 4) scores; key: what they were made from.
    masked: (scores, scoresKey, lens) => masked(`${scoresKey}|${lens.join(',')}`, scores, lens),
    bookMasked: (maskedScores, key) => bookMasked(key, maskedScores),
    scoringInputs,
    additive(state) {
      const inputs = scoringInputs(state);
      return additive(`${state.scoringSeed}|${state.scoringKeys}|${state.additiveQueries}|${inputs.nq}|${state.additiveHidden}|${inputs.validLens}`,
        state, inputs);
    },
    dot(state) {
      const inputs = scoringInputs(state);
      return dot(`${state.scoringSeed}|${state.scoringKeys}|${inputs.nq}|${inputs.validLens}`, inputs);
    },
    scaling: (d, state) => core.scalingStudy({ dims: [d], samples: state.scalingSamples, keys: state.scalingKeys, seed: state.scalingSeed })[0],
    mhaDraws: (state) => mhaDraws(mhaKey(state), state.mhaSeed, TOKEN_COUNT, state.mhaHidden),
    mha(state) {
      const draws = this.mhaDraws(state);
      const key = `${mhaKey(state)}|${state.mhaHeads}`;
      const mask = headMaskOf(state);
      const full = mhaFull(key, draws, TOKEN_COUNT, state.mhaHidden, state.mhaHeads, null);
      if (!mask.includes(0)) return { full, kept: full, dropped: null, mask };
      // The output is linear in the head mask: all heads = the kept heads + the
      // switched-off ones. Both parts come from the core, with complementary masks.
      const complement = mask.map((factor) => (factor === 0 ? 1 : 0));
      const maskKey = `${key}|${mask.join('')}`;
      return {
        full,
        kept: mhaKept(maskKey, draws, TOKEN_COUNT, state.mhaHidden, state.mhaHeads, mask),
        dropped: mhaDropped(maskKey, draws, TOKEN_COUNT, state.mhaHidden, state.mhaHeads, complement),
        mask,
      };
    },
    encoding: (state) => encoding(`${state.peLength}|${state.peDim}`, state.peLength, state.peDim),
  };
}
