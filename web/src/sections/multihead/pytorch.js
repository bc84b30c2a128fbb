// "Copy as PyTorch" for the multi-head section: d2l's MultiHeadAttention
// (zh.d2l.ai §10.5, d2l.ai §11.5) as self-attention of the section's six token embeddings, with the
// seeded W_q, W_k, W_v, W_o the core used (recordedCompute: the inputs of the
// core's own call), as a script (torch alone, float64) printing every head's
// weights and the output. With heads switched off it also prints the output
// of the kept heads and of the switched-off ones: each head's output scaled
// by its factor before W_o, as the lab does it (the book has no such switch).
import { printValues, recordedCompute, shapedExpression, shapedLiteral, snippetOpening } from '../shared/pytorch-snippet.js';
import {
  DOT_PRODUCT_ATTENTION, DROPOUT_NOTE, MASKED_SOFTMAX, MULTI_HEAD_ATTENTION,
} from '../shared/book-attention-pytorch.js';

const HEAD_MASK = `def masked_heads(attention, X, head_mask):
    """MultiHeadAttention's forward with each head's output scaled by its factor before W_o."""
    queries = transpose_qkv(attention.W_q(X), attention.num_heads)
    keys = transpose_qkv(attention.W_k(X), attention.num_heads)
    values = transpose_qkv(attention.W_v(X), attention.num_heads)
    output = attention.attention(queries, keys, values, None)
    output = output * head_mask.repeat(X.shape[0])[:, None, None]
    return attention.W_o(transpose_output(output, attention.num_heads))`;

export function multiHeadSnippet(state, core, section) {
  const { calls } = recordedCompute(section, state, core, ['multiHeadAttention']);
  const [full, kept] = calls.multiHeadAttention;
  const { batch, nq, hidden, heads } = full.shape;
  const parts = [
    ...snippetOpening(state, section, 'zh.d2l.ai §10.5, d2l.ai §11.5'),
    `${DROPOUT_NOTE}\n\n`,
    `${MASKED_SOFTMAX}\n\n`,
    `${DOT_PRODUCT_ATTENTION}\n\n`,
    `${MULTI_HEAD_ATTENTION}\n\n`,
    `num_hiddens, num_heads = ${hidden}, ${heads}`,
    shapedLiteral('X', full.queries, [batch, nq, hidden]),
    'attention = MultiHeadAttention(num_hiddens, num_heads)',
    'with torch.no_grad():',
    ...['Wq', 'Wk', 'Wv', 'Wo'].map((name) =>
      `    attention.W_${name[1]}.weight.copy_(${shapedExpression(full[name], [hidden, hidden])})`),
    'output = attention(X, X, X, None).detach()',
    printValues('weights', 'attention.attention.attention_weights.detach()'),
    printValues('output', 'output'),
  ];
  if (kept) {
    parts.push(
      `\n\n${HEAD_MASK}\n\n`,
      `head_mask = torch.tensor([${Array.from(kept.headMask, (factor) => (factor ? '1.0' : '0.0')).join(', ')}])`,
      'with torch.no_grad():',
      `    ${printValues('kept output', 'masked_heads(attention, X, head_mask)')}`,
      `    ${printValues('switched-off output', 'masked_heads(attention, X, 1 - head_mask)')}`,
    );
  }
  return parts.join('\n').replace(/\n{4,}/g, '\n\n\n').concat('\n');
}
