// The two attention-weight matrices of the cues section: the chapter's
// identity (torch.eye(10): query i gives all its weight to key i) and d2l
// 10.1's exercise 2, the softmax of each row of a random 10 x 10 matrix
// (torch.rand's U[0, 1) scores, drawn by the core's seeded generator and
// put through the core's softmax).
import { streamSeed } from '../shared/seeded-draws.js';

export const CUE_SIZE = 10;
export const RANDOM_SHAPE = Object.freeze([1, CUE_SIZE, CUE_SIZE]);

// The identity matrix is data, not a computation: query i attends to key i only.
export function identityMatrix() {
  const identity = new Float64Array(CUE_SIZE * CUE_SIZE);
  for (let i = 0; i < CUE_SIZE; i += 1) identity[i * CUE_SIZE + i] = 1;
  return identity;
}

// Row `query` of the identity: the weights one query gives the ten keys.
export const identityRow = (query) => identityMatrix().subarray(query * CUE_SIZE, (query + 1) * CUE_SIZE);

// The random scores of draw `index` and their row-wise softmax (no mask).
export function randomSoftmax(core, index) {
  const scores = core.randomUniform(CUE_SIZE * CUE_SIZE, { seed: streamSeed(index, 'randomScores'), low: 0, high: 1 });
  return { scores, weights: core.maskedSoftmax(scores, RANDOM_SHAPE, null) };
}
