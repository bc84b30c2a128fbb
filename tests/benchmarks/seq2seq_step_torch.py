#!/usr/bin/python3
"""One training step of d2l's sequence-to-sequence models in PyTorch,
float64, one thread: the figure the C++ core's step is compared with.

The models are the references' (tests/references/seq2seq_torch.py: d2l
10.4's Bahdanau attention with a one-directional or bidirectional GRU
encoder, d2l 10.7's Transformer), and one step is d2l's train_seq2seq:

    optimizer.zero_grad()
    Y_hat, _ = net(X, <bos> + Y shifted, X_valid_len)
    l = MaskedSoftmaxCELoss()(Y_hat, Y, Y_valid_len)
    l.sum().backward()
    grad_clipping(net, 1)
    optimizer.step()                  # torch.optim.Adam(lr 0.005)

on a fixed batch (tokens drawn with a fixed seed, valid lengths from 2 to the
row length), starting from d2l's initialisation. Dropout is 0. The
positional encoding is made once per size (in PyTorch's favour).

Run with Debian's Python, which has PyTorch (apt-get install python3-torch):

    /usr/bin/python3 tests/benchmarks/seq2seq_step_torch.py            # the table
    /usr/bin/python3 tests/benchmarks/seq2seq_step_torch.py --configs bahdanau,transformer

Each configuration prints the median of --repetitions samples (after
--warmup untimed ones) of --calls back-to-back steps, as CPU time of the
process (time.process_time) and wall clock (time.perf_counter), in ms per
step, and the multiply-adds of one step (counted below) as GFLOP/s.
"""

import argparse
import os
import statistics
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "references"))
import seq2seq_torch as s2s  # noqa: E402  (d2l's models, the references' own)

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)

# numbers-en-zh's vocabularies; rows of 8 tokens; d2l 10.4's sizes.
BASE = {"architecture": "bahdanau", "bidirectional": False, "sourceVocab": 34, "targetVocab": 16,
        "length": 8, "batch": 64, "embed": 32, "hidden": 32, "layers": 2, "heads": 4, "ffnHidden": 64, "blocks": 2}


def variant(**changes):
    c = dict(BASE)
    c.update(changes)
    return c


CONFIGS = {
    "bahdanau": variant(),
    "bidirectional": variant(bidirectional=True),
    "transformer": variant(architecture="transformer"),
}
for arch, extra in (("bahdanau", {}), ("bidirectional", {"bidirectional": True}),
                    ("transformer", {"architecture": "transformer"})):
    for key, values in (("batch", (16, 128)), ("hidden", (64,)), ("length", (16,))):
        for v in values:
            CONFIGS[f"{arch} {key} {v}"] = variant(**extra, **{key: v, **({"embed": v} if key == "hidden" else {})})


def multiply_adds(c):
    """Multiply-adds of one teacher-forced forward pass (matrix products only)."""
    B, S, T, H, E = c["batch"], c["length"], c["length"], c["hidden"], c["embed"]
    Vt = c["targetVocab"]
    if c["architecture"] == "bahdanau":
        enc = 0
        for layer in range(c["layers"]):
            inputs = E if layer == 0 else H
            if c["bidirectional"]:
                enc += 2 * 3 * (H // 2) * (inputs + H // 2)
            else:
                enc += 3 * H * (inputs + H)
        enc *= B * S
        keys = B * S * H * H                       # W_k over the encoder's outputs, once
        per_step = B * (H * H + S * H + S * H)     # W_q, w_v on every key, weights x values
        for layer in range(c["layers"]):
            inputs = E + H if layer == 0 else H
            per_step += B * 3 * H * (inputs + H)
        per_step += B * H * Vt
        return enc + keys + T * per_step
    F, blocks = c["ffnHidden"], c["blocks"]
    enc = blocks * (B * S * (4 * H * H + 2 * H * F) + 2 * B * S * S * H)
    dec = blocks * (B * T * (4 * H * H + 2 * H * F) + 2 * B * T * T * H
                    + B * T * 2 * H * H + B * S * 2 * H * H + 2 * B * T * S * H)
    return enc + dec + B * T * H * Vt


def make_net(c):
    if c["architecture"] == "bahdanau":
        return s2s.bahdanau_model(c["sourceVocab"], c["targetVocab"], c["embed"], c["hidden"], c["layers"],
                                  c["bidirectional"])
    return s2s.transformer_model(c["sourceVocab"], c["targetVocab"], c["hidden"], c["heads"], c["ffnHidden"],
                                 c["blocks"])


def make_batch(c, generator):
    B, L = c["batch"], c["length"]

    def rows(vocab):
        tokens = torch.randint(3, vocab, (B, L), generator=generator)
        lens = torch.randint(2, L + 1, (B,), generator=generator)
        for b in range(B):
            tokens[b, lens[b] - 1] = s2s.EOS
            tokens[b, lens[b]:] = s2s.PAD
        return tokens, lens

    X, X_len = rows(c["sourceVocab"])
    Y, Y_len = rows(c["targetVocab"])
    return X, X_len, Y, Y_len


class Stepper:
    def __init__(self, c, lr):
        torch.manual_seed(0)
        self.net = make_net(c)
        self.net.apply(s2s.xavier_init_weights)
        self.net.train()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.loss = s2s.MaskedSoftmaxCELoss()
        X, X_len, Y, Y_len = make_batch(c, torch.Generator().manual_seed(1))
        self.X, self.X_len, self.Y, self.Y_len = X, X_len, Y, Y_len
        self.dec_input = s2s.teacher_input(Y)

    def step(self):
        self.optimizer.zero_grad()
        Y_hat, _ = self.net(self.X, self.dec_input, self.X_len)
        l = self.loss(Y_hat, self.Y, self.Y_len)
        l.sum().backward()
        s2s.grad_clipping(self.net, 1)
        self.optimizer.step()
        return l


def sample(stepper, calls):
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(calls):
        last = stepper.step()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    float(last.sum())
    return 1000.0 * cpu / calls, 1000.0 * wall / calls


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default=",".join(CONFIGS), help="comma-separated names: " + ", ".join(CONFIGS))
    parser.add_argument("--repetitions", type=int, default=11)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--lr", type=float, default=0.005)
    args = parser.parse_args()
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} thread, float64: one d2l train_seq2seq step "
          f"(forward, MaskedSoftmaxCELoss, backward, clipping, Adam), median of {args.repetitions} samples of "
          f"{args.calls} steps; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'configuration':<28}{'MFLOP':>8}{'CPU ms':>10}{'wall ms':>10}{'GFLOP/s':>9}")
    for name in args.configs.split(","):
        c = CONFIGS[name]
        stepper = Stepper(c, args.lr)
        for _ in range(args.warmup):
            sample(stepper, args.calls)
        samples = [sample(stepper, args.calls) for _ in range(args.repetitions)]
        cpu = statistics.median(s[0] for s in samples)
        wall = statistics.median(s[1] for s in samples)
        mflop = 3 * 2 * multiply_adds(c) / 1e6  # forward + backward (twice the forward), 2 FLOPs a multiply-add
        print(f"{name:<28}{mflop:>8.1f}{cpu:>10.3f}{wall:>10.3f}{mflop / cpu:>9.2f}", flush=True)
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
