// "Copy as PyTorch" against the book a learner pastes it next to: every
// snippet, written for the page's defaults in both languages (the real core,
// dist/attention-core.mjs), says in its Python which edition of d2l each of
// the book's classes follows and what differs from it. (That the scripts run
// and give the page's numbers: the browser's sections-pytorch, export,
// translation-pytorch and attention-training-pytorch tests.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { defaultState } from '../../web/src/state.js';
import { loadCatalogue, useLanguage } from '../../web/src/i18n/index.js';
import { memoizeCore } from '../../web/src/core-memo.js';
import { DROPOUT_NOTE } from '../../web/src/sections/shared/book-attention-pytorch.js';
import { loadAttentionCore } from '../../dist/attention-core.mjs';

await Promise.all([loadCatalogue('en'), loadCatalogue('zh')]);
const core = memoizeCore(await loadAttentionCore());

// Every snippet of the page, in each language: [section id, language, Python].
const snippets = [];
for (const language of ['en', 'zh']) {
  useLanguage(language);
  for (const section of SECTIONS.filter(({ pytorch }) => pytorch)) {
    snippets.push([section.id, language, section.pytorch(defaultState(), core, section)]);
  }
}
useLanguage('en');

// The comment lines just above a line of the script.
function commentAbove(code, line) {
  const lines = code.split('\n');
  const index = lines.indexOf(line);
  assert.ok(index >= 0, `the script has "${line}"`);
  const above = [];
  for (let i = index - 1; i >= 0 && lines[i].startsWith('#'); i -= 1) above.unshift(lines[i]);
  return above.join('\n');
}

// The book's classes: what the comment above each must say (its edition,
// the book's signature and what the snippet does instead).
const BOOK_CLASSES = {
  'class DotProductAttention(nn.Module):': ['DotProductAttention(dropout)', 'zh.d2l.ai §10.3.3', 'd2l.ai §11.3.3', 'without dropout'],
  'class AdditiveAttention(nn.Module):': ['AdditiveAttention(key_size, query_size, num_hiddens, dropout) of zh.d2l.ai §10.3.2',
    'd2l.ai §11.3.4 writes AdditiveAttention(num_hiddens, dropout)', 'nn.LazyLinear', 'without dropout'],
  'class MultiHeadAttention(nn.Module):': ['MultiHeadAttention(num_hiddens, num_heads, dropout, bias=False) of d2l.ai §11.5',
    'zh.d2l.ai §10.5 writes MultiHeadAttention(key_size,', 'without dropout'],
  'class PositionWiseFFN(nn.Module):': ['PositionWiseFFN(ffn_num_input, ffn_num_hiddens, ffn_num_outputs) of zh.d2l.ai §10.7',
    'd2l.ai §11.7 writes', 'PositionWiseFFN(ffn_num_hiddens, ffn_num_outputs)'],
  'class AddNorm(nn.Module):': ['AddNorm(normalized_shape, dropout)', 'without dropout'],
  'def masked_softmax(X, valid_lens):': ['d2l.ai §11.3.2.1', 'zh.d2l.ai §10.3.1'],
  'def transpose_qkv(X, num_heads):': ['zh.d2l.ai §10.5', 'd2l.ai §11.5 makes them methods'],
};

test('every snippet of the book\'s layers says which edition each class follows and what differs', () => {
  const seen = new Set();
  for (const [id, language, code] of snippets) {
    for (const [line, said] of Object.entries(BOOK_CLASSES)) {
      if (!code.split('\n').includes(line)) continue;
      seen.add(line);
      const comment = commentAbove(code, line);
      for (const words of said) assert.ok(comment.includes(words), `${id} (${language}): above "${line}", "${words}"`);
    }
    const layers = Object.keys(BOOK_CLASSES).filter((line) => line.startsWith('class ') && code.includes(line));
    if (layers.length > 0) assert.ok(code.includes(DROPOUT_NOTE), `${id} (${language}): why dropout is left out`);
    assert.ok(!/nn\.Dropout/.test(code), `${id} (${language}): no dropout layer`);
  }
  assert.deepEqual([...seen].sort(), Object.keys(BOOK_CLASSES).sort(), 'every book class is in some snippet');
});

test('the book\'s signatures are called as the comments say', () => {
  const scoring = snippets.find(([id, language]) => id === 'scoring' && language === 'en')[2];
  assert.match(scoring, /^attention = AdditiveAttention\(key_size=2, query_size=20, num_hiddens=8\)$/m, 'the book\'s order, named');
  for (const [id, language, code] of snippets.filter(([, , text]) => text.includes('class PositionWiseFFN'))) {
    const calls = [...code.matchAll(/PositionWiseFFN\(([^)]*)\)$/gm)].map(([, args]) => args);
    assert.ok(calls.length > 0, `${id} (${language}): the FFN is called`);
    for (const args of calls) assert.equal(args.split(',').length, 3, `${id} (${language}): PositionWiseFFN(${args})`);
  }
});

test('nadaraya_watson says, in the page\'s language, that d2l.ai\'s gives the transpose', () => {
  const said = {
    en: ['One row of weights per query, as zh.d2l.ai §10.2', 'd2l.ai §11.2 writes nadaraya_watson(x_train, y_train, x_val, kernel)',
      'one column per query, normalised over axis 0'],
    zh: ['每个查询一行权重', '英文版（d2l.ai §11.2）写的是 nadaraya_watson(x_train, y_train, x_val, kernel)', '每个查询一列，沿轴 0 归一化'],
  };
  let count = 0;
  for (const [id, language, code] of snippets) {
    if (!code.includes('def nadaraya_watson(')) continue;
    count += 1;
    const comment = commentAbove(code, 'def nadaraya_watson(queries, keys, values, kernel, w):');
    for (const words of said[language]) assert.ok(comment.includes(words), `${id} (${language}): "${words}"`);
  }
  assert.equal(count, 4, 'pooling and heatmap, in both languages');
});

test('each snippet\'s header names the sections of both editions it follows', () => {
  for (const [id, language, code] of snippets) {
    const header = code.split('\n').filter((line) => line.startsWith('#')).slice(0, 3).join('\n');
    assert.match(header, /zh\.d2l\.ai §10\.\d|书中 §10\.\d/, `${id} (${language}): the Chinese edition's section`);
    assert.match(header, /d2l\.ai）? ?§11\.\d/, `${id} (${language}): the English edition's section`);
  }
});
