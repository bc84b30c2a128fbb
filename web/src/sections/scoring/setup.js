// What the scoring-functions section and its exercises share, kept apart
// from the section so that both can import it (the section declares the
// exercises): the book's demo tensors, the seeded draws and both scoring
// layers run on them.
import { normalDraws, linearDraws } from '../shared/seeded-draws.js';

export const NK = 10;
export const DV = 4;
// The largest shapes the controls allow: draws are made once at that size and
// sliced, so more queries add draws without changing the others.
export const SCORING_DRAWS = Object.freeze({ queries: 4 });
// The book's demo values: torch.arange(40).reshape(1, 10, 4).repeat(2, 1, 1).
const BOOK_VALUES = Float64Array.from({ length: 2 * NK * DV }, (_, i) => i % (NK * DV));
const BOOK_KEYS_ONES = new Float64Array(2 * NK * 2).fill(1);

// Additive attention takes 20-D queries (the book's) or the same 2-D ones as dot product.
export const queryDimension = (inputs) => (inputs.additiveQueries === '20d' ? 20 : 2);

// Both layers on the book's demo: keys all ones (or seeded draws), values
// arange(40), valid lengths per batch item; queries and W from the seed.
// (The exercises ask it too, for the keys the learner has not drawn yet.)
export function computeScoring(core, inputs) {
  const { scoringSeed: seed, scoringQueries: nq, additiveHidden: h } = inputs;
  const dq = queryDimension(inputs);
  const maxQueries = SCORING_DRAWS.queries;
  const queries2 = normalDraws(core, 2 * maxQueries * 2, seed, 'queries').subarray(0, 2 * nq * 2);
  const keys = inputs.scoringKeys === 'ones' ? BOOK_KEYS_ONES : normalDraws(core, 2 * NK * 2, seed, 'keys');
  const validLens = [inputs.scoringLen1, inputs.scoringLen2];
  return {
    additive: core.additiveAttention({
      queries: dq === 20 ? normalDraws(core, 2 * maxQueries * 20, seed, 'queries20').subarray(0, 2 * nq * 20) : queries2,
      keys, values: BOOK_VALUES,
      shape: { batch: 2, nq, nk: NK, dq, dk: 2, dv: DV, h },
      Wq: linearDraws(core, h * dq, dq, seed, 'wq'),
      Wk: linearDraws(core, h * 2, 2, seed, 'wk'),
      wv: linearDraws(core, h, h, seed, 'wv'),
      validLens,
    }),
    dot: core.dotProductAttention({
      queries: queries2, keys, values: BOOK_VALUES, shape: { batch: 2, nq, nk: NK, d: 2, dv: DV }, validLens,
    }),
  };
}
