#!/usr/bin/python3
"""Checks tests/references/seq2seq_references.json against a second,
independent reading of d2l's models: the forward passes written out as
equations on plain tensors (no nn.GRU, no nn.Module), from the parameters
and batch as the file stores them, the way the C++ reads them. It passes
when the logits, the attention weights and the losses agree to 1e-12.

    /usr/bin/python3 tests/references/check_seq2seq_references.py

What it spells out, for whoever implements the models:
  GRU (PyTorch's gate order r, z, n in weight_ih / weight_hh rows):
      r = sigmoid(W_ir x + b_ir + W_hr h + b_hr)
      z = sigmoid(W_iz x + b_iz + W_hz h + b_hz)
      n = tanh(W_in x + b_in + r * (W_hn h + b_hn))
      h' = (1 - z) * n + z * h,   h starting at 0 in the encoder
  LSTM (gates i, f, g, o in the rows of weight_ih / weight_hh), cell "lstm":
      i, f, o = sigmoid(W_i* x + b_i* + W_h* h + b_h*), g = tanh(...)
      c' = f * c + i * g,   h' = o * tanh(c'),   (h, c) starting at 0 in the
      encoder; the decoder starts from the encoder's final (h, c) and its
      attention's query is the last layer's h.
  bidirectional layer: the _reverse weights run from the last position
      (padding included) to the first; the layer's output at each position
      is [forward, backward]; the decoder's initial state of layer l is
      [forward final state, backward final state] (the backward one is at
      position 0).
  additive attention: score_s = w_v . tanh(W_q q + W_k k_s), -1e6 at
      s >= the source's valid length, softmax over s; with scoring "dot"
      score_s = q . k_s / sqrt(hidden), masked the same way.
  Transformer: X = embedding * scale + P; each block's multi-head attention
      (heads split the hidden columns in order, scores / sqrt(hidden / heads),
      masked with -1e6; with scoring "additive" every head's score is
      w_v . tanh(W_q q_h + W_k k_h) with the attention's one inner W_q, W_k,
      w_v of hidden / heads), AddNorm = LayerNorm(X + Y) with eps 1e-5.
"""

import json
import math
import os

import torch

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))


def load(case):
    p = {q["name"]: torch.tensor(q["values"]).reshape(q["shape"]) for q in case["params"]}
    b, c = case["batch"], case["config"]
    X = torch.tensor(case["source"]).reshape(b, c["sourceLength"])
    Yin = torch.tensor(case["targetIn"]).reshape(b, c["targetLength"])
    return p, X, torch.tensor(case["sourceLens"]), Yin


def gru_cell(x, h, W_ih, W_hh, b_ih, b_hh):
    gi, gh = x @ W_ih.T + b_ih, h @ W_hh.T + b_hh
    H = h.shape[-1]
    r = torch.sigmoid(gi[:, :H] + gh[:, :H])
    z = torch.sigmoid(gi[:, H:2 * H] + gh[:, H:2 * H])
    n = torch.tanh(gi[:, 2 * H:] + r * gh[:, 2 * H:])
    return (1 - z) * n + z * h


def lstm_cell(x, state, W_ih, W_hh, b_ih, b_hh):
    h, c = state
    gates = x @ W_ih.T + b_ih + h @ W_hh.T + b_hh
    H = h.shape[-1]
    i, f = torch.sigmoid(gates[:, :H]), torch.sigmoid(gates[:, H:2 * H])
    g, o = torch.tanh(gates[:, 2 * H:3 * H]), torch.sigmoid(gates[:, 3 * H:])
    c = f * c + i * g
    return o * torch.tanh(c), c


def hidden_of(state):
    """A GRU's state is h; an LSTM's the pair (h, c)."""
    return state[0] if isinstance(state, tuple) else state


def rnn_step(cell, x, state, p, prefix, suffix):
    weights = [p[f"{prefix}{name}{suffix}"] for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")]
    return (lstm_cell if cell == "lstm" else gru_cell)(x, state, *weights)


def rnn_direction(cell, xs, p, prefix, suffix):
    zeros = torch.zeros(xs[0].shape[0], p[f"{prefix}weight_hh{suffix}"].shape[1])
    state = (zeros, zeros) if cell == "lstm" else zeros
    outs = []
    for x in xs:
        state = rnn_step(cell, x, state, p, prefix, suffix)
        outs.append(hidden_of(state))
    return outs, state


def masked_softmax(scores, visible):
    """scores (..., keys); visible: a bool mask broadcastable to it."""
    return torch.softmax(torch.where(visible, scores, torch.tensor(-1e6)), dim=-1)


def bahdanau(case):
    c = case["config"]
    p, X, lens, Yin = load(case)
    S, T, L, cell = X.shape[1], Yin.shape[1], c["layers"], c.get("cell", "gru")
    xs = [p["encoder.embedding.weight"][X[:, s]] for s in range(S)]
    states = []
    for l in range(L):
        fwd, hf = rnn_direction(cell, xs, p, "encoder.rnn.", f"_l{l}")
        if c["bidirectional"]:
            bwd, hb = rnn_direction(cell, xs[::-1], p, "encoder.rnn.", f"_l{l}_reverse")
            xs = [torch.cat((f, b), dim=1) for f, b in zip(fwd, bwd[::-1])]
            join = lambda a, b: torch.cat((a, b), dim=1)  # noqa: E731
            states.append((join(hf[0], hb[0]), join(hf[1], hb[1])) if cell == "lstm" else join(hf, hb))
        else:
            xs, _ = fwd, states.append(hf)
    keys = torch.stack(xs, dim=1)  # (batch, S, hidden)
    visible = torch.arange(S)[None, :] < lens[:, None]
    h = states
    logits, weights = [], []
    for t in range(T):
        q = hidden_of(h[-1])
        if c.get("scoring") == "dot":
            scores = torch.einsum("bh,bsh->bs", q, keys) / math.sqrt(keys.shape[-1])
        else:
            features = torch.tanh((q @ p["decoder.attention.W_q.weight"].T)[:, None, :]
                                  + keys @ p["decoder.attention.W_k.weight"].T)
            scores = (features @ p["decoder.attention.w_v.weight"].T).squeeze(-1)
        w = masked_softmax(scores, visible)
        context = torch.einsum("bs,bsh->bh", w, keys)
        x = torch.cat((context, p["decoder.embedding.weight"][Yin[:, t]]), dim=1)
        new_h = []
        for l in range(L):
            state = rnn_step(cell, x, h[l], p, "decoder.rnn.", f"_l{l}")
            new_h.append(state)
            x = hidden_of(state)
        h = new_h
        logits.append(x @ p["decoder.dense.weight"].T + p["decoder.dense.bias"])
        weights.append(w)
    return torch.stack(logits, dim=1), torch.stack(weights, dim=1)[None, :, None], None, None


def positional_encoding(n, hidden):
    P = torch.zeros(n, hidden)
    for i in range(n):
        for j in range(0, hidden, 2):
            angle = i / math.pow(10000, j / hidden)
            P[i, j] = math.sin(angle)
            if j + 1 < hidden:
                P[i, j + 1] = math.cos(angle)
    return P


def layer_norm(X, gamma, beta):
    mean = X.mean(-1, keepdim=True)
    var = ((X - mean) ** 2).mean(-1, keepdim=True)
    return (X - mean) / torch.sqrt(var + 1e-5) * gamma + beta


def attention(p, prefix, queries, keys, visible, heads):
    """visible: (batch, queries, keys) bool. Returns output and weights (batch, heads, queries, keys)."""
    H = queries.shape[-1]
    d = H // heads
    Q, K, V = (m @ p[f"{prefix}.W_{w}.weight"].T for m, w in ((queries, "q"), (keys, "k"), (keys, "v")))
    outs, weights = [], []
    additive = f"{prefix}.attention.W_q.weight" in p
    for head in range(heads):
        cols = slice(head * d, (head + 1) * d)
        if additive:
            features = torch.tanh((Q[..., cols] @ p[f"{prefix}.attention.W_q.weight"].T)[:, :, None, :]
                                  + (K[..., cols] @ p[f"{prefix}.attention.W_k.weight"].T)[:, None, :, :])
            scores = (features @ p[f"{prefix}.attention.w_v.weight"].T).squeeze(-1)
        else:
            scores = Q[..., cols] @ K[..., cols].transpose(1, 2) / math.sqrt(d)
        w = masked_softmax(scores, visible)
        outs.append(w @ V[..., cols])
        weights.append(w)
    return torch.cat(outs, dim=-1) @ p[f"{prefix}.W_o.weight"].T, torch.stack(weights, dim=1)


def add_norm(p, prefix, X, Y):
    return layer_norm(X + Y, p[f"{prefix}.ln.weight"], p[f"{prefix}.ln.bias"])


def ffn(p, prefix, X):
    hidden = torch.relu(X @ p[f"{prefix}.dense1.weight"].T + p[f"{prefix}.dense1.bias"])
    return hidden @ p[f"{prefix}.dense2.weight"].T + p[f"{prefix}.dense2.bias"]


def transformer(case):
    c = case["config"]
    p, X, lens, Yin = load(case)
    B, S, T, H, heads = X.shape[0], X.shape[1], Yin.shape[1], c["hidden"], c["heads"]
    scale = c["embeddingScale"]
    source_visible = (torch.arange(S)[None, None, :] < lens[:, None, None])
    E = p["encoder.embedding.weight"][X] * scale + positional_encoding(S, H)
    encoder_weights = []
    for i in range(c["blocks"]):
        pre = f"encoder.blks.block{i}"
        A, w = attention(p, f"{pre}.attention", E, E, source_visible.expand(B, S, S), heads)
        Y = add_norm(p, f"{pre}.addnorm1", E, A)
        E = add_norm(p, f"{pre}.addnorm2", Y, ffn(p, f"{pre}.ffn", Y))
        encoder_weights.append(w)
    D = p["decoder.embedding.weight"][Yin] * scale + positional_encoding(T, H)
    causal = (torch.arange(T)[None, :] <= torch.arange(T)[:, None])[None].expand(B, T, T)
    self_weights, cross_weights = [], []
    for i in range(c["blocks"]):
        pre = f"decoder.blks.block{i}"
        A, ws = attention(p, f"{pre}.attention1", D, D, causal, heads)
        Y = add_norm(p, f"{pre}.addnorm1", D, A)
        A2, wc = attention(p, f"{pre}.attention2", Y, E, source_visible.expand(B, T, S), heads)
        Z = add_norm(p, f"{pre}.addnorm2", Y, A2)
        D = add_norm(p, f"{pre}.addnorm3", Z, ffn(p, f"{pre}.ffn", Z))
        self_weights.append(ws)
        cross_weights.append(wc)
    logits = D @ p["decoder.dense.weight"].T + p["decoder.dense.bias"]
    return logits, torch.stack(cross_weights), torch.stack(self_weights), torch.stack(encoder_weights)


def stored(entry):
    return torch.tensor(entry["values"]).reshape(entry["shape"])


def check(case):
    forward = bahdanau if case["config"]["architecture"] == "bahdanau" else transformer
    logits, cross, self_w, enc_w = forward(case)
    gaps = {"logits": (logits - stored(case["logits"])).abs().max(),
            "crossWeights": (cross - stored(case["crossWeights"])).abs().max()}
    if self_w is not None:
        gaps["selfWeights"] = (self_w - stored(case["selfWeights"])).abs().max()
        gaps["encoderWeights"] = (enc_w - stored(case["encoderWeights"])).abs().max()
    c = case["config"]
    Y = torch.tensor(case["targetOut"]).reshape(case["batch"], c["targetLength"])
    valid = torch.arange(c["targetLength"])[None, :] < torch.tensor(case["targetLens"])[:, None]
    ce = -torch.log_softmax(logits, -1).gather(-1, Y[..., None]).squeeze(-1) * valid
    gaps["loss"] = abs(float(ce.mean(1).sum()) - case["loss"])
    gaps["tokenLoss"] = abs(float(ce.sum() / valid.sum()) - case["tokenLoss"])
    worst = max(float(g) for g in gaps.values())
    print(f"{case['name']}: largest difference {worst:.2e} "
          f"({', '.join(f'{k} {float(v):.1e}' for k, v in gaps.items())})")
    return worst <= 1e-12


def main():
    with open(os.path.join(HERE, "seq2seq_references.json")) as f:
        data = json.load(f)
    ok = all([check(case) for case in data["cases"]])
    print("agree" if ok else "DISAGREE")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
