#pragma once
// Batched matrix product: (n, a, b) x (n, b, c) -> (n, a, c), item by item
// (torch.bmm). The attention layers weigh their values with it.
#include <xtensor/xtensor.hpp>

namespace attention {

// Assumes matching shapes: left (n, a, b), right (n, b, c).
xt::xtensor<double, 3> batch_matmul(const xt::xtensor<double, 3>& left, const xt::xtensor<double, 3>& right);

}  // namespace attention
