#!/usr/bin/python3
"""The PyTorch third of the model-step benchmark (model-step.bench.mjs): one
Adam step of the trainable attention model in PyTorch, float64, one thread.

The model is the one the C++ tests are checked against:
tests/references/make_model_references.py (d2l's MultiHeadAttention,
AddNorm, PositionWiseFFN and TransformerEncoderBlock, as the book writes
them; attention-only blocks when ffnHidden is 0). One step is

    optimizer.zero_grad(set_to_none=True)
    loss = cross_entropy(model(tokens), targets)   # mean over every position
    loss.backward()
    optimizer.step()                               # torch.optim.Adam(lr), defaults otherwise

Where the choice was free it was made in PyTorch's favour: the positional
encoding is computed once per configuration (the reference recomputes it in
every forward pass; the C++ core caches it too), the attention weights are
not stacked for return, and gradients are set to None rather than zeroed.
Adam runs with foreach=True (the multi-tensor update) unless --no-foreach.

Run with Debian's Python, which has PyTorch (apt-get install python3-torch).
Protocol, one process for a whole run: the caller writes one JSON line per
configuration, {config, batch, lr, tokens, targets, params} (the parameters
by the C++ names, flat, row-major: model_step_benchmark prints them), and
this script answers with one JSON line {torch, losses, paramsAfter}: the
losses of the first three steps and every parameter after them in the C++
layout order. Then each line "step k" is answered with "<wall ms> <cpu ms>"
of k back-to-back steps (time.perf_counter, time.process_time), until the
next JSON line, "quit" or the end of input.

Alone (no --serve), it times the default configuration with its own
parameters and prints the median ms per step.
"""

import argparse
import json
import os
import statistics
import sys
import time

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "references"))
from make_model_references import Encoder  # noqa: E402  (d2l's model, the references' own)
from make_references import positional_encoding  # noqa: E402

torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)


class StepModel(Encoder):
    """The references' Encoder with its sinusoidal encoding made once (a
    learned table is its parameter; none adds nothing)."""

    def __init__(self, c):
        super().__init__(c)
        if self.positional not in ("sinusoidal", "learned", "none"):
            raise ValueError(f"config.positional: one of sinusoidal, learned, none; got {self.positional!r}")
        if self.positional == "sinusoidal":
            self.register_buffer("P", positional_encoding(c["length"], c["hidden"]), persistent=False)

    def logits(self, tokens):
        X = self.embedding(tokens) * self.c["embeddingScale"]
        if self.positional == "sinusoidal":
            X = X + self.P
        elif self.positional == "learned":
            X = X + self.pos_embedding
        for block in self.blocks:
            X = block(X, None)
        return self.readout(X)


class Trainer:
    def __init__(self, message, foreach):
        c = dict(message["config"])
        self.model = StepModel(c)
        named = self.model.named()
        with torch.no_grad():
            for name, p in named:
                values = torch.tensor(message["params"][name], dtype=torch.float64)
                if values.numel() != p.numel():
                    raise ValueError(f"params.{name}: {values.numel()} numbers, the model has {p.numel()}")
                p.copy_(values.reshape(p.shape))
        self.named = named
        batch, length = message["batch"], c["length"]
        self.tokens = torch.tensor(message["tokens"], dtype=torch.long).reshape(batch, length)
        self.targets = torch.tensor(message["targets"], dtype=torch.long).reshape(-1)
        self.vocab = c["vocab"]
        self.optimizer = torch.optim.Adam([p for _, p in named], lr=message["lr"], foreach=foreach)

    def step(self):
        self.optimizer.zero_grad(set_to_none=True)
        logits = self.model.logits(self.tokens)
        loss = nn.functional.cross_entropy(logits.reshape(-1, self.vocab), self.targets)
        loss.backward()
        self.optimizer.step()
        return loss

    def params_flat(self):
        return [float(v) for _, p in self.named for v in p.detach().reshape(-1).tolist()]


def time_steps(trainer, calls):
    cpu = time.process_time()
    wall = time.perf_counter()
    for _ in range(calls):
        last = trainer.step()
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    float(last)
    return 1000.0 * wall, 1000.0 * cpu


def serve(foreach):
    trainer = None
    for line in sys.stdin:
        line = line.strip()
        if line == "quit":
            break
        if line.startswith("{"):
            trainer = Trainer(json.loads(line), foreach)
            losses = [float(trainer.step()) for _ in range(3)]
            print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "foreach": foreach,
                              "losses": losses, "paramsAfter": trainer.params_flat()}), flush=True)
        elif line.startswith("step") and trainer is not None:
            parts = line.split()
            calls = int(parts[1]) if len(parts) > 1 else 1
            wall, cpu = time_steps(trainer, max(1, calls))
            print(f"{wall:.6f} {cpu:.6f}", flush=True)
        else:
            print(f"error: unknown command '{line}'", flush=True)


def alone(args):
    c = {"vocab": 10, "length": 8, "hidden": 32, "heads": 4, "blocks": 1, "ffnHidden": 0, "embeddingScale": 1.0}
    torch.manual_seed(0)
    model = StepModel(c)
    g = torch.Generator().manual_seed(0)
    tokens = torch.randint(0, 10, (32, 8), generator=g)
    message = {"config": c, "batch": 32, "lr": 0.01, "tokens": tokens.reshape(-1).tolist(),
               "targets": tokens.flip(1).reshape(-1).tolist(),
               "params": {name: p.detach().reshape(-1).tolist() for name, p in model.named()}}
    trainer = Trainer(message, not args.no_foreach)
    for _ in range(args.warmup):
        time_steps(trainer, args.calls)
    samples = [time_steps(trainer, args.calls) for _ in range(args.repetitions)]
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} thread, float64, foreach={not args.no_foreach}: "
          f"one Adam step at the default size, median of {args.repetitions} samples of {args.calls} steps: "
          f"wall {statistics.median(s[0] for s in samples) / args.calls:.4f} ms, "
          f"CPU {statistics.median(s[1] for s in samples) / args.calls:.4f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--no-foreach", action="store_true", help="Adam's per-tensor loop instead of foreach")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--repetitions", type=int, default=21)
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    if args.serve:
        serve(not args.no_foreach)
    else:
        alone(args)


if __name__ == "__main__":
    main()
