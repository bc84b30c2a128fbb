// Simplified Chinese catalogue of the section "Attention weights" (sections/attention-heatmap.js);
// the same keys as ../en/attention-heatmap.js.
export default {
  'nav.heatmap': '注意力权重',

  'heatmap.title': '注意力权重',
  'heatmap.lead': '矩阵的每一行是一个测试查询，每一列是一个训练输入（键）；每个格子是查询分配给该键所对应值的权重 $\\alpha(x, x_i)$。两者都已排序，所以“越接近权重越大”表现为对角线上的一条亮带。把鼠标移到格子上可以读数；在“单个查询”图中拖动查询线，看它的那一行如何起作用。',
  'heatmap.query': '查询 x',
  'heatmap.queryHint': '也可以在图上拖动',
  'heatmap.settings': '当前设置：{estimator}，{kernel}，w = {w}（在{§pooling}中设置）。',
  'heatmap.settings.alone': '当前设置：{estimator}，{kernel}，w = {w}，即为本图设置的宽度。',
  'heatmap.settingsAverage': '当前设置：平均汇聚，每个键的权重都是 1/n = 1/{n}（在{§pooling}中设置）。',
  'heatmap.settingsAverage.alone': '当前设置：平均汇聚，每个键的权重都是 1/n = 1/{n}，即为本图所设。',
  'heatmap.caption': '注意力权重，n_test × n_train（即书中的 show_heatmaps）；画斜线的行权重没有定义。',
  'heatmap.label': '测试查询对训练输入的注意力权重热图。',
  'heatmap.axisX': '排序后的训练输入',
  'heatmap.axisY': '排序后的测试输入',
  'heatmap.colorbar': '权重',
  'heatmap.hoverHint': '把鼠标移到格子上，读出它的查询、键和权重。',
  'heatmap.readout': '查询 x = {query} · 键 x{index} = {key} · 权重 α = {weight}',
  'heatmap.readoutUndefined': '查询 x = {query} · 键 x{index} = {key} · 权重没有定义（核的支撑范围内没有键）',
  'heatmap.queryCaption': '单个查询：它在训练样本上的权重（圆点面积和下方的柱），以及它的预测，即值的加权和。',
  'heatmap.queryLabel': '被拖动的查询、按权重大小绘制的训练样本以及预测。',
  'heatmap.weightsLabel': '被拖动查询的权重，画成训练输入处的柱。',
  'heatmap.formulaNote': '先列出权重 $\\alpha_i$ 最大的几项 $\\alpha_i \\cdot y_i$（权重相同时按键的顺序）；结果是计算核心在该查询处算出的预测。',
  'heatmap.noWeights': '这个查询的核支撑范围内没有任何训练输入：所有权重都是 0/0，没有定义，预测也一样。请加宽核（减小 w）或移动查询。',
};
