// A core that counts the calls made of it, by function name: what an
// exercise's check() or solution() asks of the core, counted rather than
// timed (speed is for the benchmarks; a test asserts the work asked for,
// which no busy machine changes).
// The JS API's functions that train (wasm/attention-core.d.ts).
const TRAINING = new Set(['trainKernelWidth', 'attentionModelTrain', 'attentionModelStep', 'seq2seqTrain', 'seq2seqStep']);

export function countingCore(core) {
  const calls = new Map();
  // A new object, not a Proxy: the JS API's core is frozen, and a Proxy of
  // a frozen object must give its own functions back.
  const counted = {};
  const names = new Set();
  for (let object = core; object && object !== Object.prototype; object = Object.getPrototypeOf(object)) {
    for (const name of Object.getOwnPropertyNames(object)) if (name !== 'constructor') names.add(name);
  }
  for (const name of names) {
    Object.defineProperty(counted, name, {
      enumerable: true,
      get() {
        const value = core[name];
        if (typeof value !== 'function') return value;
        return (...args) => {
          calls.set(name, (calls.get(name) ?? 0) + 1);
          return value.apply(core, args);
        };
      },
    });
  }
  return {
    core: counted,
    // The calls made since the last reset: { total, training: [names], byName }.
    counts() {
      const names = [...calls.keys()];
      return {
        total: [...calls.values()].reduce((sum, count) => sum + count, 0),
        training: names.filter((name) => TRAINING.has(name)),
        byName: Object.fromEntries(calls),
      };
    },
    reset: () => calls.clear(),
  };
}
