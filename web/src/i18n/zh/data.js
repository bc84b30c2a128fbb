// Simplified Chinese catalogue of the section "The data" (sections/data.js);
// the same keys as ../en/data.js.
export default {
  'nav.data': '数据',

  'data.title': '一个玩具回归问题',
  'data.lead': '给定成对的数据 $(x_i, y_i)$，学习 $f$，对新的输入 $x$ 预测 $\\hat y = f(x)$。$n$ 个输入在 $[0, 5)$ 上均匀采样并排序；每个输出是一条已知曲线加上高斯噪声。',
  'data.n': '训练样本数 n',
  'data.noise': '噪声 σ',
  'data.seed': '随机种子',
  'data.newSample': '重新采样',
  'data.caption': '种子相同，图就相同：样本来自计算核心中带种子的随机数生成器，在任何浏览器里都一模一样。测试查询为 $x = 0, 0.1, \\dots, 4.9$。',
  'data.plotLabel': '散布在真实曲线周围的训练样本。',
};
