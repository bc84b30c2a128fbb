// The core's two parts in the JS API: loadAttentionBasics() resolves to every
// function but the trainable models', loadAttentionCore() to both parts, its
// basics the very module loadAttentionBasics() loaded (one instance).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadAttentionBasics, loadAttentionCore } from '../../dist/attention-core.mjs';

const basics = await loadAttentionBasics();
const core = await loadAttentionCore();
const functions = (api) => Object.keys(api).filter((name) => typeof api[name] === 'function');
const isModelFunction = (name) => /^(attentionModel|attentionTask|seq2seq)/.test(name);

test('the basics are every function but the trainable models\'; the whole core adds exactly those', () => {
  const basicsFunctions = functions(basics);
  assert.ok(basicsFunctions.length >= 20, `${basicsFunctions.length} functions`);
  assert.deepEqual(basicsFunctions.filter(isModelFunction), []);
  const added = functions(core).filter((name) => !basicsFunctions.includes(name));
  assert.ok(added.length >= 15, `${added.length} model functions`);
  assert.deepEqual(added.filter((name) => !isModelFunction(name)), [], 'nothing but the models is added');
  for (const name of basicsFunctions) assert.equal(typeof core[name], 'function', `the whole core has ${name}`);
  assert.ok(Object.isFrozen(basics) && Object.isFrozen(core));
});

test('the basics carry every limit and their own defaults; the whole core adds the models\' defaults', () => {
  assert.deepEqual(basics.limits, core.limits);
  assert.ok('maxModelParameters' in basics.limits, 'the models\' limits too');
  for (const [name, value] of Object.entries(basics.defaults)) assert.deepEqual(core.defaults[name], value, name);
  const added = Object.keys(core.defaults).filter((name) => !(name in basics.defaults)).sort();
  assert.deepEqual(added, ['attentionModel', 'attentionTask', 'attentionTraining', 'heldOutSeedMix', 'seq2seqModel', 'seq2seqTraining']);
  assert.ok(Object.isFrozen(core.defaults) && Object.isFrozen(basics.defaults.dataset));
});

test('one instance per part: each load resolves to the same API, the basics the same module', async () => {
  assert.equal(await loadAttentionBasics(), basics);
  assert.equal(await loadAttentionCore(), core);
  assert.equal(core.makeDataset, basics.makeDataset, 'the whole core calls the basics\' module');
});

test('memoryStats() of the whole core adds up both modules', () => {
  const whole = core.memoryStats();
  const own = basics.memoryStats();
  assert.ok(whole.heapBytes > own.heapBytes, 'the models\' heap is counted too');
  assert.ok(whole.allocatedBytes >= own.allocatedBytes);
  // Memory held by the basics' module shows in both figures, by the same amount.
  const grown = new Float64Array(1 << 20);
  const held = basics.attentionWeights(grown.subarray(0, 1000), grown.subarray(0, 1000));
  assert.equal(held.length, 1000 * 1000);
  assert.equal(core.memoryStats().heapBytes - whole.heapBytes, basics.memoryStats().heapBytes - own.heapBytes);
});

test('the models work through the whole core and are refused nowhere else', () => {
  const model = core.attentionModelInit({ vocab: 5, length: 4, hidden: 8, heads: 2 });
  assert.equal(model.params.embedding.length, 5 * 8);
  assert.equal(basics.attentionModelInit, undefined);
  assert.equal(basics.seq2seqInit, undefined);
  assert.equal(core.seq2seqVocabulary('dates').sourceLength > 0, true);
});
