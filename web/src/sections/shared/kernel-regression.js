// The toy regression task of d2l 10.2 that the data, pooling, heatmap and
// training sections share: its fixed set-up, the query grids, and the core
// calls they make alike. The core's calls are memoised by the mount
// (core-memo.js), so sections asking for the same data set or weights in one
// redraw share one call.
import { extent, range } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { setup, dataset, effectiveKernel } from './regression-setup.js';

// The set-up, the data set and the kernel are the task's own (also the
// PyTorch snippet's): the sections take them from here with the rest.
export { setup, dataset, effectiveKernel };

// The book's test queries 0, 0.1, ..., 4.9 and a finer grid for smooth curves.
export const testQueries = Float64Array.from(range(0, setup.xMax - setup.testStep / 2, setup.testStep));
export const curveQueries = Float64Array.from(range(0, setup.xMax + setup.curveStep / 2, setup.curveStep));

// The distances the kernel's shape K(d) is drawn over.
const shapeDistances = Float64Array.from(range(-3, 3.0001, 0.02));

// The parameters each computation reads: sections list them among their inputs.
export const DATASET_INPUTS = Object.freeze(['n', 'noise', 'seed']);
export const ESTIMATOR_INPUTS = Object.freeze(['estimator', 'kernel', 'w']);

// The y range of a plot of the data set: the book's ylim while every point
// fits inside it with room for its dot, else widened to nice bounds around
// the points (large noise throws them far out; a fixed range would drop or
// half-clip them without a word).
/** @param {{ y: Iterable<number> }} data */
export function dataYDomain(data) {
  const [low, high] = extent(data.y);
  if (low === undefined) return setup.plotY;
  const room = 0.03 * (Math.max(high, setup.plotY[1]) - Math.min(low, setup.plotY[0]));
  const wanted = [Math.min(setup.plotY[0], low - room), Math.max(setup.plotY[1], high + room)];
  if (wanted[0] === setup.plotY[0] && wanted[1] === setup.plotY[1]) return setup.plotY;
  return scaleLinear().domain(wanted).nice().domain();
}

export const truth = (core) => core.truth(curveQueries);

// The estimator's prediction at `queries`.
export function predict(core, queries, data, { estimator, kernel, w }) {
  return estimator === 'average'
    ? core.averagePool(data.y, queries.length)
    : core.nadarayaWatson(queries, data.x, data.y, { kernel, w });
}

// The test queries' weights on the data set: the heatmap's matrix.
const testWeights = (core, data, inputs) =>
  core.attentionWeights(testQueries, data.x, { kernel: effectiveKernel(inputs), w: inputs.w });

// What the pooling and heatmap sections both draw: the data set, the truth,
// the estimator's curve and the test queries' weights.
export function estimatorFigures(core, inputs) {
  const data = dataset(core, inputs);
  return {
    data,
    truthCurve: truth(core),
    prediction: predict(core, curveQueries, data, inputs),
    weights: testWeights(core, data, inputs),
  };
}

// The kernel's shape K(d): one query at 0 over keys on a d grid; the
// normalised weights are K(d) up to a constant, drawn scaled to peak 1.
export const kernelShape = (core, kernel) =>
  ({ distances: shapeDistances, weights: core.attentionWeights([0], shapeDistances, { kernel, w: 1 }) });
