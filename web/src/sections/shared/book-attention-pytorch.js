// d2l's attention code as the snippets write it, shared by every "Copy as
// PyTorch" that needs it, so each script carries the same book code. The
// book has two editions the page links to, whose code differs: the Chinese
// one (zh.d2l.ai, chapter 10) and the English one (d2l.ai, chapter 11).
// Each class follows one of them and says in the emitted Python which, and
// what differs: a learner pastes it next to the book. Dropout is left out
// everywhere: the lab computes without it (evaluation mode, or dropout 0 in
// training), so that the numbers are the lab's. The scripts import torch, nn
// and math.

// Said once, before the book's classes, in every script that has them.
export const DROPOUT_NOTE = `# The book's layers take a dropout argument; these have none. The lab computes without dropout: the
# book's demos call .eval(), where dropout passes its input unchanged, and the lab trains with dropout 0,
# so no random mask changes the numbers the page shows.`;

export const MASKED_SOFTMAX = `# masked_softmax as d2l.ai §11.3.2.1 writes it, with its _sequence_mask inside; zh.d2l.ai §10.3.1
# calls d2l.sequence_mask instead, the same function.
def masked_softmax(X, valid_lens):
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X

    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)`;

export const DOT_PRODUCT_ATTENTION = `# DotProductAttention(dropout) of zh.d2l.ai §10.3.3 and d2l.ai §11.3.3, without dropout.
class DotProductAttention(nn.Module):
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)`;

// Additive attention with the Chinese edition's signature: nn.Linear of the
// given input sizes takes the lab's weights at once, where the English
// edition's nn.LazyLinear has none before a first call.
export const ADDITIVE_ATTENTION = `# AdditiveAttention(key_size, query_size, num_hiddens, dropout) of zh.d2l.ai §10.3.2, without dropout.
# d2l.ai §11.3.4 writes AdditiveAttention(num_hiddens, dropout) with nn.LazyLinear, whose weights exist only
# after a first call; nn.Linear of the given sizes can take the lab's weights before it.
class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        # queries (batch, nq, 1, h) + keys (batch, 1, nk, h), broadcast
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)`;

// Needs DOT_PRODUCT_ATTENTION, or ADDITIVE_ATTENTION with scoring 'additive'
// (and so MASKED_SOFTMAX), before it. Additive: the heads reach the
// attention as items of the batch (transpose_qkv), so one AdditiveAttention
// of num_hiddens // num_heads is shared by them (zh.d2l.ai §10.7's exercise).
export const multiHeadAttention = (scoring = 'dot') => `# transpose_qkv and transpose_output as zh.d2l.ai §10.5's functions (d2l.ai §11.5 makes them methods).
def transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    X = X.permute(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])


def transpose_output(X, num_heads):
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    X = X.permute(0, 2, 1, 3)
    return X.reshape(X.shape[0], X.shape[1], -1)


# MultiHeadAttention(num_hiddens, num_heads, dropout, bias=False) of d2l.ai §11.5, without dropout and with
# nn.Linear(num_hiddens, num_hiddens) for its nn.LazyLinear. zh.d2l.ai §10.5 writes MultiHeadAttention(key_size,
# query_size, value_size, num_hiddens, num_heads, dropout): with every size num_hiddens, the same layer.
class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads):
        super().__init__()
        self.num_heads = num_heads
        ${scoring === 'additive'
    ? `head_size = num_hiddens // num_heads  # zh.d2l.ai §10.7 exercise (d2l.ai §11.7): additive heads, one attention they share
        self.attention = AdditiveAttention(head_size, head_size, head_size)`
    : 'self.attention = DotProductAttention()'}
        self.W_q = nn.Linear(num_hiddens, num_hiddens, bias=False)
        self.W_k = nn.Linear(num_hiddens, num_hiddens, bias=False)
        self.W_v = nn.Linear(num_hiddens, num_hiddens, bias=False)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=False)

    def forward(self, queries, keys, values, valid_lens):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        return self.W_o(transpose_output(output, self.num_heads))`;

export const MULTI_HEAD_ATTENTION = multiHeadAttention();

// The Transformer's position-wise feed-forward network and residual
// connection with layer normalisation, both trained models' blocks.
export const POSITION_WISE_FFN = `# PositionWiseFFN(ffn_num_input, ffn_num_hiddens, ffn_num_outputs) of zh.d2l.ai §10.7. d2l.ai §11.7 writes
# PositionWiseFFN(ffn_num_hiddens, ffn_num_outputs) with nn.LazyLinear, which takes its input size from the first call.
class PositionWiseFFN(nn.Module):
    def __init__(self, ffn_num_input, ffn_num_hiddens, ffn_num_outputs):
        super().__init__()
        self.dense1 = nn.Linear(ffn_num_input, ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.Linear(ffn_num_hiddens, ffn_num_outputs)

    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))`;

export const ADD_NORM = `# AddNorm(normalized_shape, dropout) of zh.d2l.ai §10.7 and d2l.ai §11.7, without dropout.
class AddNorm(nn.Module):
    def __init__(self, num_hiddens):
        super().__init__()
        self.ln = nn.LayerNorm(num_hiddens)

    def forward(self, X, Y):
        return self.ln(Y + X)`;
