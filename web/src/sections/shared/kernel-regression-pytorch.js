// "Copy as PyTorch" of the pooling sections (data, pooling, heatmap,
// training): their current state as the book's own PyTorch code (the data
// and training loop of zh.d2l.ai §10.2, the kernels of d2l.ai §11.2), runnable with
// torch alone. The numbers come from the state and from the core's data set
// (the same call as the sections', shared/regression-setup.js); this module only
// writes text. The comments are in the page's language (catalogue keys pytorch.*).
import { t } from '../../i18n/index.js';
import { dataset, effectiveKernel } from './regression-setup.js';
import { comment, py, stateLine, tensorLiteral } from './pytorch-snippet.js';

const KERNEL_CODE = {
  gaussian: 'def gaussian(d):\n    return torch.exp(-d**2 / 2)',
  boxcar: 'def boxcar(d):\n    return (torch.abs(d) < 1.0).to(d.dtype)',
  constant: 'def constant(d):\n    return 1.0 + 0 * d',
  triangular: () => `def triangular(d):  # ${t('pytorch.triangular')}\n    return torch.clamp(1 - torch.abs(d), min=0)`,
  epanechnikov: 'def epanechnikov(d):\n    return torch.clamp(1 - d**2, min=0)',
};

// The section (its declaration, sections/registry.js) picks how much of the
// chapter the snippet carries: the data set always; pooling, the attention
// weights or the training loop on top. Its inputs are the state it states.
export function poolingSnippet(state, core, { id: sectionId, inputs: names }) {
  const data = dataset(core, state);
  const kernel = effectiveKernel(state);
  const average = state.estimator === 'average';

  const parts = [
    comment('pytorch.header', { section: t(`nav.${sectionId}`) }),
    comment('pytorch.state', { state: stateLine(state, names) }),
    'import torch\nfrom torch import nn\n',
    `torch.set_default_dtype(torch.float64)  # ${t('pytorch.double')}\n`,
    'def f(x):\n    return 2 * torch.sin(x) + x**0.8\n',
    `n_train = ${state.n}`,
    comment('pytorch.data', { noise: py(state.noise) }),
    tensorLiteral('x_train', data.x),
    tensorLiteral('y_train', data.y),
    `x_test = torch.arange(0, 5, 0.1)  # ${t('pytorch.testQueries')}`,
    'y_truth = f(x_test)\nn_test = len(x_test)\n',
  ];

  if (sectionId === 'pooling' || sectionId === 'heatmap') {
    if (average && sectionId === 'pooling') {
      parts.push(`# ${t('pytorch.average')}`, 'y_hat = torch.repeat_interleave(y_train.mean(), n_test)',
        "print('y_hat:', y_hat[:5])\n");
    } else {
      parts.push(
        `# ${t('pytorch.kernel')}`,
        `${typeof KERNEL_CODE[kernel] === 'function' ? KERNEL_CODE[kernel]() : KERNEL_CODE[kernel]}\n`,
        comment('pytorch.nadarayaWatson'),
        'def nadaraya_watson(queries, keys, values, kernel, w):',
        '    d = (queries.reshape((-1, 1)) - keys.reshape((1, -1))) * w',
        '    k = kernel(d)',
        `    attention_weights = k / k.sum(1, keepdim=True)  # ${t('pytorch.weights')}`,
        '    return attention_weights @ values, attention_weights\n',
        `w = ${py(average ? 1 : state.w)}`,
        `y_hat, attention_weights = nadaraya_watson(x_test, x_train, y_train, ${kernel}, w)`,
        "print('y_hat:', y_hat[:5])\n",
      );
    }
  }
  if (sectionId === 'heatmap') {
    parts.push(
      `# ${t('pytorch.query')}`,
      `query = torch.tensor([${py(state.query)}])`,
      `y_query, weights_query = nadaraya_watson(query, x_train, y_train, ${kernel}, w)`,
      "print('attention_weights:', tuple(attention_weights.shape))",
      "print(f'f({float(query):.2f}) = {float(y_query):.12g}')\n",
    );
  }
  if (sectionId === 'training') {
    const looComment = state.leaveOneOut ? t('pytorch.loo') : t('pytorch.noLoo');
    const pairs = state.leaveOneOut
      ? ['X_tile = x_train.repeat((n_train, 1))', 'Y_tile = y_train.repeat((n_train, 1))',
        'keys = X_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))',
        'values = Y_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))']
      : ['keys = x_train.repeat((n_train, 1))', 'values = y_train.repeat((n_train, 1))'];
    parts.push(
      'class NWKernelRegression(nn.Module):',
      '    def __init__(self, **kwargs):',
      '        super().__init__(**kwargs)',
      '        self.w = nn.Parameter(torch.rand((1,), requires_grad=True))\n',
      '    def forward(self, queries, keys, values):',
      '        queries = queries.repeat_interleave(keys.shape[1]).reshape((-1, keys.shape[1]))',
      '        self.attention_weights = nn.functional.softmax(',
      '            -((queries - keys) * self.w)**2 / 2, dim=1)',
      '        return torch.bmm(self.attention_weights.unsqueeze(1),',
      '                         values.unsqueeze(-1)).reshape(-1)\n',
      `# ${looComment}`,
      ...pairs,
      '',
      'net = NWKernelRegression()',
      'with torch.no_grad():',
      `    net.w.fill_(${py(state.w0)})  # ${t('pytorch.w0')}`,
      "loss = nn.MSELoss(reduction='none')",
      `trainer = torch.optim.SGD(net.parameters(), lr=${py(state.lr)})`,
      `for epoch in range(${state.epochs}):`,
      '    trainer.zero_grad()',
      '    l = loss(net(x_train, keys, values), y_train)',
      '    l.sum().backward()',
      '    trainer.step()',
      "    print(f'epoch {epoch + 1}, loss {float(l.sum()):.12g}, w {float(net.w):.12g}')\n",
      `# ${t('pytorch.test')}`,
      'keys = x_train.repeat((n_test, 1))',
      'values = y_train.repeat((n_test, 1))',
      'y_hat = net(x_test, keys, values).unsqueeze(1).detach()',
    );
  }
  return `${parts.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

