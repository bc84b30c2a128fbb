// The kernel width's player (web/src/run/width-run.js over run/player.js): play, pause, step and reset over
// a stand-in for the core's trainKernelWidth, with frames and the clock
// driven by hand. A run advances in chunks that fit a frame's time budget,
// and chunks give exactly the numbers of one call.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createWidthPlayer } from '../../web/src/run/width-run.js';
import { useFakeFrames } from './animation-frames.mjs';

let frames;
beforeEach(() => {
  frames = useFakeFrames();
});
afterEach(() => frames.restore());

// Gradient descent on w depends only on w: w <- w / 2 + 1 stands in for a
// step, with a loss of w^2. `msPerEpoch` of the fake clock passes per epoch;
// `stopAt`: the epoch after which w "overflows" and the core stops.
function fakeTraining({ msPerEpoch = 0, stopAt = Infinity, refuse = false } = {}) {
  const calls = [];
  let epochsRun = 0;
  const train = (w, k) => {
    calls.push([w, k]);
    if (refuse) return null;
    const ws = [w];
    const loss = [];
    for (let i = 0; i < k; i += 1) {
      if (epochsRun >= stopAt) break;
      epochsRun += 1;
      const current = ws[ws.length - 1];
      loss.push(current * current);
      ws.push(current / 2 + 1);
      frames.clock.now += msPerEpoch;
    }
    const stopped = loss.length < k;
    return { w: Float64Array.from(ws), loss: Float64Array.from(loss), stopReason: stopped ? 'w is no longer finite' : null };
  };
  return { train, calls };
}

// What one call of k epochs from w0 gives.
function oneCall(w0, k) {
  const ws = [w0];
  const losses = [];
  for (let i = 0; i < k; i += 1) {
    losses.push(ws[i] * ws[i]);
    ws.push(ws[i] / 2 + 1);
  }
  return { ws, losses };
}

function player(options) {
  const { train, calls } = fakeTraining(options);
  const seen = [];
  const instance = createWidthPlayer({ train, onChange: (snapshot) => seen.push(snapshot) });
  return { instance, calls, seen };
}

test('reset starts a run that holds only w0, and tells its listener', () => {
  const { instance, seen } = player();
  instance.reset(3, 5);
  assert.deepEqual(instance.state, { ws: [3], losses: [], status: 'ready', target: 5, stopReason: null, epoch: 0 });
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0], instance.state);
});

test('step runs one epoch from the last w and pauses; it stops at the target', () => {
  const { instance, calls } = player();
  instance.reset(3, 2);
  instance.step();
  assert.deepEqual(calls, [[3, 1]]);
  assert.equal(instance.state.status, 'paused');
  assert.deepEqual(instance.state.ws, [3, 2.5]);
  instance.step();
  assert.deepEqual(calls, [[3, 1], [2.5, 1]]);
  assert.equal(instance.state.status, 'done');
  instance.step();
  assert.equal(calls.length, 2, 'no epoch past the target');
  assert.deepEqual(instance.state, { ...oneCall(3, 2), status: 'done', target: 2, stopReason: null, epoch: 2 });
});

test('play advances frame by frame at its pace, then is done with the numbers of one call', () => {
  const { instance, calls } = player();
  instance.reset(1, 8);
  frames.clock.now = 1000;
  instance.play();
  assert.equal(instance.state.status, 'playing');
  assert.equal(calls.length, 0, 'nothing runs before the first frame');
  // 8 epochs at max(3, 8 / 4) = 3 per second: one at once, then as the clock allows.
  frames.frame(1000);
  assert.equal(instance.state.epoch, 1);
  frames.frame(1100);
  assert.equal(instance.state.epoch, 1, 'not yet due');
  frames.frame(1700);
  assert.equal(instance.state.epoch, 3, 'floor(0.7 s x 3 / s) + 1 epochs due');
  frames.frame(10000);
  assert.equal(instance.state.status, 'done');
  assert.equal(frames.pending(), 0, 'no frame asked for after the end');
  assert.deepEqual({ ws: instance.state.ws, losses: instance.state.losses }, oneCall(1, 8), 'chunks give the numbers of one call');
});

test('a frame runs no more epochs than its time budget affords', () => {
  const { instance, calls } = player({ msPerEpoch: 3 });
  instance.reset(1, 100);
  instance.play();
  frames.frame(0);
  frames.frame(60000); // all 100 epochs are due by now
  // The first chunk measured 3 ms an epoch: floor(8 ms / 3 ms) = 2 epochs a frame.
  assert.deepEqual(calls.map(([, k]) => k), [1, 2]);
  frames.frame(60016);
  assert.equal(calls.at(-1)[1], 2);
  assert.equal(instance.state.status, 'playing');
});

test('pause cancels the next frame and nothing runs while paused; play resumes', () => {
  const { instance, calls } = player();
  instance.reset(1, 50);
  instance.play();
  frames.frame(0);
  instance.pause();
  assert.equal(instance.state.status, 'paused');
  assert.equal(frames.cancelled.length, 1, 'the pending frame was cancelled');
  assert.equal(frames.frame(5000), 0, 'no frame left to run');
  assert.equal(calls.length, 1);
  instance.play();
  frames.frame(6000);
  assert.ok(instance.state.epoch > 1);
  assert.deepEqual(instance.state.ws, oneCall(1, instance.state.epoch).ws, 'resumed from the last w');
});

test('play after the end runs the same run again from the same w0', () => {
  const { instance } = player();
  instance.reset(4, 2);
  instance.step();
  instance.step();
  assert.equal(instance.state.status, 'done');
  instance.play();
  assert.deepEqual(instance.state.ws, [4], 'back to w0');
  frames.frame(0);
  frames.frame(60000);
  assert.deepEqual({ ws: instance.state.ws, losses: instance.state.losses }, oneCall(4, 2));
});

test('a new target: below the epochs run ends the run, above a finished one reopens it', () => {
  const { instance } = player();
  instance.reset(1, 10);
  instance.play();
  frames.frame(0);
  frames.frame(1000);
  const run = instance.state.epoch;
  instance.setTarget(run);
  assert.equal(instance.state.status, 'done');
  assert.equal(frames.pending(), 0, 'its frame was cancelled');
  instance.setTarget(run + 3);
  assert.equal(instance.state.status, 'paused');
  assert.equal(instance.state.target, run + 3);
});

test('a run the core stops (w no longer finite) keeps its history and refuses to go on', () => {
  const { instance, calls } = player({ stopAt: 3 });
  instance.reset(1, 10);
  instance.play();
  frames.frame(0);
  frames.frame(60000);
  assert.equal(instance.state.status, 'stopped');
  assert.equal(instance.state.stopReason, 'w is no longer finite');
  assert.deepEqual({ ws: instance.state.ws, losses: instance.state.losses }, oneCall(1, 3));
  const before = calls.length;
  instance.play();
  instance.step();
  assert.equal(calls.length, before, 'neither play nor step trains a stopped run');
  assert.equal(frames.pending(), 0);
});

test('a call the core refuses pauses the run and changes nothing', () => {
  const { instance } = player({ refuse: true });
  instance.reset(2, 5);
  instance.step();
  assert.equal(instance.state.status, 'paused');
  assert.deepEqual(instance.state.ws, [2]);
  assert.deepEqual(instance.state.losses, []);
});

test('dispose stops a playing run at once: no frame pending, no epoch more, no news; it stays stopped', () => {
  const { instance, calls, seen } = player({ msPerEpoch: 1 });
  instance.reset(1, 100);
  instance.play();
  frames.frame(1000);
  const epochs = instance.state.epoch;
  assert.ok(epochs > 0 && instance.state.status === 'playing');
  const heard = seen.length;
  const trained = calls.length;
  instance.dispose();
  assert.equal(frames.pending(), 0, 'the pending frame was cancelled');
  frames.frame(5000);
  instance.play();
  instance.step();
  frames.frame(9000);
  assert.equal(instance.state.epoch, epochs, 'no epoch more');
  assert.equal(calls.length, trained, 'the core is not asked again');
  assert.equal(seen.length, heard, 'the listener hears nothing more');
  assert.equal(frames.pending(), 0);
});
