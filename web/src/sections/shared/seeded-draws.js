// The random inputs of the attention sections (keys, values, queries,
// projection weights), all drawn by the core's seeded generator. Each role
// has its own stream: the section's seed mixed with a fixed salt per role,
// so that e.g. W_q and W_k are not the same draws. (Integer mixing of a
// seed, not arithmetic on data.)
export const SALTS = Object.freeze({
  keys: 0x1b873593, values: 0x2545f491, wq: 0x6c078965, wk: 0x5bd1e995, wv: 0x7feb352d,
  wo: 0x3243f6a9, queries: 0x19660d11, queries20: 0x41c64e6d, tokens: 0x68e31da4,
  exerciseQueries: 0x2c1b3c6d, maskCells: 0x4f1bbcdd,
  maskRows: 0x6a09e667,
  exerciseHeads: 0x7a3d9e21, peCells: 0x5e2b8c47, peTurns: 0x3c6ef372,
  widthMirror: 0x510e527f, pipelineTargets: 0x1f83d9ab,
  // The exercises of the cues, data and heatmap sections.
  cueValues: 0x428a2f98, randomScores: 0x71374491, dataPoints: 0xb5c0fbcf, heatmapKeys: 0xe9b5dba5,
  // The exercises of the scoring-functions and self-attention sections.
  costSizes: 0x5851f42d, saWords: 0x7f4a7c15, saPairs: 0x61c88647, seriesQueries: 0x0d2b74a1,
});

export const streamSeed = (seed, role) => (seed ^ SALTS[role]) >>> 0;

// count N(0, std^2) draws of the role's stream.
export const normalDraws = (core, count, seed, role, std = 1) =>
  core.randomNormal(count, { seed: streamSeed(seed, role), std });

// The bound of PyTorch's default nn.Linear initialisation, U(-1/sqrt(in), 1/sqrt(in)):
// a setting of the core's random draw (like its seed), not a computation on data.
export const linearBound = (fanIn) => 1 / Math.sqrt(fanIn);

// count draws of nn.Linear's default initialisation for `fanIn` inputs.
export const linearDraws = (core, count, fanIn, seed, role) =>
  core.randomUniform(count, { seed: streamSeed(seed, role), low: -linearBound(fanIn), high: linearBound(fanIn) });
