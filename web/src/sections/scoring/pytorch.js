// "Copy as PyTorch" for the scoring section: d2l's AdditiveAttention and
// DotProductAttention (zh.d2l.ai §10.3.2-10.3.3, d2l.ai §11.3.3-11.3.4) on the section's queries, keys, values
// and valid lengths, with the seeded W_q, W_k, w_v the core used, as a script
// (torch alone, float64) printing both layers' weights and outputs, the
// numbers of the section's four matrices. The inputs are those of the core's
// own calls (recordedCompute), so the snippet cannot drift from the page.
import { printValues, recordedCompute, shapedExpression, shapedLiteral, snippetOpening } from '../shared/pytorch-snippet.js';
import {
  ADDITIVE_ATTENTION, DOT_PRODUCT_ATTENTION, DROPOUT_NOTE, MASKED_SOFTMAX,
} from '../shared/book-attention-pytorch.js';

export function scoringSnippet(state, core, section) {
  const { calls } = recordedCompute(section, state, core, ['additiveAttention', 'dotProductAttention']);
  const [additive] = calls.additiveAttention;
  const [dot] = calls.dotProductAttention;
  const { batch, nq, nk, dq, dk, dv, h } = additive.shape;
  return [
    ...snippetOpening(state, section, 'zh.d2l.ai §10.3.2–10.3.3, d2l.ai §11.3.3–11.3.4'),
    `${DROPOUT_NOTE}\n\n`,
    `${MASKED_SOFTMAX}\n\n`,
    `${DOT_PRODUCT_ATTENTION}\n\n`,
    `${ADDITIVE_ATTENTION}\n\n`,
    shapedLiteral('keys', additive.keys, [batch, nk, dk]),
    shapedLiteral('values', additive.values, [batch, nk, dv]),
    `valid_lens = torch.tensor([${Array.from(additive.validLens).join(', ')}])\n`,
    shapedLiteral('queries', additive.queries, [batch, nq, dq]),
    `attention = AdditiveAttention(key_size=${dk}, query_size=${dq}, num_hiddens=${h})`,
    'with torch.no_grad():',
    `    attention.W_q.weight.copy_(${shapedExpression(additive.Wq, [h, dq])})`,
    `    attention.W_k.weight.copy_(${shapedExpression(additive.Wk, [h, dk])})`,
    `    attention.w_v.weight.copy_(${shapedExpression(additive.wv, [1, h])})`,
    'additive_output = attention(queries, keys, values, valid_lens).detach()',
    printValues('additive weights', 'attention.attention_weights.detach()'),
    `${printValues('additive output', 'additive_output')}\n`,
    shapedLiteral('dot_queries', dot.queries, [dot.shape.batch, dot.shape.nq, dot.shape.d]),
    shapedLiteral('dot_keys', dot.keys, [dot.shape.batch, dot.shape.nk, dot.shape.d]),
    'attention = DotProductAttention()',
    'dot_output = attention(dot_queries, dot_keys, values, valid_lens)',
    printValues('dot weights', 'attention.attention_weights'),
    printValues('dot output', 'dot_output'),
  ].join('\n').replace(/\n{4,}/g, '\n\n\n').concat('\n');
}
