#!/usr/bin/python3
"""Writes tests/references/seq2seq_references.json: what the C++ tests of the
sequence-to-sequence models (core/seq2seq/model.hpp, training.hpp, bleu.hpp)
check against.

Run with Debian's Python, which has PyTorch (apt-get install python3-torch):

    /usr/bin/python3 tests/references/make_seq2seq_references.py

The models are d2l's, float64, dropout 0 (seq2seq_torch.py): d2l 10.4's
Bahdanau attention with its one-directional encoder, the same with Bahdanau
et al.'s bidirectional encoder, that one again with d2l's scaled
DotProductAttention in place of the additive one (10.4, exercise 2), and d2l
10.7's Transformer with the book's embedding scale sqrt(hidden), once with
its heads scoring by d2l's AdditiveAttention (10.7, exercise 2); and the
Bahdanau model with nn.LSTM in the GRU's place (10.4, exercise 1), one- and
bidirectional (the latter scoring by the dot product). Per case, at small sizes, on a batch of 3 with
padding in both the sources and the targets:
  - the parameters: d2l's initialisation (xavier_init_weights; the LayerNorm
    gammas and betas perturbed so that their use is exercised) from a fixed
    seed, rounded to 4 decimals (what torch computes with is what the file
    stores), in state_dict order under the state_dict names and shapes;
  - the teacher-forced forward pass (logits; attention weights), d2l's
    objective (MaskedSoftmaxCELoss summed over the batch), the mean
    cross-entropy per valid target token, and every gradient (autograd's);
  - two steps of d2l's train_seq2seq (l.sum().backward(), grad_clipping(net,
    1), torch.optim.Adam lr 0.01), the first on the case's batch, the second
    on another: the losses before each step and the parameters after both;
  - a greedy translation of the batch's sources of at most targetLength
    tokens (each item's tokens checked here against the teacher-forced
    decoder run on that item's own prefix).
Plus d2l's BLEU on a few token lists. Tensors are flat and row-major.
check_seq2seq_references.py recomputes the forward passes from this file
with the equations written out.

The file:
  torch                  the version that made it
  cases[]                one per model:
    name, seed, config   config in the JS spelling: architecture, sourceVocab,
                         targetVocab, sourceLength, targetLength, hidden,
                         embed, layers, bidirectional, heads, ffnHidden,
                         blocks, embeddingScale, scoring, cell (each model
                         reads its own; scoring null: the architecture's
                         own; cell "gru" or "lstm", Bahdanau's)
    params[]             {name, shape, values}, state_dict order
    batch, source, sourceLens, targetIn, targetOut, targetLens
                         targetIn is d2l's: <bos> then targetOut shifted
                         right, so an <eos> stays in it when the target is
                         shorter than the row
    logits, crossWeights, selfWeights, encoderWeights
                         {shape, values}: (batch, T, targetVocab);
                         (blocks, batch, heads, T, S), Bahdanau 1 block 1 head;
                         (blocks, batch, heads, T, T) and (..., S, S), Bahdanau
                         with 0 blocks
    lossPerItem, loss    MaskedSoftmaxCELoss per item, and summed
    tokenLoss            the mean cross-entropy over valid target tokens
    gradients[]          {name, values} of d loss / d parameter, params' order
    translation          {maxLength, tokens (batch x maxLength, <eos> kept,
                         <pad> after), lengths, crossWeights {shape, values}
                         (blocks, batch, heads, maxLength, S), 0 past a length}
    training             {optimizer "adam", lr, clip, batches[] (each: batch,
                         source, sourceLens, targetIn, targetOut, targetLens;
                         the first is the case's), losses[] and tokenLosses[]
                         before each step, gradientNorms[] (before clipping),
                         paramsAfter[] {name, values} after both steps}
  bleu[]                 {prediction, label, k, bleu}
"""

import json
import math
import os

import torch

from make_references import dump, rounded
import seq2seq_torch as s2s

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
HERE = os.path.dirname(os.path.abspath(__file__))

LEARNING_RATE = 0.01
CLIP = 1.0


def flat(t):
    return [float(v) for v in t.detach().reshape(-1).tolist()]


def ints(t):
    return [int(v) for v in t.reshape(-1).tolist()]


def tensor(t):
    return {"shape": list(t.shape), "values": flat(t)}


def config(architecture, bidirectional=False, **sizes):
    c = {"architecture": architecture, "sourceVocab": 7, "targetVocab": 6, "sourceLength": 5, "targetLength": 4,
         "hidden": 4, "embed": 3, "layers": 2, "bidirectional": bidirectional,
         "heads": 2, "ffnHidden": 6, "blocks": 2, "embeddingScale": 1.0, "scoring": None, "cell": "gru"}
    c.update(sizes)
    return c


CASES = [
    ("bahdanau", config("bahdanau")),
    ("bahdanau bidirectional", config("bahdanau", bidirectional=True)),
    ("transformer", config("transformer", hidden=8, embeddingScale=math.sqrt(8))),
    ("bahdanau bidirectional dot", config("bahdanau", bidirectional=True, scoring="dot")),
    ("transformer additive", config("transformer", hidden=8, embeddingScale=math.sqrt(8), scoring="additive")),
    ("bahdanau lstm", config("bahdanau", cell="lstm")),
    ("bahdanau bidirectional lstm dot", config("bahdanau", bidirectional=True, scoring="dot", cell="lstm")),
]


def make_net(c):
    if c["architecture"] == "bahdanau":
        return s2s.bahdanau_model(c["sourceVocab"], c["targetVocab"], c["embed"], c["hidden"], c["layers"],
                                  c["bidirectional"], c["scoring"] or "additive", c["cell"])
    return s2s.transformer_model(c["sourceVocab"], c["targetVocab"], c["hidden"], c["heads"], c["ffnHidden"],
                                 c["blocks"], c["embeddingScale"], scoring=c["scoring"] or "dot")


def init_net(c, seed):
    torch.manual_seed(seed)
    net = make_net(c)
    net.apply(s2s.xavier_init_weights)
    with torch.no_grad():
        for name, p in net.named_parameters():
            if ".ln.weight" in name:
                p.copy_(1 + 0.2 * torch.randn(p.shape))
            elif ".ln.bias" in name:
                p.copy_(0.1 * torch.randn(p.shape))
            p.copy_(rounded(p))
    return net


def sequences(generator, vocab, length, lens):
    """Rows of tokens from 3 .. vocab - 1, <eos> at len - 1, <pad> after."""
    rows = torch.randint(3, vocab, (len(lens), length), generator=generator)
    for b, n in enumerate(lens):
        rows[b, n - 1] = s2s.EOS
        rows[b, n:] = s2s.PAD
    return rows


def make_batch(c, seed, source_lens, target_lens):
    g = torch.Generator().manual_seed(seed)
    X = sequences(g, c["sourceVocab"], c["sourceLength"], source_lens)
    Y = sequences(g, c["targetVocab"], c["targetLength"], target_lens)
    return X, torch.tensor(source_lens), Y, torch.tensor(target_lens)


def batch_json(X, X_len, Y, Y_len):
    return {"batch": int(X.shape[0]), "source": ints(X), "sourceLens": ints(X_len),
            "targetIn": ints(s2s.teacher_input(Y)), "targetOut": ints(Y), "targetLens": ints(Y_len)}


def params_json(net):
    return [{"name": name, "shape": list(p.shape), "values": flat(p)} for name, p in net.state_dict().items()]


def forward_and_gradients(net, X, X_len, Y, Y_len):
    net.train()
    net.zero_grad()
    Y_hat, _ = net(X, s2s.teacher_input(Y), X_len)
    per_item = s2s.MaskedSoftmaxCELoss()(Y_hat, Y, Y_len)
    per_item.sum().backward()
    dec = net.decoder
    if isinstance(dec, s2s.TransformerDecoder):
        self_weights, encoder_weights = dec.self_weights, net.encoder.attention_weights
    else:
        b, t, s = X.shape[0], Y.shape[1], X.shape[1]
        self_weights, encoder_weights = torch.zeros(0, b, 1, t, t), torch.zeros(0, b, 1, s, s)
    return {
        "logits": tensor(Y_hat),
        "crossWeights": tensor(dec.cross_weights),
        "selfWeights": tensor(self_weights),
        "encoderWeights": tensor(encoder_weights),
        "lossPerItem": flat(per_item),
        "loss": float(per_item.sum()),
        "tokenLoss": float(s2s.token_loss(Y_hat, Y, Y_len)),
        "gradients": [{"name": name, "values": flat(p.grad)} for name, p in net.named_parameters()],
    }


def check_translation(net, X, X_len, tokens, lengths, weights):
    """Greedy decoding one token at a time must agree with the teacher-forced
    decoder run on each item's own prefix: same argmax, same cross weights."""
    with torch.no_grad():
        prefix = s2s.teacher_input(tokens)
        net.train()
        Y_hat, _ = net(X, prefix, X_len)
        forced = net.decoder.cross_weights
        for b in range(X.shape[0]):
            n = int(lengths[b])
            assert torch.equal(Y_hat[b, :n].argmax(-1), tokens[b, :n]), "greedy tokens differ from teacher forcing"
            gap = (forced[:, b, :, :n] - weights[:, b, :, :n]).abs().max()
            assert gap < 1e-12, f"greedy cross weights differ from teacher forcing by {gap}"


def translation_json(net, X, X_len, max_length):
    tokens, lengths, weights = s2s.translate(net, X, X_len, max_length)
    check_translation(net, X, X_len, tokens, lengths, weights)
    return {"maxLength": max_length, "tokens": ints(tokens), "lengths": ints(lengths),
            "crossWeights": tensor(weights)}


def training_json(net, batches):
    optimizer = torch.optim.Adam(net.parameters(), lr=LEARNING_RATE)
    losses, token_losses, norms = [], [], []
    for X, X_len, Y, Y_len in batches:
        loss, tokens, norm = s2s.train_step(net, optimizer, X, X_len, Y, Y_len, CLIP)
        losses.append(loss)
        token_losses.append(tokens)
        norms.append(norm)
    return {"optimizer": "adam", "lr": LEARNING_RATE, "clip": CLIP,
            "batches": [batch_json(*b) for b in batches],
            "losses": losses, "tokenLosses": token_losses, "gradientNorms": norms,
            "paramsAfter": [{"name": name, "values": flat(p)} for name, p in net.named_parameters()]}


def seq2seq_case(name, c, seed):
    """The first seed from `seed` on whose greedy translation one item stops
    at <eos> before the maximum length and another runs to it, so both ends
    of decoding are exercised."""
    source_lens, target_lens = [5, 3, 1], [4, 2, 1]
    second = ([2, 5, 4], [1, 4, 3])
    for attempt in range(seed, seed + 50):
        net = init_net(c, attempt)
        X, X_len, Y, Y_len = make_batch(c, attempt, source_lens, target_lens)
        tokens, lengths, _ = s2s.translate(net, X, X_len, c["targetLength"])
        if int(lengths.min()) < c["targetLength"] and int(lengths.max()) == c["targetLength"]:
            break
    else:
        raise RuntimeError(f"{name}: no seed in {seed}..{seed + 49} gives both kinds of translation")
    case = {"name": name, "seed": attempt, "config": c, "params": params_json(net)}
    case.update(batch_json(X, X_len, Y, Y_len))
    case.update(forward_and_gradients(net, X, X_len, Y, Y_len))
    case["translation"] = translation_json(net, X, X_len, c["targetLength"])
    batches = [(X, X_len, Y, Y_len), make_batch(c, attempt + 1000, *second)]
    case["training"] = training_json(net, batches)
    assert abs(case["training"]["losses"][0] - case["loss"]) < 1e-12
    return case


def bleu_cases():
    pairs = [
        ([3, 4, 5, 6], [3, 4, 5, 6], 2),        # exact: 1
        ([3, 4, 5], [3, 4, 5, 6], 2),           # short: brevity penalty
        ([3, 4, 5, 6, 7], [3, 4, 5, 6], 2),     # long: no penalty, precision < 1
        ([4, 3, 6, 5], [3, 4, 5, 6], 2),        # every unigram, no bigram
        ([3, 3, 3, 3], [3, 4, 3, 5], 2),        # clipped unigram counts, no bigram
        ([3, 3, 4], [3, 4, 3, 5], 2),           # clipped counts that all match, one bigram of two
        ([7, 8], [3, 4, 5], 2),                 # nothing matches: 0
        ([3, 4, 5, 3, 4], [3, 4, 5, 3, 4, 6], 3),
        ([5], [5], 2),                          # shorter than k: the bigram factor skipped
        ([5], [5, 6, 7], 2),
        ([], [3, 4], 2),                        # empty prediction: 0
    ]
    return [{"prediction": p, "label": l, "k": k, "bleu": s2s.bleu(p, l, k)} for p, l, k in pairs]


def main():
    out = {"torch": torch.__version__,
           "cases": [seq2seq_case(name, c, 10 * (i + 1)) for i, (name, c) in enumerate(CASES)],
           "bleu": bleu_cases()}
    path = os.path.join(HERE, "seq2seq_references.json")
    with open(path, "w") as f:
        f.write(dump(out))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")
    for case in out["cases"]:
        print(f"  {case['name']}: seed {case['seed']}, {sum(len(p['values']) for p in case['params'])} parameters, "
              f"loss {case['loss']:.6f}, translation lengths {case['translation']['lengths']}, "
              f"gradient norms {[round(n, 3) for n in case['training']['gradientNorms']]}")


if __name__ == "__main__":
    main()
