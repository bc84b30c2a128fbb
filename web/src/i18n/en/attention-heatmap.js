// English catalogue of the section "Attention weights" (sections/attention-heatmap.js);
// the same keys as ../zh/attention-heatmap.js.
export default {
  'nav.heatmap': 'Weights',

  'heatmap.title': 'Attention weights',
  'heatmap.lead': 'Each row of the matrix is one test query, each column one training input (a key); a cell is the weight $\\alpha(x, x_i)$ the query gives that key’s value. Both are sorted, so closeness shows as a bright band along the diagonal. Hover a cell to read it, and drag the query line in the figure of one query to watch its row at work.',
  'heatmap.query': 'Query x',
  'heatmap.queryHint': 'or drag on the plots',
  'heatmap.settings': 'Shown with: {estimator}, {kernel} kernel, w = {w} (set in {§pooling}).',
  'heatmap.settings.alone': 'Shown with: {estimator}, {kernel} kernel, w = {w}, the width set for this figure.',
  'heatmap.settingsAverage': 'Shown with: average pooling, uniform weights 1/n = 1/{n} on every key (set in {§pooling}).',
  'heatmap.settingsAverage.alone': 'Shown with: average pooling, uniform weights 1/n = 1/{n} on every key, as set for this figure.',
  'heatmap.caption': 'Attention weights, n_test × n_train (the book’s show_heatmaps); hatched rows have undefined weights.',
  'heatmap.label': 'Heatmap of the attention weights of the test queries over the training inputs.',
  'heatmap.axisX': 'Sorted training inputs',
  'heatmap.axisY': 'Sorted testing inputs',
  'heatmap.colorbar': 'weight',
  'heatmap.hoverHint': 'Hover a cell to read its query, key and weight.',
  'heatmap.readout': 'query x = {query} · key x{index} = {key} · weight α = {weight}',
  'heatmap.readoutUndefined': 'query x = {query} · key x{index} = {key} · weight undefined (no key in the kernel’s support)',
  'heatmap.queryCaption': 'One query: its weights on the training points (area of the dots, and bars below), and its prediction, the weighted sum of the values.',
  'heatmap.queryLabel': 'The dragged query, the training points sized by their weight and the prediction.',
  'heatmap.weightsLabel': 'The weights of the dragged query as bars at the training inputs.',
  'heatmap.formulaNote': 'The terms $\\alpha_i \\cdot y_i$ with the largest weights $\\alpha_i$ first (equal weights in key order); the result is the core’s prediction at the query.',
  'heatmap.noWeights': 'No training input lies within this query’s kernel support: every weight is 0/0, undefined, and so is the prediction. Widen the kernel (smaller w) or move the query.',
};
