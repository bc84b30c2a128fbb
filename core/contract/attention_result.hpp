#pragma once
// What every batched attention layer returns.
#include <xtensor/xtensor.hpp>

namespace attention {

struct AttentionResult {
    xt::xtensor<double, 3> output;   // (batch, queries, value size)
    xt::xtensor<double, 3> weights;  // (batch [* heads], queries, keys)
    xt::xtensor<double, 3> scores;   // (batch, queries, keys) before masking; empty for multi-head
};

}  // namespace attention
