// The self-attention section's exercises, each aimed at a belief learners
// hold: that without projections a word attends most to the word it goes
// with in meaning (a prediction before the maps show that it usually picks
// itself); that self-attention knows the order of its words (a concept
// question: shuffle them, d2l 10.6 exercise 1); that self-attention means a
// word attending to itself, or needs a decoder (a concept question on the
// notes' comparison); that the notes' dot-product
// re-weighting of a scalar series finds each point's neighbours (a
// prediction before its map shows it picks the largest values); and how a
// weight is made from the vectors (one weight of the notes' own formula,
// without the √d the maps divide by, worked out from the vector table).
// Every right answer comes from the core for the live vectors and series.
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t, getLanguage } from '../../i18n/index.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { WORDS, WORD_COUNT, FEATURE_COUNT, sentenceMatrix } from './words.js';
import { seriesDataset, valuesSelfAttention } from './series-smoothing-panel.js';

const decimals = (value, digits = 3) => formatNumber(value, `.${digits}f`);

// A word as the figures name it: the token, with its gloss in English.
const wordName = (i) => (getLanguage() === 'zh' ? WORDS[i].token : `${WORDS[i].token} (${t(WORDS[i].glossKey)})`);

// The sentence attending to itself without projections, as the map
// "Self-attention" draws it: softmax_j(x_i . x_j / sqrt(5)).
const plainWeights = (core, inputs) => {
  const sentence = sentenceMatrix(inputs);
  return core.dotProductAttention({
    queries: sentence, keys: sentence, values: sentence,
    shape: { batch: 1, nq: WORD_COUNT, nk: WORD_COUNT, d: FEATURE_COUNT, dv: FEATURE_COUNT },
  }).weights;
};

const rowOf = (weights, i) => weights.subarray(i * WORD_COUNT, (i + 1) * WORD_COUNT);
const argmax = (values) => values.reduce((best, value, j) => (value > values[best] ? j : best), 0);

// --- Which word does a word attend to most? ---
// A row whose two largest weights are closer than this names no one word.
export const TIE_MARGIN = 0.01;
// A row whose weights all lie within this of each other is "about even".
export const EVEN_SPREAD = 0.05;

// The words whose row has one clear largest weight: those a question can ask about.
function clearWords(weights) {
  return WORDS.map((_, i) => i).filter((i) => {
    const row = Array.from(rowOf(weights, i)).sort((a, b) => b - a);
    return row[0] - row[1] > TIE_MARGIN;
  });
}

export function strongestKey(core, inputs, word) {
  const row = rowOf(plainWeights(core, inputs), word);
  const best = argmax(row);
  let truth = best === word ? 'self' : 'other';
  if (Math.max(...row) - Math.min(...row) < EVEN_SPREAD) truth = 'even';
  return {
    truth,
    params: {
      word: wordName(word), key: wordName(best), weight: decimals(row[best]), own: decimals(row[word]),
    },
  };
}

const ITSELF_RIGHT = Object.freeze({ self: 'self-attention.ex.itself.self', other: 'self-attention.ex.itself.other', even: 'self-attention.ex.itself.even' });
const ITSELF_SOLUTION = Object.freeze({ self: 'self-attention.ex.itself.solutionSelf', other: 'self-attention.ex.itself.solutionOther', even: 'self-attention.ex.itself.solutionEven' });

const attendsItself = Object.freeze({
  id: 'attends-itself',
  kind: 'predict',
  // The list of each word's strongest other word says it is not the word itself.
  withholds: ['self-attention.strongest'],
  tells: { en: ['Besides itself', 'the diagonal cell of its row'], zh: ['除了自己', '对角线单元格'] },
  questionKey: 'self-attention.ex.itself.question',
  hintKey: 'self-attention.ex.itself.hint',
  // Each option's explanation when picked against the usual answer (the word itself).
  options: [
    { id: 'other', labelKey: 'self-attention.ex.itself.pickOther', explanationKey: 'self-attention.ex.itself.notOther' },
    { id: 'self', labelKey: 'self-attention.ex.itself.pickSelf', explanationKey: 'self-attention.ex.itself.self' },
    { id: 'even', labelKey: 'self-attention.ex.itself.pickEven', explanationKey: 'self-attention.ex.itself.notEven' },
  ],
  hides: ['sa-weights', 'sa-self', 'sa-outputs'],
  // A word whose row has one clear favourite, drawn by the core.
  draw(core, inputs, instance) {
    const clear = clearWords(plainWeights(core, inputs));
    const pool = clear.length > 0 ? clear : WORDS.map((_, i) => i);
    const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'saWords'), low: 0, high: pool.length });
    return { word: pool[Math.min(pool.length - 1, Math.floor(u))] };
  },
  questionParams: (instance) => ({ word: instance ? wordName(instance.word) : '–' }),
  check(core, inputs, answer, { word }) {
    const { truth, params } = strongestKey(core, inputs, word);
    if (answer === truth) return { verdict: 'right', key: ITSELF_RIGHT[truth], params };
    if (truth === 'self') return { verdict: 'wrong', key: answer === 'even' ? 'self-attention.ex.itself.notEven' : 'self-attention.ex.itself.notOther', params };
    if (truth === 'other') return { verdict: 'wrong', key: answer === 'self' ? 'self-attention.ex.itself.notSelf' : 'self-attention.ex.itself.notEven', params };
    return { verdict: 'wrong', key: 'self-attention.ex.itself.notPeaked', params };
  },
  solution(core, inputs, { word }) {
    const { truth, params } = strongestKey(core, inputs, word);
    return { key: ITSELF_SOLUTION[truth], params };
  },
});

// --- Shuffle the words (d2l 10.6, exercise 1: no order without positions) ---
const shuffleWords = conceptExercise({
  id: 'shuffle',
  questionKey: 'self-attention.ex.shuffle.question',
  hintKey: 'self-attention.ex.shuffle.hint',
  looksAt: ['sa-weights', 'sa-outputs'], // its hint and feedback send the learner there
  right: 'permuted',
  options: [
    { id: 'changed', labelKey: 'self-attention.ex.shuffle.changed', explanationKey: 'self-attention.ex.shuffle.changedWhy' },
    { id: 'kept', labelKey: 'self-attention.ex.shuffle.kept', explanationKey: 'self-attention.ex.shuffle.keptWhy' },
    { id: 'permuted', labelKey: 'self-attention.ex.shuffle.permuted', explanationKey: 'self-attention.ex.shuffle.permutedWhy' },
    { id: 'weights', labelKey: 'self-attention.ex.shuffle.weights', explanationKey: 'self-attention.ex.shuffle.weightsWhy' },
  ],
});

// --- Attention vs self-attention: where the queries, keys and values come from ---
const selfOrCross = conceptExercise({
  id: 'self-or-cross',
  questionKey: 'self-attention.ex.cross.question',
  hintKey: 'self-attention.ex.cross.hint',
  looksAt: ['sa-self'], // its hint and feedback send the learner there
  right: 'same-sequence',
  options: [
    { id: 'attends-self', labelKey: 'self-attention.ex.cross.attendsSelf', explanationKey: 'self-attention.ex.cross.attendsSelfWhy' },
    { id: 'same-sequence', labelKey: 'self-attention.ex.cross.sameSequence', explanationKey: 'self-attention.ex.cross.sameSequenceWhy' },
    { id: 'no-weights', labelKey: 'self-attention.ex.cross.noWeights', explanationKey: 'self-attention.ex.cross.noWeightsWhy' },
    { id: 'decoder', labelKey: 'self-attention.ex.cross.decoder', explanationKey: 'self-attention.ex.cross.decoderWhy' },
  ],
});

// --- The notes' recipe on a scalar series: neighbours or large values? ---
// The point asked about, drawn by the core among the series' points.
export function seriesPoint(core, inputs, instance) {
  const data = seriesDataset(core, inputs);
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'seriesQueries'), low: 0, high: data.y.length });
  const point = Math.min(data.y.length - 1, Math.floor(u));
  return { point, time: data.x[point], value: data.y[point] };
}

// Which point the asked one weighs most under softmax_j(x_i x_j), and what
// it is: the series' largest value, its smallest, the point itself or its
// nearest neighbour in time, or none of these.
export function seriesFavourite(core, inputs, point) {
  const data = seriesDataset(core, inputs);
  const n = data.y.length;
  const { weights } = valuesSelfAttention(core, data);
  const row = weights.subarray(point * n, (point + 1) * n);
  const best = argmax(row);
  const ys = Array.from(data.y);
  const gap = (j) => Math.abs(data.x[j] - data.x[point]);
  const nearest = Math.min(...ys.map((_, j) => (j === point ? Infinity : gap(j))));
  let truth = 'similar';
  if (data.y[best] === Math.max(...ys)) truth = 'largest';
  else if (data.y[best] === Math.min(...ys)) truth = 'smallest';
  else if (best === point || gap(best) <= nearest) truth = 'neighbours';
  return {
    truth,
    params: {
      point: point + 1, time: decimals(data.x[point], 2), value: decimals(data.y[point], 2),
      best: best + 1, bestTime: decimals(data.x[best], 2), bestValue: decimals(data.y[best], 2), weight: decimals(row[best]),
    },
  };
}

const SERIES_RIGHT = Object.freeze({
  largest: 'self-attention.ex.series.largest', smallest: 'self-attention.ex.series.smallest', neighbours: 'self-attention.ex.series.otherRight', similar: 'self-attention.ex.series.otherRight',
});

const seriesByValues = Object.freeze({
  id: 'series-values',
  kind: 'predict',
  // The map's caption and the note say where the weight goes; the plot's
  // line of the notes' recipe (and its legend) draws it along the top.
  withholds: ['series.weightsCaption', 'series.notesNote', 'series.legendByValues'],
  tells: { en: ['largest value', 'highest values', 'whole columns'], zh: ['最大值', '最大的那些值', '整列'] },
  questionKey: 'self-attention.ex.series.question',
  hintKey: 'self-attention.ex.series.hint',
  // Each option's explanation when picked for a point above zero (the usual case).
  options: [
    { id: 'neighbours', labelKey: 'self-attention.ex.series.pickNeighbours', explanationKey: 'self-attention.ex.series.notNeighbours' },
    { id: 'similar', labelKey: 'self-attention.ex.series.pickSimilar', explanationKey: 'self-attention.ex.series.notSimilar' },
    { id: 'largest', labelKey: 'self-attention.ex.series.pickLargest', explanationKey: 'self-attention.ex.series.largest' },
    { id: 'smallest', labelKey: 'self-attention.ex.series.pickSmallest', explanationKey: 'self-attention.ex.series.notSmallest' },
  ],
  hides: ['series-weights'],
  draw: (core, inputs, instance) => seriesPoint(core, inputs, instance),
  questionParams: (instance) => ({
    point: instance ? instance.point + 1 : '–',
    time: instance ? decimals(instance.time, 2) : '–',
    value: instance ? decimals(instance.value, 2) : '–',
  }),
  check(core, inputs, answer, { point }) {
    const { truth, params } = seriesFavourite(core, inputs, point);
    if (answer === truth) return { verdict: 'right', key: SERIES_RIGHT[truth], params };
    if (truth === 'largest') {
      const key = { neighbours: 'self-attention.ex.series.notNeighbours', similar: 'self-attention.ex.series.notSimilar', smallest: 'self-attention.ex.series.notSmallest' }[answer];
      return { verdict: 'wrong', key: key ?? 'exercises.pickFirst', params };
    }
    return { verdict: 'wrong', key: truth === 'smallest' ? 'self-attention.ex.series.negative' : 'self-attention.ex.series.otherWrong', params };
  },
  solution(core, inputs, { point }) {
    const { truth, params } = seriesFavourite(core, inputs, point);
    return { key: truth === 'smallest' ? 'self-attention.ex.series.solutionSmallest' : 'self-attention.ex.series.solution', params };
  },
  // The point's time on the series plot: a dotted rule.
  mark(view, instance) {
    view.markSeriesTime(instance?.time ?? null);
  },
});

// --- One weight of the notes' formula, softmax_j(x_i . x_j), from the table ---
export const WEIGHT_TOLERANCE = 0.01;

// The scores x_i . x_j of the sentence (the core's batch matrix product of
// X and its transpose) and the notes' weights, their softmax per row; and
// the weights the maps show, with the scores divided by sqrt(5).
export function sentenceWeights(core, inputs) {
  const X = sentenceMatrix(inputs);
  // X transposed: a rearrangement of the table's entries, not arithmetic.
  const XT = Float64Array.from({ length: X.length }, (_, k) => X[(k % WORD_COUNT) * FEATURE_COUNT + Math.floor(k / WORD_COUNT)]);
  const scores = core.batchMatrixProduct(X, XT, {
    shapeX: [1, WORD_COUNT, FEATURE_COUNT], shapeY: [1, FEATURE_COUNT, WORD_COUNT],
  }).values;
  return {
    scores,
    notes: core.maskedSoftmax(scores, [1, WORD_COUNT, WORD_COUNT], null),
    shown: plainWeights(core, inputs),
  };
}

// The pair asked about: one whose weight without √5 differs from the map's
// by more than a few tolerances (so the map cannot be copied), drawn by the core.
export function weightPair(core, inputs, instance) {
  const { notes, shown } = sentenceWeights(core, inputs);
  const cells = Array.from({ length: WORD_COUNT * WORD_COUNT }, (_, cell) => cell);
  const telling = cells.filter((cell) => Math.abs(notes[cell] - shown[cell]) > 3 * WEIGHT_TOLERANCE);
  const pool = telling.length > 0 ? telling : cells;
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'saPairs'), low: 0, high: pool.length });
  const cell = pool[Math.min(pool.length - 1, Math.floor(u))];
  return { cell, query: Math.floor(cell / WORD_COUNT), key: cell % WORD_COUNT };
}

const pairNames = ({ query, key }) => ({ query: wordName(query), key: wordName(key) });

const notesWeight = Object.freeze({
  id: 'notes-weight',
  kind: 'compute',
  tolerance: WEIGHT_TOLERANCE,
  questionKey: 'self-attention.ex.weight.question',
  hintKey: 'self-attention.ex.weight.hint',
  looksAt: ['sa-weights'], // its hint and feedback send the learner there
  draw: (core, inputs, instance) => weightPair(core, inputs, instance),
  questionParams: (instance) => ({ ...(instance ? pairNames(instance) : { query: '–', key: '–' }), tolerance: WEIGHT_TOLERANCE }),
  check(core, inputs, answer, instance) {
    const { scores, notes, shown } = sentenceWeights(core, inputs);
    const { cell } = instance;
    const right = notes[cell];
    const params = { ...pairNames(instance), weight: decimals(right), shown: decimals(shown[cell]), score: decimals(scores[cell], 2) };
    const verdict = judgeNumber(answer, right, WEIGHT_TOLERANCE);
    if (verdict === 'right') return { verdict, key: 'self-attention.ex.weight.right', params };
    // The mistakes aimed at: the map's weight (with √5), and the score itself.
    if (judgeNumber(answer, shown[cell], WEIGHT_TOLERANCE) === 'right') return mistake('self-attention.ex.weight.shown', params);
    if ([scores[cell], scores[cell] / Math.sqrt(FEATURE_COUNT)].some((score) => Math.abs(answer - score) <= WEIGHT_TOLERANCE * 5)) {
      return mistake('self-attention.ex.weight.score', params);
    }
    if (verdict === 'close') return { verdict, key: 'self-attention.ex.weight.close', params };
    return { verdict, key: answer > right ? 'self-attention.ex.weight.tooHigh' : 'self-attention.ex.weight.tooLow', params };
  },
  solution(core, inputs, instance) {
    const { notes } = sentenceWeights(core, inputs);
    return { key: 'self-attention.ex.weight.solution', params: { ...pairNames(instance), weight: decimals(notes[instance.cell]) } };
  },
  // The pair's cell outlined in the map "Self-attention" (which divides by √5).
  mark(view, instance) {
    view.markSelfCell(instance?.cell ?? null);
  },
});

export const SELF_ATTENTION_EXERCISES = Object.freeze([attendsItself, shuffleWords, selfOrCross, seriesByValues, notesWeight]);
