#pragma once
// Scaled dot-product attention (d2l 10.3.3): softmax(Q K^T / sqrt(d)) V.
#include <cstddef>
#include <optional>

#include <xtensor/xtensor.hpp>

#include "contract/attention_checks.hpp"  // BadScore
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

namespace detail {
// scores (batch, nq, nk) = queries . keys / sqrt(d), for consistent finite
// tensors; stops at the first score that is not finite and returns it (the
// callers name the argument to blame in their own terms).
std::optional<BadScore> scaled_dot_scores(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys,
                                          xt::xtensor<double, 3>& scores);
}  // namespace detail

}  // namespace attention
