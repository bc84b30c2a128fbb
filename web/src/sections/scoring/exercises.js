// The scoring-functions section's exercises, each aimed at a belief learners
// hold: that the dot product can score a query against a key of another
// length (a concept question); that two scoring functions which agree on
// the book's keys agree on any keys (a prediction before the keys are
// drawn: d2l 10.3 exercise 1); that the softmax of longer vectors' dot
// products stays as spread out as before (a prediction before the "why
// divide by √d" plot shows it); and how much cheaper the dot product is
// (a ratio read off the timing table). Every right answer comes from the
// core for the live state, or from what the section's panels measured:
// the scaling study's rows and the timings of the core's own calls.
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { computeScoring } from './setup.js';
import { COST_SIZES } from './cost-panel.js';

const NK = 10; // keys per batch item (the book's demo)
const ITEMS = 2;
const decimals = (value, digits = 3) => formatNumber(value, `.${digits}f`);

const equalLengths = conceptExercise({
  id: 'equal-lengths',
  questionKey: 'scoring.ex.lengths.question',
  hintKey: 'scoring.ex.lengths.hint',
  right: 'lengths',
  options: [
    { id: 'scale', labelKey: 'scoring.ex.lengths.scale', explanationKey: 'scoring.ex.lengths.scaleWhy' },
    { id: 'lengths', labelKey: 'scoring.ex.lengths.lengths', explanationKey: 'scoring.ex.lengths.lengthsWhy' },
    { id: 'softmax', labelKey: 'scoring.ex.lengths.softmax', explanationKey: 'scoring.ex.lengths.softmaxWhy' },
    { id: 'learns', labelKey: 'scoring.ex.lengths.learns', explanationKey: 'scoring.ex.lengths.learnsWhy' },
  ],
});

// --- Do the two scorings still agree once the keys differ? (d2l 10.3 ex. 1) ---
// Two weights this close are "the same" on the maps (they print 3 decimals).
export const AGREE_TOLERANCE = 0.01;

// Both layers' weights for the live settings with the keys drawn at random
// (the seed now), compared over the valid keys: where they differ most, and
// whether every row stays uniform (a row with one valid key is; one with
// none has no weight to compare).
export function keysComparison(core, inputs) {
  const { additive, dot } = computeScoring(core, { ...inputs, scoringKeys: 'random' });
  const nq = inputs.scoringQueries;
  const lens = [inputs.scoringLen1, inputs.scoringLen2];
  let most = { diff: -1, row: 0, key: 0 };
  let uniform = true;
  for (let row = 0; row < ITEMS * nq; row += 1) {
    // A row with no valid key has every weight 0 (the lab's rule) in both layers.
    const visible = lens[Math.floor(row / nq)];
    for (let key = 0; key < visible; key += 1) {
      const cell = row * NK + key;
      const diff = Math.abs(additive.weights[cell] - dot.weights[cell]);
      if (diff > most.diff) most = { diff, row, key };
      const even = 1 / visible;
      if (Math.abs(additive.weights[cell] - even) > AGREE_TOLERANCE || Math.abs(dot.weights[cell] - even) > AGREE_TOLERANCE) uniform = false;
    }
  }
  const cell = most.row * NK + most.key;
  let truth = 'differ';
  if (uniform) truth = 'uniform';
  else if (most.diff <= AGREE_TOLERANCE) truth = 'same';
  return {
    truth,
    params: {
      batch: Math.floor(most.row / nq) + 1, query: (most.row % nq) + 1, key: most.key + 1,
      additive: decimals(additive.weights[cell]), dot: decimals(dot.weights[cell]), diff: decimals(Math.max(0, most.diff)),
    },
  };
}

const keysAgree = Object.freeze({
  id: 'keys-agree',
  kind: 'predict',
  tells: { en: ['came from identical keys'], zh: ['来自完全相同的键'] },
  questionKey: 'scoring.ex.agree.question',
  hintKey: 'scoring.ex.agree.hint',
  // Each option's explanation as picked with random keys and several valid
  // keys a row (the usual case); check() words the other cases itself.
  options: [
    { id: 'same', labelKey: 'scoring.ex.agree.same', explanationKey: 'scoring.ex.agree.notSame' },
    { id: 'differ', labelKey: 'scoring.ex.agree.differ', explanationKey: 'scoring.ex.agree.differRight' },
    { id: 'uniform', labelKey: 'scoring.ex.agree.uniform', explanationKey: 'scoring.ex.agree.notUniform' },
  ],
  // The maps would answer it once the keys are random: covered until the prediction is made.
  hides: ['additive-weights', 'dot-weights', 'additive-output', 'dot-output'],
  check(core, inputs, answer) {
    const { truth, params } = keysComparison(core, inputs);
    // Both rows uniform: they also agree, so "the same" is as right.
    const right = answer === truth || (truth === 'uniform' && answer === 'same');
    if (truth !== 'differ') return { verdict: right ? 'right' : 'wrong', key: right ? 'scoring.ex.agree.fewKeys' : 'scoring.ex.agree.fewKeysWrong', params };
    if (right) return { verdict: 'right', key: 'scoring.ex.agree.differRight', params };
    return { verdict: 'wrong', key: answer === 'uniform' ? 'scoring.ex.agree.notUniform' : 'scoring.ex.agree.notSame', params };
  },
  solution(core, inputs) {
    const { truth, params } = keysComparison(core, inputs);
    return { key: truth === 'differ' ? 'scoring.ex.agree.solutionDiffer' : 'scoring.ex.agree.solutionFewKeys', params };
  },
});

// --- Flatter or peakier as d grows? (the "why divide by √d" panel) ---
export const TREND_DIMS = Object.freeze({ low: 1, high: 512 });
// A change of the mean largest weight smaller than this, from d = 1 to 512, is "level".
export const TREND_STEP = 0.1;

// The core's scaling study at d = 1 and d = 512 for the panel's settings:
// the panel's own rows once its study has reached them (the view), else
// asked of the core with the same arguments as the panel asks.
function scalingRows(core, inputs, view) {
  const row = (d) => view?.scalingRow?.(d, inputs)
    ?? core.scalingStudy({ dims: [d], samples: inputs.scalingSamples, keys: inputs.scalingKeys, seed: inputs.scalingSeed })[0];
  return { low: row(TREND_DIMS.low), high: row(TREND_DIMS.high) };
}

const trendOf = (from, to) => {
  if (to - from > TREND_STEP) return 'peakier';
  return from - to > TREND_STEP ? 'flatter' : 'level';
};

export function scalingTrend(core, inputs, view) {
  const { low, high } = scalingRows(core, inputs, view);
  return {
    truth: `${trendOf(low.maxWeight, high.maxWeight)}-${trendOf(low.scaledMaxWeight, high.scaledMaxWeight)}`,
    params: {
      m: inputs.scalingKeys, even: decimals(1 / inputs.scalingKeys, 2),
      low: decimals(low.maxWeight, 2), high: decimals(high.maxWeight, 2),
      scaledLow: decimals(low.scaledMaxWeight, 2), scaledHigh: decimals(high.scaledMaxWeight, 2),
    },
  };
}

// Each option's explanation as the theory has it: unscaled peakier, scaled level.
const TREND_OPTIONS = Object.freeze([
  { id: 'level-level', labelKey: 'scoring.ex.trend.level-level', explanationKey: 'scoring.ex.trend.levelWhy' },
  { id: 'flatter-level', labelKey: 'scoring.ex.trend.flatter-level', explanationKey: 'scoring.ex.trend.flatterWhy' },
  { id: 'peakier-level', labelKey: 'scoring.ex.trend.peakier-level', explanationKey: 'scoring.ex.trend.right' },
  { id: 'peakier-peakier', labelKey: 'scoring.ex.trend.peakier-peakier', explanationKey: 'scoring.ex.trend.bothWhy' },
]);
const trendOption = new Map(TREND_OPTIONS.map((option) => [option.id, option]));

const scalingPeakier = Object.freeze({
  id: 'scaling-trend',
  kind: 'predict',
  // The plot's caption and the note below it say the unscaled collapse.
  withholds: ['scaling.weightCaption', 'scaling.collapseNote'],
  tells: { en: ['onto one key', 'almost all the weight'], zh: ['到一个键上', '饱和'] },
  questionKey: 'scoring.ex.trend.question',
  hintKey: 'scoring.ex.trend.hint',
  questionParams: (instance, inputs) => ({ m: inputs?.scalingKeys ?? '–' }),
  options: TREND_OPTIONS,
  hides: ['scaling-weight'],
  check(core, inputs, answer, instance, view) {
    const { truth, params } = scalingTrend(core, inputs, view);
    if (answer === truth) return { verdict: 'right', key: truth === 'peakier-level' ? 'scoring.ex.trend.right' : 'scoring.ex.trend.rightMeasured', params };
    // The study found something else than the theory's trend (settings at
    // their edges): the numbers are named as they are.
    if (truth !== 'peakier-level') return { verdict: 'wrong', key: 'scoring.ex.trend.measured', params };
    return { verdict: 'wrong', key: trendOption.get(answer)?.explanationKey ?? 'exercises.pickFirst', params };
  },
  solution(core, inputs, instance, view) {
    const { truth, params } = scalingTrend(core, inputs, view);
    return { key: truth === 'peakier-level' ? 'scoring.ex.trend.solution' : 'scoring.ex.trend.solutionMeasured', params };
  },
});

// --- How much cheaper is the dot product? (read off the timing table) ---
export const RATIO_TOLERANCE = 0.1;

export const costSize = (core, instance) => {
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'costSizes'), low: 0, high: COST_SIZES.length });
  return COST_SIZES[Math.min(COST_SIZES.length - 1, Math.floor(u))];
};

// The medians the page timed at size n (the section's view holds them).
function measuredAt(view, n) {
  const measured = view?.measuredCost?.(n) ?? null;
  if (!measured) throw new Error(t('scoring.ex.cost.measuring'));
  return measured;
}

const ms = (value) => formatNumber(value, '.3f');

const costRatio = Object.freeze({
  id: 'cost-ratio',
  kind: 'compute',
  tolerance: RATIO_TOLERANCE,
  questionKey: 'scoring.ex.cost.question',
  hintKey: 'scoring.ex.cost.hint',
  draw: (core, inputs, instance) => ({ n: costSize(core, instance) }),
  questionParams: (instance) => ({ n: instance?.n ?? '–', tolerance: RATIO_TOLERANCE }),
  check(core, inputs, answer, { n }, view) {
    const { additive, dot } = measuredAt(view, n);
    const ratio = additive / dot;
    const params = { n, ratio: decimals(ratio, 1), additive: ms(additive), dot: ms(dot) };
    const verdict = judgeNumber(answer, ratio, RATIO_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'scoring.ex.cost.right', params };
    // The mistakes aimed at: the ratio upside down, a time in place of a
    // ratio, another size's row.
    if (ratio > 1 && answer > 0 && answer < 1) return mistake('scoring.ex.cost.inverse', params);
    if ([additive, dot].some((time) => Math.abs(answer - time) <= 0.0015)) return mistake('scoring.ex.cost.time', params);
    for (const other of COST_SIZES) {
      const measured = other === n ? null : view.measuredCost(other);
      if (measured && judgeNumber(answer, measured.additive / measured.dot, RATIO_TOLERANCE / 2) === 'right') {
        return mistake('scoring.ex.cost.otherSize', { ...params, other });
      }
    }
    if (verdict === 'close') return { verdict, key: 'scoring.ex.cost.close', params };
    return { verdict, key: answer > ratio ? 'scoring.ex.cost.tooHigh' : 'scoring.ex.cost.tooLow', params };
  },
  solution(core, inputs, { n }, view) {
    const measured = view?.measuredCost?.(n) ?? null;
    if (!measured) return { key: 'scoring.ex.cost.solutionMeasuring', params: { n } };
    return { key: 'scoring.ex.cost.solution', params: { n, ratio: decimals(measured.additive / measured.dot, 1) } };
  },
  // The size's row of the timing table, outlined.
  mark(view, instance) {
    view.markCost(instance?.n ?? null);
  },
});

export const SCORING_EXERCISES = Object.freeze([equalLengths, keysAgree, scalingPeakier, costRatio]);
