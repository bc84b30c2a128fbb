#!/usr/bin/python3
"""Writes tests/references/layer_references.json: what the C++ tests of the
layers (core/layers/) check their forward and backward passes against.

Run with Debian's Python, which has PyTorch (apt-get install python3-torch):

    /usr/bin/python3 tests/references/make_layer_references.py

Each layer is d2l's PyTorch module (or torch's own) in float64: nn.Linear,
nn.LayerNorm and d2l's AddNorm, d2l's MultiHeadAttention with queries and
keys from sequences of different lengths and 2-D valid lengths (a count of
visible keys per query, as a decoder's causal self-attention and its
encoder-decoder attention need), d2l's PositionWiseFFN, nn.Embedding scaled
and summed with d2l's positional encoding, and nn.CrossEntropyLoss per row.
Every input and parameter is drawn with a fixed seed and rounded to 4
decimals; the backward pass is autograd's of sum(output * dout) for a drawn
dout (for the cross-entropy, of sum(loss[r] / divisor[r]) over the rows
whose divisor is not 0). Matrices are flat and row-major.
"""

import os
import sys

import torch
from torch import nn

from make_references import AdditiveAttention, d2l_masked_softmax, dump, positional_encoding, rounded
from make_model_references import AddNorm, MultiHeadAttention, PositionWiseFFN

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def draw(*shape):
    return rounded(torch.randn(*shape)).requires_grad_()


def set_parameters(module):
    """Rounds a module's own initialisation to 4 decimals (perturbing gammas
    and betas, so their gradients are exercised), and returns them by name."""
    with torch.no_grad():
        for name, p in module.named_parameters():
            if name.startswith('ln.'):
                p.add_(0.1 * torch.randn(p.shape))
            p.copy_(rounded(p))
    return dict(module.named_parameters())


def linear_case():
    layer = nn.Linear(3, 4)
    params = set_parameters(layer)
    x, dout = draw(5, 3), rounded(torch.randn(5, 4))
    y = layer(x)
    (y * dout).sum().backward()
    return {'rows': 5, 'in': 3, 'out': 4, 'x': flat(x), 'weight': flat(params['weight']),
            'bias': flat(params['bias']), 'dout': flat(dout), 'y': flat(y), 'dweight': flat(params['weight'].grad),
            'dbias': flat(params['bias'].grad), 'dx': flat(x.grad)}


def add_norm_case():
    layer = AddNorm(6)
    params = set_parameters(layer)
    x, y, dout = draw(5, 6), draw(5, 6), rounded(torch.randn(5, 6))
    out = layer(x, y)
    (out * dout).sum().backward()
    return {'rows': 5, 'size': 6, 'x': flat(x), 'y': flat(y), 'gamma': flat(params['ln.weight']),
            'beta': flat(params['ln.bias']), 'dout': flat(dout), 'out': flat(out),
            'dgamma': flat(params['ln.weight'].grad), 'dbeta': flat(params['ln.bias'].grad), 'dx': flat(x.grad),
            'dy': flat(y.grad)}


def attention_case(queries, keys, hidden, heads, valid_lens, causal, same_sequence):
    """valid_lens: one per item; causal: query i sees at most i + 1 keys."""
    batch = len(valid_lens)
    layer = MultiHeadAttention(hidden, heads)
    params = set_parameters(layer)
    q_in = draw(batch, queries, hidden)
    k_in = q_in if same_sequence else draw(batch, keys, hidden)
    v_in = q_in if same_sequence else draw(batch, keys, hidden)
    visible = torch.tensor([[min(v, i + 1) if causal else v for i in range(queries)] for v in valid_lens])
    out = layer(q_in, k_in, v_in, visible)
    dout = rounded(torch.randn(out.shape))
    (out * dout).sum().backward()
    case = {'batch': batch, 'queries': queries, 'keys': keys, 'hidden': hidden, 'heads': heads,
            'validLens': valid_lens, 'causal': causal, 'sameSequence': same_sequence,
            'queriesIn': flat(q_in), 'keysIn': flat(k_in), 'valuesIn': flat(v_in),
            'Wq': flat(params['W_q.weight']), 'Wk': flat(params['W_k.weight']),
            'Wv': flat(params['W_v.weight']), 'Wo': flat(params['W_o.weight']), 'dout': flat(dout),
            'out': flat(out), 'weights': flat(layer.attention_weights),
            'dWq': flat(params['W_q.weight'].grad), 'dWk': flat(params['W_k.weight'].grad),
            'dWv': flat(params['W_v.weight'].grad), 'dWo': flat(params['W_o.weight'].grad),
            'dqueries': flat(q_in.grad)}
    if not same_sequence:
        case.update({'dkeys': flat(k_in.grad), 'dvalues': flat(v_in.grad)})
    return case


def ffn_case():
    layer = PositionWiseFFN(4, 7)
    params = set_parameters(layer)
    x, dout = draw(5, 4), rounded(torch.randn(5, 4))
    out = layer(x)
    (out * dout).sum().backward()
    return {'rows': 5, 'hidden': 4, 'inner': 7, 'x': flat(x), 'W1': flat(params['dense1.weight']),
            'b1': flat(params['dense1.bias']), 'W2': flat(params['dense2.weight']),
            'b2': flat(params['dense2.bias']), 'dout': flat(dout), 'out': flat(out),
            'dW1': flat(params['dense1.weight'].grad), 'db1': flat(params['dense1.bias'].grad),
            'dW2': flat(params['dense2.weight'].grad), 'db2': flat(params['dense2.bias'].grad), 'dx': flat(x.grad)}


def embedding_case():
    vocab, hidden, length, batch, scale = 5, 4, 3, 2, 1.7
    table = nn.Embedding(vocab, hidden)
    params = set_parameters(table)
    tokens = torch.tensor([[4, 0, 4], [2, 2, 1]])
    x = table(tokens) * scale + positional_encoding(length, hidden)
    dout = rounded(torch.randn(x.shape))
    (x * dout).sum().backward()
    return {'vocab': vocab, 'hidden': hidden, 'length': length, 'rows': batch * length, 'scale': scale,
            'tokens': flat(tokens), 'table': flat(params['weight']), 'dout': flat(dout), 'x': flat(x),
            'dtable': flat(params['weight'].grad)}


def cross_entropy_case():
    logits = draw(4, 5)
    targets = torch.tensor([3, 0, 1, 4])
    divisors = torch.tensor([3.0, 3.0, 0.0, 2.0])
    losses = nn.functional.cross_entropy(logits, targets, reduction='none')
    kept = divisors != 0
    (losses[kept] / divisors[kept]).sum().backward()
    return {'rows': 4, 'classes': 5, 'logits': flat(logits), 'targets': flat(targets), 'divisors': flat(divisors),
            'losses': flat(torch.where(kept, losses, torch.zeros(4))), 'dlogits': flat(logits.grad)}


class DecoderBlock(nn.Module):
    """d2l's DecoderBlock (10.7) in training mode with dropout 0: masked
    self-attention with the valid lengths 1..steps of every row (causal),
    then encoder-decoder attention masked by the source's valid lengths."""

    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.attention1 = MultiHeadAttention(hidden, heads)
        self.addnorm1 = AddNorm(hidden)
        self.attention2 = MultiHeadAttention(hidden, heads)
        self.addnorm2 = AddNorm(hidden)
        self.ffn = PositionWiseFFN(hidden, ffn)
        self.addnorm3 = AddNorm(hidden)

    def forward(self, X, enc_outputs, enc_valid_lens):
        batch_size, num_steps, _ = X.shape
        dec_valid_lens = torch.arange(1, num_steps + 1).repeat(batch_size, 1)
        X2 = self.attention1(X, X, X, dec_valid_lens)
        Y = self.addnorm1(X, X2)
        Y2 = self.attention2(Y, enc_outputs, enc_outputs, enc_valid_lens)
        Z = self.addnorm2(Y, Y2)
        return self.addnorm3(Z, self.ffn(Z))


def decoder_block_case():
    torch.manual_seed(20261127)
    batch, queries, keys, hidden, heads, ffn = 2, 4, 5, 6, 2, 7
    enc_valid_lens = torch.tensor([3, 5])
    block = DecoderBlock(hidden, heads, ffn)
    params = set_parameters(block)
    x, enc = draw(batch, queries, hidden), draw(batch, keys, hidden)
    out = block(x, enc, enc_valid_lens)
    dout = rounded(torch.randn(out.shape))
    (out * dout).sum().backward()
    case = {'batch': batch, 'queries': queries, 'keys': keys, 'hidden': hidden, 'heads': heads, 'ffnHidden': ffn,
            'encValidLens': flat(enc_valid_lens), 'x': flat(x), 'enc': flat(enc), 'dout': flat(dout),
            'out': flat(out), 'selfWeights': flat(block.attention1.attention_weights),
            'crossWeights': flat(block.attention2.attention_weights), 'dx': flat(x.grad), 'denc': flat(enc.grad),
            'params': {name: flat(p) for name, p in params.items()},
            'grads': {name: flat(p.grad) for name, p in params.items()}}
    return case


def gru_cell_case():
    torch.manual_seed(41)
    cell = nn.GRUCell(3, 4)
    params = set_parameters(cell)
    x, h, dout = draw(5, 3), draw(5, 4), rounded(torch.randn(5, 4))
    out = cell(x, h)
    (out * dout).sum().backward()
    case = {'batch': 5, 'in': 3, 'hidden': 4, 'x': flat(x), 'h': flat(h), 'dout': flat(dout), 'out': flat(out),
            'dx': flat(x.grad), 'dh': flat(h.grad)}
    for name in ('weight_ih', 'weight_hh', 'bias_ih', 'bias_hh'):
        case[name] = flat(params[name])
        case['d' + name] = flat(params[name].grad)
    return case


def gru_case(seed, steps, batch, inputs, hidden, layers, bidirectional):
    """nn.GRU over a time-major sequence from a given h0; the backward pass is
    autograd's of sum(output * dout) + sum(h_n * dh_n)."""
    torch.manual_seed(seed)
    gru = nn.GRU(inputs, hidden, layers, bidirectional=bidirectional)
    params = set_parameters(gru)
    directions = 2 if bidirectional else 1
    x, h0 = draw(steps, batch, inputs), draw(layers * directions, batch, hidden)
    out, h_n = gru(x, h0)
    dout, dh_n = rounded(torch.randn(out.shape)), rounded(torch.randn(h_n.shape))
    ((out * dout).sum() + (h_n * dh_n).sum()).backward()
    case = {'steps': steps, 'batch': batch, 'in': inputs, 'hidden': hidden, 'layers': layers,
            'bidirectional': bidirectional, 'x': flat(x), 'h0': flat(h0), 'dout': flat(dout), 'dhn': flat(dh_n),
            'out': flat(out), 'hn': flat(h_n), 'dx': flat(x.grad), 'dh0': flat(h0.grad),
            'names': [name for name, _ in gru.named_parameters()]}
    for name, p in gru.named_parameters():
        case[name] = flat(p)
        case['d' + name] = flat(p.grad)
    return case


class D2lAdditiveAttention(AdditiveAttention):
    """d2l's AdditiveAttention with d2l's own masked softmax (every valid
    length here is at least 1, so the project's rule for 0 does not arise)."""

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = d2l_masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


def additive_attention_case():
    """d2l's AdditiveAttention, 1-D valid lengths (1 among them)."""
    torch.manual_seed(43)
    batch, queries, keys, query_size, key_size, value_size, hidden = 3, 2, 5, 4, 3, 2, 6
    layer = D2lAdditiveAttention(key_size, query_size, hidden)
    params = set_parameters(layer)
    q_in, k_in, v_in = draw(batch, queries, query_size), draw(batch, keys, key_size), draw(batch, keys, value_size)
    valid_lens = [5, 1, 3]
    out = layer(q_in, k_in, v_in, torch.tensor(valid_lens))
    dout = rounded(torch.randn(out.shape))
    (out * dout).sum().backward()
    return {'batch': batch, 'queries': queries, 'keys': keys, 'querySize': query_size, 'keySize': key_size,
            'valueSize': value_size, 'hidden': hidden, 'validLens': valid_lens, 'queriesIn': flat(q_in),
            'keysIn': flat(k_in), 'valuesIn': flat(v_in), 'Wq': flat(params['W_q.weight']),
            'Wk': flat(params['W_k.weight']), 'wv': flat(params['w_v.weight']), 'dout': flat(dout),
            'out': flat(out), 'weights': flat(layer.attention_weights), 'dWq': flat(params['W_q.weight'].grad),
            'dWk': flat(params['W_k.weight'].grad), 'dwv': flat(params['w_v.weight'].grad),
            'dqueries': flat(q_in.grad), 'dkeys': flat(k_in.grad), 'dvalues': flat(v_in.grad)}


def main():
    torch.manual_seed(20261126)
    references = {
        'about': ('Reference values for the layer tests (core/layers/). Generated by make_layer_references.py '
                  f'with PyTorch {torch.__version__}: do not edit by hand. Matrices are flat, row-major.'),
        'linear': linear_case(),
        'addNorm': add_norm_case(),
        'crossAttention': attention_case(3, 5, 6, 2, [4, 2], False, False),
        'causalSelfAttention': attention_case(4, 4, 6, 3, [3, 4], True, True),
        'positionWiseFfn': ffn_case(),
        'embedding': embedding_case(),
        'crossEntropy': cross_entropy_case(),
        'decoderBlock': decoder_block_case(),
        'gruCell': gru_cell_case(),
        'gru': gru_case(42, 5, 2, 3, 4, 1, False),
        'gruBidirectional': gru_case(44, 4, 3, 3, 4, 1, True),
        'gruDeepBidirectional': gru_case(45, 4, 3, 3, 4, 2, True),
        'additiveAttention': additive_attention_case(),
    }
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'layer_references.json')
    text = dump(references) + '\n'
    with open(path, 'w') as out:
        out.write(text)
    print(f'wrote {path} ({len(text) // 1024} KiB)')


if __name__ == '__main__':
    main()
