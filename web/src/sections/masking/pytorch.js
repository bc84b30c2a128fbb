// "Copy as PyTorch" for the masking section: d2l's masked_softmax (zh.d2l.ai
// §10.3.1, d2l.ai §11.3.2.1)
// on the section's scores and valid lengths, as a script (torch alone,
// float64) that prints the weights of the section's "d2l" matrix. The scores
// are the core's seeded draws, written out as shortest round-trip decimals
// (Python reads them back as the same doubles); scores typed into the editor
// are the view's own, not part of the state, and stay on the page.
import { printValues, shapedLiteral, snippetOpening } from '../shared/pytorch-snippet.js';
import { MASKED_SOFTMAX } from '../shared/book-attention-pytorch.js';

// The valid lengths as the book's tensor: one per batch item or per query row.
function validLensLiteral(state) {
  return state.maskMode === '1d'
    ? `torch.tensor([${state.maskLen1}, ${state.maskLen2}])`
    : `torch.tensor([[${state.maskLen11}, ${state.maskLen12}], [${state.maskLen21}, ${state.maskLen22}]])`;
}

// section: the masking section's declaration (its compute gives the scores the page shows).
export function maskingSnippet(state, core, section) {
  const { scores } = section.compute(core, state);
  return [
    ...snippetOpening(state, section, 'zh.d2l.ai §10.3.1, d2l.ai §11.3.2.1'),
    `${MASKED_SOFTMAX}\n`,
    shapedLiteral('scores', scores, [2, 2, 4]),
    `valid_lens = ${validLensLiteral(state)}\n`,
    'weights = masked_softmax(scores.clone(), valid_lens)',
    printValues('weights', 'weights'),
  ].join('\n').concat('\n');
}
