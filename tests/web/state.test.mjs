// The parameter table and its store (web/src/state.js): every value that
// enters is clamped to the bounds and snapped to the step, unreadable input
// keeps the current value, and listeners hear only of real changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  parameters, clampValue, createStore, defaultState, offeredHeads, repairState, constraints, MHA_BATCH,
} from '../../web/src/state.js';

test('every parameter has sane bounds, a default of its own domain, and a module that names it', async () => {
  const names = Object.keys(parameters);
  assert.ok(names.length >= 40, `${names.length} parameters`);
  const folder = 'web/src/sections';
  const files = (await readdir(folder, { recursive: true })).filter((file) => file.endsWith('.js'));
  const source = (await Promise.all(files.map((file) => readFile(path.join(folder, file), 'utf8')))).join('\n');
  for (const [name, spec] of Object.entries(parameters)) {
    if (spec.type === 'integer' || spec.type === 'number') {
      assert.ok(spec.min <= spec.default && spec.default <= spec.max && spec.step > 0, `${name} has sane bounds`);
      assert.equal(clampValue(name, spec.default), spec.default, `${name}'s default is on its step`);
    } else if (spec.type === 'choice') {
      assert.ok(spec.options.includes(spec.default), `${name} defaults to one of its options`);
    } else {
      assert.equal(spec.type, 'boolean', `${name} has a known type`);
      assert.equal(typeof spec.default, 'boolean');
    }
    // The language is the page's own switch; every other parameter belongs to a section.
    if (name !== 'language') assert.ok(source.includes(`'${name}'`), `${name} is named by a section module`);
  }
});

test('typed values are clamped to the bounds and snapped to the step', () => {
  // [parameter, what a learner types, what the control then holds]
  const cases = [
    ['n', '5000', 1000], ['n', '-3', 2], ['n', '12.7', 13],
    ['noise', '9', 2], ['noise', '0.333', 0.35],
    ['w', '0', 0.1], ['w', '1e9', 50],
    ['lr', '100', 10], ['epochs', '0', 1], ['query', '7', 5],
    ['w0', '0.0004', 0], ['w0', '0.0006', 0.001], ['seed', '4294967296', 4294967295],
  ];
  for (const [name, typed, held] of cases) assert.equal(clampValue(name, typed), held, `${name} = ${typed}`);
  assert.equal(clampValue('noise', 0.1 + 0.2), 0.3, 'snapped values carry no float noise');
  assert.equal(clampValue('lr', 0.0015), 0.002);
});

test('what is not a value keeps the fallback: the current value, else the default', () => {
  for (const raw of ['', '  ', 'abc', NaN, undefined, {}, '0x']) {
    assert.equal(clampValue('n', raw, 77), 77, `n = ${String(raw)}`);
  }
  assert.equal(clampValue('n', ''), parameters.n.default);
  assert.equal(clampValue('n', Infinity), 1000, 'infinities are clamped like any number');
  assert.equal(clampValue('n', -Infinity), 2);
  assert.equal(clampValue('kernel', 'boxcar'), 'boxcar');
  assert.equal(clampValue('kernel', 'Boxcar', 'constant'), 'constant', 'a choice matches exactly');
  for (const [raw, expected] of [[true, true], ['true', true], ['1', true], [1, true], [false, false], ['false', false], ['0', false], [0, false]]) {
    assert.equal(clampValue('leaveOneOut', raw, null), expected, `leaveOneOut = ${String(raw)}`);
  }
  assert.equal(clampValue('leaveOneOut', 'yes', false), false);
});

test('a name that is no own entry of the table is refused', () => {
  for (const name of ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assert.throws(() => clampValue(name, 1), Error, name);
  }
});

test('the store starts at the defaults, clamps what it is given and ignores unknown names', () => {
  assert.deepEqual(createStore().get(), defaultState());
  const store = createStore({ n: '5000', bogus: 1, __proto__: { polluted: true } });
  assert.equal(store.get().n, 1000);
  assert.equal('bogus' in store.get(), false);
  assert.equal(store.get().polluted, undefined);
  assert.equal({}.polluted, undefined, 'no prototype pollution');
});

// A kind the page does not know (an optimiser, a task, a kernel) is an
// error naming the parameter and its options, never read as the default.
test('the store refuses a choice outside its options, by name, and keeps its state', () => {
  assert.throws(() => createStore({ kernel: 'nope' }), /^Error: kernel: one of gaussian, boxcar.*not "nope"$/);
  const store = createStore();
  for (const [name, value] of [['atOptimizer', 'rmsprop'], ['atTask', 'copy'], ['trArchitecture', 'lstm'], ['trTask', 'numbers']]) {
    assert.throws(() => store.set({ [name]: value }), new RegExp(`^Error: ${name}: one of ${parameters[name].options.join(', ')}, not "${value}"$`));
    assert.equal(store.get()[name], parameters[name].default, `${name} kept`);
  }
});

test('set() tells listeners which names really changed, once', () => {
  const store = createStore();
  const heard = [];
  const unsubscribe = store.subscribe((state, changed) => heard.push([state.n, [...changed].sort()]));
  assert.deepEqual(store.set({ n: 80, noise: 0.5, unknown: 3 }), ['n'], 'noise was already 0.5');
  assert.deepEqual(heard, [[80, ['n']]]);
  assert.deepEqual(store.set({ n: 80.2 }), [], 'clamped to the value it has: no change');
  assert.deepEqual(store.set({ n: 1e9, w: 3 }).sort(), ['n', 'w']);
  assert.deepEqual(heard.at(-1), [1000, ['n', 'w']]);
  unsubscribe();
  store.set({ n: 10 });
  assert.equal(heard.length, 2, 'an unsubscribed listener hears nothing');
});

test('each change is a new state object: an old one stays as it was', () => {
  const store = createStore();
  const before = store.get();
  store.set({ seed: 9 });
  assert.equal(before.seed, 0);
  assert.equal(store.get().seed, 9);
  assert.notEqual(store.get(), before);
});

test('setUnchecked passes the bounds by (for error-path tests), never unknown names', () => {
  const store = createStore();
  assert.deepEqual(store.setUnchecked({ noise: -1, bogus: 2 }), ['noise']);
  assert.equal(store.get().noise, -1);
  assert.equal('bogus' in store.get(), false);
});

// Pairs of parameters each within its bounds that the core accepts only
// together: the multi-head section's heads must divide its hidden size, and
// batch (one sentence) * heads stays within the core's batch limit.
const { loadAttentionCore } = await import('../../dist/attention-core.mjs');
const core = await loadAttentionCore();

// Whether the core runs multi-head attention of one token with this pair
// (the rule is the core's: this only asks it).
function coreAccepts(hidden, heads) {
  const tokens = new Float64Array(hidden);
  const square = new Float64Array(hidden * hidden);
  try {
    core.multiHeadAttention({
      queries: tokens, keys: tokens, values: tokens, shape: { batch: MHA_BATCH, nq: 1, nk: 1, hidden, heads },
      Wq: square, Wk: square, Wv: square, Wo: square,
    });
    return true;
  } catch (error) {
    assert.equal(error.argument, 'shape.heads', `${hidden}/${heads}: refused for the heads, not ${error.message}`);
    return false;
  }
}

test('the heads offered for each hidden size are exactly those the core accepts', () => {
  const { mhaHidden, mhaHeads } = parameters;
  for (let hidden = mhaHidden.min; hidden <= mhaHidden.max; hidden += 1) {
    const accepted = [];
    for (let heads = mhaHeads.min; heads <= mhaHeads.max; heads += 1) if (coreAccepts(hidden, heads)) accepted.push(heads);
    assert.deepEqual(offeredHeads(hidden, core.limits), accepted, `H = ${hidden}`);
  }
  assert.deepEqual(offeredHeads(100, core.limits), [1, 2, 4, 5, 10, 20, 25, 50], 'not 100: batch * heads <= maxBatch');
  assert.deepEqual(offeredHeads(100), [1, 2, 4, 5, 10, 20, 25, 50, 100], 'before the core is there: divisibility only');
});

test('the store keeps such pairs consistent: the heads move to the nearest offered count', () => {
  const cases = [
    // [hidden, heads] asked for -> heads held (with the core's limits)
    [[97, 5], 1], [[1, 128], 1], [[100, 100], 50], [[100, 3], 2], [[12, 10], 12], [[128, 128], 64], [[100, 5], 5],
  ];
  for (const [[hidden, heads], held] of cases) {
    const store = createStore({ mhaHidden: hidden, mhaHeads: heads }, { limits: core.limits });
    assert.equal(store.get().mhaHidden, hidden, `${hidden}/${heads}: the hidden size stays`);
    assert.equal(store.get().mhaHeads, held, `${hidden}/${heads} -> ${held}`);
    assert.ok(coreAccepts(hidden, store.get().mhaHeads));
  }
  // Every pair of the bounds (a sample of them) is repaired to one the core accepts.
  for (let hidden = 1; hidden <= 128; hidden += 7) {
    for (let heads = 1; heads <= 128; heads += 5) {
      const state = createStore({ mhaHidden: hidden, mhaHeads: heads }, { limits: core.limits }).get();
      assert.ok(coreAccepts(state.mhaHidden, state.mhaHeads), `${hidden}/${heads} -> ${state.mhaHeads}`);
    }
  }
});

test('set() repairs too, and tells of every name the repair moved; setUnchecked() does not', () => {
  const store = createStore({ mhaHeads: 10, mhaHeadsOff: 6 }, { limits: core.limits });
  assert.equal(store.get().mhaHeadsOff, 6);
  const heard = [];
  store.subscribe((state, changed) => heard.push([...changed].sort()));
  assert.deepEqual(store.set({ mhaHidden: 12 }).sort(), ['mhaHeads', 'mhaHeadsOff', 'mhaHidden']);
  assert.equal(store.get().mhaHeads, 12, 'the nearest divisor of 12 to 10');
  assert.equal(store.get().mhaHeadsOff, 0, 'other heads: every head on again');
  assert.deepEqual(heard, [['mhaHeads', 'mhaHeadsOff', 'mhaHidden']], 'one change for the whole repair');
  assert.deepEqual(store.set({ mhaHeads: 5 }), ['mhaHeads'], 'typed 5 for H = 12: 4 and 6 are as near, the fewer heads win');
  assert.equal(store.get().mhaHeads, 4);
  assert.deepEqual(store.set({ mhaHeadsOff: 0xffffffff }), ['mhaHeadsOff']);
  assert.equal(store.get().mhaHeadsOff, 0b1111, 'switches of heads that do not exist are dropped');
  store.setUnchecked({ mhaHeads: 5 });
  assert.equal(store.get().mhaHeads, 5, 'the error path passes the repair by');
  store.set({ mhaSeed: 3 });
  assert.equal(store.get().mhaHeads, 4, 'the next change repairs it');
});

test('the core\'s limits arrive later: useLimits() repairs the state then', () => {
  const store = createStore({ mhaHidden: 128, mhaHeads: 128 });
  assert.equal(store.get().mhaHeads, 128, 'divisibility alone allows 128 heads');
  const heard = [];
  store.subscribe((state, changed) => heard.push([...changed]));
  assert.deepEqual(store.useLimits(core.limits), ['mhaHeads']);
  assert.equal(store.get().mhaHeads, 64);
  assert.deepEqual(heard, [['mhaHeads']]);
  assert.deepEqual(store.useLimits(core.limits), [], 'nothing left to repair');
  assert.equal(repairState(store.get(), core.limits), store.get(), 'a consistent state is returned as it is');
});

test('a constraint changes only the parameters it names', () => {
  for (const { names, repair } of constraints) {
    for (let hidden = 1; hidden <= 128; hidden += 3) {
      for (const heads of [1, 3, 7, 64, 100, 128]) {
        const patch = repair({ ...defaultState(), mhaHidden: hidden, mhaHeads: heads, mhaHeadsOff: 0xffffffff }, core.limits) ?? {};
        for (const name of Object.keys(patch)) assert.ok(names.includes(name), `${name} is one of ${names}`);
      }
    }
  }
});

test('the heads keep the learner\'s wish: dragging the hidden size shows the divisor nearest it at every step', () => {
  const store = createStore({}, { limits: core.limits });
  assert.equal(store.get().mhaHeads, 5);
  // Dragging H from 100 down to 65 passes 97 and 67, primes that allow one head.
  for (let hidden = 100; hidden >= 65; hidden -= 1) {
    store.set({ mhaHidden: hidden });
    const offered = offeredHeads(hidden, core.limits);
    const nearest = offered.reduce((best, v) => (Math.abs(v - 5) < Math.abs(best - 5) ? v : best), offered[0]);
    assert.equal(store.get().mhaHeads, nearest, `H = ${hidden}`);
    assert.ok(coreAccepts(hidden, store.get().mhaHeads));
  }
  assert.equal(store.get().mhaHeads, 5, '65 allows 5 heads: the wish again');
  // A count chosen with the heads control is the new wish.
  store.set({ mhaHidden: 60, mhaHeads: 6 });
  store.set({ mhaHidden: 97 });
  assert.equal(store.get().mhaHeads, 1);
  store.set({ mhaHidden: 96 });
  assert.equal(store.get().mhaHeads, 6);
  // The attention-training model's heads the same.
  store.set({ atHidden: 24, atHeads: 6 });
  store.set({ atHidden: 20 });
  assert.equal(store.get().atHeads, 5);
  store.set({ atHidden: 36 });
  assert.equal(store.get().atHeads, 6);
});
