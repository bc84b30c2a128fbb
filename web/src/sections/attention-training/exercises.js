// The attention-training section's exercises, each aimed at a belief
// learners hold about a Transformer that trains: that they cannot say
// beforehand what a head will learn (predict the pattern the heads of
// block 1 learn on reverse, made before Play and checked against the maps
// of the model trained); that more
// heads is what a harder task needs (sort to 95 % with a single head: the
// feed-forward network of d2l's encoder block does it); that every head is
// needed (d2l 10.5, exercise 2: switch off each head and measure: most can
// go at a cost of a point or two, one carries the task); why d2l's embedding scale or a
// causal mask keeps reverse from being learned (two concept questions); and
// that attention knows where a token stands by itself (predict how far
// reverse gets with no positions at all: self-attention sees a set).
//
// check() and solution() never train: they read the model the section's
// run has reached through its view (view.trainedRun()) and ask the core
// about it (a forward pass, the held-out accuracy with and without a head:
// a few milliseconds). Until a model is trained, check() throws a sentence
// the engine shows as "cannot be checked right now" (no try is counted; a
// prediction is then committed, to be checked once the model is trained).
import { conceptExercise, CLOSE_SHARE, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { AT_LENGTH } from '../../state.js';
import { blindToOrder, heldOutSet, taskOptions, exampleSeed } from './setup.js';
import { ROW_RATIO_EXERCISE } from '../shared/row-steps-exercise.js';
import { raceExercise, remembered, trainedRunFor } from '../shared/trained-model-exercises.js';

// The fewest steps a run can be set to (Steps to train): a head's pattern
// is judged from a model trained at least this far.
export const PATTERN_MIN_STEPS = 100;
// The pattern of a head is read from its maps of the first PATTERN_SEQUENCES
// held-out sequences (the examples shown are the first of them).
export const PATTERN_SEQUENCES = 64;
export const SORT_GOAL = 0.95;

// The patterns a learner may predict, each the map it names for a
// sequence of valid length n (rows: queries i < n, columns: keys j < n).
export const PATTERNS = Object.freeze({
  antiDiagonal: (i, j, n) => (j === n - 1 - i ? 1 : 0),
  diagonal: (i, j) => (i === j ? 1 : 0),
  uniform: (i, j, n) => 1 / n,
  firstColumn: (i, j) => (j === 0 ? 1 : 0),
});
const PATTERN_KEYS = Object.freeze({
  antiDiagonal: 'attention-training.ex.pattern.antiDiagonal',
  diagonal: 'attention-training.ex.pattern.diagonal',
  uniform: 'attention-training.ex.pattern.uniform',
  firstColumn: 'attention-training.ex.pattern.firstColumn',
});

// The patterns as a sentence names them (“nearest {pattern}”).
const PATTERN_NAME_KEYS = Object.freeze({
  antiDiagonal: 'attention-training.ex.pattern.name.antiDiagonal',
  diagonal: 'attention-training.ex.pattern.name.diagonal',
  uniform: 'attention-training.ex.pattern.name.uniform',
  firstColumn: 'attention-training.ex.pattern.name.firstColumn',
});

const percent = (share) => formatNumber(share * 100, '.1f');
const goalText = () => formatNumber(SORT_GOAL * 100, '.0f');

// The run the section's view holds, when it has trained at least one step
// (minSteps) for these inputs; otherwise what to do first, thrown.
const trainedRun = (inputs, view, minSteps = 1) => trainedRunFor(inputs, view, {
  idle: ['atSteps', 'atSpeed'], minSteps, keys: { pressPlay: 'attention-training.ex.pressPlay', trainLonger: 'attention-training.ex.trainLonger' },
});

// The held-out accuracy of the model, with the heads flagged in `off`
// (blocks x heads) switched off: the core's attentionModelAccuracy on the
// section's held-out set.
function accuracyOf(core, model, inputs, off = null) {
  const set = heldOutSet(core, inputs);
  return core.attentionModelAccuracy(model, set.tokens, set.targets, { ...set.options, headsOff: off }).accuracy;
}

// --- 1. Predict the pattern the heads learn on reverse ---

// The first PATTERN_SEQUENCES held-out sequences, as the section draws them.
function patternSequences(core, inputs) {
  return core.attentionTaskBatch(taskOptions(inputs, {
    batch: PATTERN_SEQUENCES, seed: exampleSeed(inputs.atSeed, core.defaults.heldOutSeedMix),
  }));
}

// The key a pattern puts query i's weight on, in a sequence of valid
// length n (null for the uniform pattern, which has none).
const PATTERN_KEY = Object.freeze({
  antiDiagonal: (i, n) => n - 1 - i, diagonal: (i) => i, uniform: () => null, firstColumn: () => 0,
});

// The pattern's maps for those sequences, padded queries and keys left 0.
function patternMaps(name, validLens) {
  const cells = AT_LENGTH * AT_LENGTH;
  const maps = new Float64Array(validLens.length * cells);
  validLens.forEach((n, item) => {
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < n; j += 1) maps[item * cells + i * AT_LENGTH + j] = PATTERNS[name](i, j, n);
    }
  });
  return maps;
}

// Which patterns the heads of block 1 follow: the share of their rows (a
// query of a sequence, in every head) whose largest weight sits on the
// pattern's key; for the uniform pattern, the share of flat rows (no
// weight above 2/n). A row the patterns share (the diagonal and the
// anti-diagonal cross) counts for each. Shares, not distances: with
// several heads the work is shared and a head reads its key with about
// half its weight, a row nearer the uniform one in squared distance whose
// largest weight still names the key it reads. The pattern with the
// largest share is the one learned.
export function learnedPattern(core, model, inputs) {
  return remembered(model, 'pattern', () => {
    const sequences = patternSequences(core, inputs);
    const validLens = inputs.atVariable ? Array.from(sequences.validLens) : new Array(PATTERN_SEQUENCES).fill(AT_LENGTH);
    const { weights } = core.attentionModelForward(model, sequences.tokens, {
      batch: PATTERN_SEQUENCES, validLens: inputs.atVariable ? sequences.validLens : null, causal: inputs.atCausal,
    });
    const heads = inputs.atHeads;
    const counts = Object.fromEntries(Object.keys(PATTERNS).map((name) => [name, 0]));
    let rows = 0;
    validLens.forEach((n, item) => {
      for (let head = 0; head < heads; head += 1) {
        const from = (item * heads + head) * AT_LENGTH * AT_LENGTH; // block 1
        for (let i = 0; i < n; i += 1) {
          const row = weights.subarray(from + i * AT_LENGTH, from + i * AT_LENGTH + n);
          let heaviest = 0;
          for (let j = 1; j < n; j += 1) if (row[j] > row[heaviest]) heaviest = j;
          rows += 1;
          if (row[heaviest] <= 2 / n) counts.uniform += 1;
          else for (const name of Object.keys(PATTERNS)) if (PATTERN_KEY[name](i, n) === heaviest) counts[name] += 1;
        }
      }
    });
    const shares = Object.fromEntries(Object.keys(counts).map((name) => [name, counts[name] / rows]));
    const nearest = Object.keys(shares).reduce((best, name) => (shares[name] > shares[best] ? name : best));
    return { nearest, shares };
  });
}

// The pattern that solves the task for the first held-out sequence (the
// core's ideal), named by the nearest of the four: what the answer is
// before anything is trained.
function idealPattern(core, inputs) {
  const options = taskOptions(inputs, { batch: 1, seed: exampleSeed(inputs.atSeed, core.defaults.heldOutSeedMix) });
  const ideal = core.attentionTaskIdeal(options, 0);
  const [n] = core.attentionTaskBatch(options).validLens;
  const validLens = [inputs.atVariable ? n : AT_LENGTH];
  return Object.keys(PATTERNS).reduce((best, name) => {
    const distance = core.sumSquaredError(ideal, patternMaps(name, validLens));
    return distance < best.distance ? { name, distance } : best;
  }, { name: null, distance: Infinity }).name;
}

const patternParams = ({ nearest, shares }, chosen) => ({
  pattern: t(PATTERN_NAME_KEYS[nearest]),
  chosen: t(PATTERN_NAME_KEYS[chosen] ?? PATTERN_NAME_KEYS[nearest]),
  share: percent(shares[nearest]),
  chosenShare: percent(shares[chosen] ?? NaN),
});

// What each pattern would mean for reverse: the anti-diagonal's is the
// right answer's text; the others say why that belief fails (when the head
// did learn reverse's anti-diagonal).
const PATTERN_EXPLANATION_KEYS = Object.freeze({
  antiDiagonal: 'attention-training.ex.pattern.right',
  diagonal: 'attention-training.ex.pattern.diagonalWhy',
  uniform: 'attention-training.ex.pattern.uniformWhy',
  firstColumn: 'attention-training.ex.pattern.firstColumnWhy',
});

const predictPattern = Object.freeze({
  id: 'reverse-pattern',
  kind: 'predict',
  tells: { en: ['follow the anti-diagonal'], zh: ['遵循反对角线'] },
  questionKey: 'attention-training.ex.pattern.question',
  hintKey: 'attention-training.ex.pattern.hint',
  // The maps and the note that describes the task's pattern give it away.
  hides: ['at-heads', 'at-explain', 'at-row-steps'],
  // Play and Step start what the section's lead says to watch: they show the maps at once.
  startedBy: ['at-play', 'at-step'],
  questionParams: () => ({ steps: PATTERN_MIN_STEPS }),
  options: Object.keys(PATTERNS).map((id) => ({ id, labelKey: PATTERN_KEYS[id], explanationKey: PATTERN_EXPLANATION_KEYS[id] })),
  check(core, inputs, answer, instance, view) {
    if (inputs.atTask !== 'reverse') throw new Error(t('attention-training.ex.pattern.notReverse'));
    const { model } = trainedRun(inputs, view, PATTERN_MIN_STEPS);
    const learned = learnedPattern(core, model, inputs);
    const params = patternParams(learned, answer);
    if (answer === learned.nearest) {
      return { verdict: 'right', key: learned.nearest === 'antiDiagonal' ? 'attention-training.ex.pattern.right' : 'attention-training.ex.pattern.rightOther', params };
    }
    // Settings that keep the head from learning reverse (d2l's scale, a
    // causal mask): the head learned something else, said as it is.
    if (learned.nearest !== 'antiDiagonal') return { verdict: 'wrong', key: 'attention-training.ex.pattern.learnedOther', params };
    return { verdict: 'wrong', key: PATTERN_EXPLANATION_KEYS[answer], params };
  },
  solution(core, inputs, instance, view) {
    const run = view?.trainedRun?.() ?? null;
    const trained = run && run.step >= PATTERN_MIN_STEPS && inputs.atTask === 'reverse';
    if (!trained) {
      return { key: 'attention-training.ex.pattern.solutionIdeal', params: { pattern: t(PATTERN_NAME_KEYS[idealPattern(core, { ...inputs, atTask: 'reverse' })]) } };
    }
    const learned = learnedPattern(core, run.model, inputs);
    return { key: 'attention-training.ex.pattern.solution', params: { ...patternParams(learned, learned.nearest), step: run.step } };
  },
});

// --- 2. Sort to 95 % with one head ---

// A setting that does it (checked by the unit test, which trains it): d2l's
// full encoder block, whose feed-forward network the one head lacks.
export const SORT_RECIPE = Object.freeze({ atTask: 'sort', atHeads: 1, atFfn: 64, atSteps: 400 });

const sortOneHead = Object.freeze({
  id: 'sort-one-head',
  kind: 'achieve',
  questionKey: 'attention-training.ex.sort.question',
  hintKey: 'attention-training.ex.sort.hint',
  questionParams: () => ({ goal: goalText() }),
  check(core, inputs, answer, instance, view) {
    const goal = goalText();
    if (inputs.atTask !== 'sort') return { verdict: 'wrong', key: 'attention-training.ex.sort.notSort', params: { goal } };
    if (inputs.atHeads !== 1) return { verdict: 'wrong', key: 'attention-training.ex.sort.heads', params: { heads: inputs.atHeads, goal } };
    const { model, step } = trainedRun(inputs, view);
    const accuracy = remembered(model, 'accuracy', () => accuracyOf(core, model, inputs));
    const params = { accuracy: percent(accuracy), goal, step };
    // A share to reach: close within 10 % below it, as the engine's close is.
    const verdict = accuracy >= SORT_GOAL ? 'right' : accuracy >= (1 - CLOSE_SHARE) * SORT_GOAL ? 'close' : 'wrong';
    if (verdict === 'right') return { verdict, key: 'attention-training.ex.sort.right', params };
    if (inputs.atCausal) return mistake('attention-training.ex.sort.causal', params);
    if (inputs.atD2lScale) return mistake('attention-training.ex.sort.scale', params);
    if (inputs.atFfn === 0) return mistake('attention-training.ex.sort.attentionOnly', params);
    return { verdict, key: verdict === 'close' ? 'attention-training.ex.sort.close' : 'attention-training.ex.sort.low', params };
  },
  solution(core, inputs, instance, view) {
    const params = { ffn: SORT_RECIPE.atFfn, steps: SORT_RECIPE.atSteps, goal: goalText() };
    const run = view?.trainedRun?.() ?? null;
    if (!run || run.step === 0 || inputs.atTask !== 'sort') return { key: 'attention-training.ex.sort.solution', params };
    const accuracy = remembered(run.model, 'accuracy', () => accuracyOf(core, run.model, inputs));
    return { key: 'attention-training.ex.sort.solutionNow', params: { ...params, accuracy: percent(accuracy), step: run.step } };
  },
});

// --- 3. The head whose removal hurts reverse most (d2l 10.5, exercise 2) ---

// Each head of block 1 switched off alone: the held-out accuracy without
// it, and its drop from the whole model's (the core's accuracy both times).
export function headDrops(core, model, inputs) {
  return remembered(model, 'drops', () => {
    const heads = inputs.atHeads;
    const whole = accuracyOf(core, model, inputs);
    const without = Array.from({ length: heads }, (_, head) => {
      const off = new Int32Array(inputs.atBlocks * heads);
      off[head] = 1;
      return accuracyOf(core, model, inputs, off);
    });
    return { whole, without, drops: without.map((accuracy) => whole - accuracy) };
  });
}

// Two drops this close are one: a position of the held-out set is
// 1 / (256 x 8) of the accuracy.
const SAME_DROP = 1e-9;
// A head whose removal costs less than half a point of accuracy: the
// model can spare it (the others do its work, or it does none).
export const SPARE_DROP = 0.005;

const removalParams = ({ whole, without, drops }, head) => {
  const most = drops.indexOf(Math.max(...drops));
  return {
    head, whole: percent(whole), without: percent(without[head - 1] ?? NaN), drop: percent(drops[head - 1] ?? NaN),
    best: most + 1, bestWithout: percent(without[most]), bestDrop: percent(drops[most]), heads: drops.length,
  };
};

const headRemoval = Object.freeze({
  id: 'head-removal',
  kind: 'compute',
  questionKey: 'attention-training.ex.removal.question',
  hintKey: 'attention-training.ex.removal.hint',
  check(core, inputs, answer, instance, view) {
    if (inputs.atTask !== 'reverse') throw new Error(t('attention-training.ex.removal.notReverse'));
    const { model } = trainedRun(inputs, view);
    const measured = headDrops(core, model, inputs);
    if (!Number.isInteger(answer) || answer < 1 || answer > inputs.atHeads) {
      return { verdict: 'wrong', key: 'attention-training.ex.removal.noSuchHead', params: { heads: inputs.atHeads } };
    }
    const params = removalParams(measured, answer);
    const largest = Math.max(...measured.drops);
    if (measured.drops[answer - 1] >= largest - SAME_DROP) {
      return { verdict: 'right', key: inputs.atHeads === 1 ? 'attention-training.ex.removal.rightOnly' : 'attention-training.ex.removal.right', params };
    }
    // The belief that every head is needed: this one the model can spare.
    // A wrong head's feedback names what it costs, not which head costs most.
    const { best, bestWithout, bestDrop, ...told } = params;
    if (measured.drops[answer - 1] < SPARE_DROP) return { verdict: 'wrong', key: 'attention-training.ex.removal.spare', params: told };
    return { verdict: 'wrong', key: 'attention-training.ex.removal.wrong', params: told };
  },
  solution(core, inputs, instance, view) {
    const run = view?.trainedRun?.() ?? null;
    if (!run || run.step === 0 || inputs.atTask !== 'reverse') return { key: 'attention-training.ex.removal.solutionUntrained' };
    const measured = headDrops(core, run.model, inputs);
    return { key: 'attention-training.ex.removal.solution', params: removalParams(measured, measured.drops.indexOf(Math.max(...measured.drops)) + 1) };
  },
});

// --- 4 and 5. Why reverse fails: d2l's embedding scale, a causal mask ---

const scaleStalls = conceptExercise({
  id: 'd2l-scale',
  questionKey: 'attention-training.ex.scale.question',
  hintKey: 'attention-training.ex.scale.hint',
  right: 'drowned',
  options: [
    { id: 'diverges', labelKey: 'attention-training.ex.scale.diverges', explanationKey: 'attention-training.ex.scale.divergesWhy' },
    { id: 'drowned', labelKey: 'attention-training.ex.scale.drowned', explanationKey: 'attention-training.ex.scale.drownedWhy' },
    { id: 'tokens', labelKey: 'attention-training.ex.scale.tokens', explanationKey: 'attention-training.ex.scale.tokensWhy' },
    { id: 'longer', labelKey: 'attention-training.ex.scale.longer', explanationKey: 'attention-training.ex.scale.longerWhy' },
  ],
});

const causalCap = conceptExercise({
  id: 'causal-reverse',
  questionKey: 'attention-training.ex.causal.question',
  hintKey: 'attention-training.ex.causal.hint',
  right: 'half',
  options: [
    { id: 'slower', labelKey: 'attention-training.ex.causal.slower', explanationKey: 'attention-training.ex.causal.slowerWhy' },
    { id: 'positions', labelKey: 'attention-training.ex.causal.positions', explanationKey: 'attention-training.ex.causal.positionsWhy' },
    { id: 'half', labelKey: 'attention-training.ex.causal.half', explanationKey: 'attention-training.ex.causal.halfWhy' },
    { id: 'uniform', labelKey: 'attention-training.ex.causal.uniform', explanationKey: 'attention-training.ex.causal.uniformWhy' },
  ],
});

// --- 7. Predict how far reverse gets with no positions ---

// A run without positions is judged once trained this far.
export const NO_POSITIONS_STEPS = 1000;
// The held-out accuracies a learner may predict, each a band.
export const ACCURACY_BANDS = Object.freeze({
  learns: (accuracy) => accuracy >= 0.99,
  most: (accuracy) => accuracy >= 0.5 && accuracy < 0.99,
  far: (accuracy) => accuracy < 0.5,
});
const BAND_KEYS = Object.freeze({
  learns: 'attention-training.ex.positions.learns',
  most: 'attention-training.ex.positions.most',
  far: 'attention-training.ex.positions.far',
});
// Why each belief fails, when the run without positions stays far below.
const BAND_EXPLANATION_KEYS = Object.freeze({
  learns: 'attention-training.ex.positions.learnsWhy',
  most: 'attention-training.ex.positions.mostWhy',
  far: 'attention-training.ex.positions.right',
});
const bandOf = (accuracy) => Object.keys(ACCURACY_BANDS).find((band) => ACCURACY_BANDS[band](accuracy));
// What the question asks about: reverse, learnt by a model blind to order.
const asked = (inputs) => inputs.atTask === 'reverse' && blindToOrder(inputs);

const noPositions = Object.freeze({
  id: 'no-positions',
  kind: 'predict',
  tells: { en: ['under 50 %'], zh: ['低于 50 %'] },
  questionKey: 'attention-training.ex.positions.question',
  hintKey: 'attention-training.ex.positions.hint',
  // The note shown without positions says it.
  withholds: ['attention-training.positionsNote'],
  startedBy: ['at-play', 'at-step'],
  startedWhen: (inputs) => inputs.atPositional === 'none',
  questionParams: () => ({ steps: NO_POSITIONS_STEPS }),
  options: Object.keys(ACCURACY_BANDS).map((id) => ({ id, labelKey: BAND_KEYS[id], explanationKey: BAND_EXPLANATION_KEYS[id] })),
  check(core, inputs, answer, instance, view) {
    if (!asked(inputs)) throw new Error(t('attention-training.ex.positions.setUp'));
    const { model, step } = trainedRun(inputs, view, NO_POSITIONS_STEPS);
    const accuracy = remembered(model, 'accuracy', () => accuracyOf(core, model, inputs));
    const band = bandOf(accuracy);
    const params = { accuracy: percent(accuracy), step, band: t(BAND_KEYS[band]) };
    // Far below, each belief has its explanation (the right one's is the right feedback); otherwise the measure said.
    const key = band === 'far' ? BAND_EXPLANATION_KEYS[answer] : 'attention-training.ex.positions.measured';
    return { verdict: answer === band ? 'right' : 'wrong', key, params };
  },
  solution(core, inputs, instance, view) {
    const run = view?.trainedRun?.() ?? null;
    const measured = run && run.step >= NO_POSITIONS_STEPS && asked(inputs);
    if (!measured) return { key: 'attention-training.ex.positions.solutionUntrained', params: { steps: NO_POSITIONS_STEPS } };
    const accuracy = remembered(run.model, 'accuracy', () => accuracyOf(core, run.model, inputs));
    return { key: 'attention-training.ex.positions.solution', params: { accuracy: percent(accuracy), step: run.step, band: t(BAND_KEYS[bandOf(accuracy)]) } };
  },
});

// --- 8. Learned positions against d2l's sinusoidal ones (d2l 10.6, exercise 2) ---

// A kept run with sinusoidal positions raced against the live one with learned ones.
const learnedPositions = raceExercise({
  id: 'learned-positions',
  tells: { en: ['got there first'], zh: ['先到达'] },
  setting: 'atPositional',
  kept: 'sinusoidal',
  live: 'learned',
  idle: ['atSteps', 'atSpeed'],
  texts: {
    question: 'attention-training.ex.learned.question', hint: 'attention-training.ex.learned.hint',
    options: {
      kept: 'attention-training.ex.learned.sinusoidal', live: 'attention-training.ex.learned.learned', same: 'attention-training.ex.learned.same',
    },
    faster: {
      kept: 'attention-training.ex.learned.sinusoidalFaster', live: 'attention-training.ex.learned.learnedFaster',
      same: 'attention-training.ex.learned.sameFaster',
    },
    setUp: 'attention-training.ex.learned.setUp', keepFirst: 'attention-training.ex.learned.keepFirst',
    keptShort: 'attention-training.ex.learned.keptShort', trainOn: 'attention-training.ex.learned.trainOn',
    solutionUntrained: 'attention-training.ex.learned.solutionUntrained',
    pressPlay: 'attention-training.ex.pressPlay', trainLonger: 'attention-training.ex.trainLonger',
  },
  figures: ['at-accuracy', 'at-compare'],
  play: ['at-play', 'at-step'],
});

export const ATTENTION_TRAINING_EXERCISES = Object.freeze([
  predictPattern, sortOneHead, headRemoval, scaleStalls, causalCap, ROW_RATIO_EXERCISE, noPositions, learnedPositions,
]);
