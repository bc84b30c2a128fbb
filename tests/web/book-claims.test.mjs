// The table of the book's claims (docs/book-claims.md) against the
// catalogues (web/src/i18n/en/ and zh/): every key whose text, in either
// language, names the book (d2l, "the book", a section number; 书中,
// 原书, 中文版…) is listed, with the edition each language quotes and the
// book's file; a listed key exists; and a text that quotes the edition its
// language does not read first names it. The books differ: zh.d2l.ai
// (chapter 10) and d2l.ai (chapter 11), both linked from every section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';

const en = assembleCatalogue('en');
const zh = assembleCatalogue('zh');

// What names the book, in each language. "book" alone is also the book on
// the desk of the cues section's picture: those keys are the second table's.
const NAMES_BOOK = {
  en: /\bbooks?\b|\bd2l\b|Dive into Deep Learning|§1[01]\.\d/i,
  zh: /书中|书里|原书|(?<![一那])本书|两版书|d2l|动手学深度学习|§1[01]\.\d|第[一二]版|中文版|英文版/i,
};
// How a text names the edition its language does not read first.
const NAMES_OTHER = {
  en: /zh\.d2l\.ai/, // the Chinese edition, on an English text
  zh: /英文版|(?<!zh\.)d2l\.ai/, // the English edition, on a Chinese text
};
// Section numbers of the other edition: chapter 10 is zh.d2l.ai's, 11 d2l.ai's.
const OTHER_NUMBERS = { en: /(?:d2l |§)10\.\d/, zh: /(?:d2l |§)11\.\d/ };

const EDITIONS = ['d2l.ai', 'zh.d2l.ai', 'both', 'each'];
// The chapter's files in each book's repository (d2l-ai/d2l-zh
// chapter_attention-mechanisms/, d2l-ai/d2l-en chapter_attention-mechanisms-and-transformers/).
const FILES = {
  zh: ['index', 'attention-cues', 'nadaraya-waston', 'attention-scoring-functions', 'bahdanau-attention',
    'multihead-attention', 'self-attention-and-positional-encoding', 'transformer'],
  en: ['index', 'queries-keys-values', 'attention-pooling', 'attention-scoring-functions', 'bahdanau-attention',
    'multihead-attention', 'self-attention-and-positional-encoding', 'transformer'],
};

// The doc's tables: { claims: [{ key, en, zh, source }], noClaim: [{ key, why }] }.
async function tables() {
  const text = await readFile('docs/book-claims.md', 'utf8');
  const part = (heading) => {
    const start = text.indexOf(`\n## ${heading}\n`);
    assert.ok(start >= 0, `the doc has "## ${heading}"`);
    const end = text.indexOf('\n## ', start + 1);
    return text.slice(start, end < 0 ? undefined : end).split('\n').filter((line) => line.startsWith('| `'))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim()));
  };
  const key = (cell) => /^`([^`]+)`$/.exec(cell)?.[1] ?? assert.fail(`a key in backticks: ${cell}`);
  return {
    claims: part('The claims').map(([k, enEdition, zhEdition, ...source]) => ({
      key: key(k), en: enEdition, zh: zhEdition, source: source.join(' | '),
    })),
    noClaim: part('Keys that name the book without a claim about it').map(([k, why]) => ({ key: key(k), why })),
  };
}

const namesBook = (key) => NAMES_BOOK.en.test(en[key]) || NAMES_BOOK.zh.test(zh[key]);

test('every key whose text names the book is in the table, and every key listed exists, once', async () => {
  const { claims, noClaim } = await tables();
  const listed = [...claims, ...noClaim].map(({ key }) => key);
  assert.equal(new Set(listed).size, listed.length, `a key listed twice: ${listed.filter((key, i) => listed.indexOf(key) !== i)}`);
  for (const key of listed) assert.ok(Object.hasOwn(en, key) && Object.hasOwn(zh, key), `${key}: in both catalogues`);
  const missing = Object.keys(en).filter((key) => namesBook(key) && !listed.includes(key));
  assert.deepEqual(missing, [], 'keys that name the book, in neither table of docs/book-claims.md');
  for (const { key, why } of noClaim) assert.ok(why.length > 0, `${key}: says what the word is`);
});

test('each claim says which edition each language quotes and rests on a file of that edition', async () => {
  const { claims } = await tables();
  assert.ok(claims.length >= 90, `${claims.length} claims`);
  for (const { key, en: enEdition, zh: zhEdition, source } of claims) {
    for (const edition of [enEdition, zhEdition]) assert.ok(EDITIONS.includes(edition), `${key}: edition "${edition}"`);
    const cites = (book) => FILES[book].some((file) => source.includes(`${book} \`${file}.md\``))
      || (book === 'zh' && /zh and en `/.test(source)) || /^as `[\w.-]+`/.test(source);
    const quoted = new Set([enEdition, zhEdition]);
    if (quoted.has('zh.d2l.ai') || quoted.has('both') || quoted.has('each')) assert.ok(cites('zh'), `${key}: a file of zh.d2l.ai`);
    if (quoted.has('d2l.ai') || quoted.has('both') || quoted.has('each')) assert.ok(cites('en') || /zh and en `/.test(source), `${key}: a file of d2l.ai`);
    // A source "as `other.key`" points at a listed claim.
    for (const [, other] of source.matchAll(/as `([\w.-]+)`/g)) {
      assert.ok(claims.some((claim) => claim.key === other), `${key}: "as \`${other}\`" is a claim of the table`);
    }
  }
});

test('a text quoting the edition its language does not read first names it', async () => {
  const { claims } = await tables();
  for (const { key, en: enEdition, zh: zhEdition } of claims) {
    if (['zh.d2l.ai', 'each'].includes(enEdition)) assert.match(en[key], NAMES_OTHER.en, `${key} (en): names zh.d2l.ai`);
    if (['d2l.ai', 'each'].includes(zhEdition)) assert.match(zh[key], NAMES_OTHER.zh, `${key} (zh): names 英文版 or d2l.ai`);
  }
  // Section numbers: English texts give d2l.ai's, Chinese texts zh.d2l.ai's, or name the other edition.
  for (const key of Object.keys(en)) {
    if (OTHER_NUMBERS.en.test(en[key])) assert.match(en[key], NAMES_OTHER.en, `${key} (en): a zh.d2l.ai number, unnamed`);
    if (OTHER_NUMBERS.zh.test(zh[key])) assert.match(zh[key], NAMES_OTHER.zh, `${key} (zh): a d2l.ai number, unnamed`);
  }
});

// The label before the two links names the book and claims nothing.
const LINKS_LABEL = 'export.book';

test('the second table holds the desk\'s book and the links\' label, no claim about d2l', async () => {
  const { noClaim } = await tables();
  assert.ok(noClaim.some(({ key }) => key === LINKS_LABEL), 'the links\' label');
  for (const { key } of noClaim.filter(({ key: listed }) => listed !== LINKS_LABEL)) {
    assert.doesNotMatch(en[key], /\bd2l\b|Dive into|§1[01]/i, `${key} (en)`);
    assert.doesNotMatch(zh[key], NAMES_BOOK.zh, `${key} (zh)`);
  }
});
