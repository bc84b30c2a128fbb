// What the multi-head section and its exercises share: the layer the
// figures draw (six tokens with seeded random embeddings attending to
// themselves through seeded random projections), so that an exercise is
// checked against the very outputs and maps on screen.
import { normalDraws, linearBound } from '../shared/seeded-draws.js';
import { MHA_BATCH, MHA_SWITCHES } from '../../state.js';

// The self-attention example: six tokens (a sentence from the course notes).
export const TOKEN_COUNT = 6;

// One factor per head: 0 for a head switched off (bit i of mhaHeadsOff), else 1.
export function headMaskOf({ mhaHeads, mhaHeadsOff }) {
  return Float64Array.from({ length: mhaHeads }, (_, i) => (i < MHA_SWITCHES && (mhaHeadsOff >>> i) & 1 ? 0 : 1));
}

// The seeded embeddings and projections of the last (core, H, seed) drawn:
// they do not depend on the heads, so a change of the heads or of the head
// switches draws nothing again (five draws of up to 128 x 128 each, and the
// core's memo keeps only four calls of one function).
const lastDraws = new WeakMap(); // core -> { hidden, seed, tokens, Wq, Wk, Wv, Wo }

function seededDraws(core, hidden, seed) {
  const last = lastDraws.get(core);
  if (last && last.hidden === hidden && last.seed === seed) return last;
  const projection = (role) => normalDraws(core, hidden * hidden, seed, role, linearBound(hidden));
  const draws = {
    hidden, seed, tokens: normalDraws(core, TOKEN_COUNT * hidden, seed, 'tokens'),
    Wq: projection('wq'), Wk: projection('wk'), Wv: projection('wv'), Wo: projection('wo'),
  };
  lastDraws.set(core, draws);
  return draws;
}

// The layer's arguments for the live state: the seeded embeddings and
// projections, drawn once for as many calls as need them.
export function layerArguments(core, { mhaHidden: hidden, mhaHeads: heads, mhaSeed: seed }) {
  const { tokens, Wq, Wk, Wv, Wo } = seededDraws(core, hidden, seed);
  return {
    queries: tokens, keys: tokens, values: tokens,
    shape: { batch: MHA_BATCH, nq: TOKEN_COUNT, nk: TOKEN_COUNT, hidden, heads },
    Wq, Wk, Wv, Wo,
  };
}

// The core's multi-head attention of the live state with a head mask (null:
// every head): { output (1 x 6 x H), weights (heads x 6 x 6) }. `drawn`:
// layerArguments() already drawn for the state.
export function headsAttention(core, inputs, headMask, drawn = layerArguments(core, inputs)) {
  return core.multiHeadAttention({ ...drawn, headMask });
}
