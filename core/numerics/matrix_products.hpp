#pragma once
// The matrix products of the trainable model (projections, their gradients,
// the readout) as one register-tiled kernel: 4 x 4 blocks of the result held
// in vector registers while the shared dimension streams by, so a multiply-add
// costs well under one load, where a dot product or an axpy per output costs
// two loads (and the axpy a store). Written with the GCC/Clang vector
// extension, so the same source becomes SSE2 natively and wasm SIMD
// (f64x2) in the browser build.
//
// Every element is c(i, j) + a(i, 0) b(0, j) + a(i, 1) b(1, j) + ... summed in
// that order, one product at a time, however the loops are tiled: with
// -ffp-contract=off native and wasm results are the same bits.
#include <cstddef>

namespace attention::matrix {

// A read-only matrix by strides: element (i, p) at data[i * row + p * column].
// {x, cols, 1} is a row-major matrix, {x, 1, rows} its transpose.
struct Strided {
    const double* data;
    std::size_t row, column;
};

// c (m x n, rows ldc apart) += a (m x k) b (k x n, rows ldb apart, each contiguous).
void multiply_add(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m,
                  std::size_t n, std::size_t k) noexcept;

// c = a b: the same bits as zeroing c and multiply_add, in one pass (no
// memset, no loads of c).
void multiply(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m, std::size_t n,
              std::size_t k) noexcept;

}  // namespace attention::matrix
