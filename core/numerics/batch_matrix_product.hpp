#pragma once
// Batch matrix multiplication, torch.bmm (d2l 10.2.4): X of shape (n, a, b)
// times Y of shape (n, b, c) is (n, a, c), one matrix product per batch item.
// The training of Nadaraya-Watson's w uses it: the weights (n, 1, n-1) of
// each query meet its values (n, n-1, 1). batch_matrix_product is checked,
// for the learner calling it directly; the attention layers, whose shapes
// agree by construction, weigh their values with the unchecked one.
#include <cstddef>
#include <string_view>

#include <xtensor/xtensor.hpp>

namespace attention {

// The extents of one operand: n matrices of rows x columns.
struct BatchShape {
    std::size_t n = 0, rows = 0, columns = 0;
};
// How the caller names each extent of X and Y, for the errors; "X" and "Y"
// name the operands in the shape mismatch error.
struct BatchShapeNames {
    std::string_view x_n = "X.shape[0] (n)", x_rows = "X.shape[1] (a)", x_columns = "X.shape[2] (b)";
    std::string_view y_n = "Y.shape[0] (n)", y_rows = "Y.shape[1] (b)", y_columns = "Y.shape[2] (c)";
};

// Each extent in [1, limits::max_points], n in [1, limits::max_points] too;
// Y's n and rows those of X (else an error on "Y" quoting both shapes, e.g.
// "Y: expected shape (2, 4, c) to match X (2, 1, 4), got (2, 5, 6)"); each
// operand and the result within limits::max_matrix_elements; n * a * b * c
// multiply-adds within limits::max_work. Every product in 64 bits.
void check_batch_matrix_product(const BatchShape& x, const BatchShape& y, const BatchShapeNames& names = {});

// X (n, a, b) times Y (n, b, c): (n, a, c), each entry summed over b in order
// (the same bits native and in wasm). Checks the shapes as above and that
// every element is finite (naming X or Y).
xt::xtensor<double, 3> batch_matrix_product(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 3>& y);

// The same product without any check: shapes must agree (y's n and rows those of x).
xt::xtensor<double, 3> batch_matrix_product_unchecked(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 3>& y);

}  // namespace attention
