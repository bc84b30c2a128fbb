// English catalogue of the section "The data" (sections/data.js);
// the same keys as ../zh/data.js.
export default {
  'nav.data': 'Data',

  'data.title': 'A toy regression problem',
  'data.lead': 'Given pairs $(x_i, y_i)$, learn $f$ that predicts $\\hat y = f(x)$ for a new input $x$. The $n$ inputs are drawn uniformly on $[0, 5)$ and sorted; each output is a known curve plus Gaussian noise.',
  'data.n': 'Training points n',
  'data.noise': 'Noise σ',
  'data.seed': 'Seed',
  'data.newSample': 'New sample',
  'data.caption': 'Same seed, same picture: the points come from the core’s seeded generator and are identical in every browser. Test queries are $x = 0, 0.1, \\dots, 4.9$.',
  'data.plotLabel': 'Training points scattered around the true curve.',
};
