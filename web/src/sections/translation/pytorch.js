// "Copy as PyTorch" for the translation section: a self-contained script
// (torch alone, float64) with d2l's classes for the architecture chosen
// (zh.d2l.ai 10.4's Seq2SeqEncoder, optionally bidirectional as Bahdanau et al.'s,
// and Seq2SeqAttentionDecoder; or 10.7's TransformerEncoder and
// TransformerDecoder) wrapped in EncoderDecoder, so the state_dict keys are
// the core's parameter names:
//   - the initial parameters are the core's own (seq2seqInit), written out
//     as shortest round-trip decimals and loaded by load_state_dict;
//   - the batches are the core's (seq2seqTaskBatch of seed (seed + t) mod
//     2^32 for step t, as seq2seqTrain draws them), written out for the
//     first steps of the run (the tasks' generator is not ported: the words
//     of numbers and dates are the core's);
//   - d2l's train_seq2seq step: MaskedSoftmaxCELoss summed over the batch,
//     grad_clipping at theta, torch.optim.Adam;
// and prints the loss per target token of every step, the page's loss curve.
// The numbers come from the state and the core; this module only writes text.
import { t } from '../../i18n/index.js';
import { py, tensorLiteral, stateLine } from '../shared/pytorch-snippet.js';
import {
  MASKED_SOFTMAX, DOT_PRODUCT_ATTENTION, ADDITIVE_ATTENTION, multiHeadAttention, POSITION_WISE_FFN, ADD_NORM, DROPOUT_NOTE,
} from '../shared/book-attention-pytorch.js';
import {
  BATCH, LEARNING_RATE, CLIP, modelConfig, recurrent,
} from './setup.js';

// The state the snippet states at its top (the section's inputs but the view's).
export const TRANSLATION_STATE = ['trTask', 'trArchitecture', 'trCell', 'trScoring', 'trHeadScoring', 'trSteps', 'trSeed'];
// The batches of at most this many steps are written out (each about 1,100 ids).
export const SNIPPET_STEPS = 20;

// The recurrent translator, with its decoder's scoring: d2l 10.4's additive
// attention, or its exercise 2's scaled dot product in its place; and its
// layers: nn.GRU, or its exercise 1's nn.LSTM, whose state is the pair (h, c).
const recurrentModel = (scoring, cell) => {
  const lstm = cell === 'lstm';
  const rnn = lstm ? 'nn.LSTM' : 'nn.GRU';
  return `# Bahdanau attention (zh.d2l.ai §10.4, d2l.ai §11.4) on the encoder of zh.d2l.ai §9.7 (d2l.ai §10.7).
${scoring === 'dot' ? DOT_PRODUCT_ATTENTION : ADDITIVE_ATTENTION}


class Seq2SeqEncoder(nn.Module):
    """d2l's ${lstm ? 'encoder with nn.LSTM for its nn.GRU (zh.d2l.ai §10.4 exercise 1, d2l.ai §11.4)' : 'GRU encoder'}; bidirectional (Bahdanau et al.): num_hiddens // 2 units each way,
    each layer's final states joined [forward, backward] for the decoder."""

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, bidirectional=False):
        super().__init__()
        self.bidirectional = bidirectional
        self.embedding = nn.Embedding(vocab_size, embed_size)
        units = num_hiddens // 2 if bidirectional else num_hiddens
        self.rnn = ${rnn}(embed_size, units, num_layers, bidirectional=bidirectional)

    def forward(self, X, *args):
        outputs, state = self.rnn(self.embedding(X).permute(1, 0, 2))  # time-major, padding included
        if self.bidirectional:
            ${lstm ? `# the pair (h, c), each joined
            state = tuple(torch.cat((s[0::2], s[1::2]), dim=-1) for s in state)`
    : 'state = torch.cat((state[0::2], state[1::2]), dim=-1)'}
        return outputs, state


class Seq2SeqAttentionDecoder(nn.Module):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers):
        super().__init__()
        ${scoring === 'dot'
    ? 'self.attention = DotProductAttention()  # zh.d2l.ai §10.4 exercise 2 (d2l.ai §11.4): the scaled dot product'
    : 'self.attention = AdditiveAttention(num_hiddens, num_hiddens, num_hiddens)'}
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = ${rnn}(embed_size + num_hiddens, num_hiddens, num_layers)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, enc_valid_lens, *args):
        outputs, hidden_state = enc_outputs
        return (outputs.permute(1, 0, 2), hidden_state, enc_valid_lens)

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        X = self.embedding(X).permute(1, 0, 2)
        outputs, self._attention_weights = [], []
        for x in X:
            ${lstm ? 'query = torch.unsqueeze(hidden_state[0][-1], dim=1)  # the last layer\'s h'
    : 'query = torch.unsqueeze(hidden_state[-1], dim=1)  # the last layer\'s state'}
            context = self.attention(query, enc_outputs, enc_outputs, enc_valid_lens)
            x = torch.cat((context, torch.unsqueeze(x, dim=1)), dim=-1)
            out, hidden_state = self.rnn(x.permute(1, 0, 2), hidden_state)
            outputs.append(out)
            self._attention_weights.append(self.attention.attention_weights)
        outputs = self.dense(torch.cat(outputs, dim=0))
        return outputs.permute(1, 0, 2), [enc_outputs, hidden_state, enc_valid_lens]`;
};

// The Transformer, its heads scoring by d2l 10.7's scaled dot product or,
// its exercise, by one additive attention they share.
const transformerModel = (scoring) => `# The Transformer of zh.d2l.ai §10.7 and d2l.ai §11.7.
${MASKED_SOFTMAX}


${scoring === 'additive' ? ADDITIVE_ATTENTION : DOT_PRODUCT_ATTENTION}


${multiHeadAttention(scoring)}


def positional_encoding(max_len, num_hiddens):
    P = torch.zeros((1, max_len, num_hiddens))
    X = torch.arange(max_len, dtype=torch.float64).reshape(-1, 1) / torch.pow(
        10000, torch.arange(0, num_hiddens, 2, dtype=torch.float64) / num_hiddens)
    P[:, :, 0::2] = torch.sin(X)
    P[:, :, 1::2] = torch.cos(X[:, :num_hiddens // 2])
    return P


${POSITION_WISE_FFN}


${ADD_NORM}


class TransformerEncoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads):
        super().__init__()
        self.attention = MultiHeadAttention(num_hiddens, num_heads)
        self.addnorm1 = AddNorm(num_hiddens)
        self.ffn = PositionWiseFFN(num_hiddens, ffn_num_hiddens, num_hiddens)
        self.addnorm2 = AddNorm(num_hiddens)

    def forward(self, X, valid_lens):
        Y = self.addnorm1(X, self.attention(X, X, X, valid_lens))
        return self.addnorm2(Y, self.ffn(Y))


class TransformerEncoder(nn.Module):
    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, max_len, embedding_scale):
        super().__init__()
        self.embedding_scale = embedding_scale  # d2l's is sqrt(num_hiddens)
        self.embedding = nn.Embedding(vocab_size, num_hiddens)
        self.P = positional_encoding(max_len, num_hiddens)
        self.blks = nn.Sequential()
        for i in range(num_blks):
            self.blks.add_module(f'block{i}', TransformerEncoderBlock(num_hiddens, ffn_num_hiddens, num_heads))

    def forward(self, X, valid_lens):
        X = self.embedding(X) * self.embedding_scale + self.P[:, :X.shape[1]]
        for blk in self.blks:
            X = blk(X, valid_lens)
        return X


class TransformerDecoderBlock(nn.Module):
    def __init__(self, num_hiddens, ffn_num_hiddens, num_heads, i):
        super().__init__()
        self.i = i
        self.attention1 = MultiHeadAttention(num_hiddens, num_heads)
        self.addnorm1 = AddNorm(num_hiddens)
        self.attention2 = MultiHeadAttention(num_hiddens, num_heads)
        self.addnorm2 = AddNorm(num_hiddens)
        self.ffn = PositionWiseFFN(num_hiddens, ffn_num_hiddens, num_hiddens)
        self.addnorm3 = AddNorm(num_hiddens)

    def forward(self, X, state):
        enc_outputs, enc_valid_lens = state[0], state[1]
        key_values = X if state[2][self.i] is None else torch.cat((state[2][self.i], X), dim=1)
        state[2][self.i] = key_values
        batch_size, num_steps, _ = X.shape
        dec_valid_lens = torch.arange(1, num_steps + 1).repeat(batch_size, 1)  # training: causal
        Y = self.addnorm1(X, self.attention1(X, key_values, key_values, dec_valid_lens))
        Z = self.addnorm2(Y, self.attention2(Y, enc_outputs, enc_outputs, enc_valid_lens))
        return self.addnorm3(Z, self.ffn(Z)), state


class TransformerDecoder(nn.Module):
    def __init__(self, vocab_size, num_hiddens, ffn_num_hiddens, num_heads, num_blks, max_len, embedding_scale):
        super().__init__()
        self.num_blks = num_blks
        self.embedding_scale = embedding_scale
        self.embedding = nn.Embedding(vocab_size, num_hiddens)
        self.P = positional_encoding(max_len, num_hiddens)
        self.blks = nn.Sequential()
        for i in range(num_blks):
            self.blks.add_module(f'block{i}', TransformerDecoderBlock(num_hiddens, ffn_num_hiddens, num_heads, i))
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, enc_valid_lens):
        return [enc_outputs, enc_valid_lens, [None] * self.num_blks]

    def forward(self, X, state):
        X = self.embedding(X) * self.embedding_scale + self.P[:, :X.shape[1]]
        for blk in self.blks:
            X, state = blk(X, state)
        return self.dense(X), state`;

const TRAINING = `class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)[0]


def sequence_mask(X, valid_len, value=0):
    mask = torch.arange(X.size(1), dtype=torch.float32)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
    def forward(self, pred, label, valid_len):
        weights = sequence_mask(torch.ones_like(label, dtype=torch.float64), valid_len)
        self.reduction = 'none'
        unweighted_loss = super().forward(pred.permute(0, 2, 1), label)
        return (unweighted_loss * weights).mean(dim=1)


def grad_clipping(net, theta):
    params = [p for p in net.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum(p.grad ** 2) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm`;

// A list of whole numbers as a compact Python literal, wrapped.
function intList(values) {
  const items = Array.from(values, String);
  const lines = [];
  let line = '';
  for (const item of items) {
    if (line.length + item.length + 1 > 100) {
      lines.push(line);
      line = '';
    }
    line += `${item},`;
  }
  if (line) lines.push(line);
  return `[${lines.join('\n ')}]`;
}

// The script for a state, from the core's initial parameters and batches.
export function translationScript(state, core, { title = 'translation', stateText = '' } = {}) {
  const model = core.seq2seqInit(modelConfig(state));
  const { config, params } = model;
  const S = config.sourceLength;
  const T = config.targetLength;
  const steps = Math.min(state.trSteps, SNIPPET_STEPS);
  const batches = Array.from({ length: steps }, (_, step) => core.seq2seqTaskBatch({ task: state.trTask, batch: BATCH, seed: (state.trSeed + step) >>> 0 }));
  const transformer = config.architecture === 'transformer';
  const maxLen = Math.max(S, T);
  const net = transformer
    ? [
      `num_hiddens, num_heads, ffn_num_hiddens, num_blks = ${config.hidden}, ${config.heads}, ${config.ffnHidden}, ${config.blocks}`,
      `embedding_scale = ${py(config.embeddingScale)}`,
      `net = EncoderDecoder(TransformerEncoder(${config.sourceVocab}, num_hiddens, ffn_num_hiddens, num_heads, num_blks, ${maxLen}, embedding_scale),`,
      `                     TransformerDecoder(${config.targetVocab}, num_hiddens, ffn_num_hiddens, num_heads, num_blks, ${maxLen}, embedding_scale))`,
    ]
    : [
      `embed_size, num_hiddens, num_layers = ${config.embed}, ${config.hidden}, ${config.layers}`,
      `net = EncoderDecoder(Seq2SeqEncoder(${config.sourceVocab}, embed_size, num_hiddens, num_layers, bidirectional=${py(Boolean(config.bidirectional))}),`,
      `                     Seq2SeqAttentionDecoder(${config.targetVocab}, embed_size, num_hiddens, num_layers))`,
    ];
  const parts = [
    `# Attention Lab, "${title}": the current state as PyTorch code: d2l's ${transformer ? 'Transformer encoder-decoder (zh.d2l.ai §10.7, d2l.ai §11.7)' : 'Bahdanau attention (zh.d2l.ai §10.4, d2l.ai §11.4)'}`,
    '# trained on the lab\'s toy translation, step for step as the page trains it.',
    stateText ? `# State: ${stateText}` : null,
    `# Runs with torch alone; prints the loss per target token of the first ${steps} steps (the page's loss curve),`,
    '# from the lab\'s initial parameters and the lab\'s batches, both written out below. Autograd and the',
    '# lab\'s hand-written backward passes differ in the last bits of a double: the losses agree to many digits.',
    'import math\n\nimport torch\nfrom torch import nn\n',
    'torch.set_default_dtype(torch.float64)  # the lab computes in double precision',
    'torch.set_num_threads(1)\n',
    DROPOUT_NOTE,
    '',
    '',
    transformer ? transformerModel(config.scoring) : `${MASKED_SOFTMAX}\n\n\n${recurrentModel(config.scoring, config.cell)}`,
    '',
    '',
    TRAINING,
    '',
    '',
    `PAD, BOS, EOS = 0, 1, 2  # token ids in both vocabularies; source rows ${S} long, target rows ${T}`,
    ...net,
    '',
    '# The lab\'s initial parameters (d2l\'s xavier_init_weights, drawn by the lab\'s generator from the seed),',
    '# named as the state_dict of EncoderDecoder: flat, row-major.',
    'init = {}',
    ...Object.keys(params).map((name) => tensorLiteral(`init['${name}']`, Array.from(params[name], py))),
    'net.load_state_dict({name: init[name].reshape(value.shape) for name, value in net.state_dict().items()})',
    '',
    `# The lab's batches (${BATCH} pairs each): the batch of step t is the task's batch of seed (seed + t) mod 2^32.`,
    '# Each: source ids, source valid lengths, target ids (with <eos>), target valid lengths.',
    'batches = [',
    ...batches.map((batch) => `    (${intList(batch.source)},\n     ${intList(batch.sourceLens)},\n     ${intList(batch.targetOut)},\n     ${intList(batch.targetLens)}),`),
    ']',
    '',
    `optimizer = torch.optim.Adam(net.parameters(), lr=${py(LEARNING_RATE)})  # betas (0.9, 0.999), eps 1e-8`,
    'loss = MaskedSoftmaxCELoss()',
    'net.train()',
    'for step, (X, X_valid_len, Y, Y_valid_len) in enumerate(batches):',
    `    X, Y = torch.tensor(X).reshape(-1, ${S}), torch.tensor(Y).reshape(-1, ${T})`,
    '    X_valid_len, Y_valid_len = torch.tensor(X_valid_len), torch.tensor(Y_valid_len)',
    '    bos = torch.tensor([BOS] * Y.shape[0]).reshape(-1, 1)',
    '    dec_input = torch.cat([bos, Y[:, :-1]], 1)  # teacher forcing',
    '    optimizer.zero_grad()',
    '    Y_hat = net(X, dec_input, X_valid_len)',
    '    l = loss(Y_hat, Y, Y_valid_len)',
    '    l.sum().backward()  # d2l: the loss summed over the batch',
    `    grad_clipping(net, ${py(CLIP)})`,
    '    optimizer.step()',
    '    with torch.no_grad():  # the loss per target token, as the page plots it',
    '        per_token = l.sum() * Y.shape[1] / Y_valid_len.sum()',
    "    print(f'step {step + 1}, loss {per_token.item()!r}')",
  ];
  return `${parts.filter((part) => part !== null).join('\n').replace(/\n{4,}/g, '\n\n\n').trimEnd()}\n`;
}

// The section declaration's `pytorch` (sections/registry.js): the script for the state shown.
// Its state line names the settings the architecture reads, not the others.
export function translationPytorch(state, core, section = {}) {
  const titleKey = section.frame?.titleKey;
  const unread = recurrent(state) ? ['trHeadScoring'] : ['trScoring', 'trCell'];
  const names = (section.inputs ?? TRANSLATION_STATE).filter((name) => !unread.includes(name));
  return translationScript(state, core, {
    title: titleKey ? t(titleKey) : (section.id ?? 'translation'),
    stateText: stateLine(state, names),
  });
}
