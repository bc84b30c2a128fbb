// What the attention-training section and its exercises share, kept apart
// from the section so that both can import it (the section declares the
// exercises): the examples and the held-out set as the section draws
// them, and the model, task and training options of a state as the core
// takes them.
import { AT_LENGTH, AT_VOCAB } from '../../state.js';

// The examples shown: the first sequences of the held-out set (the run's
// seed XOR the core's heldOutSeedMix, as attentionModelTrain draws it).
export const EXAMPLES = 4;
// Held-out accuracy every EVAL_EVERY steps, on HELD_OUT sequences.
export const EVAL_EVERY = 50;
export const HELD_OUT = 256;

// The model and the task of a state, as the core takes them.
export function modelConfig(inputs) {
  return {
    vocab: AT_VOCAB, length: AT_LENGTH, hidden: inputs.atHidden, heads: inputs.atHeads, blocks: inputs.atBlocks,
    ffnHidden: inputs.atFfn,
    // d2l's scale is sqrt(num_hiddens): a setting of the model, chosen here, not data.
    embeddingScale: inputs.atD2lScale ? Math.sqrt(inputs.atHidden) : 1,
    positional: inputs.atPositional,
    seed: inputs.atSeed,
  };
}

// A model blind to order: no positions and no causal mask (which tells a
// query where it stands). The section's note and its exercise say so then.
export const blindToOrder = (inputs) => inputs.atPositional === 'none' && !inputs.atCausal;

export function taskOptions(inputs, { batch, seed }) {
  return {
    task: inputs.atTask, batch, length: AT_LENGTH, vocab: AT_VOCAB, seed, lag: inputs.atLag,
    variableLengths: inputs.atVariable,
  };
}

export function trainingOptions(inputs, steps) {
  return {
    task: inputs.atTask, steps, optimizer: inputs.atOptimizer, lr: inputs.atLr, seed: inputs.atSeed,
    lag: inputs.atLag, variableLengths: inputs.atVariable, causal: inputs.atCausal,
    evalEvery: EVAL_EVERY, heldOut: HELD_OUT,
  };
}

export const exampleSeed = (seed, heldOutSeedMix) => (seed ^ heldOutSeedMix) >>> 0;

// The held-out set of a state (what attentionModelTrain evaluates on) and
// the options the model's calls take with it: the section's held-out
// accuracy is the core's on exactly these sequences.
export function heldOutSet(core, inputs) {
  const set = core.attentionTaskBatch(taskOptions(inputs, { batch: HELD_OUT, seed: exampleSeed(inputs.atSeed, core.defaults.heldOutSeedMix) }));
  return {
    ...set,
    options: { batch: HELD_OUT, validLens: inputs.atVariable ? set.validLens : null, causal: inputs.atCausal },
  };
}
