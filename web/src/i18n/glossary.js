// One term for each idea of the chapters, in each language: the catalogues
// use it and never the variants listed under `not` (tests/web/catalogues.test.mjs
// holds them to it). Where the course notes name an idea otherwise
// (随意 for 自主性, 注意力池化 for 注意力汇聚), the page gives the notes' name
// once, beside its own, where the term is introduced (`introducedIn`).
export const GLOSSARY = [
  { en: 'attention pooling', zh: '注意力汇聚', not: { zh: ['注意力池化'] }, introducedIn: ['cues.lead2'] },
  { en: 'volitional cue', zh: '自主性提示', not: { zh: ['随意'] }, introducedIn: ['cues.lead1'] },
  { en: 'masking (masked softmax, the causal mask)', zh: '掩蔽', not: { zh: ['掩码'] } },
  { en: 'number of hidden units', zh: '隐藏单元数', not: { zh: ['隐藏层大小'] } },
  { en: 'the optimisers, by their names', zh: 'Adam、SGD', not: { zh: ['Adam 优化器', 'SGD 优化器'] } },
  { en: 'valid length', zh: '有效长度', not: { zh: ['合法长度'] } },
  { en: 'positional encoding', zh: '位置编码', not: { zh: ['位置嵌入'] } },
];
