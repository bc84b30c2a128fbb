#include "matrix_products.hpp"

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

// A Rows x (2 Pairs) block of c: accumulators in registers for the whole of k.
template <std::size_t Rows, std::size_t Pairs>
void block(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t k) {
    f64x2 acc[Rows][Pairs];
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t v = 0; v < Pairs; ++v) acc[r][v] = load(c + r * ldc + 2 * v);
    for (std::size_t p = 0; p < k; ++p) {
        f64x2 bp[Pairs];
        for (std::size_t v = 0; v < Pairs; ++v) bp[v] = load(b + p * ldb + 2 * v);
        const double* ap = a.data + p * a.column;
        for (std::size_t r = 0; r < Rows; ++r) {
            const double x = ap[r * a.row];
            const f64x2 splat = {x, x};
            for (std::size_t v = 0; v < Pairs; ++v) acc[r][v] += splat * bp[v];
        }
    }
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t v = 0; v < Pairs; ++v) store(c + r * ldc + 2 * v, acc[r][v]);
}

// A Rows x 1 block: the last column when n is odd.
template <std::size_t Rows>
void column(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t k) {
    double acc[Rows];
    for (std::size_t r = 0; r < Rows; ++r) acc[r] = c[r * ldc];
    for (std::size_t p = 0; p < k; ++p) {
        const double bp = b[p * ldb];
        const double* ap = a.data + p * a.column;
        for (std::size_t r = 0; r < Rows; ++r) acc[r] += ap[r * a.row] * bp;
    }
    for (std::size_t r = 0; r < Rows; ++r) c[r * ldc] = acc[r];
}

template <std::size_t Rows>
void row_band(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t n,
              std::size_t k) {
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) block<Rows, 2>(a, b + j, ldb, c + j, ldc, k);
    if (j + 2 <= n) block<Rows, 1>(a, b + j, ldb, c + j, ldc, k), j += 2;
    if (j < n) column<Rows>(a, b + j, ldb, c + j, ldc, k);
}

}  // namespace

void multiply_add(Strided a, const double* b, std::size_t ldb, double* c, std::size_t ldc, std::size_t m,
                  std::size_t n, std::size_t k) noexcept {
    std::size_t i = 0;
    for (; i + 4 <= m; i += 4) row_band<4>({a.data + i * a.row, a.row, a.column}, b, ldb, c + i * ldc, ldc, n, k);
    const Strided rest{a.data + i * a.row, a.row, a.column};
    switch (m - i) {
        case 3: row_band<3>(rest, b, ldb, c + i * ldc, ldc, n, k); break;
        case 2: row_band<2>(rest, b, ldb, c + i * ldc, ldc, n, k); break;
        case 1: row_band<1>(rest, b, ldb, c + i * ldc, ldc, n, k); break;
        default: break;
    }
}

}  // namespace attention::matrix
