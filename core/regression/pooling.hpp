#pragma once
// Attention pooling of 1-D queries over 1-D key-value pairs: average pooling
// and Nadaraya-Watson kernel regression.
#include <cstddef>

#include <xtensor/xtensor.hpp>

#include "regression/kernels.hpp"

namespace attention {

// Every query gets mean(values).
xt::xtensor<double, 1> average_pool(const xt::xtensor<double, 1>& values, std::size_t n_queries);

// (queries x keys) weights, each row the normalised kernel over the keys
// (for the Gaussian, a max-subtracted softmax of -d^2/2).
// Contract: a query whose kernel is zero on every key (boxcar or a compact
// kernel with a narrow width) has undefined weights (0/0): its row is NaN.
// The Gaussian follows PyTorch's softmax(-((q - k) w)^2 / 2) wherever that is
// finite, huge inputs included; where every (q - k) w overflows (PyTorch: a
// NaN row) the nearest keys share the weight, the limit of a growing width.
xt::xtensor<double, 2> attention_weights(const xt::xtensor<double, 1>& queries,
                                         const xt::xtensor<double, 1>& keys, const KernelSpec& spec);

// Weighted sum of the values, one prediction per query, computed row by row
// without the weight matrix. Same NaN contract as attention_weights. A
// weighted mean that is representable is returned, however large the values
// (they are summed scaled when they could overflow).
xt::xtensor<double, 1> nadaraya_watson(const xt::xtensor<double, 1>& queries,
                                       const xt::xtensor<double, 1>& keys,
                                       const xt::xtensor<double, 1>& values, const KernelSpec& spec);

}  // namespace attention
