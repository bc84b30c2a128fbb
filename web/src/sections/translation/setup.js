// What the translation section, its exercises and its "Copy as PyTorch"
// share, below the sections (a snippet imports nothing from sections/): the model
// each architecture names (d2l's sizes), the training recipe (d2l 10.4's:
// Adam at 0.005, batch 64, clipping at norm 1), how often the held-out set
// is evaluated, and the held-out examples the section draws.
import { TR_FULL_SPEED } from '../../state.js';

// The examples shown, and drawn in the maps: the first pairs of the task's held-out set.
export const EXAMPLES = 4;
// Held-out exact match and BLEU every EVAL_EVERY steps, on the first HELD_OUT
// held-out pairs (greedy translation of each: a frame that evaluates pays for
// HELD_OUT translations, so the set is kept to what a frame affords).
export const EVAL_EVERY = 25;
export const HELD_OUT = 200;
export const BATCH = 64;
export const LEARNING_RATE = 0.005;
export const CLIP = 1;

// d2l's sizes for each architecture: 10.4's embedding 32, hidden 32, two GRU
// layers (bidirectional: 16 units each way, as Bahdanau et al.'s encoder);
// 10.7's Transformer at hidden 32, 4 heads, FFN 64, 2 blocks.
export const ARCHITECTURES = Object.freeze({
  gru: { architecture: 'bahdanau', bidirectional: false, embed: 32, hidden: 32, layers: 2 },
  bigru: { architecture: 'bahdanau', bidirectional: true, embed: 32, hidden: 32, layers: 2 },
  transformer: { architecture: 'transformer', hidden: 32, heads: 4, ffnHidden: 64, blocks: 2 },
});

// Whether the architecture is a recurrent one (Bahdanau's), whose cell the learner picks.
export const recurrent = (inputs) => ARCHITECTURES[inputs.trArchitecture].architecture === 'bahdanau';

// The setting that holds the architecture's scoring: the recurrent
// translators' decoder, or the Transformer's heads (each has its own default).
export const scoringSetting = (inputs) => (recurrent(inputs) ? 'trScoring' : 'trHeadScoring');

export function modelConfig(inputs) {
  return {
    ...ARCHITECTURES[inputs.trArchitecture], scoring: inputs[scoringSetting(inputs)], cell: recurrent(inputs) ? inputs.trCell : 'gru',
    task: inputs.trTask, seed: inputs.trSeed,
  };
}

export function trainingOptions(inputs, steps) {
  return {
    task: inputs.trTask, steps, batch: BATCH, optimizer: 'adam', lr: LEARNING_RATE, clip: CLIP, seed: inputs.trSeed,
    evalEvery: EVAL_EVERY, heldOut: HELD_OUT,
  };
}

// The pace of a playing run in steps a second; the top of the setting: as fast as the machine allows.
export const stepsPerSecond = (inputs) => (inputs.trSpeed >= TR_FULL_SPEED ? Infinity : inputs.trSpeed);

// Trains up to `steps` steps from `model` as one seq2seqTrain call would
// (the batch of a step depends on the seed and the global step alone). The
// core evaluates after every EVAL_EVERY-th global step; a chunk stops at the
// next evaluation step when it reaches one, and evaluates nothing at its
// end otherwise, so a frame pays for at most one evaluation.
export function trainSteps(core, model, inputs, steps) {
  const untilEvaluation = EVAL_EVERY - (model.optimizerState.step % EVAL_EVERY);
  const evaluates = untilEvaluation <= steps;
  return core.seq2seqTrain(model, { ...trainingOptions(inputs, evaluates ? untilEvaluation : steps), evaluateAtEnd: evaluates });
}

// The language of each side's words (data, not the page's text: marked with
// `lang` so that a screen reader reads them in it); digits have none.
export const WORD_LANGUAGES = Object.freeze({
  'numbers-en-zh': { source: 'en', target: 'zh' },
  'numbers-zh-en': { source: 'zh', target: 'en' },
  dates: { source: 'en', target: null },
  reverse: { source: null, target: null },
  sort: { source: null, target: null },
});

// Sets or clears an element's `lang`.
export function markLanguage(node, language) {
  if (!node) return;
  if (language) node.setAttribute('lang', language);
  else node.removeAttribute('lang');
}

// The words of `count` tokens of row `item` of a row-major id array (`width` a row).
export function wordsOf(ids, item, width, count, vocabulary) {
  return Array.from(ids.subarray(item * width, item * width + count), (id) => vocabulary[id] ?? String(id));
}

// The words of a token sequence as the page writes it: Chinese numerals run
// together, other words apart; <eos> left out.
export function sentence(words) {
  const shown = words.filter((word) => word !== '<eos>' && word !== '<pad>');
  const joinsTight = shown.length > 0 && shown.every((word) => /^[\u3400-\u9fff]+$/u.test(word));
  return shown.join(joinsTight ? '' : ' ');
}
