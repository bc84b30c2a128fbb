#pragma once
// Scaled dot-product attention (d2l 10.3.3): softmax(Q K^T / sqrt(d)) V.
// The page's checked entry to the models' heads
// (layers/multi_head_attention.hpp's scaled_dot_product_forward, one head).
#include <xtensor/xtensor.hpp>

#include "contract/attention_result.hpp"

namespace attention {

// queries (batch, nq, d), keys (batch, nk, d), values (batch, nk, dv);
// valid_lens as in masked_softmax. Finite inputs whose scores overflow (every
// score, masked ones too: they are part of the result) are refused, naming
// `queries`: PyTorch's weights would be NaN there.
AttentionResult dot_product_attention(const xt::xtensor<double, 3>& queries,
                                      const xt::xtensor<double, 3>& keys,
                                      const xt::xtensor<double, 3>& values,
                                      const xt::xtensor<int, 1>& valid_lens);

}  // namespace attention
