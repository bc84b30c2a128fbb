#pragma once
// d2l's BLEU (9.7.4): exp(min(0, 1 - len_label / len_pred)) times the
// product over n = 1..k of p_n^(0.5^n), p_n the clipped n-gram precision of
// the prediction against the label. Token sequences without <eos>.
#include <cstddef>
#include <vector>

namespace attention {

// 0 for an empty prediction (d2l divides by zero there).
double bleu(const std::vector<int>& prediction, const std::vector<int>& label, std::size_t k);

}  // namespace attention
