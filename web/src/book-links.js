// Where each section's topic stands in Dive into Deep Learning, in both
// books: the English one at d2l.ai (chapter 11) and the
// Chinese one at zh.d2l.ai (chapter 10). Each link names the subsection as
// its book numbers and titles it (book data, not the page's text: it keeps
// its book's language whatever the page speaks). An anchor is an id the
// book's HTML has: the English book's headings (Sphinx's ids from their
// titles) and the Chinese book's labels (:label:`subsec_x` -> #subsec-x);
// a Chinese heading has no stable id, so such a link goes to its section's page.
export const BOOKS = Object.freeze({
  en: { origin: 'https://d2l.ai', chapter: 'chapter_attention-mechanisms-and-transformers' },
  zh: { origin: 'https://zh.d2l.ai', chapter: 'chapter_attention-mechanisms' },
});

const link = (page, anchor, number, title) => Object.freeze({ page, anchor, number, title });

// section id -> { en, zh }: the book's page (file name), anchor (or null), number and title.
export const BOOK_SUBSECTIONS = Object.freeze({
  cues: {
    en: link('queries-keys-values', null, '11.1', 'Queries, Keys, and Values'),
    zh: link('attention-cues', null, '10.1', '注意力提示'),
  },
  data: {
    en: link('attention-pooling', 'kernels-and-data', '11.2.1', 'Kernels and Data'),
    zh: link('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  pooling: {
    en: link('attention-pooling', 'attention-pooling-via-nadarayawatson-regression', '11.2.2', 'Attention Pooling via Nadaraya–Watson Regression'),
    zh: link('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  heatmap: {
    en: link('attention-pooling', 'attention-pooling-via-nadarayawatson-regression', '11.2.2', 'Attention Pooling via Nadaraya–Watson Regression'),
    zh: link('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  training: {
    en: link('attention-pooling', 'adapting-attention-pooling', '11.2.3', 'Adapting Attention Pooling'),
    zh: link('nadaraya-waston', null, '10.2', '注意力汇聚：Nadaraya-Watson 核回归'),
  },
  pipeline: {
    en: link('attention-scoring-functions', null, '11.3', 'Attention Scoring Functions'),
    zh: link('attention-scoring-functions', null, '10.3', '注意力评分函数'),
  },
  masking: {
    en: link('attention-scoring-functions', 'masked-softmax-operation', '11.3.2.1', 'Masked Softmax Operation'),
    zh: link('attention-scoring-functions', null, '10.3', '注意力评分函数'),
  },
  // Both books' additive-attention subsection: the section starts from it,
  // and in both books the scaled dot product stands beside it.
  scoring: {
    en: link('attention-scoring-functions', 'additive-attention', '11.3.4', 'Additive Attention'),
    zh: link('attention-scoring-functions', 'subsec-additive-attention', '10.3.2', '加性注意力'),
  },
  'self-attention': {
    en: link('self-attention-and-positional-encoding', 'self-attention', '11.6.1', 'Self-Attention'),
    zh: link('self-attention-and-positional-encoding', null, '10.6', '自注意力和位置编码'),
  },
  translation: {
    en: link('bahdanau-attention', null, '11.4', 'The Bahdanau Attention Mechanism'),
    zh: link('bahdanau-attention', null, '10.4', 'Bahdanau 注意力'),
  },
  multihead: {
    en: link('multihead-attention', null, '11.5', 'Multi-Head Attention'),
    zh: link('multihead-attention', null, '10.5', '多头注意力'),
  },
  positional: {
    en: link('self-attention-and-positional-encoding', 'positional-encoding', '11.6.3', 'Positional Encoding'),
    zh: link('self-attention-and-positional-encoding', 'subsec-positional-encoding', '10.6.3', '位置编码'),
  },
  'attention-training': {
    en: link('transformer', 'encoder', '11.7.4', 'Encoder'),
    zh: link('transformer', null, '10.7', 'Transformer'),
  },
});

// The address of a section's subsection in a book ('en' or 'zh'), or null.
export function bookAddress(sectionId, book) {
  const entry = Object.hasOwn(BOOK_SUBSECTIONS, sectionId) ? BOOK_SUBSECTIONS[sectionId][book] : null;
  if (!entry) return null;
  const { origin, chapter } = BOOKS[book];
  return `${origin}/${chapter}/${entry.page}.html${entry.anchor ? `#${entry.anchor}` : ''}`;
}
