// The two language catalogues (web/src/i18n/en/ and zh/, a file per
// section and one of shared strings, catalogue-files.js) against each other
// and against the page's source: the same files, the same keys in each file
// and its twin, a key in one file only, no empty text, the same
// placeholders, Chinese text in the Chinese one, every key the source names
// present and every key named somewhere. (What the page shows in
// Chinese is the browser's languages.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { CATALOGUE_FILES, assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { GLOSSARY } from '../../web/src/i18n/glossary.js';
import { SECTION_IDS } from '../../web/src/sections/section-loaders.js';
import { navKey } from '../../web/build-steps/page-html.mjs';
import { loadCatalogue, t, translateTree, useLanguage } from '../../web/src/i18n/index.js';
import {
  KERNELS, ESTIMATORS, PIPELINE_SCORINGS, MASK_MODES, SCORING_KEYS, ADDITIVE_QUERIES,
} from '../../web/src/state.js';

const en = assembleCatalogue('en');
const zh = assembleCatalogue('zh');
const enParts = Object.fromEntries(Object.entries(CATALOGUE_FILES).map(([name, file]) => [name, file.en]));
const zhParts = Object.fromEntries(Object.entries(CATALOGUE_FILES).map(([name, file]) => [name, file.zh]));

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

// Every key the page's source names: written out in quotes or in a data-i18n*
// attribute (web/src and index.html, the catalogues themselves aside), plus
// the keys the source builds from a value, one per value.
async function namedKeys() {
  const entries = await readdir('web/src', { recursive: true, withFileTypes: true });
  const catalogueFolders = [path.join('web/src/i18n/en'), path.join('web/src/i18n/zh')];
  const files = entries.filter((entry) => entry.isFile() && /\.(js|html)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !catalogueFolders.includes(path.dirname(file)));
  files.push('web/index.html');
  const prefixes = [...new Set(Object.keys(en).map((key) => key.split('.')[0]))];
  const pattern = new RegExp(`(?:data-i18n(?:-rich|-aria|-title)?="|['"\`])((?:${prefixes.join('|')})\\.[\\w.-]*\\w)["'\`]`, 'g');
  const named = new Map();
  for (const file of files) {
    for (const match of (await readFile(file, 'utf8')).matchAll(pattern)) {
      // A file name ('app.css') is no key; a key may end like one ('export.png').
      if (match[1] in en || !/\.(css|m?js|html|json|png|svg|csv)$/.test(match[1])) named.set(match[1], file);
    }
  }
  const built = [
    ...KERNELS.flatMap((kernel) => [`kernel.${kernel}`, `kernel.${kernel}.note`]),
    ...ESTIMATORS.map((estimator) => `estimator.${estimator}`),
    ...['ready', 'playing', 'paused', 'done', 'stopped'].map((status) => `player.status.${status}`),
    ...PIPELINE_SCORINGS.map((name) => `pipeline.scoring.${name}`),
    ...MASK_MODES.map((mode) => `masking.mode.${mode}`),
    ...SCORING_KEYS.map((name) => `scoring.keys.${name}`),
    ...ADDITIVE_QUERIES.map((name) => `scoring.queries.${name}`),
    ...['additive', 'dot'].map((layer) => `scoring.layer.${layer}`),
    ...[1, 2].map((item) => `masking.editItem${item}`),
    ...SECTION_IDS.map(navKey),
    ...['full', 'dropped', 'kept'].flatMap((kind) => [`multihead.output.${kind}`, `multihead.output.${kind}Caption`, `multihead.output.${kind}Label`]),
  ];
  for (const key of built) named.set(key, 'a key built from a value');
  // A string that refers to another section is read in its `.alone` twin in a lab of one section (i18n/index.js).
  for (const key of [...named.keys()]) if (`${key}.alone` in en) named.set(`${key}.alone`, `the twin of ${key}`);
  return named;
}

// Strings that refer to another section only where that section is on the
// page: the links to the training section, hidden in a lab of one section.
const SHOWN_WITH_THEIR_SECTION = ['multihead.trainBefore', 'self-attention.trainBefore'];

test('English and Chinese have the same keys', () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
});

test('each file of one catalogue has its twin in the other, with the same keys and placeholders', async () => {
  const folder = (language) => readdir(`web/src/i18n/${language}`).then((names) => names.sort());
  const enFiles = await folder('en');
  assert.deepEqual(await folder('zh'), enFiles, 'the same files');
  assert.deepEqual(Object.keys(CATALOGUE_FILES).map((name) => `${name}.js`).sort(), enFiles, 'catalogue-files.js assembles every file');
  for (const name of Object.keys(enParts)) {
    assert.deepEqual(Object.keys(zhParts[name]).sort(), Object.keys(enParts[name]).sort(), `the keys of ${name}.js`);
    for (const [key, text] of Object.entries(enParts[name])) {
      assert.deepEqual(placeholders(zhParts[name][key]), placeholders(text), `placeholders of ${key} (${name}.js)`);
    }
  }
});

test('a key lives in one file of its catalogue', () => {
  for (const [language, parts] of [['en', enParts], ['zh', zhParts]]) {
    const owner = new Map();
    for (const [name, part] of Object.entries(parts)) {
      for (const key of Object.keys(part)) {
        assert.ok(!owner.has(key), `${language}: ${key} is in both ${owner.get(key)}.js and ${name}.js`);
        owner.set(key, name);
      }
    }
  }
});

test('no text is empty and placeholders agree', () => {
  for (const [key, text] of Object.entries(en)) {
    assert.ok(text.trim().length > 0, `en ${key} is empty`);
    assert.ok(zh[key].trim().length > 0, `zh ${key} is empty`);
    assert.deepEqual(placeholders(zh[key]), placeholders(text), `placeholders of ${key}`);
  }
});

test('the Chinese catalogue is written in Chinese', () => {
  // Names, symbols and formulas may stay as they are; sentences may not.
  const untranslated = Object.entries(en)
    .filter(([key, text]) => (text.match(/[A-Za-z]{2,}/g) ?? []).length >= 3 && zh[key] === text)
    .map(([key]) => key);
  assert.deepEqual(untranslated, []);
  for (const key of Object.keys(en).filter((k) => /^(export|embed|a11y|pytorch)\./.test(k))) {
    assert.notEqual(zh[key], en[key], `${key} is translated`);
  }
  // The six-token sentence of the multi-head section, token for token; the empty row's explanation.
  assert.equal(zh['multihead.tokens'].split(' ').length, en['multihead.tokens'].split(' ').length);
  assert.match(zh['masking.emptyRow'], /全零/);
});

test('every key the source names is in both catalogues', async () => {
  const named = await namedKeys();
  assert.ok(named.size > 300, `found ${named.size} keys in the source`);
  const missing = [...named].filter(([key]) => !(key in en) || !(key in zh)).map(([key, file]) => `${key} (${file})`);
  assert.deepEqual(missing, []);
});

test('every key of the catalogues is named by the source', async () => {
  const named = await namedKeys();
  assert.deepEqual(Object.keys(en).filter((key) => !named.has(key)), [], 'keys no code names');
});

test('every string that refers to another section has a twin for a lab of one section, which refers to none', () => {
  for (const catalogue of [en, zh]) {
    for (const [key, text] of Object.entries(catalogue)) {
      if (!text.includes('{§') || key.endsWith('.alone') || SHOWN_WITH_THEIR_SECTION.includes(key)) continue;
      const twin = catalogue[`${key}.alone`];
      assert.ok(twin, `${key} has no ${key}.alone`);
      assert.ok(!twin.includes('{§'), `${key}.alone refers to a section`);
      assert.deepEqual(placeholders(twin), placeholders(text), `${key}.alone keeps the placeholders`);
    }
  }
});

test('one term for each idea: the glossary\'s, its variants only where the term is introduced', () => {
  const catalogues = { en, zh };
  for (const { zh: term, not = {}, introducedIn = [] } of GLOSSARY) {
    for (const [language, variants] of Object.entries(not)) {
      const used = Object.entries(catalogues[language])
        .filter(([key, text]) => !introducedIn.includes(key) && variants.some((variant) => text.includes(variant)))
        .map(([key]) => key);
      assert.deepEqual(used, [], `${term}: ${variants.join(', ')} used instead`);
    }
    for (const key of introducedIn) {
      assert.ok(zh[key].includes(term), `${key} introduces ${term}`);
      assert.ok(not.zh.some((variant) => zh[key].includes(variant)), `${key} gives the notes' name beside ${term}`);
    }
  }
});

test('no English sentence opens with a reference to a section (it would read "section 3 shows" in lower case)', () => {
  const opening = Object.entries(en).filter(([, text]) => /(^|[.!?:]\s+|\*\*\s*)\{§/.test(text)).map(([key]) => key);
  assert.deepEqual(opening, []);
});

// A key is looked up among the catalogue's own keys: one named like a member
// of Object.prototype (a data-i18n attribute's text, say) is a missing key,
// which shows itself, never that member (once a TypeError that stopped a
// tree's translation).
test('t() reads own keys only: keys and placeholders named after members of Object.prototype are missing', async () => {
  await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);
  const members = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
  for (const language of ['en', 'zh']) {
    useLanguage(language);
    for (const key of members) assert.equal(t(key), key, `${language}: ${key}`);
    assert.equal(t('nav.exercisesAnswered', Object.create({ done: 1, total: 2 })).includes('{done}'), true, 'inherited params are not given');
  }
  const nodes = members.map((key) => ({ dataset: { i18n: key }, textContent: '' }));
  const root = { querySelectorAll: (selector) => (selector === '[data-i18n]' ? nodes : []) };
  translateTree(root);
  assert.deepEqual(nodes.map(({ textContent }) => textContent), members);
  useLanguage('en');
});
