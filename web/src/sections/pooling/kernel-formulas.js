// The TeX of each estimator and kernel, shared by the sections that show them.
export const kernelTex = {
  gaussian: 'K(d) = \\exp\\!\\left(-\\tfrac{d^2}{2}\\right)',
  boxcar: 'K(d) = \\mathbb{1}\\left[\\,|d| < 1\\,\\right]',
  constant: 'K(d) = 1',
  triangular: 'K(d) = \\max(0,\\, 1 - |d|)',
  epanechnikov: 'K(d) = \\max(0,\\, 1 - d^2)',
};

export const averageTex = 'f(x) = \\frac{1}{n} \\sum_{i=1}^{n} y_i';

export const nadarayaWatsonTex = 'f(x) = \\sum_{i=1}^{n} \\alpha(x, x_i)\\, y_i';
export const weightTex =
  '\\alpha(x, x_i) = \\frac{K\\big((x - x_i)\\,w\\big)}{\\sum_{j=1}^{n} K\\big((x - x_j)\\,w\\big)}';
export const averageWeightTex = '\\alpha(x, x_i) = \\frac{1}{n}';

// Rows of a row-major matrix whose weights are undefined (0/0 in the core).
export function undefinedRows(weights, cols) {
  let count = 0;
  for (let start = 0; start < weights.length; start += cols) if (Number.isNaN(weights[start])) count += 1;
  return count;
}
