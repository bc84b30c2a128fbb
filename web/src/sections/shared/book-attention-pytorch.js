// d2l's attention code (Dive into Deep Learning §10.3, §10.5, §10.7) as the
// snippets write it, shared by every "Copy as PyTorch" that needs it, so
// each script carries the same book code. Dropout is left out: the lab
// computes in evaluation mode. The scripts import torch, nn and math.

export const MASKED_SOFTMAX = `def masked_softmax(X, valid_lens):
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

export const DOT_PRODUCT_ATTENTION = `class DotProductAttention(nn.Module):
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)`;

// Additive attention with nn.Linear (the book's nn.LazyLinear needs a first
// call before its weights can be set) of the given input sizes.
export const ADDITIVE_ATTENTION = `class AdditiveAttention(nn.Module):
    def __init__(self, query_size, key_size, num_hiddens):
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

// Needs DOT_PRODUCT_ATTENTION (and so MASKED_SOFTMAX) before it.
export const MULTI_HEAD_ATTENTION = `def transpose_qkv(X, num_heads):
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    X = X.permute(0, 2, 1, 3)
    return X.reshape(-1, X.shape[2], X.shape[3])


def transpose_output(X, num_heads):
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    X = X.permute(0, 2, 1, 3)
    return X.reshape(X.shape[0], X.shape[1], -1)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_hiddens, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.attention = DotProductAttention()
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

// The Transformer's position-wise feed-forward network and residual
// connection with layer normalisation (§10.7), both trained models' blocks.
export const POSITION_WISE_FFN = `class PositionWiseFFN(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens):
        super().__init__()
        self.dense1 = nn.Linear(num_hiddens, ffn_num_hiddens)
        self.relu = nn.ReLU()
        self.dense2 = nn.Linear(ffn_num_hiddens, num_hiddens)

    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))`;

export const ADD_NORM = `class AddNorm(nn.Module):
    def __init__(self, num_hiddens):
        super().__init__()
        self.ln = nn.LayerNorm(num_hiddens)

    def forward(self, X, Y):
        return self.ln(Y + X)`;
