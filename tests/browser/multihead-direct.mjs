// The multi-head section's self-attention of its six seeded token embeddings
// (sections/shared/seeded-draws.js), called on the page's second core
// (window.directCore): what the section and its PyTorch snippet must show.
import { SALTS } from '../../web/src/sections/shared/seeded-draws.js';
import { TOKEN_COUNT } from '../../web/src/sections/multihead/multihead.js';

export async function directMultiHead(page, { hidden = 100, heads = 5, seed = 0, headMask = null } = {}) {
  return page.evaluate(({ hidden, heads, seed, headMask, salts, n }) => {
    const core = window.directCore;
    const stream = (role) => (seed ^ salts[role]) >>> 0;
    const tokens = core.randomNormal(n * hidden, { seed: stream('tokens') });
    const projection = (role) => core.randomNormal(hidden * hidden, { seed: stream(role), std: 1 / Math.sqrt(hidden) });
    const result = core.multiHeadAttention({
      queries: tokens, keys: tokens, values: tokens, shape: { batch: 1, nq: n, nk: n, hidden, heads },
      Wq: projection('wq'), Wk: projection('wk'), Wv: projection('wv'), Wo: projection('wo'), headMask,
    });
    return { weights: Array.from(result.weights), output: Array.from(result.output) };
  }, { hidden, heads, seed, headMask, salts: SALTS, n: TOKEN_COUNT });
}
