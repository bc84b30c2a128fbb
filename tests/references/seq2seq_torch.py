"""d2l's sequence-to-sequence models in PyTorch, float64, dropout 0: what the
C++ models of core/seq2seq/ (model.hpp) are checked against, and what the
benchmark times.

Written from the book (d2l, PyTorch, 1st edition's numbering: 9.7
sequence to sequence learning, 10.4 Bahdanau attention, 10.7 Transformer):
  - AdditiveAttention (W_k, W_q, w_v, no biases; masked_softmax with -1e6),
    or d2l's DotProductAttention in its place (10.4, exercise 2: scores
    q . k / sqrt(hidden), no parameters),
  - Seq2SeqEncoder (embedding, nn.GRU over time-major input, every position,
    padding included), optionally bidirectional (Bahdanau et al.: hidden // 2
    units each way; outputs [forward, backward] as nn.GRU concatenates them;
    the decoder's initial state of layer l is cat(h_n[2l], h_n[2l + 1])), or
    with nn.LSTM in the GRU's place, encoder and decoder (10.4, exercise 1:
    the state (h, c), each joined so; the decoder queries with h),
  - Seq2SeqAttentionDecoder (query = the last layer's state before the step;
    GRU input cat(context, embedding); dense readout),
  - TransformerEncoder / TransformerDecoder (blocks "block0", ...; embedding
    times embedding_scale plus the positional encoding; the decoder's
    attention1 causal in training, attention2 over the encoder's outputs
    masked by the source's valid lengths), optionally with every
    MultiHeadAttention's `attention` an AdditiveAttention(hidden // heads)
    shared by its heads (10.7's exercise, scoring "additive"),
  - EncoderDecoder (so state_dict keys read encoder.*, decoder.*),
  - MaskedSoftmaxCELoss, grad_clipping, xavier_init_weights,
  - greedy translation of a batch, and bleu.

MultiHeadAttention, AddNorm and PositionWiseFFN are d2l's, as the other
references already write them (make_model_references.py).

One deliberate difference from the book, in greedy translation with the
Transformer: d2l's decoder adds P[:, :X.shape[1]] to its input, and its
predict_seq2seq feeds one token at a time, so every step gets position 0's
encoding, unlike training. Here step t gets position t (translation is then
the teacher-forced decoder run on its own prefix); `book_positions=True`
reproduces the book's.
"""

import collections
import functools
import math

import torch
from torch import nn

from make_model_references import AddNorm, MultiHeadAttention, PositionWiseFFN
from make_references import d2l_masked_softmax, positional_encoding, sequence_mask, transpose_output, transpose_qkv

PAD, BOS, EOS = 0, 1, 2


# ---------------------------------------------------------------------------
# Bahdanau attention (d2l 10.4 on 9.7's encoder)

class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, hidden):
        super().__init__()
        self.W_k = nn.Linear(key_size, hidden, bias=False)
        self.W_q = nn.Linear(query_size, hidden, bias=False)
        self.w_v = nn.Linear(hidden, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        # Every query against every key: (batch, queries, keys, hidden).
        features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = d2l_masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


class DotProductAttention(nn.Module):
    """d2l's scaled dot-product attention, with the book's masked softmax."""
    def forward(self, queries, keys, values, valid_lens):
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(queries.shape[-1])
        self.attention_weights = d2l_masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


class AdditiveMultiHeadAttention(nn.Module):
    """d2l's MultiHeadAttention with AdditiveAttention(num_hiddens = hidden //
    heads) as its `attention`: the heads reach it as items of the batch
    (transpose_qkv), so they share its weights. Registered first, as the book's
    attention module is, so its state_dict names lead: attention.W_k.weight, ..."""
    def __init__(self, hidden, heads):
        super().__init__()
        self.num_heads = heads
        self.attention = AdditiveAttention(hidden // heads, hidden // heads, hidden // heads)
        self.W_q = nn.Linear(hidden, hidden, bias=False)
        self.W_k = nn.Linear(hidden, hidden, bias=False)
        self.W_v = nn.Linear(hidden, hidden, bias=False)
        self.W_o = nn.Linear(hidden, hidden, bias=False)

    def forward(self, queries, keys, values, valid_lens):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        self.attention_weights = self.attention.attention_weights
        return self.W_o(transpose_output(output, self.num_heads))


def multi_head_attention(hidden, heads, scoring):
    return AdditiveMultiHeadAttention(hidden, heads) if scoring == "additive" else MultiHeadAttention(hidden, heads)


CELLS = {"gru": nn.GRU, "lstm": nn.LSTM}


def join_directions(state):
    """h_n is (layers * 2, batch, hidden / 2): layer l's forward state at 2l,
    its backward one at 2l + 1; the decoder gets them joined."""
    return torch.cat((state[0::2], state[1::2]), dim=-1)


class Seq2SeqEncoder(nn.Module):
    def __init__(self, vocab, embed, hidden, layers, bidirectional=False, cell="gru"):
        super().__init__()
        self.bidirectional = bidirectional
        self.embedding = nn.Embedding(vocab, embed)
        if bidirectional:
            if hidden % 2 != 0:
                raise ValueError("a bidirectional encoder needs an even hidden size")
            self.rnn = CELLS[cell](embed, hidden // 2, layers, bidirectional=True)
        else:
            self.rnn = CELLS[cell](embed, hidden, layers)

    def forward(self, X, *args):
        # Time-major, over every position (d2l does not pack the padding away).
        outputs, state = self.rnn(self.embedding(X).permute(1, 0, 2))
        if self.bidirectional:
            # An LSTM's state is the pair (h_n, c_n): each joined the same way.
            state = tuple(map(join_directions, state)) if isinstance(state, tuple) else join_directions(state)
        return outputs, state


class Seq2SeqAttentionDecoder(nn.Module):
    def __init__(self, vocab, embed, hidden, layers, scoring="additive", cell="gru"):
        super().__init__()
        self.attention = AdditiveAttention(hidden, hidden, hidden) if scoring == "additive" else DotProductAttention()
        self.embedding = nn.Embedding(vocab, embed)
        self.rnn = CELLS[cell](embed + hidden, hidden, layers)
        self.dense = nn.Linear(hidden, vocab)

    def init_state(self, enc_outputs, enc_valid_lens, *args):
        outputs, hidden_state = enc_outputs
        return (outputs.permute(1, 0, 2), hidden_state, enc_valid_lens)

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        X = self.embedding(X).permute(1, 0, 2)
        outputs, weights = [], []
        for x in X:
            # The last layer's state before this step (an LSTM's h).
            query = (hidden_state[0] if isinstance(hidden_state, tuple) else hidden_state)[-1].unsqueeze(1)
            context = self.attention(query, enc_outputs, enc_outputs, enc_valid_lens)
            x = torch.cat((context, x.unsqueeze(1)), dim=-1)
            out, hidden_state = self.rnn(x.permute(1, 0, 2), hidden_state)
            outputs.append(out)
            weights.append(self.attention.attention_weights)  # (batch, 1, source steps)
        # (blocks 1, batch, heads 1, steps, source steps)
        self.cross_weights = torch.cat(weights, dim=1).unsqueeze(1).unsqueeze(0)
        outputs = self.dense(torch.cat(outputs, dim=0))
        return outputs.permute(1, 0, 2), [enc_outputs, hidden_state, enc_valid_lens]


# ---------------------------------------------------------------------------
# Transformer (d2l 10.7)

@functools.lru_cache(maxsize=None)
def positions(length, hidden):
    return positional_encoding(length, hidden)  # a constant: made once per size


def add_positions(X, scale, start=0):
    """X * scale + P[start:start + steps] (d2l's PositionalEncoding, dropout 0)."""
    steps, hidden = X.shape[1], X.shape[2]
    return X * scale + positions(start + steps, hidden)[start:].unsqueeze(0)


class TransformerEncoderBlock(nn.Module):
    def __init__(self, hidden, heads, ffn, scoring="dot"):
        super().__init__()
        self.attention = multi_head_attention(hidden, heads, scoring)
        self.addnorm1 = AddNorm(hidden)
        self.ffn = PositionWiseFFN(hidden, ffn)
        self.addnorm2 = AddNorm(hidden)

    def forward(self, X, valid_lens):
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


class TransformerEncoder(nn.Module):
    def __init__(self, vocab, hidden, heads, ffn, blocks, embedding_scale=None, scoring="dot"):
        super().__init__()
        self.hidden, self.heads = hidden, heads
        self.embedding_scale = math.sqrt(hidden) if embedding_scale is None else embedding_scale
        self.embedding = nn.Embedding(vocab, hidden)
        self.blks = nn.Sequential()
        for i in range(blocks):
            self.blks.add_module(f"block{i}", TransformerEncoderBlock(hidden, heads, ffn, scoring))

    def forward(self, X, valid_lens, *args):
        batch, steps = X.shape
        X = add_positions(self.embedding(X), self.embedding_scale)
        weights = []
        for blk in self.blks:
            X = blk(X, valid_lens)
            weights.append(blk.attention.attention_weights.reshape(batch, self.heads, steps, steps))
        self.attention_weights = torch.stack(weights)  # (blocks, batch, heads, steps, steps)
        return X


class DecoderBlock(nn.Module):
    def __init__(self, hidden, heads, ffn, i, scoring="dot"):
        super().__init__()
        self.i = i
        self.attention1 = multi_head_attention(hidden, heads, scoring)
        self.addnorm1 = AddNorm(hidden)
        self.attention2 = multi_head_attention(hidden, heads, scoring)
        self.addnorm2 = AddNorm(hidden)
        self.ffn = PositionWiseFFN(hidden, ffn)
        self.addnorm3 = AddNorm(hidden)

    def forward(self, X, state):
        enc_outputs, enc_valid_lens = state[0], state[1]
        # The block's inputs so far are the keys and values of its
        # self-attention (all of them at once in training, one step at a time
        # when translating).
        key_values = X if state[2][self.i] is None else torch.cat((state[2][self.i], X), dim=1)
        state[2][self.i] = key_values
        if self.training:
            batch, steps, _ = X.shape
            dec_valid_lens = torch.arange(1, steps + 1).repeat(batch, 1)  # causal: query i sees keys 0..i
        else:
            dec_valid_lens = None
        Y = self.addnorm1(X, self.attention1(X, key_values, key_values, dec_valid_lens))
        Z = self.addnorm2(Y, self.attention2(Y, enc_outputs, enc_outputs, enc_valid_lens))
        return self.addnorm3(Z, self.ffn(Z)), state


class TransformerDecoder(nn.Module):
    def __init__(self, vocab, hidden, heads, ffn, blocks, embedding_scale=None, book_positions=False,
                 scoring="dot"):
        super().__init__()
        self.hidden, self.heads, self.num_blocks = hidden, heads, blocks
        self.embedding_scale = math.sqrt(hidden) if embedding_scale is None else embedding_scale
        self.book_positions = book_positions
        self.embedding = nn.Embedding(vocab, hidden)
        self.blks = nn.Sequential()
        for i in range(blocks):
            self.blks.add_module(f"block{i}", DecoderBlock(hidden, heads, ffn, i, scoring))
        self.dense = nn.Linear(hidden, vocab)

    def init_state(self, enc_outputs, enc_valid_lens, *args):
        return [enc_outputs, enc_valid_lens, [None] * self.num_blocks]

    def forward(self, X, state):
        batch, steps = X.shape
        cached = 0 if state[2][0] is None else state[2][0].shape[1]
        X = add_positions(self.embedding(X), self.embedding_scale, 0 if self.book_positions else cached)
        self_weights, cross_weights = [], []
        for blk in self.blks:
            X, state = blk(X, state)
            keys = state[2][blk.i].shape[1]
            self_weights.append(blk.attention1.attention_weights.reshape(batch, self.heads, steps, keys))
            cross_weights.append(blk.attention2.attention_weights.reshape(batch, self.heads, steps, -1))
        self.self_weights = torch.stack(self_weights)    # (blocks, batch, heads, steps, keys so far)
        self.cross_weights = torch.stack(cross_weights)  # (blocks, batch, heads, steps, source steps)
        return self.dense(X), state


# ---------------------------------------------------------------------------
# The wrapper, the objective, training and decoding (d2l 9.6, 9.7)

class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)


def bahdanau_model(source_vocab, target_vocab, embed, hidden, layers, bidirectional=False, scoring="additive",
                   cell="gru"):
    return EncoderDecoder(Seq2SeqEncoder(source_vocab, embed, hidden, layers, bidirectional, cell),
                          Seq2SeqAttentionDecoder(target_vocab, embed, hidden, layers, scoring, cell))


def transformer_model(source_vocab, target_vocab, hidden, heads, ffn, blocks, embedding_scale=None,
                      book_positions=False, scoring="dot"):
    return EncoderDecoder(TransformerEncoder(source_vocab, hidden, heads, ffn, blocks, embedding_scale, scoring),
                          TransformerDecoder(target_vocab, hidden, heads, ffn, blocks, embedding_scale,
                                             book_positions, scoring))


def xavier_init_weights(m):
    """d2l's train_seq2seq initialisation: Xavier-uniform on Linear weights and
    GRU weight matrices; everything else keeps PyTorch's own."""
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
    if type(m) == nn.GRU:
        for name in m._flat_weights_names:
            if "weight" in name:
                nn.init.xavier_uniform_(m._parameters[name])


class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
    """Per sequence: the cross-entropies, 0 past the valid length, averaged
    over every position (padding counted)."""

    def forward(self, pred, label, valid_len):
        weights = sequence_mask(torch.ones_like(label), valid_len)
        self.reduction = "none"
        unweighted = super().forward(pred.permute(0, 2, 1), label)
        return (unweighted * weights).mean(dim=1)


def token_loss(pred, label, valid_len):
    """The mean cross-entropy over the valid target tokens."""
    mask = (torch.arange(label.shape[1])[None, :] < valid_len[:, None]).to(pred.dtype)
    ce = nn.functional.cross_entropy(pred.permute(0, 2, 1), label, reduction="none")
    return (ce * mask).sum() / mask.sum()


def grad_clipping(net, theta):
    """Scales every gradient by theta / norm when their global norm exceeds
    theta; returns the norm before."""
    params = [p for p in net.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum(p.grad ** 2) for p in params))
    if norm > theta:
        for p in params:
            p.grad[:] *= theta / norm
    return float(norm)


def teacher_input(Y):
    """d2l's decoder input: <bos> then Y shifted right by one."""
    bos = torch.full((Y.shape[0], 1), BOS, dtype=Y.dtype)
    return torch.cat([bos, Y[:, :-1]], 1)


def train_step(net, optimizer, X, X_valid_len, Y, Y_valid_len, theta=1.0):
    """One step of d2l's train_seq2seq; returns (summed loss, token loss, norm before clipping)."""
    net.train()
    optimizer.zero_grad()
    Y_hat, _ = net(X, teacher_input(Y), X_valid_len)
    l = MaskedSoftmaxCELoss()(Y_hat, Y, Y_valid_len)
    l.sum().backward()
    norm = grad_clipping(net, theta) if theta > 0 else float("nan")
    optimizer.step()
    with torch.no_grad():
        tokens = token_loss(Y_hat, Y, Y_valid_len)
    return float(l.sum()), float(tokens), norm


def cross_weight_shape(net):
    dec = net.decoder
    return (dec.num_blocks, dec.heads) if isinstance(dec, TransformerDecoder) else (1, 1)


@torch.no_grad()
def translate(net, source, source_lens, max_length):
    """Greedy decoding of every item at once, as d2l's predict_seq2seq does
    one item: <bos> first, then each step's argmax (ties: the first) fed
    back, until <eos> (kept) or max_length tokens. Returns tokens (batch,
    max_length; <pad> after an item's end), lengths, and the cross weights
    (blocks, batch, heads, max_length, source steps; 0 past an item's end)."""
    net.eval()
    batch, steps = source.shape
    state = net.decoder.init_state(net.encoder(source, source_lens), source_lens)
    dec_X = torch.full((batch, 1), BOS, dtype=torch.long)
    blocks, heads = cross_weight_shape(net)
    tokens = torch.full((batch, max_length), PAD, dtype=torch.long)
    lengths = torch.zeros(batch, dtype=torch.long)
    weights = torch.zeros(blocks, batch, heads, max_length, steps)
    done = torch.zeros(batch, dtype=torch.bool)
    for t in range(max_length):
        Y, state = net.decoder(dec_X, state)
        dec_X = Y.argmax(dim=2)
        step_weights = net.decoder.cross_weights[:, :, :, 0, :]
        for b in range(batch):
            if done[b]:
                continue  # still computed (the batch moves together), never recorded
            tokens[b, t] = dec_X[b, 0]
            weights[:, b, :, t, :] = step_weights[:, b]
            lengths[b] += 1
            done[b] = bool(dec_X[b, 0] == EOS)
        if bool(done.all()):
            break
    net.train()
    return tokens, lengths, weights


def bleu(pred_tokens, label_tokens, k):
    """d2l 9.7.4 on token lists (without <eos>): exp(min(0, 1 - len_label /
    len_pred)) times p_n^(0.5^n) for n = 1..k, p_n the clipped n-gram
    precision. Where the book divides by zero: 0 for an empty prediction;
    an n longer than the prediction has no n-grams and is skipped (factor 1)."""
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    if len_pred == 0:
        return 0.0
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, k + 1):
        if len_pred - n + 1 <= 0:
            continue
        num_matches, label_subs = 0, collections.defaultdict(int)
        for i in range(len_label - n + 1):
            label_subs[tuple(label_tokens[i:i + n])] += 1
        for i in range(len_pred - n + 1):
            gram = tuple(pred_tokens[i:i + n])
            if label_subs[gram] > 0:
                num_matches += 1
                label_subs[gram] -= 1
        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
    return score
