// The scoring section's notation (d2l 10.3), shared by every figure that
// writes a scoring function: the scoring section's own formulas and the
// trained models' rows taken apart (shared/row-steps-panel.js).
export const ADDITIVE_TEX = 'a(\\mathbf q, \\mathbf k) = \\mathbf w_v^\\top \\tanh(\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k) \\in \\mathbb R';
export const DOT_TEX = 'a(\\mathbf q, \\mathbf k) = \\frac{\\mathbf q^\\top \\mathbf k}{\\sqrt d},\\qquad \\operatorname{softmax}\\!\\Big(\\frac{\\mathbf Q \\mathbf K^\\top}{\\sqrt d}\\Big) \\mathbf V';
