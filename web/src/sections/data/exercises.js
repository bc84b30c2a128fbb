// The data section's exercises, each aimed at a belief learners hold: that
// the blue curve is fitted to the points (a concept question: it is f, the
// same for every sample); what raising the noise's σ does to the points
// (predicted before the control is moved: the same draws, stretched away
// from the curve); that a point's y is its noise (one point's ε worked out
// from its coordinates); and that more points or a new sample bring the
// points closer to the curve (only σ does). Every number checked comes
// from the core for the live state: a new seed gives a new right answer.
import { conceptExercise, judgeNumber, judgeAtMost, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { parameters } from '../../state.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { dataset } from '../shared/kernel-regression.js';

const truthCurve = conceptExercise({
  id: 'truth-curve',
  questionKey: 'data.ex.truth.question',
  hintKey: 'data.ex.truth.hint',
  right: 'function',
  options: [
    { id: 'fit', labelKey: 'data.ex.truth.fit', explanationKey: 'data.ex.truth.fitWhy' },
    { id: 'function', labelKey: 'data.ex.truth.function', explanationKey: 'data.ex.truth.functionWhy' },
    { id: 'average', labelKey: 'data.ex.truth.average', explanationKey: 'data.ex.truth.averageWhy' },
    { id: 'noisy', labelKey: 'data.ex.truth.noisy', explanationKey: 'data.ex.truth.noisyWhy' },
  ],
});

// Each point's offset from the curve, y_i - f(x_i): its noise ε_i.
const offsets = (core, data) => {
  const truth = core.truth(data.x);
  return Float64Array.from(data.y, (y, i) => y - truth[i]);
};

// The σ the prediction is about: doubled, halved when doubling leaves the
// control's range, 0.5 (the book's) from 0.
const NOISE_MAX = parameters.noise.max;
export function changedNoise(noise) {
  if (noise === 0) return 0.5;
  return 2 * noise <= NOISE_MAX ? 2 * noise : noise / 2;
}

// What changes when σ goes from `inputs.noise` to `to`, n and seed kept:
// the two data sets the core draws, compared point by point.
// Each statement has its rule (σ scales the same draws: every x stays, each
// offset is scaled, nothing is drawn anew), explained by its option; from
// σ = 0 no factor scales an offset of 0, which its own text says, and a
// data set of the core that broke a rule would be said to.
const STATEMENTS = Object.freeze([
  { id: 'sameX', rule: true, labelKey: 'data.ex.noise.sameX', explanationKey: 'data.ex.noise.sameXWhy' },
  { id: 'scaled', rule: true, labelKey: 'data.ex.noise.scaled', explanationKey: 'data.ex.noise.scaledWhy' },
  { id: 'truthMoves', rule: false, labelKey: 'data.ex.noise.truthMoves', explanationKey: 'data.ex.noise.truthMovesWhy' },
  { id: 'redrawn', rule: false, labelKey: 'data.ex.noise.redrawn', explanationKey: 'data.ex.noise.redrawnWhy' },
  { id: 'morePoints', rule: false, labelKey: 'data.ex.noise.morePoints', explanationKey: 'data.ex.noise.morePointsWhy' },
]);
const SAME = 1e-9;

export function noiseChange(core, inputs, to) {
  const before = dataset(core, inputs);
  const after = dataset(core, { ...inputs, noise: to });
  const factor = to / inputs.noise;
  const [offBefore, offAfter] = [offsets(core, before), offsets(core, after)];
  const sameCount = before.x.length === after.x.length;
  const sameX = sameCount && before.x.every((x, i) => x === after.x[i]);
  return {
    sameX,
    // Each point's distance from the curve times σ's factor (none from σ = 0).
    scaled: Number.isFinite(factor) && sameX && offBefore.every((off, i) => Math.abs(off * factor - offAfter[i]) <= SAME * (1 + Math.abs(offAfter[i]))),
    // f has no noise in it: the core's truth(x) takes no σ.
    truthMoves: false,
    // Drawn anew: another x, or a point now on the other side of the curve.
    redrawn: !sameX || offBefore.some((off, i) => Math.sign(off) * Math.sign(offAfter[i]) < 0),
    morePoints: after.x.length > before.x.length,
  };
}

const sigma = (value) => formatNumber(value, '.2~f');

const raiseNoise = Object.freeze({
  id: 'change-noise',
  kind: 'predict',
  tells: { en: ['same seed, same draws', 'straight up or down'], zh: ['随机数就相同', '竖直地上下移动'] },
  multiple: true,
  questionKey: 'data.ex.noise.question',
  hintKey: 'data.ex.noise.hint',
  options: STATEMENTS.map(({ id, labelKey, explanationKey }) => ({ id, labelKey, explanationKey })),
  draw: (core, inputs) => ({ from: inputs.noise, to: changedNoise(inputs.noise) }),
  questionParams: (instance) => ({ from: sigma(instance?.from ?? NaN), to: sigma(instance?.to ?? NaN) }),
  check(core, inputs, answer, { from, to }) {
    const truths = noiseChange(core, { ...inputs, noise: from }, to);
    const ticked = new Set(answer);
    const params = { from: sigma(from), to: sigma(to), factor: formatNumber(to / from, '.3~f') };
    const missed = STATEMENTS.find(({ id }) => truths[id] !== ticked.has(id));
    if (missed === undefined) return { verdict: 'right', key: 'data.ex.noise.right', params };
    // The first statement judged wrongly, explained by its rule.
    if (truths[missed.id] === missed.rule) return { verdict: 'wrong', key: missed.explanationKey, params };
    if (missed.id === 'scaled' && from === 0) return { verdict: 'wrong', key: 'data.ex.noise.scaledFromZero', params };
    return { verdict: 'wrong', key: 'data.ex.noise.unusual', params };
  },
  solution(core, inputs, { from, to }) {
    const truths = noiseChange(core, { ...inputs, noise: from }, to);
    const params = { from: sigma(from), to: sigma(to), factor: formatNumber(to / from, '.3~f') };
    const byRule = (id) => truths[id] === STATEMENTS.find((statement) => statement.id === id).rule;
    if (STATEMENTS.every(({ id }) => byRule(id))) return { key: 'data.ex.noise.solution', params };
    if (from === 0 && STATEMENTS.every(({ id }) => id === 'scaled' || byRule(id))) return { key: 'data.ex.noise.solutionFromZero', params };
    const numbers = STATEMENTS.flatMap(({ id }, i) => (truths[id] ? [i + 1] : [])).join(', ');
    return { key: 'data.ex.noise.solutionList', params: { numbers: numbers || '–' } };
  },
});

// The compute exercise's point: drawn by the core among the points whose
// noise is far from the usual mistakes (0, its y, its f(x), its opposite),
// so that each mistake reads as itself.
export const NOISE_TOLERANCE = 0.02;

export function exercisePoint(core, inputs, index) {
  const data = dataset(core, inputs);
  const noise = offsets(core, data);
  const truth = core.truth(data.x);
  const apart = (a, b) => Math.abs(a - b) > 3 * NOISE_TOLERANCE;
  const candidates = Array.from(data.x.keys()).filter((i) =>
    apart(noise[i], 0) && apart(noise[i], data.y[i]) && apart(noise[i], truth[i]) && apart(noise[i], -noise[i]));
  const pool = candidates.length > 0 ? candidates : Array.from(data.x.keys());
  const [u] = core.randomUniform(1, { seed: streamSeed(index, 'dataPoints'), low: 0, high: pool.length });
  const i = pool[Math.min(pool.length - 1, Math.floor(u))];
  return { index: i, x: data.x[i], y: data.y[i] };
}

const threeDecimals = (value) => formatNumber(value, '.3f');

// The point's noise and the curve under it, from the core for the live data.
function pointNoise(core, inputs, { index }) {
  const data = dataset(core, inputs);
  const [truth] = core.truth([data.x[index]]);
  return { noise: data.y[index] - truth, truth, y: data.y[index], x: data.x[index] };
}

const readNoise = Object.freeze({
  id: 'point-noise',
  kind: 'compute',
  tolerance: NOISE_TOLERANCE,
  questionKey: 'data.ex.point.question',
  hintKey: 'data.ex.point.hint',
  draw: (core, inputs, index) => exercisePoint(core, inputs, index),
  questionParams: (instance) => ({
    x: threeDecimals(instance?.x ?? NaN), y: threeDecimals(instance?.y ?? NaN), tolerance: NOISE_TOLERANCE,
  }),
  check(core, inputs, answer, instance) {
    const { noise, truth, y } = pointNoise(core, inputs, instance);
    const params = { noise: threeDecimals(noise), truth: threeDecimals(truth), y: threeDecimals(y) };
    const verdict = judgeNumber(answer, noise, NOISE_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'data.ex.point.right', params };
    // The mistakes aimed at: the point's y, the curve's f(x) and the sign turned round.
    if (judgeNumber(answer, y, NOISE_TOLERANCE) === 'right') return mistake('data.ex.point.wholeY', params);
    if (judgeNumber(answer, truth, NOISE_TOLERANCE) === 'right') return mistake('data.ex.point.truth', params);
    if (judgeNumber(answer, -noise, NOISE_TOLERANCE) === 'right') return mistake('data.ex.point.sign', params);
    if (verdict === 'close') return { verdict, key: 'data.ex.point.close', params };
    return { verdict, key: 'data.ex.point.wrong', params };
  },
  solution(core, inputs, instance) {
    const { noise, truth, y } = pointNoise(core, inputs, instance);
    return { key: 'data.ex.point.solution', params: { noise: threeDecimals(noise), truth: threeDecimals(truth), y: threeDecimals(y) } };
  },
  // The point asked about: a dotted ring round it in the plot.
  mark(view, instance) {
    view?.plot.set('exercise', instance ? { kind: 'dots', xs: [instance.x], ys: [instance.y], r: 9, className: 'exercise-ring' } : null);
  },
});

// "Points on the curve": their root-mean-square distance from f at most
// TIGHT_RMS. Only σ sets it: more points or a new seed draw others at the same spread.
export const TIGHT_RMS = 0.1;
const SIGMA_STEPS = Object.freeze([0.1, 0.05, 0]); // the σ the shown answer tries, largest first

export function rmsNoise(core, inputs) {
  const data = dataset(core, inputs);
  return Math.sqrt(core.sumSquaredError(core.truth(data.x), data.y) / data.x.length);
}

const tightPoints = Object.freeze({
  id: 'tight-points',
  kind: 'achieve',
  questionKey: 'data.ex.tight.question',
  hintKey: 'data.ex.tight.hint',
  questionParams: () => ({ limit: TIGHT_RMS }),
  check(core, inputs) {
    const rms = rmsNoise(core, inputs);
    const verdict = judgeAtMost(rms, TIGHT_RMS);
    const key = { right: 'data.ex.tight.right', close: 'data.ex.tight.close', wrong: 'data.ex.tight.tooNoisy' }[verdict];
    return { verdict, key, params: { rms: threeDecimals(rms), limit: TIGHT_RMS, noise: sigma(inputs.noise) } };
  },
  solution(core, inputs) {
    const noise = SIGMA_STEPS.find((step) => rmsNoise(core, { ...inputs, noise: step }) <= TIGHT_RMS);
    return { key: 'data.ex.tight.solution', params: { noise: sigma(noise), rms: threeDecimals(rmsNoise(core, { ...inputs, noise })), limit: TIGHT_RMS } };
  },
});

export const DATA_EXERCISES = Object.freeze([truthCurve, raiseNoise, readNoise, tightPoints]);
