// Every array the page draws, asked of the core and remembered for the
// inputs it was made from: sections that show the same data set or the same
// weights share one core call per change. No numerics happen here.
import { range } from 'd3-array';
import { setup } from './state.js';
import { createAttentionComputations } from './attention-computations.js';
import { remember } from './remember.js';

// The book's test queries 0, 0.1, ..., 4.9 and a finer grid for smooth curves.
export const testQueries = Float64Array.from(range(0, setup.xMax - setup.testStep / 2, setup.testStep));
export const curveQueries = Float64Array.from(range(0, setup.xMax + setup.curveStep / 2, setup.curveStep));

export function createComputations(core) {
  const dataset = remember((n, noise, seed) => core.makeDataset({ n, noise, seed, xMax: setup.xMax }));
  const truth = remember(() => core.truth(curveQueries));
  const poolingCurve = remember((data, estimator, kernel, w) =>
    estimator === 'average'
      ? core.averagePool(data.y, curveQueries.length)
      : core.nadarayaWatson(curveQueries, data.x, data.y, { kernel, w }));
  const poolingWeights = remember((data, kernel, w) => core.attentionWeights(testQueries, data.x, { kernel, w }));
  const kernelShape = remember((kernel) => {
    // The kernel's shape K(d): one query at 0 over keys on a d grid; the
    // normalised weights are K(d) up to a constant, drawn scaled to peak 1.
    const distances = Float64Array.from(range(-3, 3.0001, 0.02));
    return { distances, weights: core.attentionWeights([0], distances, { kernel, w: 1 }) };
  });

  const dataKey = (state) => `${state.n}|${state.noise}|${state.seed}`;
  // Average pooling is the constant kernel: every key gets 1/n.
  const effectiveKernel = (state) => (state.estimator === 'average' ? 'constant' : state.kernel);

  return {
    core,
    // The scoring, multi-head and positional-encoding sections' calls (issue 4).
    attention: createAttentionComputations(core),
    dataset: (state) => dataset(dataKey(state), state.n, state.noise, state.seed),
    truth: () => truth('truth'),
    poolingCurve(state) {
      const data = this.dataset(state);
      return poolingCurve(`${dataKey(state)}|${state.estimator}|${state.kernel}|${state.w}`,
        data, state.estimator, state.kernel, state.w);
    },
    poolingWeights(state) {
      const data = this.dataset(state);
      const kernel = effectiveKernel(state);
      return poolingWeights(`${dataKey(state)}|${kernel}|${state.w}`, data, kernel, state.w);
    },
    queryRow(state) {
      const data = this.dataset(state);
      const kernel = effectiveKernel(state);
      return {
        weights: core.attentionWeights([state.query], data.x, { kernel, w: state.w }),
        prediction: state.estimator === 'average'
          ? core.averagePool(data.y, 1)[0]
          : core.nadarayaWatson([state.query], data.x, data.y, { kernel, w: state.w })[0],
      };
    },
    kernelShape: (kernel) => kernelShape(kernel, kernel),
    effectiveKernel,
  };
}
