// What the masked-softmax section and its exercises share: the book's demo
// shape, the valid lengths of the live state and the seeded scores, so that
// an exercise is checked against the very tensor the figure draws.

// The book's demo shape, torch.rand(2, 2, 4).
export const MASK_SHAPE = Object.freeze([2, 2, 4]);
export const LENGTHS_1D = Object.freeze(['maskLen1', 'maskLen2']);
export const LENGTHS_2D = Object.freeze(['maskLen11', 'maskLen12', 'maskLen21', 'maskLen22']);

export function validLens(inputs) {
  return (inputs.maskMode === '1d' ? LENGTHS_1D : LENGTHS_2D).map((name) => inputs[name]);
}

// The drawn scores (figure ①) before anything is typed over them.
export const seededScores = (core, inputs) =>
  core.randomNormal(MASK_SHAPE.reduce((a, b) => a * b, 1), { seed: inputs.maskSeed });
