// "Copy as PyTorch" for the attention-training section: a self-contained
// script (torch alone, float64) that trains d2l's Transformer encoder
// (zh.d2l.ai §10.7, d2l.ai §11.7; dropout 0) on the lab's toy task and prints the loss of every step, the
// same numbers the page's core gives:
//   - the model is the book's MultiHeadAttention / TransformerEncoderBlock
//     with the sinusoidal positional encoding, the lab's embedding scale and,
//     with ffnHidden = 0, the lab's attention-only blocks (no AddNorm, no FFN);
//   - its initial parameters are the core's own (attentionModelInit), written
//     out as shortest round-trip decimals, which Python reads back as the
//     same doubles;
//   - the batches come from a port of the core's generator (core/numerics/random.cpp:
//     xoshiro256** seeded through SplitMix64) and task generator
//     (core/encoder/attention_tasks.cpp), every draw in the same order: the batch of
//     global step t is the task's batch of seed (seed + t) mod 2^32, as
//     attentionModelTrain draws it;
//   - torch.optim.Adam or SGD with its defaults, as core/training/optimizers.hpp.
// The numbers come from the state and the core; this module only writes text.
import { t } from '../../i18n/index.js';
import { py, tensorLiteral, stateLine } from '../shared/pytorch-snippet.js';
import {
  MASKED_SOFTMAX, DOT_PRODUCT_ATTENTION, MULTI_HEAD_ATTENTION, POSITION_WISE_FFN, ADD_NORM, DROPOUT_NOTE,
} from '../shared/book-attention-pytorch.js';

// The section's parameters (state.js), stated at the top of the snippet (the
// declaration's `inputs` when it is given).
export const TRAINING_STATE = ['atTask', 'atLag', 'atCausal', 'atVariable', 'atHidden', 'atHeads', 'atBlocks', 'atFfn',
  'atD2lScale', 'atPositional', 'atOptimizer', 'atLr', 'atSteps', 'atSeed'];

// The model and training run a state describes. Sequence length, vocabulary
// and batch are the core's defaults (state.js AT_LENGTH and AT_VOCAB are
// those too); the model's generator takes the section's one seed, as do the batches.
export function trainingOptions(state, core) {
  const model = core.defaults?.attentionModel ?? {};
  const training = core.defaults?.attentionTraining ?? {};
  return {
    config: {
      vocab: model.vocab ?? 10,
      length: model.length ?? 8,
      hidden: state.atHidden,
      heads: state.atHeads,
      blocks: state.atBlocks,
      ffnHidden: state.atFfn,
      embeddingScale: state.atD2lScale ? Math.sqrt(state.atHidden) : 1,
      positional: state.atPositional,
      seed: state.atSeed,
    },
    task: state.atTask,
    lag: state.atLag,
    variableLengths: state.atVariable,
    causal: state.atCausal,
    optimizer: state.atOptimizer,
    lr: state.atLr,
    seed: state.atSeed,
    steps: state.atSteps,
    batch: training.batch ?? 32,
    heldOut: training.heldOut ?? 256,
    heldOutSeedMix: core.defaults.heldOutSeedMix,
  };
}

const GENERATOR = `# The lab draws its batches with its own seeded generator (core/numerics/random.cpp), not torch's:
# xoshiro256** seeded through SplitMix64. Only whole numbers are drawn here.
MASK64 = (1 << 64) - 1


class LabRandom:
    def __init__(self, seed):
        self.s = []
        x = seed
        for _ in range(4):  # SplitMix64
            x = (x + 0x9E3779B97F4A7C15) & MASK64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & MASK64

    def next_bits(self):  # xoshiro256**
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

    def below(self, n):  # a whole number in [0, n)
        return self.next_bits() % n


def task_batch(task, batch, length, vocab, seed, lag=1, variable_lengths=False):
    """The lab's toy tasks (core/encoder/attention_tasks.cpp), draw for draw. Positions at or
    past an item's valid length are padding: token 0, target 0, left out of the loss."""
    rng = LabRandom(seed)
    shortest = 2 if task == 'lookup' else 1
    tokens = [[0] * length for _ in range(batch)]
    targets = [[0] * length for _ in range(batch)]
    valid_lens = []
    for b in range(batch):
        valid = shortest + rng.below(length - shortest + 1) if variable_lengths else length
        valid_lens.append(valid)
        x, y = tokens[b], targets[b]
        if task == 'lookup':
            # m distinct keys (the first m of a Fisher-Yates shuffle of the vocab); each later
            # position repeats one, and its target is where that key stands.
            m = valid // 2
            keys = list(range(vocab))
            for k in range(m):
                j = k + rng.below(vocab - k)
                keys[k], keys[j] = keys[j], keys[k]
            for i in range(m):
                x[i] = y[i] = keys[i]
            for i in range(m, valid):
                k = rng.below(m)
                x[i], y[i] = keys[k], k
            continue
        for i in range(valid):
            x[i] = rng.below(vocab)
        if task == 'reverse':
            y[:valid] = [x[valid - 1 - i] for i in range(valid)]
        elif task == 'sort':
            y[:valid] = sorted(x[:valid])
        elif task == 'shift':  # target[i] = token[(i - lag) mod valid]
            y[:valid] = [x[(i + valid - lag % valid) % valid] for i in range(valid)]
    return torch.tensor(tokens), torch.tensor(targets), torch.tensor(valid_lens)
`;

const MODEL = `# d2l's masked softmax, scaled dot-product and multi-head attention (zh.d2l.ai §10.3, §10.5; d2l.ai §11.3, §11.5).
${DROPOUT_NOTE}


${MASKED_SOFTMAX}


${DOT_PRODUCT_ATTENTION}


${MULTI_HEAD_ATTENTION}


class PositionalEncoding(nn.Module):
    """zh.d2l.ai §10.6.3 (d2l.ai §11.6.3) in float64, dropout 0 (an odd size keeps its last sine column)."""

    def __init__(self, num_hiddens, max_len):
        super().__init__()
        self.P = torch.zeros((1, max_len, num_hiddens))
        X = torch.arange(max_len, dtype=torch.float64).reshape(-1, 1) / torch.pow(
            10000, torch.arange(0, num_hiddens, 2, dtype=torch.float64) / num_hiddens)
        self.P[:, :, 0::2] = torch.sin(X)
        self.P[:, :, 1::2] = torch.cos(X[:, :num_hiddens // 2])

    def forward(self, X):
        return X + self.P[:, :X.shape[1], :]


# d2l's Transformer encoder block (zh.d2l.ai §10.7, d2l.ai §11.7), dropout 0.
${POSITION_WISE_FFN}


${ADD_NORM}


class TransformerEncoderBlock(nn.Module):
    """The book's block; with ffn_num_hiddens = 0 the lab's attention-only block: X = MHA(X, X, X)."""

    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads):
        super().__init__()
        self.attention = MultiHeadAttention(num_hiddens, num_heads)
        self.ffn_num_hiddens = ffn_num_hiddens
        if ffn_num_hiddens > 0:
            self.addnorm1 = AddNorm(num_hiddens)
            self.ffn = PositionWiseFFN(num_hiddens, ffn_num_hiddens, num_hiddens)
            self.addnorm2 = AddNorm(num_hiddens)

    def forward(self, X, valid_lens):
        if self.ffn_num_hiddens == 0:
            return self.attention(X, X, X, valid_lens)
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


class TransformerEncoder(nn.Module):
    """d2l's encoder with the lab's embedding scale (the book's is sqrt(num_hiddens)) and its
    positions: d2l's sinusoidal encoding, a learned table (as d2l's BERT learns its position
    embedding) or none; then a Linear readout of a token at every position."""

    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, max_len, embedding_scale,
                 positional='sinusoidal'):
        super().__init__()
        self.embedding_scale = embedding_scale
        self.embedding = nn.Embedding(vocab_size, num_hiddens)
        self.positional = positional
        if positional == 'sinusoidal':
            self.pos_encoding = PositionalEncoding(num_hiddens, max_len)
        elif positional == 'learned':
            self.pos_embedding = nn.Parameter(torch.randn(max_len, num_hiddens))
        self.blks = nn.ModuleList(
            [TransformerEncoderBlock(num_hiddens, ffn_num_hiddens, num_heads) for _ in range(num_blks)])
        self.readout = nn.Linear(num_hiddens, vocab_size)

    def forward(self, X, valid_lens, causal=False):
        n = X.shape[1]
        if causal:  # query i sees keys j <= i: d2l's 2-D valid lengths
            full = valid_lens if valid_lens is not None else torch.full((X.shape[0],), n)
            valid_lens = torch.minimum(full[:, None], torch.arange(1, n + 1)[None, :])
        X = self.embedding(X) * self.embedding_scale
        if self.positional == 'sinusoidal':
            X = self.pos_encoding(X)
        elif self.positional == 'learned':
            X = X + self.pos_embedding[:n]
        self.attention_weights = [None] * len(self.blks)
        for i, blk in enumerate(self.blks):
            X = blk(X, valid_lens)
            self.attention_weights[i] = blk.attention.attention.attention_weights
        return self.readout(X)

    def lab_parameters(self):
        """The parameters under the lab's names, in its order."""
        named = [('embedding', self.embedding.weight)]
        if self.positional == 'learned':
            named.append(('positional', self.pos_embedding))
        for i, blk in enumerate(self.blks):
            a = blk.attention
            named += [(f'b{i}.Wq', a.W_q.weight), (f'b{i}.Wk', a.W_k.weight),
                      (f'b{i}.Wv', a.W_v.weight), (f'b{i}.Wo', a.W_o.weight)]
            if blk.ffn_num_hiddens > 0:
                named += [(f'b{i}.ln1.gamma', blk.addnorm1.ln.weight), (f'b{i}.ln1.beta', blk.addnorm1.ln.bias),
                          (f'b{i}.W1', blk.ffn.dense1.weight), (f'b{i}.b1', blk.ffn.dense1.bias),
                          (f'b{i}.W2', blk.ffn.dense2.weight), (f'b{i}.b2', blk.ffn.dense2.bias),
                          (f'b{i}.ln2.gamma', blk.addnorm2.ln.weight), (f'b{i}.ln2.beta', blk.addnorm2.ln.bias)]
        return named + [('readout', self.readout.weight), ('readoutBias', self.readout.bias)]


def masked_loss(logits, targets, valid_lens):
    """The mean cross-entropy over the valid positions."""
    n = targets.shape[1]
    valid = torch.arange(n)[None, :] < valid_lens[:, None]
    losses = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction='none')
    return (losses * valid.reshape(-1)).sum() / valid.sum()
`;

// One parameter tensor as a literal: shortest round-trip decimals (exact doubles).
const parameterLiteral = (name, values) => tensorLiteral(`init['${name}']`, Array.from(values, py));

// Each optimiser the core names (core.kinds.optimizer), as torch.optim writes it.
export const TORCH_OPTIMIZERS = Object.freeze({
  adam: (lr) => `torch.optim.Adam(net.parameters(), lr=${lr})  # betas (0.9, 0.999), eps 1e-8`,
  sgd: (lr) => `torch.optim.SGD(net.parameters(), lr=${lr})`,
});

// The script for one training run (trainingOptions) from the core's initial parameters.
export function attentionTrainingScript(options, core, { title = 'attention-training', stateText = '' } = {}) {
  const { config } = options;
  const { params } = core.attentionModelInit(config);
  const names = Object.keys(params);
  const variable = Boolean(options.variableLengths);
  const lens = variable ? 'valid_lens' : 'None';
  const scale = options.config.embeddingScale === 1 ? '1.0' : `math.sqrt(${config.hidden})  # d2l's scale`;
  if (!Object.hasOwn(TORCH_OPTIMIZERS, options.optimizer)) {
    throw new Error(`optimizer: one of ${Object.keys(TORCH_OPTIMIZERS).join(', ')}, not ${JSON.stringify(String(options.optimizer))}`);
  }
  const optimizer = TORCH_OPTIMIZERS[options.optimizer](py(options.lr));
  const parts = [
    `# Attention Lab, "${title}": the current state as PyTorch code: d2l's Transformer encoder`,
    '# (Dive into Deep Learning: zh.d2l.ai §10.7, d2l.ai §11.7) trained on the lab\'s toy task, step for step as the page trains it.',
    stateText ? `# State: ${stateText}` : null,
    '# Runs with torch alone; prints the loss of every step (the page\'s loss curve) and the held-out accuracy.',
    '# Autograd and the lab\'s hand-written backward pass differ in the last bits of a double. The first',
    '# losses agree to about 15 digits; training can amplify the difference later, most with d2l\'s',
    '# embedding scale (saturated softmaxes) or a large learning rate.',
    'import math\n\nimport torch\nfrom torch import nn\n',
    'torch.set_default_dtype(torch.float64)  # the lab computes in double precision',
    'torch.set_num_threads(1)\n',
    GENERATOR,
    MODEL,
    `task, lag, variable_lengths, causal = '${options.task}', ${options.lag}, ${py(variable)}, ${py(Boolean(options.causal))}`,
    `vocab, length, batch_size = ${config.vocab}, ${config.length}, ${options.batch}`,
    `num_hiddens, num_heads, num_blks, ffn_num_hiddens = ${config.hidden}, ${config.heads}, ${config.blocks}, ${config.ffnHidden}`,
    `embedding_scale = ${scale}`,
    `positional = '${config.positional}'  # 'sinusoidal' (d2l's), 'learned' or 'none'`,
    `seed, num_steps = ${options.seed}, ${options.steps}`,
    '',
    'net = TransformerEncoder(vocab, num_hiddens, ffn_num_hiddens, num_heads, num_blks, length, embedding_scale, positional)',
    '',
    '# The lab\'s initial parameters (PyTorch\'s initialisation, drawn by the lab\'s generator from the seed):',
    '# nn.Embedding (and learned positions) N(0, 1), nn.Linear U(-1/sqrt(in), 1/sqrt(in)), LayerNorm 1 and 0. Flat, row-major.',
    'init = {}',
    ...names.map((name) => parameterLiteral(name, params[name])),
    'with torch.no_grad():',
    '    for name, param in net.lab_parameters():',
    '        param.copy_(init[name].reshape(param.shape))',
    '',
    `optimizer = ${optimizer}`,
    'for step in range(num_steps):',
    '    # The batch of step t is the task\'s batch of seed (seed + t) mod 2^32.',
    '    tokens, targets, valid_lens = task_batch(task, batch_size, length, vocab, (seed + step) % 2**32, lag,',
    '                                             variable_lengths)',
    '    optimizer.zero_grad()',
    `    loss = masked_loss(net(tokens, ${lens}, causal), targets, valid_lens)`,
    '    loss.backward()',
    '    optimizer.step()',
    "    print(f'step {step + 1}, loss {loss.item()!r}')",
    '',
    `# Held-out accuracy: ${options.heldOut} sequences of seed seed XOR 0x${options.heldOutSeedMix.toString(16)}, never a training batch's.`,
    `tokens, targets, valid_lens = task_batch(task, ${options.heldOut}, length, vocab, seed ^ 0x${options.heldOutSeedMix.toString(16)}, lag,`,
    '                                         variable_lengths)',
    'with torch.no_grad():',
    `    predicted = net(tokens, ${lens}, causal).argmax(dim=-1)`,
    'valid = torch.arange(length)[None, :] < valid_lens[:, None]',
    "print(f'held-out accuracy {((predicted == targets) & valid).sum().item() / valid.sum().item()!r}')",
  ];
  return `${parts.filter((part) => part !== null).join('\n').replace(/\n{4,}/g, '\n\n\n').trimEnd()}\n`;
}

// The section declaration's `pytorch` (sections/registry.js): the script for the state shown.
export function attentionTrainingPytorch(state, core, section = {}) {
  const titleKey = section.frame?.titleKey;
  return attentionTrainingScript(trainingOptions(state, core), core, {
    title: titleKey ? t(titleKey) : (section.id ?? 'attention-training'),
    stateText: stateLine(state, section.inputs ?? TRAINING_STATE),
  });
}
