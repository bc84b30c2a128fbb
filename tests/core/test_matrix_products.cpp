// The register-tiled product of the model: every size's edges (rows, columns
// and depth not multiples of the tile; depth over one and over two of the
// kernel's panels of 128 products, and one short of the second), strided and transposed operands,
// accumulation into c, and the promise of its header: each element summed in
// order of p, one product at a time, so the same bits as the plain triple loop.
#include <cstddef>
#include <vector>

#include "numerics/matrix_products.hpp"
#include "numerics/random.hpp"
#include "reference.hpp"

using attention::matrix::multiply;
using attention::matrix::multiply_add;
using attention::matrix::Strided;

namespace {

std::vector<double> draws(attention::Random& random, std::size_t count) {
    std::vector<double> v(count);
    for (double& x : v) x = random.normal();
    return v;
}

// c(i, j) += sum over p, in order, of a(i, p) b(p, j).
void plain(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m, std::size_t n,
           std::size_t k) {
    for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double sum = c[i * ldc + j];
            for (std::size_t p = 0; p < k; ++p) sum += a.data[i * a.row + p * a.column] * b[p * ldb + j];
            c[i * ldc + j] = sum;
        }
}

}  // namespace

TEST_CASE("multiply_add is the ordered triple loop, bit for bit, at every edge of the tile and panel",
          "[matrix]") {
    attention::Random random(2024);
    for (std::size_t m : {1, 2, 3, 4, 5, 7, 8, 9})
        for (std::size_t n : {1, 2, 3, 4, 5, 6, 9, 10})
            for (std::size_t k : {0, 1, 3, 8, 17, 129, 255, 300})
                for (bool transposed : {false, true}) {
                    INFO("m " << m << " n " << n << " k " << k << (transposed ? " a transposed" : ""));
                    // a as stored (m x k, rows k + 1 apart: padding the kernel must skip) or as the
                    // transpose of a k x m matrix; b and c with rows longer than n.
                    const std::size_t lda = transposed ? m + 2 : k + 1, ldb = n + 3, ldc = n + 1;
                    const auto a_values = draws(random, (transposed ? k : m) * lda + 1);
                    const Strided a = transposed ? Strided{a_values.data(), 1, lda} : Strided{a_values.data(), lda, 1};
                    const auto b = draws(random, k * ldb + 1);
                    auto c = draws(random, m * ldc);
                    auto expected = c;
                    plain(a, b.data(), ldb, expected.data(), ldc, m, n, k);
                    multiply_add(a, b.data(), ldb, c.data(), ldc, m, n, k);
                    CHECK_SAME_BITS(c, expected);  // the padding between rows of c too: left as it was
                }
}

TEST_CASE("multiply overwrites c with the bits of zeroing it and multiply_add, at every edge of the tile and panel",
          "[matrix]") {
    attention::Random random(2025);
    for (std::size_t m : {1, 3, 4, 5, 8, 9})
        for (std::size_t n : {1, 2, 3, 5, 8, 9})
            for (std::size_t k : {0, 1, 8, 17, 129, 300})
                for (bool transposed : {false, true}) {
                    INFO("m " << m << " n " << n << " k " << k << (transposed ? " a transposed" : ""));
                    const std::size_t lda = transposed ? m + 2 : k + 1, ldb = n + 3, ldc = n + 1;
                    const auto a_values = draws(random, (transposed ? k : m) * lda + 1);
                    const Strided a = transposed ? Strided{a_values.data(), 1, lda} : Strided{a_values.data(), lda, 1};
                    const auto b = draws(random, k * ldb + 1);
                    auto c = draws(random, m * ldc);  // what c held before: overwritten, not read
                    auto expected = c;
                    for (std::size_t i = 0; i < m; ++i)
                        for (std::size_t j = 0; j < n; ++j) expected[i * ldc + j] = 0.0;
                    plain(a, b.data(), ldb, expected.data(), ldc, m, n, k);
                    multiply(a, b.data(), ldb, c.data(), ldc, m, n, k);
                    CHECK_SAME_BITS(c, expected);  // the padding between rows of c: left as it was
                }
}

TEST_CASE("multiply_add computes a known product", "[matrix]") {
    // [1 2; 3 4] [5 6; 7 8] = [19 22; 43 50], added to c = 1.
    const std::vector<double> a{1, 2, 3, 4}, b{5, 6, 7, 8};
    std::vector<double> c(4, 1.0);
    multiply_add({a.data(), 2, 1}, b.data(), 2, c.data(), 2, 2, 2, 2);
    CHECK(c == std::vector<double>{20, 23, 44, 51});
    // a^T b: [1 3; 2 4] [5 6; 7 8] = [26 30; 38 44].
    std::vector<double> d(4, 0.0);
    multiply_add({a.data(), 1, 2}, b.data(), 2, d.data(), 2, 2, 2, 2);
    CHECK(d == std::vector<double>{26, 30, 38, 44});
}
