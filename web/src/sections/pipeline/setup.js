// The scoring framework section's tensors, shared by its figures
// (scoring-pipeline.js) and its exercises (pipeline/exercises.js), so that
// an exercise is checked against the keys, values and scorer the figure
// draws: keys and values in 2-D from the seed, and the chosen scoring
// function's scores, weights and output from the core.
import { normalDraws, linearDraws } from '../shared/seeded-draws.js';

// The largest shapes the controls allow: draws are made once at that size and
// sliced, so more keys add draws without changing the others.
export const PIPELINE_DRAWS = Object.freeze({ keys: 8, hidden: 8 });

export const pipelineKeys = (core, { pipelineKeys: m, pipelineSeed: seed }) =>
  normalDraws(core, PIPELINE_DRAWS.keys * 2, seed, 'keys').subarray(0, m * 2);
export const pipelineValues = (core, { pipelineKeys: m, pipelineSeed: seed }) =>
  normalDraws(core, PIPELINE_DRAWS.keys, seed, 'values').subarray(0, m);

// The attention of the live keys for the live query, or for `queries`
// (nq pairs, flattened) and `values` when an exercise asks about others;
// `scoring` likewise. Returns what the figures draw, scores and weights of
// every query, and the first query's output.
export function pipelineAttention(core, inputs, {
  queries = Float64Array.of(inputs.pipelineQ1, inputs.pipelineQ2),
  values = pipelineValues(core, inputs),
  scoring = inputs.pipelineScoring,
} = {}) {
  const { pipelineKeys: m, pipelineSeed: seed } = inputs;
  const h = PIPELINE_DRAWS.hidden;
  const keys = pipelineKeys(core, inputs);
  const nq = queries.length / 2;
  const result = scoring === 'dot'
    ? core.dotProductAttention({ queries, keys, values, shape: { batch: 1, nq, nk: m, d: 2, dv: 1 } })
    : core.additiveAttention({
      queries, keys, values, shape: { batch: 1, nq, nk: m, dq: 2, dk: 2, dv: 1, h },
      Wq: linearDraws(core, h * 2, 2, seed, 'wq'),
      Wk: linearDraws(core, h * 2, 2, seed, 'wk'),
      wv: linearDraws(core, h, h, seed, 'wv'),
    });
  return {
    queries, keys, values, scores: result.scores, weights: result.weights, output: result.output[0], outputs: result.output,
  };
}
