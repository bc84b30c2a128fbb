// The toy regression task of d2l 10.2 at its lowest: its fixed set-up, its
// data set as the core draws it, and the kernel an estimator uses. Both the
// sections (sections/shared/kernel-regression.js) and their PyTorch snippet
// (sections/shared/kernel-regression-pytorch.js) build on it, so a snippet never reaches up
// into a section.

// Fixed facts of the book's set-up, not parameters a learner changes.
export const setup = Object.freeze({
  xMax: 5, // inputs are drawn on [0, xMax)
  testStep: 0.1, // test queries 0, 0.1, ..., 4.9 (n_test = 50)
  curveStep: 0.01, // the drawn prediction curve is sampled finer than the test grid
  plotY: [-1, 5], // the book's ylim, widened when the data reach beyond it (dataYDomain)
  bookWidths: [0.1, 0.2, 0.5, 1], // d2l.ai §11.2's kernel widths sigma (w = 1 / sigma)
  bookWidthW: [10, 5, 2, 1],
  landscapeW: [0, 20], // the loss landscape's w range before training leaves it
});

export const dataset = (core, { n, noise, seed }) => core.makeDataset({ n, noise, seed, xMax: setup.xMax });

// Average pooling is the constant kernel: every key gets 1/n.
export const effectiveKernel = ({ estimator, kernel }) => (estimator === 'average' ? 'constant' : kernel);
