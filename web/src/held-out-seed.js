// The held-out set of the attention model's training (attentionModelTrain)
// is one batch drawn with the run's seed XOR a fixed mix, so it is never a
// training batch. The mix is the core's `heldOutSeedMix` (its contract, on
// loadAttentionCore()'s result beside `limits`): code with the core at hand
// reads it there; HELD_OUT_SEED_MIX is the same number, written once here,
// for code that runs without a loaded core.
export const HELD_OUT_SEED_MIX = 0x5bd1e995;

// The core's mix (a core that does not state it yet: the same number, from here).
export const heldOutSeedMix = (core) => core?.heldOutSeedMix ?? HELD_OUT_SEED_MIX;
