// Both catalogues are complete: the same keys, no empty text, the same
// placeholders, and every key the page's source names exists. (No browser:
// the catalogues are plain modules.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import en from '../../web/src/i18n/en.js';
import zh from '../../web/src/i18n/zh.js';
import { KERNELS, ESTIMATORS } from '../../web/src/state.js';

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

async function sources(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.js') && !entry.parentPath.includes('i18n'))
    .map((entry) => path.join(entry.parentPath, entry.name));
  return [...await Promise.all(files.map((file) => readFile(file, 'utf8'))), await readFile('web/index.html', 'utf8')].join('\n');
}

test('English and Chinese have the same keys', () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
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
});

test('every key the page names exists', async () => {
  const source = await sources('web/src');
  const named = new Set();
  for (const match of source.matchAll(/(?:data-i18n(?:-rich|-aria)?="|['`])((?:app|nav|axis|legend|error|cues|data|estimator|kernel|pooling|heatmap|training|player|language)\.[\w.-]+)["'`]/g)) {
    named.add(match[1]);
  }
  // Keys built from a value: one per value.
  for (const kernel of KERNELS) named.add(`kernel.${kernel}`).add(`kernel.${kernel}.note`);
  for (const estimator of ESTIMATORS) named.add(`estimator.${estimator}`);
  for (const status of ['ready', 'playing', 'paused', 'done', 'stopped']) named.add(`player.status.${status}`);
  assert.ok(named.size > 100, `found ${named.size} keys in the source`);
  const missing = [...named].filter((key) => !(key in en));
  assert.deepEqual(missing, []);
});
