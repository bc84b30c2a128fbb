#pragma once
// A bias-free linear layer in PyTorch's nn.Linear layout: weight is
// (out x in) and applies as X W^T over the last axis.
#include <cstddef>

#include <xtensor/xtensor.hpp>

namespace attention {

// X: (batch, rows, in), W: (out, in) -> (batch, rows, out).
xt::xtensor<double, 3> linear(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 2>& weight);

}  // namespace attention
