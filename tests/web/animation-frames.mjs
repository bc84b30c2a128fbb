// A hand-driven clock and animation-frame queue for the modules that pace
// themselves by frames (run/player.js, frame-queue.js): node has no
// requestAnimationFrame, and real time would make the tests flaky.
import { mock } from 'node:test';

export function useFakeFrames() {
  const clock = { now: 0 };
  let callbacks = new Map();
  let nextId = 1;
  const cancelled = [];
  globalThis.requestAnimationFrame = (callback) => {
    const id = nextId;
    nextId += 1;
    callbacks.set(id, callback);
    return id;
  };
  globalThis.cancelAnimationFrame = (id) => {
    cancelled.push(id);
    callbacks.delete(id);
  };
  mock.method(performance, 'now', () => clock.now);
  return {
    clock,
    cancelled,
    pending: () => callbacks.size,
    // Runs the frames requested so far at time `at` (ms); the ones they request wait for the next call.
    frame(at = clock.now) {
      clock.now = at;
      const due = callbacks;
      callbacks = new Map();
      for (const callback of due.values()) callback(at);
      return due.size;
    },
    restore() {
      mock.restoreAll();
      delete globalThis.requestAnimationFrame;
      delete globalThis.cancelAnimationFrame;
    },
  };
}
