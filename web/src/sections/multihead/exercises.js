// The multi-head section's exercises, each aimed at a belief learners hold:
// that heads split the tokens, or copy the whole hidden size (the shape
// transpose_qkv makes: a concept question); that more heads means more
// parameters (the projections' size, counted by the core's own layer); that
// switching a head off touches only its own slice of the output (a
// prediction, judged against the core's outputs with and without the
// head); and which head matters most (d2l 10.5 ex. 2, on this untrained
// layer: switch off the head whose removal changes the output most). Every
// number checked comes from the core for the live H, heads and seed.
import { conceptExercise, judgeNumber, mistake } from '../../exercises/judging.js';
import { formatNumber } from '../../format.js';
import { t } from '../../i18n/index.js';
import { streamSeed } from '../shared/seeded-draws.js';
import { TOKEN_COUNT, headMaskOf, headsAttention, layerArguments } from './setup.js';
import { MHA_SWITCHES } from '../../state.js';

const splitShape = conceptExercise({
  id: 'split-shape',
  questionKey: 'multihead.ex.split.question',
  hintKey: 'multihead.ex.split.hint',
  right: 'features',
  options: [
    { id: 'tokens', labelKey: 'multihead.ex.split.tokens', explanationKey: 'multihead.ex.split.tokensWhy' },
    { id: 'copies', labelKey: 'multihead.ex.split.copies', explanationKey: 'multihead.ex.split.copiesWhy' },
    { id: 'features', labelKey: 'multihead.ex.split.features', explanationKey: 'multihead.ex.split.featuresWhy' },
    { id: 'wider', labelKey: 'multihead.ex.split.wider', explanationKey: 'multihead.ex.split.widerWhy' },
  ],
});

// The parameters of W_q, W_k, W_v and W_o for H and n_h, counted in the
// core's own layer (its trainable model's block is d2l's MultiHeadAttention
// without biases, the layer this section draws).
const PROJECTIONS = Object.freeze(['b0.Wq', 'b0.Wk', 'b0.Wv', 'b0.Wo']);
export function projectionParameters(core, { mhaHidden: hidden, mhaHeads: heads }) {
  const { params } = core.attentionModelInit({ vocab: 2, length: TOKEN_COUNT, hidden, heads, blocks: 1 });
  return PROJECTIONS.reduce((sum, name) => sum + params[name].length, 0);
}

const count = (value) => formatNumber(value, ',.0f');

const parameterCount = Object.freeze({
  id: 'parameter-count',
  kind: 'compute',
  tolerance: 0,
  questionKey: 'multihead.ex.params.question',
  hintKey: 'multihead.ex.params.hint',
  questionParams: (instance, inputs) => ({ hidden: inputs?.mhaHidden ?? '–', heads: inputs?.mhaHeads ?? '–' }),
  check(core, inputs, answer) {
    const right = projectionParameters(core, inputs);
    const heads = inputs.mhaHeads;
    const params = { hidden: inputs.mhaHidden, heads, count: count(right) };
    const verdict = judgeNumber(answer, right, 0);
    if (verdict === 'right') return { verdict, key: 'multihead.ex.params.right', params };
    // The mistakes aimed at: every head with projections of its own (n_h
    // times the count), one head's slice only, and W_o forgotten.
    const quarter = right / PROJECTIONS.length;
    if (heads > 1 && answer === right * heads) return mistake('multihead.ex.params.perHead', params);
    if (heads > 1 && answer === right / heads) return mistake('multihead.ex.params.oneHead', params);
    if (answer === right - quarter) return mistake('multihead.ex.params.noWo', params);
    if (verdict === 'close') return { verdict, key: 'multihead.ex.params.close', params };
    return { verdict, key: answer > right ? 'multihead.ex.params.tooHigh' : 'multihead.ex.params.tooLow', params };
  },
  solution(core, inputs) {
    const right = projectionParameters(core, inputs);
    return { key: 'multihead.ex.params.solution', params: { hidden: inputs.mhaHidden, heads: inputs.mhaHeads, count: count(right) } };
  },
});

// A difference the core's doubles leave when a head's output really
// changes something (not rounding).
const CHANGED = 1e-12;

// With every head on, switch head `head` off: what the core says changes.
// Claims about the figures, each true or false for the live layer.
export function switchOffEffects(core, inputs, head) {
  const hidden = inputs.mhaHidden;
  const heads = inputs.mhaHeads;
  const drawn = layerArguments(core, inputs);
  const full = headsAttention(core, inputs, null, drawn);
  const mask = new Float64Array(heads).fill(1);
  mask[head] = 0;
  const off = headsAttention(core, inputs, mask, drawn);
  const cells = TOKEN_COUNT * TOKEN_COUNT;
  const mapChanged = (h) => {
    for (let c = h * cells; c < (h + 1) * cells; c += 1) if (Math.abs(full.weights[c] - off.weights[c]) > CHANGED) return true;
    return false;
  };
  const changedColumns = new Set();
  const changedRows = new Set();
  full.output.forEach((value, index) => {
    if (Math.abs(value - off.output[index]) <= CHANGED) return;
    changedColumns.add(index % hidden);
    changedRows.add(Math.floor(index / hidden));
  });
  const size = hidden / heads;
  const slice = (column) => column >= head * size && column < (head + 1) * size;
  return {
    'own-map': mapChanged(head),
    'other-maps': Array.from({ length: heads }, (_, h) => h).some((h) => h !== head && mapChanged(h)),
    'own-columns': changedColumns.size > 0 && [...changedColumns].every(slice),
    'all-columns': changedColumns.size === hidden,
    'every-token': changedRows.size === TOKEN_COUNT,
  };
}

// Each claim with the explanation of getting it wrong (ticked while false,
// or left out while true).
const SWITCH_OFF_OPTIONS = Object.freeze([
  { id: 'own-map', labelKey: 'multihead.ex.off.ownMap', explanationKey: 'multihead.ex.off.ownMapWhy' },
  { id: 'other-maps', labelKey: 'multihead.ex.off.otherMaps', explanationKey: 'multihead.ex.off.otherMapsWhy' },
  { id: 'own-columns', labelKey: 'multihead.ex.off.ownColumns', explanationKey: 'multihead.ex.off.ownColumnsWhy' },
  { id: 'all-columns', labelKey: 'multihead.ex.off.allColumns', explanationKey: 'multihead.ex.off.allColumnsWhy' },
  { id: 'every-token', labelKey: 'multihead.ex.off.everyToken', explanationKey: 'multihead.ex.off.everyTokenWhy' },
]);

// The head asked about: drawn by the core for the instance among the heads
// that have a switch.
export function drawnHead(core, inputs, instance) {
  const switchable = Math.min(inputs.mhaHeads, MHA_SWITCHES);
  const [u] = core.randomUniform(1, { seed: streamSeed(instance, 'exerciseHeads'), low: 0, high: switchable });
  return Math.min(switchable - 1, Math.floor(u));
}

const trueClaims = (effects) => SWITCH_OFF_OPTIONS.map(({ id }) => id).filter((id) => effects[id]);

const switchOff = Object.freeze({
  id: 'switch-off',
  kind: 'predict',
  tells: { en: ['every unit of every token'], zh: ['每个词元输出的每个单元'] },
  multiple: true,
  questionKey: 'multihead.ex.off.question',
  hintKey: 'multihead.ex.off.hint',
  options: SWITCH_OFF_OPTIONS,
  // Covered while the prediction is open, should a head be off already.
  hides: ['mha-output-dropped', 'mha-output-kept'],
  draw: (core, inputs, instance) => ({ head: drawnHead(core, inputs, instance) }),
  questionParams: (instance) => ({ head: instance ? instance.head + 1 : '–' }),
  check(core, inputs, answer, { head }) {
    const effects = switchOffEffects(core, inputs, head);
    const chosen = new Set(answer ?? []);
    const params = { head: head + 1, size: inputs.mhaHidden / inputs.mhaHeads, hidden: inputs.mhaHidden };
    // The first claim judged wrong, in the order of the misconceptions'
    // weight: the maps, then the output's columns and rows.
    const wrong = SWITCH_OFF_OPTIONS.find(({ id }) => chosen.has(id) !== effects[id]);
    if (wrong === undefined) return { verdict: 'right', key: 'multihead.ex.off.right', params };
    return { verdict: 'wrong', key: wrong.explanationKey, params };
  },
  solution(core, inputs, { head }) {
    const claims = trueClaims(switchOffEffects(core, inputs, head));
    const labels = claims.map((id) => `“${t(SWITCH_OFF_OPTIONS.find((option) => option.id === id).labelKey)}”`);
    return { key: 'multihead.ex.off.solution', params: { head: head + 1, claims: labels.join(t('multihead.ex.off.and')) }, claims };
  },
  // The head asked about: its card outlined.
  mark(view, instance) {
    view.markHead(instance ? instance.head : null);
  },
});

// d2l 10.5 ex. 2 on the untrained layer: a head's importance is how much
// the output changes without it, the size (root of the sum of squares) of
// its contribution, which the figure "switched-off heads" draws. Each head
// asked of the core with only it on, so the heads this task weighs are few.
export const MOST_HEADS_WEIGHED = 8;

export function headContributions(core, inputs) {
  const drawn = layerArguments(core, inputs);
  return Array.from({ length: inputs.mhaHeads }, (_, head) => {
    const mask = new Float64Array(inputs.mhaHeads);
    mask[head] = 1;
    const { output } = headsAttention(core, inputs, mask, drawn);
    return Math.sqrt(output.reduce((sum, value) => sum + value * value, 0));
  });
}

const largestOf = (sizes) => sizes.indexOf(Math.max(...sizes));
const size = (value) => formatNumber(value, '.3f');

const mostImportant = Object.freeze({
  id: 'most-important-head',
  kind: 'achieve',
  questionKey: 'multihead.ex.important.question',
  hintKey: 'multihead.ex.important.hint',
  looksAt: ['mha-output-dropped'], // its hint and feedback send the learner there
  questionParams: () => ({ most: MOST_HEADS_WEIGHED }),
  check(core, inputs) {
    const heads = inputs.mhaHeads;
    if (heads === 1) return { verdict: 'wrong', key: 'multihead.ex.important.oneHead' };
    if (heads > MOST_HEADS_WEIGHED) return { verdict: 'wrong', key: 'multihead.ex.important.tooMany', params: { heads, most: MOST_HEADS_WEIGHED } };
    const off = headMaskOf(inputs).reduce((list, factor, head) => (factor === 0 ? [...list, head] : list), []);
    if (off.length === 0) return { verdict: 'wrong', key: 'multihead.ex.important.none' };
    if (off.length > 1) return { verdict: 'wrong', key: 'multihead.ex.important.several', params: { count: off.length } };
    const sizes = headContributions(core, inputs);
    const best = largestOf(sizes);
    // Which head is largest, and its size, only once it is found.
    const params = { head: off[0] + 1, size: size(sizes[off[0]]) };
    if (off[0] === best) return { verdict: 'right', key: 'multihead.ex.important.right', params: { ...params, best: best + 1, bestSize: size(sizes[best]) } };
    // Nearly as large as the largest: the figure's colours hardly tell them apart.
    if (sizes[off[0]] >= 0.9 * sizes[best]) return { verdict: 'close', key: 'multihead.ex.important.close', params };
    return { verdict: 'wrong', key: 'multihead.ex.important.smaller', params };
  },
  solution(core, inputs) {
    if (inputs.mhaHeads === 1 || inputs.mhaHeads > MOST_HEADS_WEIGHED) {
      return { key: 'multihead.ex.important.solutionFewer', params: { most: MOST_HEADS_WEIGHED } };
    }
    const sizes = headContributions(core, inputs);
    const best = largestOf(sizes);
    return { key: 'multihead.ex.important.solution', params: { head: best + 1, size: size(sizes[best]) } };
  },
});

export const MULTI_HEAD_EXERCISES = Object.freeze([splitShape, parameterCount, switchOff, mostImportant]);
