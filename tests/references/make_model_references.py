#!/usr/bin/python3
"""Writes tests/references/model_references.json: what the C++ tests of the
trainable attention model (core/encoder/attention_model.hpp, core/training/optimizers.hpp)
check against.

Run with Debian's Python, which has PyTorch (apt-get install python3-torch):

    /usr/bin/python3 tests/references/make_model_references.py

The model is d2l's Transformer encoder (10.7, PyTorch) in float64 with
dropout 0, written as the book writes it: masked_softmax, transpose_qkv /
transpose_output and the sinusoidal PositionalEncoding (from
make_references.py), MultiHeadAttention, AddNorm, PositionWiseFFN,
TransformerEncoderBlock,
then a Linear readout at every position. Two differences are the lab's own,
and are parameters here: the embedding scale (d2l: sqrt(hidden)) and blocks
that are attention only (no AddNorm, no FFN). The positions are d2l's
sinusoidal encoding, a learned table (as d2l's BERT has) or none. A causal mask is d2l's 2-D
valid lengths min(validLen, i + 1). The loss is the mean cross-entropy over
the valid positions; gradients come from autograd.

Parameters are drawn here (torch's own initialisation, a fixed seed; the
LayerNorm gammas and betas are perturbed so that their gradients are
exercised), rounded to 4 decimals, and stored with the results under the C++ names and layouts.
"""

import json
import math
import os

import torch
from torch import nn

# d2l's pieces as the references of the other layers write them. (Its
# MultiHeadAttention there uses the lab's masked_softmax, whose zeroed rows
# are written in place, which autograd refuses; the model's is d2l's own.)
from make_references import d2l_masked_softmax, positional_encoding, transpose_output, transpose_qkv

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.num_heads = heads
        self.W_q = nn.Linear(hidden, hidden, bias=False)
        self.W_k = nn.Linear(hidden, hidden, bias=False)
        self.W_v = nn.Linear(hidden, hidden, bias=False)
        self.W_o = nn.Linear(hidden, hidden, bias=False)
        self.head_mask = None  # 1 keeps a head, 0 switches it off (its output, before W_o)

    def forward(self, queries, keys, values, valid_lens):
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            valid_lens = torch.repeat_interleave(valid_lens, repeats=self.num_heads, dim=0)
        d = queries.shape[-1]
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = d2l_masked_softmax(scores, valid_lens)
        output = torch.bmm(self.attention_weights, values)
        if self.head_mask is not None:
            batch = output.shape[0] // self.num_heads
            output = (output.reshape(batch, self.num_heads, *output.shape[1:])
                      * self.head_mask[None, :, None, None]).reshape(output.shape)
        return self.W_o(transpose_output(output, self.num_heads))


class PositionWiseFFN(nn.Module):
    def __init__(self, hidden, ffn):
        super().__init__()
        self.dense1 = nn.Linear(hidden, ffn)
        self.relu = nn.ReLU()
        self.dense2 = nn.Linear(ffn, hidden)

    def forward(self, X):
        return self.dense2(self.relu(self.dense1(X)))


class AddNorm(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.ln = nn.LayerNorm(hidden)  # eps 1e-5

    def forward(self, X, Y):
        return self.ln(Y + X)


class Block(nn.Module):
    """d2l's TransformerEncoderBlock, or attention only when ffn is 0."""

    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.attention = MultiHeadAttention(hidden, heads)
        self.ffn_hidden = ffn
        if ffn > 0:
            self.addnorm1 = AddNorm(hidden)
            self.ffn = PositionWiseFFN(hidden, ffn)
            self.addnorm2 = AddNorm(hidden)

    def forward(self, X, valid_lens):
        if self.ffn_hidden == 0:
            return self.attention(X, X, X, valid_lens)
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


class Encoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c
        self.embedding = nn.Embedding(c["vocab"], c["hidden"])
        # The positions: d2l's sinusoidal encoding, a learned table as d2l's
        # BERT has (nn.Parameter(torch.randn(...))), or none at all.
        self.positional = c.get("positional", "sinusoidal")
        if self.positional == "learned":
            self.pos_embedding = nn.Parameter(torch.randn(c["length"], c["hidden"]))
        self.blocks = nn.ModuleList(
            [Block(c["hidden"], c["heads"], c["ffnHidden"]) for _ in range(c["blocks"])])
        self.readout = nn.Linear(c["hidden"], c["vocab"])

    def forward(self, tokens, valid_lens, causal, heads_off=None):
        c = self.c
        for i, block in enumerate(self.blocks):
            block.attention.head_mask = (None if heads_off is None
                                         else 1.0 - heads_off[i * c["heads"]:(i + 1) * c["heads"]].double())
        n = tokens.shape[1]
        X = self.embedding(tokens) * c["embeddingScale"]
        if self.positional == "sinusoidal":
            X = X + positional_encoding(n, c["hidden"])
        elif self.positional == "learned":
            X = X + self.pos_embedding[:n]
        lens = valid_lens
        if causal:
            full = valid_lens if valid_lens is not None else torch.full((tokens.shape[0],), n)
            lens = torch.minimum(full[:, None], torch.arange(1, n + 1)[None, :])
        weights = []
        for block in self.blocks:
            X = block(X, lens)
            weights.append(block.attention.attention_weights.reshape(tokens.shape[0], c["heads"], n, n))
        return self.readout(X), torch.stack(weights)

    def named(self):
        """The parameters under the C++ names, in the C++ layout order."""
        out = [("embedding", self.embedding.weight)]
        if self.positional == "learned":
            out.append(("positional", self.pos_embedding))
        for i, b in enumerate(self.blocks):
            p = f"b{i}."
            a = b.attention
            out += [(p + "Wq", a.W_q.weight), (p + "Wk", a.W_k.weight),
                    (p + "Wv", a.W_v.weight), (p + "Wo", a.W_o.weight)]
            if b.ffn_hidden > 0:
                out += [(p + "ln1.gamma", b.addnorm1.ln.weight), (p + "ln1.beta", b.addnorm1.ln.bias),
                        (p + "W1", b.ffn.dense1.weight), (p + "b1", b.ffn.dense1.bias),
                        (p + "W2", b.ffn.dense2.weight), (p + "b2", b.ffn.dense2.bias),
                        (p + "ln2.gamma", b.addnorm2.ln.weight), (p + "ln2.beta", b.addnorm2.ln.bias)]
        out += [("readout", self.readout.weight), ("readoutBias", self.readout.bias)]
        return out


def loss_of(model, tokens, targets, valid_lens, causal, heads_off=None):
    logits, weights = model(tokens, valid_lens, causal, heads_off)
    n = tokens.shape[1]
    if valid_lens is None:
        valid = torch.ones(tokens.shape, dtype=torch.bool)
    else:
        valid = torch.arange(n)[None, :] < valid_lens[:, None]
    losses = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1),
                                         reduction="none")
    return (losses * valid.reshape(-1)).sum() / valid.sum(), logits, weights


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def make_model(c, seed):
    torch.manual_seed(seed)
    model = Encoder(c)
    with torch.no_grad():
        for name, p in model.named():
            if name.endswith("gamma"):
                p.copy_(1 + 0.2 * torch.randn(p.shape))
            elif name.endswith("beta"):
                p.copy_(0.1 * torch.randn(p.shape))
            # Rounded to 4 decimals: what torch computes with is what the file stores, briefly.
            p.copy_(torch.round(p * 1e4) / 1e4)
    return model


def batch_of(c, batch, seed, with_lens):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, c["vocab"], (batch, c["length"]), generator=g)
    targets = torch.randint(0, c["vocab"], (batch, c["length"]), generator=g)
    lens = torch.randint(1, c["length"] + 1, (batch,), generator=g) if with_lens else None
    if with_lens:
        lens[0] = c["length"]  # one full item, one of length 1
        lens[-1] = 1
    return tokens, targets, lens


def config(vocab, length, hidden, heads, blocks, ffn, scale, positional=None):
    c = {"vocab": vocab, "length": length, "hidden": hidden, "heads": heads, "blocks": blocks,
         "ffnHidden": ffn, "embeddingScale": scale}
    if positional is not None:
        c["positional"] = positional
    return c


CONFIGS = {
    "attentionOnly": config(7, 5, 8, 2, 1, 0, 1.0),
    "attentionOnlyDeep": config(6, 6, 8, 4, 2, 0, 1.5),
    "encoderBlocks": config(7, 5, 8, 2, 2, 12, math.sqrt(8)),
}
# The positional encoding's variants (d2l 10.6, exercise 2; order-blindness without it).
POSITIONAL_CONFIGS = {
    "learnedPositions": config(7, 5, 8, 2, 1, 0, 1.0, "learned"),
    "learnedPositionsBlocks": config(7, 5, 8, 2, 2, 12, math.sqrt(8), "learned"),
    "noPositions": config(7, 5, 8, 2, 1, 0, 1.0, "none"),
    "noPositionsBlocks": config(6, 6, 8, 4, 2, 12, 1.5, "none"),
}


def model_case(name, c, seed, with_lens, causal):
    """One forward and backward pass of a model drawn from `seed` on a batch of 3."""
    model = make_model(c, seed)
    tokens, targets, lens = batch_of(c, 3, seed, with_lens)
    loss, logits, weights = loss_of(model, tokens, targets, lens, causal)
    named = model.named()
    grads = torch.autograd.grad(loss, [p for _, p in named])
    return {
        "name": f"{name} validLens={with_lens} causal={causal}",
        "config": c, "batch": 3,
        "tokens": flat(tokens), "targets": flat(targets),
        "validLens": None if lens is None else [int(v) for v in lens],
        "causal": causal,
        "params": {k: flat(p) for k, p in named},
        "logits": flat(logits), "weights": flat(weights), "loss": float(loss),
        "gradients": {k: flat(g) for (k, _), g in zip(named, grads)},
    }


def model_cases():
    cases = []
    seed = 10
    for name, c in CONFIGS.items():
        for with_lens in (False, True):
            for causal in (False, True):
                seed += 1
                cases.append(model_case(name, c, seed, with_lens, causal))
    # Heads switched off (their outputs zeroed before W_o): the accuracy
    # without a head measures its importance (d2l 10.5, exercise 2).
    for name, heads_off in (("attentionOnlyDeep", [0, 1, 0, 0, 1, 0, 0, 1]), ("encoderBlocks", [1, 0, 0, 1])):
        seed += 1
        c = CONFIGS[name]
        model = make_model(c, seed)
        tokens, targets, lens = batch_of(c, 3, seed, True)
        off = torch.tensor(heads_off)
        loss, logits, weights = loss_of(model, tokens, targets, lens, False, off)
        named = model.named()
        grads = torch.autograd.grad(loss, [p for _, p in named])
        cases.append({
            "name": f"{name} headsOff={heads_off}",
            "config": c, "batch": 3,
            "tokens": flat(tokens), "targets": flat(targets),
            "validLens": [int(v) for v in lens], "causal": False, "headsOff": heads_off,
            "params": {k: flat(p) for k, p in named},
            "logits": flat(logits), "weights": flat(weights), "loss": float(loss),
            "gradients": {k: flat(g) for (k, _), g in zip(named, grads)},
        })
    seed = 60
    for name, c in POSITIONAL_CONFIGS.items():
        for with_lens, causal in ((False, False), (True, True)):
            seed += 1
            cases.append(model_case(name, c, seed, with_lens, causal))
    return cases


def training_cases():
    """SGD and Adam steps on the model, each step on a new batch."""
    cases = []
    for name, optimizer, lr, steps in (("attentionOnly", "sgd", 0.1, 1), ("attentionOnly", "adam", 0.01, 4),
                                       ("encoderBlocks", "adam", 0.01, 3), ("encoderBlocks", "sgd", 0.5, 2),
                                       ("learnedPositions", "adam", 0.01, 3), ("noPositions", "adam", 0.01, 3)):
        c = {**CONFIGS, **POSITIONAL_CONFIGS}[name]
        model = make_model(c, 100 + steps)
        named = model.named()
        before = {k: flat(p) for k, p in named}
        params = [p for _, p in named]
        opt = torch.optim.SGD(params, lr=lr) if optimizer == "sgd" else torch.optim.Adam(params, lr=lr)
        batches, losses = [], []
        for s in range(steps):
            tokens, targets, lens = batch_of(c, 4, 200 + s, s % 2 == 1)
            causal = s == 2
            opt.zero_grad()
            loss, _, _ = loss_of(model, tokens, targets, lens, causal)
            loss.backward()
            opt.step()
            losses.append(float(loss))
            batches.append({"tokens": flat(tokens), "targets": flat(targets),
                            "validLens": None if lens is None else [int(v) for v in lens], "causal": causal})
        cases.append({"name": f"{name} {optimizer} lr={lr} steps={steps}", "config": c, "batch": 4,
                      "optimizer": optimizer, "lr": lr, "params": before, "batches": batches, "losses": losses,
                      "paramsAfter": {k: flat(p) for k, p in named}})
    return cases


def optimizer_cases():
    """torch.optim on one tensor with given gradients, step by step."""
    cases = []
    g = torch.Generator().manual_seed(5)
    for optimizer, lr, steps in (("sgd", 0.3, 3), ("adam", 0.01, 6), ("adam", 0.5, 3)):
        p = torch.randn(20, generator=g).requires_grad_()
        start = flat(p)
        grads = [torch.randn(20, generator=g) * (10.0 ** (s - 3)) for s in range(steps)]
        grads[0][3] = 0.0
        opt = torch.optim.SGD([p], lr=lr) if optimizer == "sgd" else torch.optim.Adam([p], lr=lr)
        after = []
        for gr in grads:
            p.grad = gr.clone()
            opt.step()
            after.append(flat(p))
        state = opt.state[p]
        cases.append({"optimizer": optimizer, "lr": lr, "params": start, "gradients": [flat(x) for x in grads],
                      "after": after,
                      "m": flat(state["exp_avg"]) if optimizer == "adam" else None,
                      "v": flat(state["exp_avg_sq"]) if optimizer == "adam" else None})
    return cases


def main():
    out = {"torch": torch.__version__, "model": model_cases(), "training": training_cases(),
           "optimizer": optimizer_cases()}
    path = os.path.join(HERE, "model_references.json")
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
