#pragma once
// Scaled dot-product attention (d2l 10.3.3): softmax(Q K^T / sqrt(d)) V.
#include <xtensor/xtensor.hpp>

#include "attention_result.hpp"

namespace attention {

// queries (batch, nq, d), keys (batch, nk, d), values (batch, nk, dv);
// valid_lens as in masked_softmax.
AttentionResult dot_product_attention(const xt::xtensor<double, 3>& queries,
                                      const xt::xtensor<double, 3>& keys,
                                      const xt::xtensor<double, 3>& values,
                                      const xt::xtensor<int, 1>& valid_lens);

}  // namespace attention
