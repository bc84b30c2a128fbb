#pragma once
// What every batched attention layer returns.
#include <xtensor/xtensor.hpp>

namespace attention {

struct AttentionResult {
    xt::xtensor<double, 3> output;   // (batch, queries, value size)
    xt::xtensor<double, 3> weights;  // (batch [* heads], queries, keys)
    xt::xtensor<double, 3> scores;   // (batch, queries, keys) before masking; empty for multi-head
};

// Weighted sum of values: weights (batch, nq, nk) x values (batch, nk, dv).
xt::xtensor<double, 3> batch_matmul(const xt::xtensor<double, 3>& weights,
                                    const xt::xtensor<double, 3>& values);

// Checks the shapes shared by all attention layers: same batch, one value per key,
// finite inputs, sizes within the limits.
void check_attention_inputs(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys,
                            const xt::xtensor<double, 3>& values);

}  // namespace attention
