#pragma once
// nn.Linear as a forward/backward pair over raw row-major arrays: y = x W^T
// (+ b), with W stored (out x in) as PyTorch stores it. Both run on the
// register-tiled matrix::multiply_add, so every element is summed in order of
// the shared dimension: the same bits natively and in wasm.
#include <cstddef>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace attention::layers {

struct LinearShape {
    std::size_t rows = 0;  // positions, batch * length
    std::size_t in = 0, out = 0;
};

// y (rows x out) = x (rows x in) W^T + bias (bias may be null). `transposed`
// holds W^T while the product runs (its rows are what the kernel streams).
void linear_forward(const LinearShape& shape, const double* x, const double* weight, const double* bias, double* y,
                    std::vector<double>& transposed);

// transposed (in x out) = weight (out x in) transposed: the right operand the
// kernel streams by rows, for callers that keep it across several products.
void transpose_weight(const LinearShape& shape, const double* weight, std::vector<double>& transposed);

// Given dy: dweight += dy^T x, dbias += dy's column sums (when not null),
// dx += dy W (when not null). Accumulates, so several uses of one input add up.
void linear_backward(const LinearShape& shape, const double* dy, const double* x, const double* weight,
                     double* dweight, double* dbias, double* dx);

// The same forward pass on tensors, bias-free: X (batch, rows, in) W^T -> (batch, rows, out).
// The attention layers the page computes directly (additive, multi-head) project with it.
xt::xtensor<double, 3> linear_forward(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 2>& weight);

}  // namespace attention::layers
