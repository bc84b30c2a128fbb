// The translation section's exercises, each aimed at a belief learners hold
// about attention between two sequences: that the decoder's map reads like a
// dictionary (predict where 八 of 4782 looks in the bidirectional map,
// checked against the core's greedy translation of the model trained); that
// an attention map is an explanation (why d2l's one-directional encoder's map
// looks shifted, a concept question); that a translator needs a long training
// (reach 95 % held-out exact match); reading one weight of the map
// (compute, against the core's forward pass of the model on screen); and
// that a scoring function without parameters trains faster or slower for
// it (d2l 10.4, exercise 2: a kept additive run raced against a dot-product
// one, judged on the two runs on screen).
//
// check() and solution() never train: they read the model the section's run
// has reached through its view (view.trainedRun()) and ask the core about it
// (one translation, one forward pass: a few milliseconds). Until a model is
// trained, check() throws a sentence the engine shows as "cannot be checked
// right now" (no try is counted).
import { conceptExercise, judgeNumber, CLOSE_SHARE } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { EXAMPLES, recurrent, wordsOf, sentence } from './setup.js';
import { ROW_RATIO_EXERCISE } from '../shared/row-steps-exercise.js';
import { raceExercise, remembered, trainedRunFor } from '../shared/trained-model-exercises.js';

// The number whose map the prediction is about, and the word whose row it reads.
export const EIGHT_SOURCE = '4782';
export const EIGHT_WORD = '八';
// The map is judged from a model trained at least this far (the default
// reaches 95 % held-out exact match in a few hundred steps).
export const EIGHT_MIN_STEPS = 200;
export const MATCH_GOAL = 0.95;
// A weight read off the map: right within this, close within 10 %.
export const WEIGHT_TOLERANCE = 0.01;

const percent = (share) => formatNumber(share * 100, '.1f');
const goalText = () => formatNumber(MATCH_GOAL * 100, '.0f');

// The run the section's view holds for these inputs (step 0 allowed with
// `minSteps` 0); otherwise what to do first, thrown.
const trainedRun = (inputs, view, minSteps = 1) => trainedRunFor(inputs, view, {
  idle: ['trSteps', 'trSpeed'], minSteps, keys: { pressPlay: 'translation.ex.pressPlay', trainLonger: 'translation.ex.trainLonger' },
});

// --- 1. Predict where 八 of 4782 looks (Bahdanau's bidirectional encoder) ---

// The source words of 4782, in order: the options.
export const EIGHT_OPTIONS = Object.freeze(['four', 'thousand', 'seven', 'hundred', 'and', 'eighty', 'two']);
const EIGHT_OPTION_KEYS = Object.freeze({
  four: 'translation.ex.eight.option.four', thousand: 'translation.ex.eight.option.thousand', seven: 'translation.ex.eight.option.seven',
  hundred: 'translation.ex.eight.option.hundred', and: 'translation.ex.eight.option.and', eighty: 'translation.ex.eight.option.eighty',
  two: 'translation.ex.eight.option.two',
});

// The model's greedy translation of 4782 and, at the step it emits 八, the
// source word with the largest weight (the first on a tie) and that weight.
export function whereEightLooks(core, model) {
  return remembered(model, 'eight', () => {
    const task = model.config.task;
    const vocabulary = core.seq2seqVocabulary(task);
    const source = core.seq2seqSourceFromText(task, EIGHT_SOURCE);
    const S = source.length;
    const maxLength = model.config.targetLength;
    const translation = core.seq2seqTranslate(model, source, { maxLength });
    const length = translation.lengths[0];
    const words = wordsOf(translation.tokens, 0, maxLength, length, vocabulary.target);
    const sourceWords = Array.from(source, (id) => vocabulary.source[id]);
    const row = words.indexOf(EIGHT_WORD);
    if (row < 0) return { translation: sentence(words), row: -1 };
    // Bahdanau's map is one block of one head: crossWeights[0][0][0][row].
    const weights = Array.from(translation.crossWeights.subarray(row * S, (row + 1) * S));
    const best = weights.reduce((top, weight, col) => (weight > weights[top] ? col : top), 0);
    return { translation: sentence(words), row, word: sourceWords[best], weight: weights[best], weights, sourceWords };
  });
}

const eightParams = (looked, chosen) => {
  const at = looked.sourceWords.indexOf(chosen);
  return {
    word: looked.word, weight: formatNumber(looked.weight, '.2f'), chosen: chosen ?? '',
    chosenWeight: formatNumber(at >= 0 ? looked.weights[at] : NaN, '.2f'), target: EIGHT_WORD, source: EIGHT_SOURCE,
  };
};

function eightSetting(inputs) {
  if (inputs.trTask !== 'numbers-en-zh') throw new Error(t('translation.ex.eight.notTask'));
  if (inputs.trArchitecture !== 'bigru') throw new Error(t('translation.ex.eight.notBidirectional'));
}

const predictEight = Object.freeze({
  id: 'where-eight-looks',
  kind: 'predict',
  tells: { en: ['state at “eighty” is about'], zh: ['“eighty”处的状态'] },
  questionKey: 'translation.ex.eight.question',
  hintKey: 'translation.ex.eight.hint',
  // The maps (the ideal alignment among them) and the note on them give it away.
  hides: ['tr-maps', 'tr-explain', 'tr-row-steps'],
  // Play, Step and Translate start what the section says to watch: they show the maps at once.
  startedBy: ['tr-play', 'tr-step', 'tr-typed-show'],
  questionParams: () => ({ steps: EIGHT_MIN_STEPS }),
  options: EIGHT_OPTIONS.map((id) => ({ id, labelKey: EIGHT_OPTION_KEYS[id] })),
  check(core, inputs, answer, instance, view) {
    eightSetting(inputs);
    const { model } = trainedRun(inputs, view, EIGHT_MIN_STEPS);
    const looked = whereEightLooks(core, model);
    if (looked.row < 0) throw new Error(t('translation.ex.eight.noEight', { translation: looked.translation || '—' }));
    const params = eightParams(looked, answer);
    if (answer === looked.word) return { verdict: 'right', key: looked.word === 'eighty' ? 'translation.ex.eight.right' : 'translation.ex.eight.rightOther', params };
    return { verdict: 'wrong', key: looked.word === 'eighty' ? 'translation.ex.eight.wrong' : 'translation.ex.eight.wrongOther', params };
  },
  solution(core, inputs, instance, view) {
    const run = view?.trainedRun?.() ?? null;
    const trained = run && run.step >= EIGHT_MIN_STEPS && inputs.trTask === 'numbers-en-zh' && inputs.trArchitecture === 'bigru'
      && run.inputs.trTask === inputs.trTask && run.inputs.trArchitecture === inputs.trArchitecture && run.inputs.trSeed === inputs.trSeed;
    if (!trained) return { key: 'translation.ex.eight.solutionUntrained', params: { target: EIGHT_WORD, source: EIGHT_SOURCE } };
    const looked = whereEightLooks(core, run.model);
    if (looked.row < 0) return { key: 'translation.ex.eight.solutionNoEight', params: { translation: looked.translation || '—', step: run.step } };
    return { key: 'translation.ex.eight.solution', params: { ...eightParams(looked, looked.word), step: run.step } };
  },
});

// --- 2. Why d2l's one-directional map looks shifted ---

const shiftedMap = conceptExercise({
  id: 'shifted-map',
  questionKey: 'translation.ex.shift.question',
  hintKey: 'translation.ex.shift.hint',
  right: 'prefix',
  options: [
    { id: 'prefix', labelKey: 'translation.ex.shift.prefix', explanationKey: 'translation.ex.shift.prefixWhy' },
    { id: 'drawing', labelKey: 'translation.ex.shift.drawing', explanationKey: 'translation.ex.shift.drawingWhy' },
    { id: 'failed', labelKey: 'translation.ex.shift.failed', explanationKey: 'translation.ex.shift.failedWhy' },
    { id: 'order', labelKey: 'translation.ex.shift.order', explanationKey: 'translation.ex.shift.orderWhy' },
  ],
});

// --- 3. Reach 95 % held-out exact match ---

const reachMatch = Object.freeze({
  id: 'exact-match',
  kind: 'achieve',
  questionKey: 'translation.ex.match.question',
  hintKey: 'translation.ex.match.hint',
  questionParams: () => ({ goal: goalText() }),
  check(core, inputs, answer, instance, view) {
    const goal = goalText();
    const run = trainedRun(inputs, view);
    if (run.heldOut === null) return { verdict: 'wrong', key: 'translation.ex.match.notYet', params: { goal, step: run.step } };
    const params = { accuracy: percent(run.heldOut), goal, at: run.evaluatedAt };
    if (run.heldOut >= MATCH_GOAL) return { verdict: 'right', key: 'translation.ex.match.right', params };
    const close = run.heldOut >= (1 - CLOSE_SHARE) * MATCH_GOAL;
    return { verdict: close ? 'close' : 'wrong', key: close ? 'translation.ex.match.close' : 'translation.ex.match.low', params };
  },
  solution(core, inputs, instance, view) {
    const run = view?.trainedRun?.() ?? null;
    const params = { goal: goalText() };
    if (!run || run.heldOut === null) return { key: 'translation.ex.match.solution', params };
    return { key: 'translation.ex.match.solutionNow', params: { ...params, accuracy: percent(run.heldOut), at: run.evaluatedAt } };
  },
});

// --- 4. Read a weight off the map ---

// An instance: example `item`, its target position `row`, and the source
// position the task's ideal alignment gives that row most weight (the
// weight asked for is the model's, of that cell).
function drawWeight(core, inputs, index) {
  const item = index % EXAMPLES;
  const options = { task: inputs.trTask, count: EXAMPLES };
  const examples = core.seq2seqHeldOut(options);
  const vocabulary = core.seq2seqVocabulary(inputs.trTask);
  const ideal = core.seq2seqTaskIdeal(options, item);
  const T = examples.targetOut.length / EXAMPLES;
  const S = examples.source.length / EXAMPLES;
  const targetLen = examples.targetLens[item];
  const row = (item + 2 * Math.floor(index / EXAMPLES)) % targetLen;
  let col = 0;
  for (let c = 1; c < examples.sourceLens[item]; c += 1) if (ideal[row * S + c] > ideal[row * S + col]) col = c;
  return {
    item, row, col,
    target: vocabulary.target[examples.targetOut[item * T + row]],
    source: vocabulary.source[examples.source[item * S + col]],
  };
}

// The model's weight of the instance's cell: the first block's first head,
// the map drawn first (teacher forcing on the held-out examples, as drawn).
export function weightOf(core, model, inputs, { item, row, col }) {
  return remembered(model, `weight-${item}-${row}-${col}`, () => {
    const examples = core.seq2seqHeldOut({ task: inputs.trTask, count: EXAMPLES });
    const { crossWeights } = core.seq2seqForward(model, { ...examples, batch: EXAMPLES });
    const T = examples.targetOut.length / EXAMPLES;
    const S = examples.source.length / EXAMPLES;
    const heads = model.config.architecture === 'transformer' ? model.config.heads : 1;
    return crossWeights[((item * heads) * T + row) * S + col];
  });
}

const readWeight = Object.freeze({
  id: 'read-weight',
  kind: 'compute',
  questionKey: 'translation.ex.weight.question',
  hintKey: 'translation.ex.weight.hint',
  draw: (core, inputs, index) => drawWeight(core, inputs, index),
  questionParams: (instance) => ({ item: instance.item + 1, target: instance.target, source: instance.source }),
  check(core, inputs, answer, instance, view) {
    const { model, step } = trainedRun(inputs, view, 0);
    const right = weightOf(core, model, inputs, instance);
    const verdict = judgeNumber(answer, right, WEIGHT_TOLERANCE);
    // The weight itself only for a right answer; a close or wrong one says where to look.
    const params = { answer: formatNumber(answer, '.3f'), step, target: instance.target, source: instance.source };
    if (verdict === 'right') return { verdict, key: 'translation.ex.weight.right', params: { ...params, weight: formatNumber(right, '.3f') } };
    return { verdict, key: verdict === 'close' ? 'translation.ex.weight.close' : 'translation.ex.weight.wrong', params };
  },
  solution(core, inputs, instance, view) {
    const run = view?.trainedRun?.() ?? null;
    if (!run || Object.keys(inputs).some((name) => name !== 'trSteps' && name !== 'trSpeed' && !Object.is(inputs[name], run.inputs[name]))) {
      return { key: 'translation.ex.weight.solutionNone' };
    }
    return {
      key: 'translation.ex.weight.solution',
      params: { weight: formatNumber(weightOf(core, run.model, inputs, instance), '.3f'), step: run.step, target: instance.target, source: instance.source },
    };
  },
});

// --- 6-8. The book's what-ifs, each a kept run raced against the live one ---

// What the translator's races share: the curve and the comparison they
// cover, the controls that start a run, the settings that do not matter
// (steps and speed) and the texts every race says alike.
/**
 * @param {{ id: string, setting: string, kept: string, live: string,
 *   applies: (inputs: Record<string, *>) => boolean, texts: * }} race
 */
const translationRace = ({ id, setting, kept, live, applies, texts }) => raceExercise({
  id, setting, kept, live, applies,
  tells: { en: ['got there first'], zh: ['先到达'] },
  idle: ['trSteps', 'trSpeed'],
  texts: { ...texts, trainOn: 'translation.ex.raceTrainOn', pressPlay: 'translation.ex.pressPlay', trainLonger: 'translation.ex.trainLonger' },
  figures: ['tr-accuracy', 'tr-compare'],
  play: ['tr-play', 'tr-step'],
});

// Dot-product scoring against additive (d2l 10.4, exercise 2): the steps
// each took to 95 % and each one's ms a step (the training efficiency d2l
// asks about), with a GRU translator.
const dotScoring = translationRace({
  id: 'dot-scoring',
  setting: 'trScoring',
  kept: 'additive',
  live: 'dot',
  applies: (inputs) => recurrent(inputs) && inputs.trCell === 'gru',
  texts: {
    question: 'translation.ex.dot.question', hint: 'translation.ex.dot.hint',
    options: { kept: 'translation.ex.dot.additive', live: 'translation.ex.dot.dot', same: 'translation.ex.dot.same' },
    faster: { kept: 'translation.ex.dot.additiveFaster', live: 'translation.ex.dot.dotFaster', same: 'translation.ex.dot.sameFaster' },
    setUp: 'translation.ex.dot.setUp', keepFirst: 'translation.ex.dot.keepFirst', keptShort: 'translation.ex.dot.keptShort',
    solutionUntrained: 'translation.ex.dot.solutionUntrained',
  },
});

// Additive heads inside the Transformer (d2l 10.7, exercise 2): a kept run
// whose heads score by the scaled dot product against the live one whose
// heads share one additive attention.
const headScoring = translationRace({
  id: 'head-scoring',
  setting: 'trHeadScoring',
  kept: 'dot',
  live: 'additive',
  applies: (inputs) => !recurrent(inputs),
  texts: {
    question: 'translation.ex.heads.question', hint: 'translation.ex.heads.hint',
    options: { kept: 'translation.ex.heads.dot', live: 'translation.ex.heads.additive', same: 'translation.ex.heads.same' },
    faster: { kept: 'translation.ex.heads.dotFaster', live: 'translation.ex.heads.additiveFaster', same: 'translation.ex.heads.sameFaster' },
    setUp: 'translation.ex.heads.setUp', keepFirst: 'translation.ex.heads.keepFirst', keptShort: 'translation.ex.heads.keptShort',
    solutionUntrained: 'translation.ex.heads.solutionUntrained',
  },
});

// An LSTM in the GRU's place (d2l 10.4, exercise 1): a kept GRU run against
// the live one whose encoder and decoder are LSTMs.
const lstmCell = translationRace({
  id: 'lstm-cell',
  setting: 'trCell',
  kept: 'gru',
  live: 'lstm',
  applies: recurrent,
  texts: {
    question: 'translation.ex.lstm.question', hint: 'translation.ex.lstm.hint',
    options: { kept: 'translation.ex.lstm.gru', live: 'translation.ex.lstm.lstm', same: 'translation.ex.lstm.same' },
    faster: { kept: 'translation.ex.lstm.gruFaster', live: 'translation.ex.lstm.lstmFaster', same: 'translation.ex.lstm.sameFaster' },
    setUp: 'translation.ex.lstm.setUp', keepFirst: 'translation.ex.lstm.keepFirst', keptShort: 'translation.ex.lstm.keptShort',
    solutionUntrained: 'translation.ex.lstm.solutionUntrained',
  },
});

export const TRANSLATION_EXERCISES = Object.freeze([
  predictEight, shiftedMap, reachMatch, readWeight, ROW_RATIO_EXERCISE, dotScoring, headScoring, lstmCell,
]);
