// Each kind (an optimiser, a task, an architecture) is named in one table,
// the core's (core/contract/kind_names.hpp, handed out as core.kinds): the
// page's state table offers exactly its names, each with a label in both
// catalogues; the translator's page architectures map onto the core's; the
// PyTorch snippet writes each optimiser the core names and refuses any other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionCore } from '../../dist/attention-core.mjs';
import { ATTENTION_TASKS, OPTIMIZERS, POSITIONAL_KINDS, TRANSLATION_TASKS, TRANSLATION_ARCHITECTURES, defaultState } from '../../web/src/state.js';
import { ARCHITECTURES } from '../../web/src/sections/translation/setup.js';
import { TORCH_OPTIMIZERS, attentionTrainingScript, trainingOptions } from '../../web/src/sections/attention-training/pytorch.js';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';

const { kinds } = await loadAttentionCore();
const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// "numbers-en-zh" -> "numbersEnZh", as the catalogue keys spell a kind.
const camel = (name) => name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());

test('the page offers the core\'s names of each kind, in its order, each labelled in both languages', () => {
  for (const [offered, names, prefix] of [
    [ATTENTION_TASKS, kinds.attentionTask, 'attention-training.task'],
    [OPTIMIZERS, kinds.optimizer, 'attention-training.optimizer'],
    [POSITIONAL_KINDS, kinds.positional, 'attention-training.positional'],
    [TRANSLATION_TASKS, kinds.seq2seqTask, 'translation.task'],
  ]) {
    assert.deepEqual(offered, [...names], prefix);
    for (const name of names) {
      for (const language of ['en', 'zh']) assert.ok(catalogues[language][`${prefix}.${camel(name)}`], `${language}: ${prefix}.${camel(name)}`);
    }
  }
});

test('the translator\'s page architectures are the core\'s, each core architecture offered', () => {
  assert.deepEqual(Object.keys(ARCHITECTURES), TRANSLATION_ARCHITECTURES);
  for (const name of TRANSLATION_ARCHITECTURES) {
    assert.ok(kinds.seq2seqArchitecture.includes(ARCHITECTURES[name].architecture), name);
    for (const language of ['en', 'zh']) assert.ok(catalogues[language][`translation.architecture.${camel(name)}`], `${language}: ${name}`);
  }
  assert.deepEqual([...new Set(Object.values(ARCHITECTURES).map(({ architecture }) => architecture))].sort(), [...kinds.seq2seqArchitecture].sort());
});

test('the PyTorch snippet writes each optimiser the core names, and refuses another by name', async () => {
  assert.deepEqual(Object.keys(TORCH_OPTIMIZERS), [...kinds.optimizer]);
  const core = await loadAttentionCore();
  for (const optimizer of kinds.optimizer) {
    const script = attentionTrainingScript(trainingOptions({ ...defaultState(), atOptimizer: optimizer }, core), core);
    assert.match(script, new RegExp(`torch\\.optim\\.${optimizer === 'adam' ? 'Adam' : 'SGD'}\\(`), optimizer);
  }
  const options = trainingOptions(defaultState(), core);
  assert.throws(() => attentionTrainingScript({ ...options, optimizer: 'rmsprop' }, core), /^Error: optimizer: one of adam, sgd, not "rmsprop"$/);
});
