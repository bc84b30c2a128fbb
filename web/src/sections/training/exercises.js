// The training section's exercises, each aimed at a belief learners hold
// about gradient descent on the kernel width w: that a step lands at the
// bottom of the valley (predict the first step), that the training loss
// alone would pick a good width (predict w without leave-one-out, the 2nd
// edition's "minimising (f(x_i) - y_i)^2 directly collapses the width"),
// that the sign of w matters (the slope at -w, worked out from the
// read-outs), and how close the book's five epochs come to the best width
// (bring w near the bottom). Every answer comes from the core for the live
// data and settings, through its loss and gradient at one w
// (kernelWidthLoss), one step (trainKernelWidth with one epoch), the
// landscape (lossLandscape) and, for the run without leave-one-out that
// its right answer describes, the run as Play shows it (trainKernelWidth).
import { judgeNumber, judgeAtMost, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { dataset, setup } from '../shared/kernel-regression.js';

const W_FORMAT = '.4~g';
const LOSS_FORMAT = '.4~g';
const fmtW = (value) => formatNumber(value, W_FORMAT);
const fmtLoss = (value) => formatNumber(value, LOSS_FORMAT);
const percent = (share) => formatNumber(share, '.1%');

// The bottom of the loss landscape over the range the figure first draws
// (setup.landscapeW): the lowest of a grid of w found by the core's
// lossLandscape, then narrowed by golden-section search on the core's loss
// around it. It depends on the data set and the objective alone, so it is
// kept per data set (a redraw of the teacher's answers asks again).
const GRID_STEP = 0.5;
const REFINE_STEPS = 16;
const bottoms = new WeakMap(); // core -> Map(key -> { w, loss })
const KEPT_BOTTOMS = 8;

export function landscapeBottom(core, { n, noise, seed }, leaveOneOut) {
  if (!bottoms.has(core)) bottoms.set(core, new Map());
  const kept = bottoms.get(core);
  const key = `${n}|${noise}|${seed}|${leaveOneOut}`;
  if (kept.has(key)) return kept.get(key);
  const data = dataset(core, { n, noise, seed });
  const [low, high] = setup.landscapeW;
  const count = Math.round((high - low) / GRID_STEP) + 1;
  const ws = Float64Array.from({ length: count }, (_, i) => low + i * GRID_STEP);
  const losses = core.lossLandscape(data.x, data.y, ws, { leaveOneOut });
  let best = 0;
  for (let i = 1; i < count; i += 1) if (losses[i] < losses[best]) best = i;
  const lossAt = (w) => core.kernelWidthLoss(data.x, data.y, w, { leaveOneOut }).loss;
  // Golden-section search between the grid's neighbours of the lowest point.
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = ws[Math.max(0, best - 1)];
  let b = ws[Math.min(count - 1, best + 1)];
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let lc = lossAt(c);
  let ld = lossAt(d);
  for (let step = 0; step < REFINE_STEPS; step += 1) {
    if (lc <= ld) {
      [b, d, ld] = [d, c, lc];
      c = b - ratio * (b - a);
      lc = lossAt(c);
    } else {
      [a, c, lc] = [c, d, ld];
      d = a + ratio * (b - a);
      ld = lossAt(d);
    }
  }
  const candidates = [[ws[best], losses[best]], [c, lc], [d, ld]];
  const [w, loss] = candidates.reduce((lowest, next) => (next[1] < lowest[1] ? next : lowest));
  const bottom = Object.freeze({ w, loss });
  if (kept.size >= KEPT_BOTTOMS) kept.delete(kept.keys().next().value);
  kept.set(key, bottom);
  return bottom;
}

// ---------------------------------------------------------------------------
// Predict the first step: where does one step of gradient descent from w0
// put w, relative to the valley of the landscape on screen?

// A step landing this close to the lowest loss is "at the bottom".
export const BOTTOM_SHARE = 0.01;
// Past this many times the top of the landscape's first range, w has run
// far out of the drawn range (the section's own warning uses the same).
const AWAY_FACTOR = 2;

// The first step as the core takes it, and where it lands.
export function firstStep(core, inputs) {
  const { w0, lr, leaveOneOut } = inputs;
  const data = dataset(core, inputs);
  const step = core.trainKernelWidth(data.x, data.y, { w0, lr, epochs: 1, leaveOneOut });
  const w1 = step.w[1];
  const bottom = landscapeBottom(core, inputs, leaveOneOut);
  const loss1 = Number.isFinite(w1) ? core.kernelWidthLoss(data.x, data.y, w1, { leaveOneOut }).loss : NaN;
  let lands;
  if (!Number.isFinite(w1) || Math.abs(w1) > AWAY_FACTOR * setup.landscapeW[1]) lands = 'away';
  else if (w1 === w0) lands = 'stays';
  else if (loss1 <= (1 + BOTTOM_SHARE) * bottom.loss) lands = 'bottom';
  else if (Math.sign(w1 - bottom.w) === Math.sign(w0 - bottom.w)) lands = 'short';
  else lands = 'past';
  return {
    lands,
    params: {
      w0: fmtW(w0), lr: formatNumber(lr, '.4~g'), w1: fmtW(w1), bottom: fmtW(bottom.w),
      loss1: fmtLoss(loss1), best: fmtLoss(bottom.loss), away: AWAY_FACTOR * setup.landscapeW[1],
    },
  };
}

// Each place w may land: its label, why w lands there (with the core's
// numbers) and why the belief fails when it does not (the keys written out
// for the catalogue test).
const STEP_KEYS = Object.freeze({
  stays: { label: 'training.ex.step.stays', why: 'training.ex.step.staysWhy', not: 'training.ex.step.staysNot' },
  short: { label: 'training.ex.step.short', why: 'training.ex.step.shortWhy', not: 'training.ex.step.shortNot' },
  bottom: { label: 'training.ex.step.bottom', why: 'training.ex.step.bottomWhy', not: 'training.ex.step.bottomNot' },
  past: { label: 'training.ex.step.past', why: 'training.ex.step.pastWhy', not: 'training.ex.step.pastNot' },
  away: { label: 'training.ex.step.away', why: 'training.ex.step.awayWhy', not: 'training.ex.step.awayNot' },
});
const STEP_OPTIONS = Object.freeze(Object.keys(STEP_KEYS));

const predictFirstStep = Object.freeze({
  id: 'first-step',
  kind: 'predict',
  tells: { en: ['flings'], zh: ['甩到'] },
  // Step or Play takes the step it asks about.
  startedBy: ['step', 'play'],
  questionKey: 'training.ex.step.question',
  hintKey: 'training.ex.step.hint',
  questionParams: (instance, inputs) => ({
    w0: inputs ? fmtW(inputs.w0) : '–', lr: inputs ? formatNumber(inputs.lr, '.4~g') : '–', away: AWAY_FACTOR * setup.landscapeW[1],
  }),
  options: STEP_OPTIONS.map((id) => ({ id, labelKey: STEP_KEYS[id].label, explanationKey: STEP_KEYS[id].why })),
  check(core, inputs, answer) {
    if (!STEP_OPTIONS.includes(answer)) return { verdict: 'wrong', key: 'exercises.pickFirst' };
    const { lands, params } = firstStep(core, inputs);
    // Right: why w lands there. Wrong: why the belief chosen fails for these
    // numbers (the answer shown beside it says where w lands).
    if (answer === lands) return { verdict: 'right', key: STEP_KEYS[lands].why, params };
    return { verdict: 'wrong', key: STEP_KEYS[answer].not, params };
  },
  solution(core, inputs) {
    // The explanation of where w lands, with the core's numbers.
    const { lands, params } = firstStep(core, inputs);
    return { key: STEP_KEYS[lands].why, params };
  },
});

// ---------------------------------------------------------------------------
// Predict w without leave-one-out: the sign of the slope of the plain
// training loss at w0 (the core's gradient) says where descent takes w.

// The run the section's Play shows with leave-one-out off (the live start,
// rate and epochs: the core's trainKernelWidth, as the page's player calls
// it) says what the right answer says: the first step takes w far up, and
// every epoch after it raises w a little more while the loss curve looks
// flat, the slope still below 0 where the run ends. A check stays cheap:
// the run is cut to the epochs that fit the work of 1,000 epochs of 50
// points (a few milliseconds), and the answer names the epochs it ran.
const RUN_WORK = 50 * 50 * 1000;

export function runWithoutLeaveOneOut(core, inputs) {
  const data = dataset(core, inputs);
  const points = data.x.length;
  const epochs = Math.max(1, Math.min(inputs.epochs, Math.floor(RUN_WORK / (points * points))));
  const run = core.trainKernelWidth(data.x, data.y, { w0: inputs.w0, lr: inputs.lr, epochs, leaveOneOut: false });
  const ws = Array.from(run.w);
  const losses = Array.from(run.loss);
  const wLast = ws[ws.length - 1];
  const slopeLast = Number.isFinite(wLast) ? core.kernelWidthLoss(data.x, data.y, wLast, { leaveOneOut: false }).gradient : NaN;
  return { ws, losses, wLast, slopeLast, epochs: ws.length - 1 };
}

export function withoutLeaveOneOut(core, inputs) {
  const data = dataset(core, inputs);
  const { gradient } = core.kernelWidthLoss(data.x, data.y, inputs.w0, { leaveOneOut: false });
  let goes = 'stays';
  if (gradient < 0) goes = 'grows';
  else if (gradient > 0) goes = 'shrinks';
  const params = { w0: fmtW(inputs.w0), gradient: formatNumber(gradient, '.4~g') };
  if (goes === 'grows') {
    const run = runWithoutLeaveOneOut(core, inputs);
    Object.assign(params, {
      w1: fmtW(run.ws[Math.min(1, run.epochs)]), wLast: fmtW(run.wLast), epochs: run.epochs,
      slopeLast: formatNumber(run.slopeLast, '.4~g'),
      lossSecond: fmtLoss(run.losses[Math.min(1, run.losses.length - 1)]), lossLast: fmtLoss(run.losses[run.losses.length - 1]),
    });
  }
  return { goes, params };
}

const NO_LOO_KEYS = Object.freeze({
  grows: { label: 'training.ex.noLoo.grows', why: 'training.ex.noLoo.growsWhy', not: 'training.ex.noLoo.growsNot' },
  settles: { label: 'training.ex.noLoo.settles', why: 'training.ex.noLoo.settlesWhy', not: 'training.ex.noLoo.settlesNot' },
  shrinks: { label: 'training.ex.noLoo.shrinks', why: 'training.ex.noLoo.shrinksWhy', not: 'training.ex.noLoo.shrinksNot' },
  stays: { label: 'training.ex.noLoo.stays', why: 'training.ex.noLoo.staysWhy', not: 'training.ex.noLoo.staysNot' },
});
const NO_LOO_OPTIONS = Object.freeze(Object.keys(NO_LOO_KEYS));

const predictWithoutLoo = Object.freeze({
  id: 'without-loo',
  kind: 'predict',
  // The warning shown once Leave one out is off says where w goes.
  withholds: ['training.looOff'],
  tells: { en: ['run away', 'runs away', 'keeps growing'], zh: ['一路', '不断变大'] },
  // The landscape draws the loss without leave-one-out beside the other:
  // it would give the prediction away.
  hides: ['landscape'],
  // Step or Play with leave-one-out off starts the run it asks about (the
  // landscape is what to watch); a run with it on does not.
  startedBy: ['step', 'play'],
  startedWhen: (inputs) => !inputs.leaveOneOut,
  questionKey: 'training.ex.noLoo.question',
  hintKey: 'training.ex.noLoo.hint',
  questionParams: (instance, inputs) => ({ w0: inputs ? fmtW(inputs.w0) : '–' }),
  options: NO_LOO_OPTIONS.map((id) => ({ id, labelKey: NO_LOO_KEYS[id].label, explanationKey: NO_LOO_KEYS[id].why })),
  check(core, inputs, answer) {
    if (!NO_LOO_OPTIONS.includes(answer)) return { verdict: 'wrong', key: 'exercises.pickFirst' };
    const { goes, params } = withoutLeaveOneOut(core, inputs);
    if (answer === goes) return { verdict: 'right', key: NO_LOO_KEYS[goes].why, params };
    return { verdict: 'wrong', key: NO_LOO_KEYS[answer].not, params };
  },
  solution(core, inputs) {
    const { goes, params } = withoutLeaveOneOut(core, inputs);
    return { key: NO_LOO_KEYS[goes].why, params };
  },
});

// ---------------------------------------------------------------------------
// The slope at -w: the loss is even in w (w enters squared), so its
// gradient is odd. The learner reads dL/dw at w off the read-out (w0 set
// to w, before Play) and types the slope at -w, which no control reaches.

export const MIRROR_SHARE = 0.01; // within 1 % of the core's gradient
const MIRROR_RANGE = Object.freeze({ low: 1, high: 10 });

export function mirrorWidth(core, instance) {
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'widthMirror'), ...MIRROR_RANGE });
  return Math.round(u * 10) / 10;
}

// The core's loss and gradient at w and at -w, for the live data and objective.
export function mirrorSlopes(core, inputs, w) {
  const data = dataset(core, inputs);
  const { leaveOneOut } = inputs;
  return {
    at: core.kernelWidthLoss(data.x, data.y, w, { leaveOneOut }),
    mirrored: core.kernelWidthLoss(data.x, data.y, -w, { leaveOneOut }),
  };
}

const mirrorGradient = Object.freeze({
  id: 'mirror-gradient',
  kind: 'compute',
  questionKey: 'training.ex.mirror.question',
  hintKey: 'training.ex.mirror.hint',
  draw: (core, inputs, instance) => ({ w: mirrorWidth(core, instance) }),
  questionParams: (instance) => ({ w: formatNumber(instance?.w ?? NaN, '.1f') }),
  check(core, inputs, answer, { w }) {
    const { at, mirrored } = mirrorSlopes(core, inputs, w);
    const right = mirrored.gradient;
    const params = { w: formatNumber(w, '.1f'), gradient: formatNumber(right, '.4~g'), shown: formatNumber(at.gradient, '.4~g') };
    const tolerance = MIRROR_SHARE * Math.abs(right);
    const verdict = judgeNumber(answer, right, tolerance);
    if (verdict === 'right') return { verdict, key: 'training.ex.mirror.right', params };
    // The mistakes aimed at: the slope at +w as shown, the loss in place of
    // its slope, and 0 (the slope at w = 0 only).
    if (Math.abs(at.gradient) > 0 && judgeNumber(answer, at.gradient, tolerance) === 'right') {
      return mistake('training.ex.mirror.sameSign', params);
    }
    if (judgeNumber(answer, mirrored.loss, MIRROR_SHARE * mirrored.loss) === 'right') {
      return mistake('training.ex.mirror.loss', params);
    }
    if (answer === 0) return mistake('training.ex.mirror.zero', params);
    if (verdict === 'close') return { verdict, key: 'training.ex.mirror.close', params };
    return { verdict, key: 'training.ex.mirror.wrong', params };
  },
  solution(core, inputs, { w }) {
    const { at, mirrored } = mirrorSlopes(core, inputs, w);
    return {
      key: 'training.ex.mirror.solution',
      params: { w: formatNumber(w, '.1f'), gradient: formatNumber(mirrored.gradient, '.4~g'), shown: formatNumber(at.gradient, '.4~g') },
    };
  },
});

// ---------------------------------------------------------------------------
// Bring w near the bottom: the leave-one-out loss at the w of the read-out
// (the run's, where it is now; w0 when no view is at hand) at most
// NEAR_SHARE above the lowest of the landscape.

export const NEAR_SHARE = 0.05;

// The w the read-out shows: the run's last w when the section's view holds
// one, else the run's start w0.
export function liveW(inputs, view) {
  const w = view?.currentW?.();
  return Number.isFinite(w) ? w : inputs.w0;
}

const nearBottom = Object.freeze({
  id: 'near-bottom',
  kind: 'achieve',
  questionKey: 'training.ex.near.question',
  hintKey: 'training.ex.near.hint',
  questionParams: () => ({ share: percent(NEAR_SHARE) }),
  check(core, inputs, answer, instance, view) {
    if (!inputs.leaveOneOut) return { verdict: 'wrong', key: 'training.ex.near.looOff' };
    const w = liveW(inputs, view);
    const data = dataset(core, inputs);
    const { loss } = core.kernelWidthLoss(data.x, data.y, w, { leaveOneOut: true });
    const bottom = landscapeBottom(core, inputs, true);
    const verdict = judgeAtMost(loss, (1 + NEAR_SHARE) * bottom.loss);
    const params = {
      w: fmtW(w), loss: fmtLoss(loss), best: fmtLoss(bottom.loss), bottom: fmtW(bottom.w),
      above: percent(loss / bottom.loss - 1), share: percent(NEAR_SHARE),
    };
    const key = { right: 'training.ex.near.right', close: 'training.ex.near.close', wrong: 'training.ex.near.far' }[verdict];
    return { verdict, key, params };
  },
  solution(core, inputs) {
    const bottom = landscapeBottom(core, inputs, true);
    return { key: 'training.ex.near.solution', params: { bottom: fmtW(bottom.w), best: fmtLoss(bottom.loss), share: percent(NEAR_SHARE) } };
  },
});

export const TRAINING_EXERCISES = Object.freeze([predictFirstStep, predictWithoutLoo, mirrorGradient, nearBottom]);
