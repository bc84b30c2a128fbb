#include "numerics/matrix_products.hpp"

#include <cstring>

namespace attention::matrix {

namespace {

// Two doubles, one SSE2 or wasm SIMD register.
typedef double f64x2 __attribute__((vector_size(16)));

inline f64x2 load(const double* p) {
    f64x2 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store(double* p, f64x2 v) { std::memcpy(p, &v, sizeof v); }

// A Rows x (2 Pairs) block of c: accumulators in registers for the whole of k,
// starting from c (Accumulate) or from 0 (c overwritten: the same bits as
// zeroing c first, without the pass over it).
template <bool Accumulate, std::size_t Rows, std::size_t Pairs>
void block(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t k) {
    f64x2 acc[Rows][Pairs];
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t v = 0; v < Pairs; ++v) acc[r][v] = Accumulate ? load(c + r * ldc + 2 * v) : f64x2{0.0, 0.0};
    // One pointer per row of a, and one into b, stepped each p: no multiplications
    // or scaled indices left in the loop (wasm has no scaled addressing).
    const double* ar[Rows];
    for (std::size_t r = 0; r < Rows; ++r) ar[r] = a.data + r * a.row;
    for (std::size_t p = 0; p < k; ++p, b += ldb) {
        f64x2 bp[Pairs];
        for (std::size_t v = 0; v < Pairs; ++v) bp[v] = load(b + 2 * v);
        for (std::size_t r = 0; r < Rows; ++r) {
            const double x = *ar[r];
            ar[r] += a.column;
            const f64x2 splat = {x, x};
            for (std::size_t v = 0; v < Pairs; ++v) acc[r][v] += splat * bp[v];
        }
    }
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t v = 0; v < Pairs; ++v) store(c + r * ldc + 2 * v, acc[r][v]);
}

// A Rows x 1 block: the last column when n is odd.
template <bool Accumulate, std::size_t Rows>
void column(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t k) {
    double acc[Rows];
    for (std::size_t r = 0; r < Rows; ++r) acc[r] = Accumulate ? c[r * ldc] : 0.0;
    for (std::size_t p = 0; p < k; ++p) {
        const double bp = b[p * ldb];
        const double* ap = a.data + p * a.column;
        for (std::size_t r = 0; r < Rows; ++r) acc[r] += ap[r * a.row] * bp;
    }
    for (std::size_t r = 0; r < Rows; ++r) c[r * ldc] = acc[r];
}

template <bool Accumulate, std::size_t Rows>
void row_band(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t n,
              std::size_t k) {
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) block<Accumulate, Rows, 2>(a, b + j, ldb, c + j, ldc, k);
    if (j + 2 <= n) block<Accumulate, Rows, 1>(a, b + j, ldb, c + j, ldc, k), j += 2;
    if (j < n) column<Accumulate, Rows>(a, b + j, ldb, c + j, ldc, k);
}

template <bool Accumulate>
void panel_product(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m,
                   std::size_t n, std::size_t k) {
    std::size_t i = 0;
    for (; i + 4 <= m; i += 4)
        row_band<Accumulate, 4>({a.data + i * a.row, a.row, a.column}, b, ldb, c + i * ldc, ldc, n, k);
    const Strided rest{a.data + i * a.row, a.row, a.column};
    switch (m - i) {
        case 3: row_band<Accumulate, 3>(rest, b, ldb, c + i * ldc, ldc, n, k); break;
        case 2: row_band<Accumulate, 2>(rest, b, ldb, c + i * ldc, ldc, n, k); break;
        case 1: row_band<Accumulate, 1>(rest, b, ldb, c + i * ldc, ldc, n, k); break;
        default: break;
    }
}

// The shared dimension in panels of this many products: a band of a and a
// panel of b then stay in cache while every block of c passes over them. A
// weight's gradient sums over all the batch's rows (k in the thousands at
// length 64), and streaming the whole of k for each 4 x 4 block read both
// inputs from beyond L2 once per block.
constexpr std::size_t panel = 128;

// c's elements continue from the previous panel's sums (Accumulate after the
// first panel), so each is still summed in order, one product at a time.
template <bool Accumulate>
void product(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m, std::size_t n,
             std::size_t k) {
    if (k <= panel) return panel_product<Accumulate>(a, b, ldb, c, ldc, m, n, k);
    panel_product<Accumulate>(a, b, ldb, c, ldc, m, n, panel);
    for (std::size_t p = panel; p < k; p += panel)
        panel_product<true>({a.data + p * a.column, a.row, a.column}, b + p * ldb, ldb, c, ldc, m, n,
                            k - p < panel ? k - p : panel);
}

}  // namespace

void multiply_add(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m,
                  std::size_t n, std::size_t k) noexcept {
    product<true>(a, b, ldb, c, ldc, m, n, k);
}

void multiply(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m, std::size_t n,
              std::size_t k) noexcept {
    product<false>(a, b, ldb, c, ldc, m, n, k);
}

}  // namespace attention::matrix
