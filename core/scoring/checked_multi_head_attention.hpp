#pragma once
// Multi-head attention (d2l 10.5): project with W_q, W_k, W_v (H x H), split
// the hidden size H into `heads` heads of H/heads (d2l's transpose_qkv), run scaled
// dot-product attention per head, concatenate (d2l's transpose_output), project
// with W_o. No biases.
// The page's checked entry to the models' layer (layers/multi_head_attention.hpp):
// its arguments checked, every head's weights returned, headMask factors,
// and overflows named.
#include <cstddef>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "contract/attention_result.hpp"

namespace attention {

// queries (batch, nq, H), keys and values (batch, nk, H), weights (H, H);
// valid_lens as in masked_softmax (repeated for every head).
// head_mask (empty, or one factor per head, e.g. 0 to switch a head off)
// scales each head's output before W_o.
// Returns output (batch, nq, H) and weights (batch * heads, nq, nk).
// Finite inputs that overflow on the way are refused, naming what feeds the
// overflow: queries, keys or values (their projections, or a head's scores:
// queries), headMask (a head's output), Wo (the output).
AttentionResult multi_head_attention(const xt::xtensor<double, 3>& queries,
                                     const xt::xtensor<double, 3>& keys,
                                     const xt::xtensor<double, 3>& values,
                                     const xt::xtensor<double, 2>& w_q, const xt::xtensor<double, 2>& w_k,
                                     const xt::xtensor<double, 2>& w_v, const xt::xtensor<double, 2>& w_o,
                                     std::size_t heads, const xt::xtensor<int, 1>& valid_lens,
                                     const std::vector<double>& head_mask = {});

}  // namespace attention
