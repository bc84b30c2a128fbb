// Each section's links to its subsection of d2l (its declaration's `book`,
// addresses by web/src/book-links.js), in
// the English book (d2l.ai) and the Chinese one (zh.d2l.ai), checked without
// a network against the books' own headings: the table below holds, for
// each page linked, its numbered headings as the books' sources write them
// (d2l-ai/d2l-en chapter_attention-mechanisms-and-transformers/,
// d2l-ai/d2l-zh chapter_attention-mechanisms/; "--" shown as the en dash
// the HTML shows), and the ids their HTML gives them (the English ids made from the titles as Sphinx makes
// them, the Chinese ones from the :label:s only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { BOOKS, bookAddress } from '../../web/src/book-links.js';

// Sphinx's id of an English heading: d2lbook drops the [** **] marks, the
// title is lowercased, what is not ASCII (the en dash of "Nadaraya--Watson")
// dropped, and every other run of characters that are not letters or digits
// made one hyphen.
const sphinxId = (title) => title.replace(/\[\*\*|\*\*\]/g, '').toLowerCase().normalize('NFKD')
  .replace(/[^\x00-\x7f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

// page -> [number, title as written, ids of its HTML ([] for the page itself)]
const HEADINGS = {
  en: {
    'queries-keys-values': [['11.1', 'Queries, Keys, and Values', []], ['11.1.1', 'Visualization']],
    'attention-pooling': [['11.2', 'Attention Pooling by Similarity', []], ['11.2.1', '[**Kernels and Data**]'],
      ['11.2.2', '[**Attention Pooling via Nadaraya–Watson Regression**]'], ['11.2.3', '[**Adapting Attention Pooling**]']],
    'attention-scoring-functions': [['11.3', 'Attention Scoring Functions', []], ['11.3.1', '[**Dot Product Attention**]'],
      ['11.3.2', 'Convenience Functions'], ['11.3.2.1', '[**Masked Softmax Operation**]'],
      ['11.3.2.2', 'Batch Matrix Multiplication'], ['11.3.3', '[**Scaled Dot Product Attention**]'],
      ['11.3.4', '[**Additive Attention**]']],
    'bahdanau-attention': [['11.4', 'The Bahdanau Attention Mechanism', []], ['11.4.1', 'Model'],
      ['11.4.2', 'Defining the Decoder with Attention'], ['11.4.3', '[**Training**]']],
    'multihead-attention': [['11.5', 'Multi-Head Attention', []], ['11.5.1', 'Model'], ['11.5.2', 'Implementation']],
    'self-attention-and-positional-encoding': [['11.6', 'Self-Attention and Positional Encoding', []],
      ['11.6.1', '[**Self-Attention**]'], ['11.6.2', 'Comparing CNNs, RNNs, and Self-Attention'],
      ['11.6.3', '[**Positional Encoding**]']],
    transformer: [['11.7', 'The Transformer Architecture', []], ['11.7.1', 'Model'],
      ['11.7.2', '[**Positionwise Feed-Forward Networks**]'], ['11.7.3', 'Residual Connection and Layer Normalization'],
      ['11.7.4', 'Encoder'], ['11.7.5', 'Decoder'], ['11.7.6', '[**Training**]']],
  },
  zh: {
    'attention-cues': [['10.1', '注意力提示', []]],
    'nadaraya-waston': [['10.2', '注意力汇聚：Nadaraya-Watson 核回归', []]],
    'attention-scoring-functions': [['10.3', '注意力评分函数', []], ['10.3.1', '[**掩蔽softmax操作**]', []],
      ['10.3.2', '[**加性注意力**]', ['subsec-additive-attention']], ['10.3.3', '[**缩放点积注意力**]', []]],
    'bahdanau-attention': [['10.4', 'Bahdanau 注意力', []]],
    'multihead-attention': [['10.5', '多头注意力', []]],
    'self-attention-and-positional-encoding': [['10.6', '自注意力和位置编码', []], ['10.6.1', '[**自注意力**]', []],
      ['10.6.3', '[**位置编码**]', ['subsec-positional-encoding']]],
    transformer: [['10.7', 'Transformer', []]],
  },
};
const headingOf = (book, page, number) => {
  const found = HEADINGS[book][page]?.find(([n]) => n === number);
  if (!found) return null;
  const [, written, ids] = found;
  return { title: written.replace(/\[\*\*|\*\*\]/g, ''), ids: ids ?? [sphinxId(written)] };
};

test('the English ids are made as Sphinx makes them (ids seen on d2l.ai)', () => {
  assert.equal(sphinxId('[**Attention Pooling via Nadaraya–Watson Regression**]'), 'attention-pooling-via-nadarayawatson-regression');
  assert.equal(sphinxId('[**Scaled Dot Product Attention**]'), 'scaled-dot-product-attention');
  assert.equal(sphinxId('[**Additive Attention**]'), 'additive-attention');
  assert.equal(sphinxId('Batch Matrix Multiplication'), 'batch-matrix-multiplication');
});

test('every section links to a subsection of the chapter in both books, the same section of it in each', () => {
  for (const { id, book: subsections } of SECTIONS) {
    assert.ok(subsections, `${id}: its subsection in the books`);
    // The chapters number their sections alike (11.4 and 10.4 are Bahdanau's attention in each).
    const section = (number) => number.split('.')[1];
    assert.equal(section(subsections.en.number), section(subsections.zh.number), `${id}: d2l.ai ${subsections.en.number} and zh.d2l.ai ${subsections.zh.number}`);
    ['en', 'zh'].forEach((book) => {
      const entry = subsections[book];
      const label = `${id} (${book})`;
      const heading = headingOf(book, entry.page, entry.number);
      assert.ok(heading, `${label}: ${entry.page} has a heading ${entry.number}`);
      assert.equal(entry.title, heading.title, `${label}: titled as the book titles it`);
      // The anchor is an id the page has, or none for the section's own page.
      if (heading.ids.length === 0) assert.equal(entry.anchor, null, `${label}: no stable id, the page itself`);
      else assert.ok(heading.ids.includes(entry.anchor), `${label}: #${entry.anchor} among ${heading.ids}`);
    });
  }
});

// The labels (:label:`x`) both books' sources give a subsection: the
// Chinese book is a translation, and a subsection that kept its label is the
// same topic in both.
const LABELS = {
  en: { '11.3.4': 'subsec_additive-attention', '11.6.2': 'subsec_cnn-rnn-self-attention', '11.6.3': 'subsec_positional-encoding' },
  zh: { '10.3.2': 'subsec_additive-attention', '10.6.2': 'subsec_cnn-rnn-self-attention', '10.6.3': 'subsec_positional-encoding' },
};

test('where a section links to a labelled subsection of one book, the other link is the same subsection', () => {
  let pairs = 0;
  for (const { id, book: subsections } of SECTIONS) {
    const labels = ['en', 'zh'].map((book) => LABELS[book][subsections[book].number] ?? null);
    if (labels.every((label) => label === null)) continue;
    assert.equal(labels[0], labels[1], `${id}: d2l.ai ${subsections.en.number} and zh.d2l.ai ${subsections.zh.number}`);
    pairs += 1;
  }
  assert.equal(pairs, 2, 'scoring (additive attention) and positional (positional encoding)');
});

test('every link is a well-formed https address in its book\'s chapter', () => {
  for (const { book: subsections } of SECTIONS) {
    for (const book of ['en', 'zh']) {
      const address = bookAddress(subsections[book], book);
      const url = new URL(address);
      assert.equal(url.href, address, `${address}: already normal`);
      assert.equal(url.protocol, 'https:');
      assert.equal(url.origin, BOOKS[book].origin);
      assert.equal(url.search, '');
      const { page, anchor } = subsections[book];
      assert.equal(url.pathname, `/${BOOKS[book].chapter}/${page}.html`);
      assert.equal(url.hash, anchor ? `#${anchor}` : '');
      assert.match(url.hash, /^(#[a-z0-9]+(-[a-z0-9]+)*)?$/);
    }
  }
});
