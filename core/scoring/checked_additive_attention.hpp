#pragma once
// Additive attention (d2l 10.3.2): score(q, k) = w_v^T tanh(W_q q + W_k k),
// no biases; dropout is off (evaluation mode).
// The page's checked entry to the models' layer (layers/additive_attention.hpp):
// its arguments checked, valid lengths per item or per query, every score
// returned, and overflows named.
#include <xtensor/xtensor.hpp>

#include "contract/attention_result.hpp"

namespace attention {

// queries (batch, nq, dq), keys (batch, nk, dk), values (batch, nk, dv),
// w_q (h, dq), w_k (h, dk), w_v (h); valid_lens as in masked_softmax.
// Finite inputs whose scores overflow (PyTorch's weights would be NaN) are
// refused, naming wv (the sum of the h terms overflows), or the queries or
// keys (their projections meet as Infinity - Infinity). A projection that
// overflows alone is fine: the tanh saturates, as in PyTorch.
AttentionResult additive_attention(const xt::xtensor<double, 3>& queries,
                                   const xt::xtensor<double, 3>& keys,
                                   const xt::xtensor<double, 3>& values,
                                   const xt::xtensor<double, 2>& w_q, const xt::xtensor<double, 2>& w_k,
                                   const xt::xtensor<double, 1>& w_v,
                                   const xt::xtensor<int, 1>& valid_lens);

}  // namespace attention
