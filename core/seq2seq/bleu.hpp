#pragma once
// d2l's BLEU (9.7.4): exp(min(0, 1 - len_label / len_pred)) times the
// product over n = 1..k of p_n^(0.5^n), p_n the clipped n-gram precision of
// the prediction against the label. Token sequences without <eos>.
#include <cstddef>
#include <vector>

namespace attention {

// Orders n longer than the prediction are left out of the product, as d2l's
// current bleu does (its loop runs to min(k, len_pred)); an older d2l ran to
// k and divided by zero for a prediction of n - 1 tokens. Token sequences
// rather than strings: an empty prediction scores 0 (d2l's ''.split(' ')
// would be one empty token); an empty label matches nothing, so 0 too.
// k = 0 leaves the brevity penalty alone, as in d2l.
double bleu(const std::vector<int>& prediction, const std::vector<int>& label, std::size_t k);

}  // namespace attention
