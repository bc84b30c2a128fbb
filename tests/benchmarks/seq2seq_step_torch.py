#!/usr/bin/python3
"""One training step of d2l's sequence-to-sequence models in PyTorch,
float64, one thread: the figure the C++ core's step is compared with.

The models are the references' (tests/references/seq2seq_torch.py: d2l
10.4's Bahdanau attention with a one-directional or bidirectional GRU
encoder, d2l 10.7's Transformer, each scoring its own way or the other's),
and one step is d2l's train_seq2seq:

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

With --serve it is the PyTorch third of seq2seq-step.bench.mjs, one process
for a whole run: the caller writes one JSON line per configuration
({config, batch, lr, clip, source, sourceLens, targetIn, targetOut,
targetLens, params}: the C++ core's initial parameters by their d2l
state_dict names, flat, row-major, and its batch; seq2seq_step_benchmark
--serve prints them), and this script answers with one JSON line {torch,
threads, losses, tokenLosses, paramsAfter}: the objective (l.sum()) and the
token loss of the first three steps and every parameter after them, in the
order the caller gave them. Each line "step k i" is answered with
"<wall ms> <cpu ms>" of k back-to-back steps (time.perf_counter,
time.process_time) of the i-th configuration given (from 0; the last
without i), until "quit" or the end of input.

Each configuration prints the median of --repetitions samples (after
--warmup untimed ones) of --calls back-to-back steps, as CPU time of the
process (time.process_time) and wall clock (time.perf_counter), in ms per
step, and the multiply-adds of one step (counted below) as GFLOP/s.
"""

import argparse
import json
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
BASE = {"architecture": "bahdanau", "bidirectional": False, "scoring": None, "cell": "gru", "sourceVocab": 34, "targetVocab": 16,
        "length": 8, "batch": 64, "embed": 32, "hidden": 32, "layers": 2, "heads": 4, "ffnHidden": 64, "blocks": 2}


def variant(**changes):
    c = dict(BASE)
    c.update(changes)
    return c


CONFIGS = {
    "bahdanau": variant(),
    "bidirectional": variant(bidirectional=True),
    "transformer": variant(architecture="transformer"),
    "bidirectional dot": variant(bidirectional=True, scoring="dot"),
    "bidirectional lstm": variant(bidirectional=True, cell="lstm"),
    "transformer additive": variant(architecture="transformer", scoring="additive"),
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
        G = 4 if c["cell"] == "lstm" else 3  # gates a unit
        enc = 0
        for layer in range(c["layers"]):
            inputs = E if layer == 0 else H
            if c["bidirectional"]:
                enc += 2 * G * (H // 2) * (inputs + H // 2)
            else:
                enc += G * H * (inputs + H)
        enc *= B * S
        if scoring(c) == "dot":
            keys, per_step = 0, B * 2 * S * H      # q . k for every key, weights x values
        else:
            keys = B * S * H * H                   # W_k over the encoder's outputs, once
            per_step = B * (H * H + S * H + S * H)  # W_q, w_v on every key, weights x values
        for layer in range(c["layers"]):
            inputs = E + H if layer == 0 else H
            per_step += B * G * H * (inputs + H)
        per_step += B * H * Vt
        return enc + keys + T * per_step
    F, blocks = c["ffnHidden"], c["blocks"]
    enc = blocks * (B * S * (4 * H * H + 2 * H * F) + 2 * B * S * S * H)
    dec = blocks * (B * T * (4 * H * H + 2 * H * F) + 2 * B * T * T * H
                    + B * T * 2 * H * H + B * S * 2 * H * H + 2 * B * T * S * H)
    if scoring(c) == "additive":
        d = H // c["heads"]  # the shared W_q and W_k over every row's heads, w_v on every pair's features
        enc += blocks * (2 * B * S * H * d + B * S * S * H)
        dec += blocks * (3 * B * T * H * d + B * S * H * d + B * T * (T + S) * H)
    return enc + dec + B * T * H * Vt


def scoring(c):
    """The configuration's scoring, or its architecture's own (None)."""
    return c["scoring"] or ("additive" if c["architecture"] == "bahdanau" else "dot")


def make_net(c):
    if c["architecture"] == "bahdanau":
        return s2s.bahdanau_model(c["sourceVocab"], c["targetVocab"], c["embed"], c["hidden"], c["layers"],
                                  c["bidirectional"], scoring(c), c["cell"])
    return s2s.transformer_model(c["sourceVocab"], c["targetVocab"], c["hidden"], c["heads"], c["ffnHidden"],
                                 c["blocks"], c.get("embeddingScale"), scoring=scoring(c))


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
    def __init__(self, c, lr, clip=1.0, message=None):
        torch.manual_seed(0)
        self.net = make_net(c)
        self.net.apply(s2s.xavier_init_weights)
        self.net.train()
        self.clip = clip
        self.loss = s2s.MaskedSoftmaxCELoss()
        if message is None:
            X, X_len, Y, Y_len = make_batch(c, torch.Generator().manual_seed(1))
            self.dec_input = s2s.teacher_input(Y)
        else:  # the caller's parameters and batch
            self.names = list(message["params"])
            load_parameters(self.net, message["params"])
            B, S, T = message["batch"], c["sourceLength"], c["targetLength"]
            X = torch.tensor(message["source"], dtype=torch.long).reshape(B, S)
            X_len = torch.tensor(message["sourceLens"], dtype=torch.long)
            Y = torch.tensor(message["targetOut"], dtype=torch.long).reshape(B, T)
            Y_len = torch.tensor(message["targetLens"], dtype=torch.long)
            self.dec_input = torch.tensor(message["targetIn"], dtype=torch.long).reshape(B, T)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.X, self.X_len, self.Y, self.Y_len = X, X_len, Y, Y_len

    def step(self):
        self.optimizer.zero_grad()
        Y_hat, _ = self.net(self.X, self.dec_input, self.X_len)
        l = self.loss(Y_hat, self.Y, self.Y_len)
        l.sum().backward()
        if self.clip > 0:
            s2s.grad_clipping(self.net, self.clip)
        self.optimizer.step()
        self.last_pred = Y_hat
        return l


def load_parameters(net, params):
    """The caller's parameters, by state_dict name: every name once, sizes as the model has them."""
    state = net.state_dict()
    if set(state) != set(params):
        raise ValueError(f"parameter names differ: {sorted(set(state) ^ set(params))}")
    with torch.no_grad():
        for name, values in params.items():
            t = torch.tensor(values, dtype=torch.float64)
            if t.numel() != state[name].numel():
                raise ValueError(f"params.{name}: {t.numel()} numbers, the model has {state[name].numel()}")
            state[name].copy_(t.reshape(state[name].shape))


def serve():
    """The protocol of the module docstring, on stdin and stdout."""
    steppers = []  # one per configuration, in the order they came
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line == "quit":
            break
        if line.startswith("{"):
            message = json.loads(line)
            m = message["config"]
            c = variant(architecture=m["architecture"], bidirectional=m["bidirectional"], scoring=m["scoring"], cell=m["cell"],
                        sourceVocab=m["sourceVocab"], targetVocab=m["targetVocab"], length=m["targetLength"],
                        batch=message["batch"], embed=m["embed"], hidden=m["hidden"], layers=m["layers"],
                        heads=m["heads"], ffnHidden=m["ffnHidden"], blocks=m["blocks"])
            c["sourceLength"], c["targetLength"], c["embeddingScale"] = (m["sourceLength"], m["targetLength"],
                                                                        m["embeddingScale"])
            stepper = Stepper(c, message["lr"], message["clip"], message)
            steppers.append(stepper)
            losses, tokens = [], []
            for _ in range(3):
                l = stepper.step()
                losses.append(float(l.sum()))
                with torch.no_grad():
                    tokens.append(float(s2s.token_loss(stepper.last_pred, stepper.Y, stepper.Y_len)))
            state = stepper.net.state_dict()
            after = [x for name in stepper.names for x in state[name].reshape(-1).tolist()]
            print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "losses": losses,
                              "tokenLosses": tokens, "paramsAfter": after}), flush=True)
            continue
        command, calls, which = (line.split() + ["1", "-1"])[:3]
        calls, which = int(calls), int(which)
        if command != "step" or not -len(steppers) <= which < len(steppers) or calls < 1:
            print(f"error: unknown command '{line}'", flush=True)
            continue
        cpu, wall = sample(steppers[which], calls)
        print(f"{wall * calls:.6f} {cpu * calls:.6f}", flush=True)


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
    parser.add_argument("--serve", action="store_true", help="the protocol of seq2seq-step.bench.mjs (module docstring)")
    args = parser.parse_args()
    if args.serve:
        serve()
        return
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
