// The maps of a training run, recorded while it plays so that a learner can
// scrub back through them afterwards and see the heads form again: what the
// core's forward pass gave on the examples (their attention weights and
// logits), densely while the maps change and sparsely after. The maps of a
// run change most in its first steps (reverse is at 99 % by about step
// 150 of 2,000), so the moments are spaced in proportion to the step: every
// step up to `dense`, then one each step / `dense` steps. Forming then
// fills most of the slider, however long the run is set to be. The start
// and the last step are always kept. It only keeps what the section hands it.

// At most about 200 moments of a run, whatever its length. The largest
// model's examples take 8,500 numbers a moment, so a run keeps at most
// about 14 MB.
export const TIMELINE_CAPACITY = 200;

// The moments kept of a run of `steps` steps played one at a time, with
// every step kept up to `dense`: the start, the gaps, the end.
const gap = (step, dense) => Math.max(1, Math.floor(step / dense));
function momentsKept(steps, dense) {
  let count = 1;
  for (let step = 0; step < steps; step += gap(step, dense)) count += 1;
  return count;
}

// The most steps kept one by one at the start of a run of `steps` steps
// that still leave at most `capacity` moments (one each step up to it,
// then spaced in proportion to the step).
export function denseSteps(steps, capacity = TIMELINE_CAPACITY) {
  let dense = 1;
  while (dense < steps && momentsKept(steps, dense + 1) <= capacity + 1) dense += 1;
  return dense;
}

export function createRunTimeline(capacity = TIMELINE_CAPACITY) {
  let moments = []; // { step, weights, logits }, in step order
  let dense = 1;

  return {
    // A new run of `steps` steps, with nothing recorded.
    reset(steps) {
      moments = [];
      dense = Math.max(1, denseSteps(steps, capacity));
    },
    // Whether the model at `step` is one to keep: the run's start, then
    // the first model at least max(1, last / dense) steps after the last
    // kept (a chunk of steps may pass that).
    due(step) {
      const last = moments.at(-1);
      return last === undefined || step - last.step >= gap(last.step, dense);
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
