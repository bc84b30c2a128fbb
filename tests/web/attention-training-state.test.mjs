// The attention-training section's parameters (web/src/state.js, at*) and
// its pure helpers, without a browser: the defaults are the core's, hostile
// values are clamped or refused, every head count the store hands on divides
// the hidden size (and the core accepts it), a typed sequence is read or
// refused with a reason, and the examples are the held-out set's first
// sequences, as the section says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parameters, createStore, clampValue, offeredModelHeads, AT_LENGTH, AT_VOCAB, ATTENTION_TASKS, OPTIMIZERS,
} from '../../web/src/state.js';
import { parseHash } from '../../web/src/url-state.js';
import {
  attentionTrainingSection, parseSequence, modelConfig, taskOptions, exampleSeed, EXAMPLES, HELD_OUT,
} from '../../web/src/sections/attention-training/attention-training.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';

const AT = Object.keys(parameters).filter((name) => name.startsWith('at'));
const fromHash = (hash) => createStore(parseHash(hash).params).get();

test('the section\'s defaults are the core\'s: model, task and training', async () => {
  const { defaults } = await loadAttentionCore();
  const state = createStore().get();
  const model = defaults.attentionModel;
  assert.deepEqual(
    { vocab: AT_VOCAB, length: AT_LENGTH, hidden: state.atHidden, heads: state.atHeads, blocks: state.atBlocks, ffnHidden: state.atFfn, seed: state.atSeed },
    { vocab: model.vocab, length: model.length, hidden: model.hidden, heads: model.heads, blocks: model.blocks, ffnHidden: model.ffnHidden, seed: model.seed },
  );
  assert.equal(model.embeddingScale, 1, 'scale 1 by default: d2l\'s sqrt(hidden) is the switch');
  assert.equal(state.atD2lScale, false);
  const training = defaults.attentionTraining;
  assert.deepEqual({ task: state.atTask, optimizer: state.atOptimizer, lr: state.atLr },
    { task: training.task, optimizer: training.optimizer, lr: training.lr });
  assert.equal(defaults.attentionTask.lag, state.atLag);
  assert.equal(parameters.atLag.max, AT_LENGTH - 1, 'every lag the bounds allow is below the length');
  assert.deepEqual(ATTENTION_TASKS, parameters.atTask.options);
  assert.deepEqual(OPTIMIZERS, ['adam', 'sgd']);
  assert.deepEqual(attentionTrainingSection.inputs.slice().sort(), AT.slice().sort(), 'the section reads every at* parameter');
});

test('hostile values are clamped, snapped or refused', () => {
  const cases = [
    ['atTask', '<script>alert(1)</script>', 'reverse'], ['atTask', 'Reverse', 'reverse'], ['atTask', 'lookup', 'lookup'],
    ['atOptimizer', 'ADAM', 'adam'], ['atOptimizer', 'sgd', 'sgd'], ['atOptimizer', 'rmsprop', 'adam'],
    ['atLag', '99', 7], ['atLag', '-3', 0], ['atLag', '2.6', 3],
    ['atHidden', '1e9', 64], ['atHidden', '0', 4], ['atHidden', '30', 32], ['atHidden', '-Infinity', 4, 32],
    ['atHeads', '1000', 8], ['atHeads', '0', 1],
    ['atBlocks', '99', 2], ['atBlocks', 'NaN', 1],
    ['atFfn', '100000', 64], ['atFfn', '-1', 0], ['atFfn', '70', 64],
    ['atLr', '1e309', 1], ['atLr', '-5', 0.0001], ['atLr', '0.00123', 0.0012], ['atLr', '', 0.01],
    ['atSteps', '1e12', 10000], ['atSteps', '1', 100], ['atSteps', '250', 300],
    ['atSeed', '4294967296', 4294967295], ['atSeed', '-1', 0], ['atSeed', '٣', 0],
    ['atCausal', 'yes', false], ['atCausal', '1', true], ['atVariable', 'true', true], ['atD2lScale', '<b>', false],
  ];
  // As a control takes them (the table's clamping) and as the URL hash does
  // (which refuses what is not written as a decimal: the default stays).
  for (const [name, raw, held, fromUrl = held] of cases) {
    assert.equal(clampValue(name, raw), held, `${name} = ${raw}`);
    assert.equal(fromHash(`${name}=${encodeURIComponent(raw)}`)[name], fromUrl, `#${name}=${raw}`);
  }
  assert.equal(fromHash('atLag=0x3').atLag, 1, 'a hexadecimal lag is no value: the default');
  assert.equal(fromHash('atSteps=1_000').atSteps, 2000);
  const state = fromHash('atTask=%3Cimg%20src%3Dx%3E&atHidden=1e308&atHeads=-7&atLr=NaN&atSteps=1e99&atD2lScale=maybe');
  assert.equal(state.atTask, 'reverse');
  assert.equal(state.atHidden, 64);
  assert.equal(state.atHeads, 1);
  assert.equal(state.atLr, 0.01);
  assert.equal(state.atSteps, 10000);
  assert.equal(state.atD2lScale, false);
});

test('the heads always divide the hidden size: the nearest count that does, the fewer on a tie', async () => {
  const core = await loadAttentionCore();
  const { atHidden, atHeads } = parameters;
  for (let hidden = atHidden.min; hidden <= atHidden.max; hidden += atHidden.step) {
    const offered = offeredModelHeads(hidden);
    assert.ok(offered.includes(1) && offered.every((heads) => hidden % heads === 0 && heads <= atHeads.max), `${hidden}: ${offered}`);
    for (let heads = atHeads.min; heads <= atHeads.max; heads += 1) {
      const state = createStore({ atHidden: hidden, atHeads: heads }).get();
      assert.equal(state.atHidden, hidden, 'the hidden size stays');
      assert.ok(offered.includes(state.atHeads), `${hidden}/${heads} -> ${state.atHeads}`);
      if (offered.includes(heads)) assert.equal(state.atHeads, heads, 'an accepted pair is kept');
      // The core accepts what the store hands on.
      core.attentionModelInit({ hidden, heads: state.atHeads });
    }
  }
  assert.equal(createStore({ atHidden: 20, atHeads: 3 }).get().atHeads, 2, '20 takes 1, 2, 4, 5: 2 and 4 are as near, the fewer wins');
  assert.equal(createStore({ atHidden: 12, atHeads: 5 }).get().atHeads, 4, '12: 4 and 6 are as near to 5');
  assert.equal(createStore({ atHidden: 4, atHeads: 8 }).get().atHeads, 4);
  const store = createStore({ atHidden: 32, atHeads: 8 });
  assert.deepEqual(store.set({ atHidden: 36 }).sort(), ['atHeads', 'atHidden'], 'a hidden size moves the heads in the same change');
  assert.equal(store.get().atHeads, 6);
  assert.throws(() => core.attentionModelInit({ hidden: 36, heads: 8 }), (error) => error.argument !== undefined,
    'the core itself refuses what the repair prevents');
});

test('a typed sequence is read, or refused with its reason', () => {
  assert.deepEqual(parseSequence('3 1 4 1 5 9 2 6'), { tokens: [3, 1, 4, 1, 5, 9, 2, 6] });
  assert.deepEqual(parseSequence(' 3,1，4、1  5 '), { tokens: [3, 1, 4, 1, 5] });
  assert.deepEqual(parseSequence('12'), { tokens: [12] }, 'the range is the core\'s to check');
  assert.deepEqual(parseSequence(''), { error: 'attention-training.typed.empty' });
  assert.deepEqual(parseSequence('   '), { error: 'attention-training.typed.empty' });
  assert.deepEqual(parseSequence('1 2 3 4 5 6 7 8 9'), { error: 'attention-training.typed.tooLong', count: 9 });
  assert.deepEqual(parseSequence('1 two 3'), { error: 'attention-training.typed.notNumber', part: 'two' });
  assert.deepEqual(parseSequence('1 -2'), { error: 'attention-training.typed.notNumber', part: '-2' });
  assert.deepEqual(parseSequence('1.5'), { error: 'attention-training.typed.notNumber', part: '1.5' });
  assert.deepEqual(parseSequence('<script>alert(1)</script>').error, 'attention-training.typed.notNumber');
  assert.equal(parseSequence('9'.repeat(40)).part.length, 12, 'a long part is quoted shortened');
});

test('the examples are the first sequences of the held-out set the core evaluates on', async () => {
  const core = await loadAttentionCore();
  const state = createStore({ atTask: 'lookup', atVariable: true, atSeed: 12345 }).get();
  const options = taskOptions(state, { batch: EXAMPLES, seed: exampleSeed(state.atSeed, core.defaults.heldOutSeedMix) });
  const examples = core.attentionTaskBatch(options);
  const heldOut = core.attentionTaskBatch({ ...options, batch: HELD_OUT });
  assert.deepEqual(Array.from(examples.tokens), Array.from(heldOut.tokens.subarray(0, EXAMPLES * AT_LENGTH)));
  assert.deepEqual(Array.from(examples.validLens), Array.from(heldOut.validLens.subarray(0, EXAMPLES)));
  const config = modelConfig({ ...state, atD2lScale: true, atHidden: 36 });
  assert.equal(config.embeddingScale, 6, 'd2l\'s scale: sqrt(hidden)');
});

