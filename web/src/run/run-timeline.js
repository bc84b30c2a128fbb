// The maps of a training run, recorded while it plays so that a learner can
// scrub back through them afterwards and see the heads form again: what the
// core's forward pass gave on the examples (their attention weights and
// logits) at about `capacity` steps spread evenly over the run, its start
// and its last step included. It only keeps what the section hands it.

// About 200 moments of a run: a map every 10 steps of the default 2,000. The
// largest model's examples take 8,500 numbers a moment, so a run keeps at
// most about 14 MB.
export const TIMELINE_CAPACITY = 200;

export function createRunTimeline(capacity = TIMELINE_CAPACITY) {
  let moments = []; // { step, weights, logits }, in step order
  let every = 1;

  return {
    // A new run of `steps` steps, with nothing recorded.
    reset(steps) {
      moments = [];
      every = Math.max(1, Math.ceil(steps / capacity));
    },
    // Whether the model at `step` is one to keep: the run's start, and the
    // first model at or past each multiple of `every` (a chunk of steps may
    // pass one).
    due(step) {
      const last = moments.at(-1);
      return last === undefined || Math.floor(step / every) > Math.floor(last.step / every);
    },
    // Keeps the forward pass of the model at `step` (the last step's once):
    // everything the section's forward gave (the encoder's weights and
    // logits; the translator's maps and translations too).
    record(step, ahead) {
      if (moments.at(-1)?.step === step) return;
      moments.push({ ...ahead, step });
    },
    get length() {
      return moments.length;
    },
    at(index) {
      return moments[index];
    },
    get lastStep() {
      return moments.at(-1)?.step ?? null;
    },
  };
}
