#!/usr/bin/python3
"""Writes tests/references/references.json: the values the C++ and Node tests
check the attention core against.

Run with Debian's Python, which has PyTorch (apt-get install python3-torch):

    /usr/bin/python3 tests/references/make_references.py

Two kinds of reference:
- bit-exact: the project's generator (SplitMix64-seeded xoshiro256**,
  Box-Muller) and its portable elementary functions, re-implemented here
  independently with the same operations in the same order, so Python floats
  give the same bits. Data sets are stored as float.hex() strings.
- recipes: the d2l PyTorch code (1st ed. 10.2-10.6, 2nd ed. attention pooling
  by similarity) run in float64 on stored inputs. Plain JSON numbers are
  Python's shortest round-trip form, so C++ and JS read back the same doubles.
  NaN (undefined by contract) is stored as null.

Random inputs and weights are rounded to 4 decimals: the rounded values are
what torch computes with and what the file stores, so nothing is lost, and
the file stays small.
"""

import json
import math
import os
import sys

import torch
from torch import nn

torch.set_default_dtype(torch.float64)
MASK64 = (1 << 64) - 1
HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------
# The project's generator and portable maths (core/numerics/random.cpp,
# core/numerics/portable_math.cpp, core/regression/dataset.cpp), written again from their
# descriptions. Every line keeps the C++ operation order: Python floats are
# IEEE doubles rounded to nearest, so the same order gives the same bits.

LN2_HI = 6.93147180369123816490e-01
LN2_LO = 1.90821492927058770002e-10
PIO2_HI = 1.57079632673412561417e+00
PIO2_LO = 6.07710050650619224932e-11
SQRT_HALF = 0.70710678118654752440
TWO_PI = 6.283185307179586476925


def round_to_integer(x):
    return math.floor(x + 0.5) * 1.0 if x >= 0 else -math.floor(-x + 0.5) * 1.0


def sin_kernel(r):
    r2 = r * r
    s = 0.0
    for k in range(17, 2, -2):
        s = (s + 1.0) * r2 / (-(k * (k - 1.0)))
    return r * (1.0 + s)


def cos_kernel(r):
    r2 = r * r
    s = 0.0
    for k in range(18, 1, -2):
        s = (s + 1.0) * r2 / (-(k * (k - 1.0)))
    return 1.0 + s


def reduce_quarter_turns(x):
    k = round_to_integer(x / PIO2_HI)
    return (x - k * PIO2_HI) - k * PIO2_LO, int(k)


def p_exp(x):
    if math.isnan(x):
        return x
    if x > 709.78:
        return math.inf
    if x < -745.2:
        return 0.0
    k = round_to_integer(x / (LN2_HI + LN2_LO))
    r = (x - k * LN2_HI) - k * LN2_LO
    s = 1.0
    for n in range(17, 0, -1):
        s = 1.0 + s * r / n
    return math.ldexp(s, int(k))


def p_log(x):
    if math.isnan(x) or x < 0:
        return math.nan
    if x == 0:
        return -math.inf
    if math.isinf(x):
        return x
    m, exponent = math.frexp(x)
    if m < SQRT_HALF:
        m *= 2.0
        exponent -= 1
    s = (m - 1.0) / (m + 1.0)
    s2 = s * s
    series = 0.0
    for k in range(25, 2, -2):
        series = (series + 1.0 / k) * s2
    log_m = 2.0 * s * (1.0 + series)
    return exponent * LN2_HI + (log_m + exponent * LN2_LO)


def p_sin(x):
    r, q = reduce_quarter_turns(x)
    return [sin_kernel, cos_kernel, lambda v: -sin_kernel(v), lambda v: -cos_kernel(v)][q % 4](r)


def p_cos(x):
    r, q = reduce_quarter_turns(x)
    return [cos_kernel, lambda v: -sin_kernel(v), lambda v: -cos_kernel(v), sin_kernel][q % 4](r)


def p_pow(x, exponent):
    if x == 0:
        return 0.0 if exponent > 0 else math.inf
    return p_exp(exponent * p_log(x))


class Generator:
    """SplitMix64-seeded xoshiro256**, uniform from the top 53 bits, Box-Muller."""

    def __init__(self, seed):
        state = seed & MASK64
        self.s = []
        for _ in range(4):
            state = (state + 0x9E3779B97F4A7C15) & MASK64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            self.s.append(z ^ (z >> 31))
        self.spare = None

    @staticmethod
    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK64

    def next_bits(self):
        s = self.s
        result = (self.rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self.rotl(s[3], 45)
        return result

    def uniform(self):
        return float(self.next_bits() >> 11) * 2.0 ** -53

    def normal(self):
        if self.spare is not None:
            value, self.spare = self.spare, None
            return value
        u1 = 1.0 - self.uniform()
        u2 = self.uniform()
        radius = math.sqrt(-2.0 * p_log(u1))
        self.spare = radius * p_sin(TWO_PI * u2)
        return radius * p_cos(TWO_PI * u2)


def portable_truth(x):
    return 2.0 * p_sin(x) + p_pow(x, 0.8)


def make_dataset(n, seed, noise, x_max):
    g = Generator(seed)
    x = sorted(g.uniform() * x_max for _ in range(n))  # all inputs first, then the noise
    y = [portable_truth(v) + noise * g.normal() for v in x]
    return x, y


def random_normal(count, seed, std):
    g = Generator(seed)
    return [std * g.normal() for _ in range(count)]


def scaling_study(dims, samples, keys, seed):
    """core/scoring/scaling_study.cpp: per d, `samples` random queries against `keys`
    random keys; variance of q.k (first key of each query) with and without
    the 1/sqrt(d) scaling, and the mean largest softmax weight."""
    def max_softmax_weight(scores):
        top = max(scores)
        e = [math.exp(v - top) for v in scores]
        total = 0.0
        for v in e:
            total += v
        inverse = 1.0 / total
        return max(v * inverse for v in e)

    def sample_variance(values):
        mean = 0.0
        for v in values:
            mean += v
        mean /= len(values)
        total = 0.0
        for v in values:
            total += (v - mean) * (v - mean)
        return total / (len(values) - 1)

    rows = []
    for d in dims:
        g = Generator((seed + d) & 0xFFFFFFFF)
        scale = 1.0 / math.sqrt(d)
        first, max_weight, scaled_max_weight = [], 0.0, 0.0
        for _ in range(samples):
            query = [g.normal() for _ in range(d)]
            scores = []
            for _ in range(keys):
                dot = 0.0
                for c in range(d):
                    dot += query[c] * g.normal()
                scores.append(dot)
            first.append(scores[0])
            max_weight += max_softmax_weight(scores)
            scaled_max_weight += max_softmax_weight([v * scale for v in scores])
        variance = sample_variance(first)
        rows.append({'d': d, 'variance': variance, 'scaledVariance': variance * scale * scale,
                     'maxWeight': max_weight / samples, 'scaledMaxWeight': scaled_max_weight / samples})
    return rows


# ---------------------------------------------------------------------------
# d2l recipes in PyTorch (float64).

def f(x):
    return 2 * torch.sin(x) + x ** 0.8


# 2nd edition, attention pooling by similarity: kernels of the scaled distance.
KERNELS = {
    'boxcar': lambda d: (torch.abs(d) < 1.0).double(),
    'constant': lambda d: 1.0 + 0 * d,
    'triangular': lambda d: torch.max(1 - torch.abs(d), torch.zeros_like(d)),  # d2l's "epanechikov"
    'epanechnikov': lambda d: torch.max(1 - d ** 2, torch.zeros_like(d)),
}


def pooling_weights(queries, keys, kernel, w):
    """(queries x keys) weights. The Gaussian is the 1st edition's softmax of
    -((x - x_i) w)^2 / 2; the others normalise the kernel over the keys as the
    2nd edition does (0/0 gives NaN: an empty row)."""
    d = (queries.reshape(-1, 1) - keys.reshape(1, -1)) * w
    if kernel == 'gaussian':
        return nn.functional.softmax(-d ** 2 / 2, dim=1)
    k = KERNELS[kernel](d)
    return k / k.sum(1, keepdim=True)


class NWKernelRegression(nn.Module):
    """d2l 1st ed. 10.2.4, with w set instead of drawn."""

    def __init__(self, w0):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([w0], requires_grad=True))

    def forward(self, queries, keys, values):
        queries = queries.repeat_interleave(keys.shape[1]).reshape((-1, keys.shape[1]))
        self.attention_weights = nn.functional.softmax(-((queries - keys) * self.w) ** 2 / 2, dim=1)
        return torch.bmm(self.attention_weights.unsqueeze(1), values.unsqueeze(-1)).reshape(-1)


def training_keys_values(x_train, y_train, leave_one_out):
    n = len(x_train)
    x_tile = x_train.repeat((n, 1))
    y_tile = y_train.repeat((n, 1))
    if not leave_one_out:
        return x_tile, y_tile
    keep = (1 - torch.eye(n)).type(torch.bool)
    return x_tile[keep].reshape((n, -1)), y_tile[keep].reshape((n, -1))


def nw_loss_and_gradient(x_train, y_train, w, leave_one_out):
    keys, values = training_keys_values(x_train, y_train, leave_one_out)
    net = NWKernelRegression(w)
    l = ((net(x_train, keys, values) - y_train) ** 2).sum()
    l.backward()
    return float(l), float(net.w.grad[0])


def train(x_train, y_train, w0, lr, epochs, leave_one_out):
    """The book's loop: loss of the epoch, then one SGD step."""
    keys, values = training_keys_values(x_train, y_train, leave_one_out)
    net = NWKernelRegression(w0)
    loss = nn.MSELoss(reduction='none')
    trainer = torch.optim.SGD(net.parameters(), lr=lr)
    ws, losses = [float(net.w[0])], []
    for _ in range(epochs):
        trainer.zero_grad()
        l = loss(net(x_train, keys, values), y_train)
        l.sum().backward()
        trainer.step()
        losses.append(float(l.sum()))
        ws.append(float(net.w[0]))
    return ws, losses


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32, device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


def d2l_masked_softmax(X, valid_lens):
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    shape = X.shape
    if valid_lens.dim() == 1:
        valid_lens = torch.repeat_interleave(valid_lens, shape[1])
    else:
        valid_lens = valid_lens.reshape(-1)
    X = sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
    return nn.functional.softmax(X.reshape(shape), dim=-1)


def masked_softmax(X, valid_lens):
    """d2l's masked_softmax, except the project's contract for valid length 0:
    no key is valid, so the row is all zeros (d2l gives a uniform row)."""
    result = d2l_masked_softmax(X.clone(), valid_lens)
    if valid_lens is not None:
        per_row = (torch.repeat_interleave(valid_lens, X.shape[1]) if valid_lens.dim() == 1
                   else valid_lens.reshape(-1))
        result.reshape(-1, X.shape[-1])[per_row == 0] = 0.0
    return result


class AdditiveAttention(nn.Module):
    def __init__(self, key_size, query_size, num_hiddens):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)  # dropout is off in evaluation


class DotProductAttention(nn.Module):
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


def transpose_qkv(X, num_heads):
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

    def forward(self, queries, keys, values, valid_lens, head_mask=None):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        output = self.attention(queries, keys, values, valid_lens)
        if head_mask is not None:  # the project's addition: scale each head's output before W_o
            output = (output.reshape(-1, self.num_heads, *output.shape[1:]) *
                      torch.tensor(head_mask).reshape(1, -1, 1, 1)).reshape(output.shape)
        return self.W_o(transpose_output(output, self.num_heads))


def positional_encoding(max_len, num_hiddens):
    """d2l 10.6.3 in float64; an odd size keeps its last sine column (the
    book's code only handles even sizes)."""
    P = torch.zeros((max_len, num_hiddens))
    X = torch.arange(max_len, dtype=torch.float64).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, num_hiddens, 2, dtype=torch.float64) / num_hiddens)
    P[:, 0::2] = torch.sin(X)
    P[:, 1::2] = torch.cos(X[:, :num_hiddens // 2])
    return P


# ---------------------------------------------------------------------------
# Helpers for the file.

def flat(t):
    """A tensor as a flat row-major list; NaN becomes None (JSON null)."""
    return [None if math.isnan(v) else v for v in t.detach().reshape(-1).tolist()]


def rounded(t, decimals=4):
    """Rounds a tensor's values so the file can store them exactly and briefly."""
    return torch.tensor([round(v, decimals) for v in t.reshape(-1).tolist()]).reshape(t.shape)


def set_linear(layer, generator, decimals=4):
    """nn.Linear's own init range, U(-1/sqrt(in), 1/sqrt(in)), drawn from a seeded generator."""
    bound = 1 / math.sqrt(layer.in_features)
    with torch.no_grad():
        layer.weight.copy_(rounded(layer.weight.uniform_(-bound, bound, generator=generator), decimals))
    return flat(layer.weight)


def lens_tensor(lens):
    return None if lens is None else torch.tensor(lens)


def batch_matrix_product_section():
    """torch.bmm: the book's ones example, and seeded N(0, 1) operands (rounded) of several shapes."""
    g = torch.Generator().manual_seed(5)
    cases = []

    def case(name, X, Y):
        cases.append({'name': name, 'shapeX': list(X.shape), 'shapeY': list(Y.shape), 'X': flat(X), 'Y': flat(Y),
                      'shape': list(torch.bmm(X, Y).shape), 'product': flat(torch.bmm(X, Y))})

    case('book: ones (2, 1, 4) x (2, 4, 6)', torch.ones((2, 1, 4)), torch.ones((2, 4, 6)))
    for n, a, b, c in ((2, 3, 4, 5), (3, 1, 7, 1), (1, 9, 6, 11), (4, 5, 5, 3)):
        case(f'random ({n}, {a}, {b}) x ({n}, {b}, {c})', rounded(torch.normal(0, 1, (n, a, b), generator=g)),
             rounded(torch.normal(0, 1, (n, b, c), generator=g)))
    # The training of w: weights (n, 1, n-1) of each query over the other keys, values (n, n-1, 1).
    weights = torch.softmax(rounded(torch.normal(0, 1, (6, 5), generator=g)), dim=1)
    values = rounded(torch.normal(0, 1, (6, 5), generator=g))
    case('training: weights.unsqueeze(1) x values.unsqueeze(-1)', weights.unsqueeze(1), values.unsqueeze(-1))
    return cases


# ---------------------------------------------------------------------------

def random_section():
    cases = []
    for seed in (0, 1, 42, 4294967295):
        g = Generator(seed)
        bits = ['0x%016x' % g.next_bits() for _ in range(6)]
        g = Generator(seed)
        uniforms = [g.uniform().hex() for _ in range(6)]
        g = Generator(seed)
        normals = [g.normal().hex() for _ in range(7)]  # odd: ends on a fresh pair's first value
        cases.append({'seed': seed, 'bits': bits, 'uniform': uniforms, 'normal': normals})
    return cases


def portable_math_section():
    args = [-745.0, -700.5, -20.0, -1.0, -0.35, -1e-300, 0.0, 1e-10, 0.3466, 0.5, 1.0, 2.5, 10.0,
            100.0, 709.0]
    positive = [5e-324, 1e-300, 1e-10, 0.25, 0.7071, 0.9999999, 1.0, 1.5, 2.0, 3.14159, 10.0, 1e10,
                1e300]
    angles = [-100.0, -7.5, -3.14159, -1.0, -1e-8, 0.0, 1e-8, 0.5, 0.7853981, 0.7853982, 1.5707963,
              2.0, 3.14159265, 4.71238898, 6.28318, 10.0, 31.4159, 100.0, 1000.0]
    bases = [0.0, 1e-12, 0.001, 0.1, 0.5, 1.0, 2.0, 4.99999, 50.0, 999.9]
    hx = float.hex
    return {
        'exp': [[hx(a), hx(p_exp(a))] for a in args],
        'log': [[hx(a), hx(p_log(a))] for a in positive],
        'sin': [[hx(a), hx(p_sin(a))] for a in angles],
        'cos': [[hx(a), hx(p_cos(a))] for a in angles],
        'pow': [[hx(b), hx(0.8), hx(p_pow(b, 0.8))] for b in bases] +
               [[hx(2.0), hx(-1.5), hx(p_pow(2.0, -1.5))], [hx(0.0), hx(-1.0), hx(p_pow(0.0, -1.0))]],
    }


DATASETS = [  # n, seed, noise, xMax
    (50, 0, 0.5, 5.0),
    (50, 42, 0.5, 5.0),
    (1, 7, 0.5, 5.0),
    (20, 4294967295, 0.0, 5.0),
    (100, 1, 2.5, 3.3),
    (500, 2024, 0.5, 5.0),
]


def datasets_section():
    out = []
    for n, seed, noise, x_max in DATASETS:
        x, y = make_dataset(n, seed, noise, x_max)
        out.append({'n': n, 'seed': seed, 'noise': noise, 'xMax': x_max,
                    'x': [v.hex() for v in x], 'y': [v.hex() for v in y]})
    return out


def random_normal_section():
    return [{'count': count, 'seed': seed, 'std': std,
             'values': [v.hex() for v in random_normal(count, seed, std)]}
            for count, seed, std in ((5, 0, 1.0), (64, 17, 0.02), (3, 4294967295, 2.5), (4, 9, 0.0))]


def scaling_study_section():
    dims, samples, keys, seed = [1, 2, 8, 64, 512], 200, 10, 3
    return {'dims': dims, 'samples': samples, 'keys': keys, 'seed': seed,
            'rows': scaling_study(dims, samples, keys, seed)}


def truth_section():
    x = torch.tensor([0.0, 1e-9, 0.1, 0.5, 1.0, 2.0, math.pi, 4.9, 5.0, 10.0, 123.4, 999.0])
    return {'x': flat(x), 'y': flat(f(x)), 'portable': [portable_truth(v).hex() for v in x.tolist()]}


# 1/sigma for the book's sigma 1, 0.1, 0.2, 0.5; others: a small width, a negative one (the sign
# must not matter) and 60, where the boxcar leaves some queries with no key (NaN rows).
POOLING_WIDTHS = [1.0, 10.0, 5.0, 2.0, 0.3, -2.5, 60.0]
WEIGHT_WIDTHS = (1.0, 5.0, -2.5, 60.0)  # full weight rows are stored for these only: they are big


def pooling_section():
    x, y = make_dataset(*DATASETS[0])
    x_train, y_train = torch.tensor(x), torch.tensor(y)
    x_test = torch.arange(0, 5, 0.1)
    weight_queries = x_test[::7]  # 0, 0.7, ..., 4.9
    cases = []
    for kernel in ('gaussian', 'boxcar', 'constant', 'triangular', 'epanechnikov'):
        for w in POOLING_WIDTHS:
            case = {'kernel': kernel, 'w': w,
                    'prediction': flat(pooling_weights(x_test, x_train, kernel, w) @ y_train)}
            if w in WEIGHT_WIDTHS:
                case['weights'] = flat(pooling_weights(weight_queries, x_train, kernel, w))
            cases.append(case)
    boxcar = [c for c in cases if c['kernel'] == 'boxcar' and c['w'] == 60.0][0]
    for key in ('prediction', 'weights'):
        assert None in boxcar[key] and any(v is not None for v in boxcar[key]), \
            'the boxcar case at w=60 must have both empty and non-empty rows'
    return {'dataset': list(DATASETS[0]), 'queries': flat(x_test), 'weightQueries': flat(weight_queries),
            'keys': x, 'values': y, 'average': flat(y_train.mean().repeat(len(x_test))), 'cases': cases}


def kernel_width_section():
    x, y = make_dataset(*DATASETS[0])
    x_train, y_train = torch.tensor(x), torch.tensor(y)
    loss_cases = []
    for loo in (True, False):
        for w in (-3.0, -0.7, -1e-7, 0.0, 1e-7, 0.05, 0.5, 1.0, 2.0, 4.5, 12.0, 40.0):
            loss, gradient = nw_loss_and_gradient(x_train, y_train, w, loo)
            loss_cases.append({'w': w, 'leaveOneOut': loo, 'loss': loss, 'gradient': gradient})

    generator = torch.Generator().manual_seed(0)
    w_rand = float(torch.rand((1,), generator=generator)[0])  # the book's U[0, 1) start
    training = []
    for w0, lr, epochs, loo in ((w_rand, 0.5, 5, True), (1.0, 0.5, 5, True), (1.0, 0.5, 20, True),
                                (-2.0, 0.5, 5, True), (0.0, 0.5, 3, True), (3.0, 0.05, 8, True),
                                (1.0, 0.5, 10, False), (w_rand, 0.5, 5, False)):
        ws, losses = train(x_train, y_train, w0, lr, epochs, loo)
        training.append({'w0': w0, 'lr': lr, 'epochs': epochs, 'leaveOneOut': loo,
                         'w': ws, 'loss': losses})

    grid = [-6.0, -3.0, -1.5, -0.5, 0.0, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0, 50.0]
    landscape = {'ws': grid}
    for key, loo in (('leaveOneOut', True), ('noLeaveOneOut', False)):
        landscape[key] = [nw_loss_and_gradient(x_train, y_train, w, loo)[0] for w in grid]
    return {'dataset': list(DATASETS[0]), 'x': x, 'y': y, 'loss': loss_cases, 'training': training,
            'landscape': landscape}


def masked_softmax_section():
    g = torch.Generator().manual_seed(1)
    cases = []

    def case(name, shape, lens, scale=1.0):
        scores = rounded(torch.rand(shape, generator=g) * scale)
        cases.append({'name': name, 'shape': list(shape), 'scores': flat(scores),
                      'validLens': lens, 'weights': flat(masked_softmax(scores, lens_tensor(lens)))})

    case('book 1-D valid lengths', (2, 2, 4), [2, 3])
    case('book 2-D valid lengths', (2, 2, 4), [[1, 3], [2, 4]])
    case('no mask', (2, 3, 5), None)
    case('large scores', (3, 2, 6), [6, 1, 4], scale=500.0)
    case('valid length 0 (1-D)', (2, 3, 4), [0, 4])
    case('valid length 0 (2-D)', (2, 3, 4), [[0, 1, 4], [3, 0, 2]])
    case('one query per item', (3, 1, 5), [5, 2, 1])
    return cases


def additive_attention_section():
    g = torch.Generator().manual_seed(2)
    model = AdditiveAttention(key_size=2, query_size=20, num_hiddens=8)
    weights = {'Wq': set_linear(model.W_q, g), 'Wk': set_linear(model.W_k, g),
               'wv': set_linear(model.w_v, g)}
    book_values = torch.arange(40, dtype=torch.float64).reshape(1, 10, 4).repeat(2, 1, 1)
    cases = []

    def case(name, queries, keys, values, lens):
        b, nq, dq = queries.shape
        _, nk, dk = keys.shape
        with torch.no_grad():
            output = model(queries, keys, values, lens_tensor(lens))
        cases.append({'name': name,
                      'shape': {'batch': b, 'nq': nq, 'nk': nk, 'dq': dq, 'dk': dk,
                                'dv': values.shape[2], 'h': 8},
                      'queries': flat(queries), 'keys': flat(keys), 'values': flat(values),
                      **weights, 'validLens': lens, 'output': flat(output),
                      'weights': flat(model.attention_weights)})

    book_queries = rounded(torch.normal(0, 1, (2, 1, 20), generator=g))
    case('book demo (keys all ones)', book_queries, torch.ones((2, 10, 2)), book_values, [2, 6])
    case('random keys', book_queries, rounded(torch.normal(0, 1, (2, 10, 2), generator=g)),
         book_values, [2, 6])
    q3 = rounded(torch.normal(0, 1, (2, 3, 20), generator=g))
    k3 = rounded(torch.normal(0, 1, (2, 10, 2), generator=g))
    case('2-D valid lengths', q3, k3, book_values, [[1, 10, 4], [0, 7, 3]])
    case('no mask', q3, k3, book_values, None)
    return cases


def dot_product_attention_section():
    g = torch.Generator().manual_seed(3)
    model = DotProductAttention()
    book_values = torch.arange(40, dtype=torch.float64).reshape(1, 10, 4).repeat(2, 1, 1)
    cases = []

    def case(name, queries, keys, values, lens):
        b, nq, d = queries.shape
        with torch.no_grad():
            output = model(queries, keys, values, lens_tensor(lens))
        cases.append({'name': name,
                      'shape': {'batch': b, 'nq': nq, 'nk': keys.shape[1], 'd': d, 'dv': values.shape[2]},
                      'queries': flat(queries), 'keys': flat(keys), 'values': flat(values),
                      'validLens': lens, 'output': flat(output), 'weights': flat(model.attention_weights)})

    book_queries = rounded(torch.normal(0, 1, (2, 1, 2), generator=g))
    case('book demo (keys all ones)', book_queries, torch.ones((2, 10, 2)), book_values, [2, 6])
    case('random keys', book_queries, rounded(torch.normal(0, 1, (2, 10, 2), generator=g)),
         book_values, [2, 6])
    q = rounded(torch.normal(0, 2, (3, 4, 6), generator=g))
    k = rounded(torch.normal(0, 2, (3, 5, 6), generator=g))
    v = rounded(torch.normal(0, 1, (3, 5, 3), generator=g))
    case('2-D valid lengths', q, k, v, [[1, 2, 5, 0], [5, 5, 3, 3], [2, 0, 1, 4]])
    case('no mask', q, k, v, None)
    return cases


def multi_head_attention_section():
    g = torch.Generator().manual_seed(4)
    models = []
    for hidden, heads, cases_spec in (
            (100, 5, [('book demo (inputs all ones)', 'ones', 2, 4, 6, [3, 2]),
                      ('random inputs', 'random', 2, 4, 6, [3, 2]),
                      ('2-D valid lengths', 'random', 2, 4, 6, [[1, 6, 3, 0], [2, 2, 5, 6]])]),
            (12, 3, [('self-attention', 'self', 2, 4, 4, [3, 2]),
                     ('small, no mask', 'random', 3, 2, 5, None),
                     ('small, 2-D valid lengths', 'random', 3, 2, 5, [[5, 1], [0, 3], [2, 4]]),
                     ('head mask', 'random', 2, 3, 4, [4, 2], [1.0, 0.0, 0.5])]),
            (6, 1, [('one head', 'random', 2, 3, 4, [4, 1])])):
        model = MultiHeadAttention(hidden, heads)
        # 3 decimals: the H=100 matrices are most of the file.
        weights = {name: set_linear(getattr(model, 'W_' + name[1]), g, decimals=3)
                   for name in ('Wq', 'Wk', 'Wv', 'Wo')}
        cases = []
        for name, kind, b, nq, nk, lens, *mask in cases_spec:
            head_mask = mask[0] if mask else None
            if kind == 'ones':
                queries, keys = torch.ones((b, nq, hidden)), torch.ones((b, nk, hidden))
                values = keys
            elif kind == 'self':
                queries = keys = values = rounded(torch.normal(0, 1, (b, nq, hidden), generator=g), 2)
            else:
                queries = rounded(torch.normal(0, 1, (b, nq, hidden), generator=g), 2)
                keys = rounded(torch.normal(0, 1, (b, nk, hidden), generator=g), 2)
                values = rounded(torch.normal(0, 1, (b, nk, hidden), generator=g), 2)
            with torch.no_grad():
                output = model(queries, keys, values, lens_tensor(lens), head_mask)
            cases.append({'name': name,
                          'shape': {'batch': b, 'nq': nq, 'nk': nk, 'hidden': hidden, 'heads': heads},
                          'queries': flat(queries), 'keys': flat(keys), 'values': flat(values),
                          'validLens': lens, 'headMask': head_mask, 'output': flat(output),
                          'weights': flat(model.attention.attention_weights)})
        models.append({'hidden': hidden, 'heads': heads, **weights, 'cases': cases})
    return models


def positional_encoding_section():
    return [{'maxLen': m, 'dim': d, 'P': flat(positional_encoding(m, d))}
            for m, d in ((60, 32), (10, 7), (1, 1), (5, 2))]


# ---------------------------------------------------------------------------
# Output: indented objects, number lists wrapped at about 100 columns, so the
# file diffs line by line and stays readable.

def dump(value, indent=0):
    pad, inner = ' ' * indent, ' ' * (indent + 1)
    if isinstance(value, dict):
        items = [f'{inner}{json.dumps(k)}: {dump(v, indent + 1).lstrip()}' for k, v in value.items()]
        return pad + '{\n' + ',\n'.join(items) + '\n' + pad + '}'
    if isinstance(value, list):
        if any(isinstance(v, dict) for v in value):
            return pad + '[\n' + ',\n'.join(dump(v, indent + 1) for v in value) + '\n' + pad + ']'
        parts = [json.dumps(v, allow_nan=False, separators=(',', ':')) for v in value]
        lines, line = [], ''
        for part in parts:
            if line and len(line) + len(part) > 100:
                lines.append(line)
                line = ''
            line += part + ','
        lines.append(line.rstrip(','))
        if len(lines) == 1:
            return pad + '[' + lines[0] + ']'
        return pad + '[\n' + '\n'.join(inner + l for l in lines) + '\n' + pad + ']'
    return pad + json.dumps(value, allow_nan=False)


def main():
    references = {
        'about': ('Reference values for the attention core tests. Generated by make_references.py '
                  f'with PyTorch {torch.__version__}: do not edit by hand. Hex strings are '
                  'float.hex(); null is NaN; matrices are flat, row-major.'),
        'random': random_section(),
        'portableMath': portable_math_section(),
        'datasets': datasets_section(),
        'randomNormal': random_normal_section(),
        'scalingStudy': scaling_study_section(),
        'truth': truth_section(),
        'pooling': pooling_section(),
        'kernelWidth': kernel_width_section(),
        'maskedSoftmax': masked_softmax_section(),
        'additiveAttention': additive_attention_section(),
        'dotProductAttention': dot_product_attention_section(),
        'multiHeadAttention': multi_head_attention_section(),
        'positionalEncoding': positional_encoding_section(),
        'batchMatrixProduct': batch_matrix_product_section(),
    }
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'references.json')
    text = dump(references) + '\n'
    json.loads(text)  # the file must be valid JSON
    with open(path, 'w') as out:
        out.write(text)
    print(f'wrote {path} ({len(text) // 1024} KiB)')


if __name__ == '__main__':
    main()
