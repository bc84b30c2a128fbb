// The catalogue keys of the scoring, multi-head and positional-encoding
// sections: every key their source names exists in English and in Chinese,
// with the same placeholders, and every new parameter of the table has a
// control in one of their modules. (No browser: plain modules.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { parameters, PIPELINE_SCORINGS, MASK_MODES, SCORING_KEYS, ADDITIVE_QUERIES } from '../../web/src/state.js';

const FILES = [
  'web/src/sections/scoring-pipeline.js', 'web/src/sections/masked-softmax.js', 'web/src/sections/scoring-functions.js',
  'web/src/sections/scaling-panel.js', 'web/src/sections/multi-head.js', 'web/src/sections/reshape-diagram.js',
  'web/src/sections/positional-encoding.js', 'web/index.html',
];
const PREFIXES = ['pipeline', 'masking', 'scoring', 'scaling', 'mha', 'pe'];
const SECTIONS = ['pipeline', 'masking', 'scoring', 'multihead', 'positional'];
const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

async function namedKeys() {
  const source = (await Promise.all(FILES.map((file) => readFile(file, 'utf8')))).join('\n');
  const named = new Set();
  const pattern = new RegExp(`['"\`]((?:${PREFIXES.join('|')}|nav)\\.[\\w.-]+)['"\`]`, 'g');
  for (const match of source.matchAll(pattern)) named.add(match[1]);
  // Keys built from a value.
  for (const name of PIPELINE_SCORINGS) named.add(`pipeline.scoring.${name}`);
  for (const mode of MASK_MODES) named.add(`masking.mode.${mode}`);
  for (const name of SCORING_KEYS) named.add(`scoring.keys.${name}`);
  for (const name of ADDITIVE_QUERIES) named.add(`scoring.queries.${name}`);
  for (const layer of ['additive', 'dot']) named.add(`scoring.layer.${layer}`);
  for (const item of [1, 2]) named.add(`masking.editItem${item}`);
  for (const kind of ['full', 'dropped', 'kept']) {
    named.add(`mha.output.${kind}`).add(`mha.output.${kind}Caption`).add(`mha.output.${kind}Label`);
  }
  return named;
}

test('every key the new sections name exists in both languages', async () => {
  const named = await namedKeys();
  assert.ok(named.size > 150, `found ${named.size} keys`);
  assert.deepEqual([...named].filter((key) => !(key in en)), [], 'missing in en.js');
  assert.deepEqual([...named].filter((key) => !(key in zh)), [], 'missing in zh.js');
});

test('the new keys have text and the same placeholders in both languages, and none is unused', async () => {
  const named = await namedKeys();
  const ours = Object.keys(en).filter((key) => PREFIXES.some((prefix) => key.startsWith(`${prefix}.`)));
  for (const key of ours) {
    assert.ok(en[key].trim() && zh[key]?.trim(), `${key} has text`);
    assert.deepEqual(placeholders(zh[key]), placeholders(en[key]), `placeholders of ${key}`);
  }
  assert.deepEqual(ours.filter((key) => !named.has(key)), [], 'keys no code names');
  // Written in Chinese: the six-token sentence too, with as many tokens.
  assert.equal(zh['mha.tokens'].split(' ').length, en['mha.tokens'].split(' ').length);
  assert.match(zh['masking.emptyRow'], /全零/);
});

test('every new parameter is in the table with bounds, and a module builds its control', async () => {
  const source = (await Promise.all(FILES.map((file) => readFile(file, 'utf8')))).join('\n');
  const ours = Object.entries(parameters).filter(([, spec]) => SECTIONS.includes(spec.section));
  assert.ok(ours.length >= 25, `${ours.length} parameters`);
  for (const [name, spec] of ours) {
    if (spec.type === 'integer' || spec.type === 'number') {
      assert.ok(spec.min <= spec.default && spec.default <= spec.max && spec.step > 0, `${name} has sane bounds`);
    } else {
      assert.ok(spec.options.includes(spec.default), `${name} defaults to one of its options`);
    }
    // mhaHeadsOff is set by the switches on the head maps, the others by a control of their own.
    assert.ok(source.includes(`'${name}'`), `${name} is named by a section module`);
  }
});
