// The attention model's player (web/src/run/model-run.js over run/player.js), over a
// stand-in for the core's attentionModelTrain, with frames driven by hand:
// a run that diverges stops where the core stopped it, keeps what it
// trained, and starts again only from the start.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createModelPlayer } from '../../web/src/run/model-run.js';
import { useFakeFrames } from './animation-frames.mjs';

let frames;
beforeEach(() => {
  frames = useFakeFrames();
});
afterEach(() => frames.restore());

// A model is its step count; the loss of step t is 1 / (t + 1). From step
// `divergesAfter` on, the core takes no further step and says why.
function fakeTraining({ divergesAfter = Infinity } = {}) {
  const calls = [];
  const train = (model, k) => {
    calls.push([model.step, k]);
    const loss = [];
    let { step } = model;
    while (loss.length < k && step < divergesAfter) {
      loss.push(1 / (step + 1));
      step += 1;
    }
    const stopped = loss.length < k;
    return {
      model: { step }, loss: Float64Array.from(loss), accuracy: new Float64Array(0), evaluatedAt: new Float64Array(0),
      stopReason: stopped ? `training stopped after step ${step}` : null,
    };
  };
  return { train, calls };
}

function player(options) {
  const { train, calls } = fakeTraining(options);
  const seen = [];
  const instance = createModelPlayer({ train, onChange: (snapshot) => seen.push(snapshot), budgetMs: 10 });
  instance.reset({ step: 0 }, 100);
  return { instance, calls, seen };
}

test('a diverging run stops where the core stopped it, with what it trained', () => {
  const { instance, calls } = player({ divergesAfter: 7 });
  instance.play();
  for (let frame = 0; frame < 20 && instance.state.status === 'playing'; frame += 1) frames.frame();
  const { state } = instance;
  assert.equal(state.status, 'stopped');
  assert.equal(state.step, 7);
  assert.equal(state.model.step, 7);
  assert.deepEqual(state.losses, [1, 1 / 2, 1 / 3, 1 / 4, 1 / 5, 1 / 6, 1 / 7]);
  assert.equal(state.stopReason, 'training stopped after step 7');
  assert.equal(frames.pending(), 0, 'no frame stays asked for');
  // Stepping or a longer target does not call the core again.
  const callCount = calls.length;
  instance.step();
  instance.setTarget(500);
  assert.equal(instance.state.status, 'stopped');
  assert.equal(calls.length, callCount);
});

test('play after a divergence runs the same run again from its start; reset clears it', () => {
  const { instance } = player({ divergesAfter: 3 });
  instance.step();
  instance.step();
  instance.step();
  instance.step();
  assert.equal(instance.state.status, 'stopped');
  instance.play();
  assert.equal(instance.state.status, 'playing');
  assert.equal(instance.state.step, 0);
  assert.equal(instance.state.stopReason, null);
  frames.frame();
  instance.reset({ step: 0 }, 100);
  assert.equal(instance.state.status, 'ready');
  assert.equal(instance.state.stopReason, null);
});

test('a run that does not diverge ends done, with no stop reason', () => {
  const { instance } = player();
  instance.setTarget(4);
  instance.play();
  for (let frame = 0; frame < 10 && instance.state.status === 'playing'; frame += 1) frames.frame();
  assert.equal(instance.state.status, 'done');
  assert.equal(instance.state.step, 4);
  assert.equal(instance.state.stopReason, null);
});

test('a paced run trains the steps due by the clock: 30 a second, whatever the frames', () => {
  const { train } = fakeTraining();
  const instance = createModelPlayer({ train, onChange: () => {}, budgetMs: 10, stepsPerSecond: 30 });
  instance.reset({ step: 0 }, 1000);
  instance.play();
  for (let at = 16; at <= 2000; at += 16) frames.frame(at);
  assert.ok(Math.abs(instance.state.step - 60) <= 1, `${instance.state.step} steps in 2 s at 30 a second`);
  // A new speed counts from now; the steps trained stay.
  const before = instance.state.step;
  instance.setSpeed(5);
  for (let at = 2016; at <= 4000; at += 16) frames.frame(at);
  assert.ok(Math.abs(instance.state.step - before - 10) <= 1, `${instance.state.step - before} steps in 2 s at 5 a second`);
  // As fast as the machine allows: every frame trains its chunk.
  instance.setSpeed(Infinity);
  const fast = instance.state.step;
  for (let at = 4016; at <= 4160; at += 16) frames.frame(at);
  assert.ok(instance.state.step - fast >= 9, 'unpaced: at least a step a frame');
});

// Off the thread, each chunk is a promise the test settles by hand.
function asyncTraining() {
  const { train } = fakeTraining();
  const waiting = [];
  return {
    train: (model, k) => new Promise((resolve) => waiting.push(() => resolve(train(model, k)))),
    async land() {
      waiting.shift()();
      for (let i = 0; i < 5; i += 1) await Promise.resolve(); // the player's then-callbacks
    },
    get waiting() {
      return waiting.length;
    },
  };
}

test('off the thread, Step pressed while a step trains is not lost: each press trains one step, in turn', async () => {
  const training = asyncTraining();
  const instance = createModelPlayer({ train: training.train, onChange: () => {}, budgetMs: 10 });
  instance.reset({ step: 0 }, 100);
  instance.step();
  instance.step();
  instance.step();
  assert.equal(training.waiting, 1, 'one step trains at a time');
  for (let landed = 1; landed <= 3; landed += 1) {
    await training.land();
    assert.equal(instance.state.step, landed);
  }
  assert.equal(training.waiting, 0, 'three presses, three steps');
  assert.equal(instance.state.status, 'paused');
  // A reset drops the step in flight and those asked after it.
  instance.step();
  instance.step();
  instance.reset({ step: 0 }, 100);
  await training.land();
  assert.equal(instance.state.step, 0);
  assert.equal(training.waiting, 0);
});
