#pragma once
// wasm SIMD (-msimd128) versions of the Gaussian row loops of pooling and
// training: one fused pass per row (distance, base-2 exponent, exp2, the
// sums), eight keys an iteration in four f64x2 vectors, nothing stored but
// what the caller asks for. Only the wasm build sees this code: everything is
// behind __wasm_simd128__, and the native build (and a wasm build without
// -msimd128) runs the portable loops in pooling.cpp and
// kernel_width_training.cpp instead.
//
// Same bits as the portable loops: the table exp2's operations in its order
// (table_exp2.hpp; a template flag picks its normal-range form for rows
// whose exponents all lie in [-960, 0]), key j summed into lane j % 4 (lanes
// 0-1 in one vector, 2-3 in the other) in increasing j, no fused multiply-add. Each function handles
// the keys [0, n - n % 2) and returns n - n % 2; the caller adds a last odd
// key (lane (n - 1) % 4) to the same lane partials with the scalar code.
//
// Measured (tests/benchmarks/README.md): the fused loop is 11-14% faster in
// wasm than the portable loops auto-vectorised (compilers do not fuse them),
// eight keys an iteration another 8% over four.
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include <cstddef>
#include <cstdint>

#include "numerics/table_exp2.hpp"
#include "numerics/vector_math.hpp"

#define ATTENTION_WASM_SIMD 1

namespace attention::wasm_simd {

inline v128_t splat(double v) { return wasm_f64x2_splat(v); }
inline v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
inline v128_t sub(v128_t a, v128_t b) { return wasm_f64x2_sub(a, b); }
inline v128_t mul(v128_t a, v128_t b) { return wasm_f64x2_mul(a, b); }

// vector_math::exp2_nonpositive, two lanes at a time: the trainable models'
// softmaxes (layers/multi_head_attention.cpp) use it; the Gaussian kernels
// use the table exp2 below.
inline v128_t exp2_nonpositive(v128_t x) noexcept {
    using namespace vector_math::detail;
    x = wasm_f64x2_pmax(x, splat(exp2_floor));  // x < floor ? floor : x, so NaN stays NaN
    const v128_t t = add(x, splat(exp2_shift));
    const v128_t k = sub(t, splat(exp2_shift));
    const v128_t r = sub(x, k);
    const v128_t r2 = mul(r, r), r4 = mul(r2, r2), r8 = mul(r4, r4);
    const v128_t p01 = add(splat(1.0), mul(r, splat(exp2_c1)));
    const v128_t p23 = add(splat(exp2_c2), mul(r, splat(exp2_c3)));
    const v128_t p45 = add(splat(exp2_c4), mul(r, splat(exp2_c5)));
    const v128_t p67 = add(splat(exp2_c6), mul(r, splat(exp2_c7)));
    const v128_t p89 = add(splat(exp2_c8), mul(r, splat(exp2_c9)));
    const v128_t p1011 = add(splat(exp2_c10), mul(r, splat(exp2_c11)));
    const v128_t p = add(add(add(p01, mul(r2, p23)), mul(r4, add(p45, mul(r2, p67)))),
                         mul(r8, add(p89, mul(r2, p1011))));
    const v128_t scale = wasm_i64x2_add(wasm_i64x2_shl(t, 52),
                                        wasm_i64x2_splat(static_cast<std::int64_t>(exp2_biased_exponent)));
    return mul(mul(p, scale), splat(0x1p-1000));
}

// The table exp2 (table_exp2.hpp), two lanes at a time: the same operations
// in the same order; the table loads are two lane loads.
inline v128_t table_scale(v128_t t) noexcept {
    using namespace vector_math::table_exp2;
    const std::uint32_t j0 = static_cast<std::uint32_t>(wasm_i32x4_extract_lane(t, 0)) & index_mask;
    const std::uint32_t j1 = static_cast<std::uint32_t>(wasm_i32x4_extract_lane(t, 2)) & index_mask;
    const v128_t entries = wasm_v128_load64_lane(&scale_table.bits[j1], wasm_v128_load64_zero(&scale_table.bits[j0]), 1);
    return wasm_i64x2_add(wasm_i64x2_shl(t, scale_shift), entries);
}
inline v128_t expm1_reduced(v128_t r) noexcept {
    using namespace vector_math::table_exp2;
    return mul(r, add(splat(c1), mul(r, add(splat(c2), mul(r, add(splat(c3), mul(r, splat(c4))))))));
}

// vector_math::exp2_normal_range (normal_floor <= x <= 0) when in_normal_range,
// else vector_math::exp2_nonpositive_table (any x <= 0).
template <bool in_normal_range>
inline v128_t exp2(v128_t x) noexcept {
    using namespace vector_math::table_exp2;
    if constexpr (in_normal_range) {
        const v128_t t = add(x, splat(shift));
        const v128_t r = sub(x, sub(t, splat(shift)));
        const v128_t s = table_scale(t);
        return add(s, mul(s, expm1_reduced(r)));
    } else {
        x = wasm_f64x2_pmax(x, splat(floor));  // x < floor ? floor : x, so NaN stays NaN
        const v128_t t = add(x, splat(biased_shift));
        const v128_t r = sub(x, sub(t, splat(biased_shift)));
        const v128_t s = table_scale(t);
        return mul(add(s, mul(s, expm1_reduced(r))), splat(0x1p-1000));
    }
}

// vector_math::tanh, two lanes at a time: the same operations in the same
// order (the table exp2 of -2|x| log2 e, (1 - e) / (1 + e), the sign of x).
inline v128_t tanh(v128_t x) noexcept {
    const v128_t magnitude = wasm_f64x2_abs(x);
    const v128_t e = exp2<false>(mul(magnitude, splat(-2.0 * vector_math::log2e)));
    const v128_t t = wasm_f64x2_div(sub(splat(1.0), e), add(splat(1.0), e));
    return wasm_v128_bitselect(wasm_f64x2_neg(t), t, wasm_f64x2_lt(x, splat(0.0)));
}

// The weights of two keys: 2^(factor * ((q - k)^2 - min_d2)).
template <bool in_normal_range>
inline v128_t gaussian_pair(v128_t q, const double* keys, v128_t factor, v128_t min_d2) noexcept {
    const v128_t d = sub(q, wasm_v128_load(keys));
    return exp2<in_normal_range>(mul(factor, sub(mul(d, d), min_d2)));
}

inline void load_lanes(const double (&partial)[4], v128_t& lanes01, v128_t& lanes23) {
    lanes01 = wasm_v128_load(partial);
    lanes23 = wasm_v128_load(partial + 2);
}
inline void store_lanes(double (&partial)[4], v128_t lanes01, v128_t lanes23) {
    wasm_v128_store(partial, lanes01);
    wasm_v128_store(partial + 2, lanes23);
}

// The row functions are forced inline into the callers' loops over rows
// (no call per row, the constants stay in registers): with the pairs below
// and the masked lane in training, at n = 50 the wasm core went from 1.6x
// the native time to about 1x.

// Pooling: adds every weight e_j to sum and e_j * values[j] to weighted.
template <bool in_normal_range>
__attribute__((always_inline)) inline std::size_t gaussian_sums(double query, const double* keys,
                                                                const double* values, std::size_t n,
                                                                double factor, double min_d2, double (&sum)[4],
                                                                double (&weighted)[4]) noexcept {
    const v128_t q = splat(query), f = splat(factor), m = splat(min_d2);
    v128_t s01, s23, w01, w23;
    load_lanes(sum, s01, s23);
    load_lanes(weighted, w01, w23);
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const v128_t e0 = gaussian_pair<in_normal_range>(q, keys + j, f, m), e1 = gaussian_pair<in_normal_range>(q, keys + j + 2, f, m),
                     e2 = gaussian_pair<in_normal_range>(q, keys + j + 4, f, m), e3 = gaussian_pair<in_normal_range>(q, keys + j + 6, f, m);
        s01 = add(s01, e0);
        s23 = add(s23, e1);
        w01 = add(w01, mul(e0, wasm_v128_load(values + j)));
        w23 = add(w23, mul(e1, wasm_v128_load(values + j + 2)));
        s01 = add(s01, e2);
        s23 = add(s23, e3);
        w01 = add(w01, mul(e2, wasm_v128_load(values + j + 4)));
        w23 = add(w23, mul(e3, wasm_v128_load(values + j + 6)));
    }
    if (j + 4 <= n) {
        const v128_t e0 = gaussian_pair<in_normal_range>(q, keys + j, f, m), e1 = gaussian_pair<in_normal_range>(q, keys + j + 2, f, m);
        s01 = add(s01, e0);
        s23 = add(s23, e1);
        w01 = add(w01, mul(e0, wasm_v128_load(values + j)));
        w23 = add(w23, mul(e1, wasm_v128_load(values + j + 2)));
        j += 4;
    }
    if (j + 2 <= n) {  // lanes 0 and 1
        const v128_t e0 = gaussian_pair<in_normal_range>(q, keys + j, f, m);
        s01 = add(s01, e0);
        w01 = add(w01, mul(e0, wasm_v128_load(values + j)));
        j += 2;
    }
    store_lanes(sum, s01, s23);
    store_lanes(weighted, w01, w23);
    return j;
}

// Attention weights: writes every weight e_j to row[j] and adds it to sum.
template <bool in_normal_range>
__attribute__((always_inline)) inline std::size_t gaussian_row(double query, const double* keys, std::size_t n,
                                                               double factor, double min_d2, double* row,
                                                               double (&sum)[4]) noexcept {
    const v128_t q = splat(query), f = splat(factor), m = splat(min_d2);
    v128_t s01, s23;
    load_lanes(sum, s01, s23);
    std::size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        const v128_t e0 = gaussian_pair<in_normal_range>(q, keys + j, f, m), e1 = gaussian_pair<in_normal_range>(q, keys + j + 2, f, m),
                     e2 = gaussian_pair<in_normal_range>(q, keys + j + 4, f, m), e3 = gaussian_pair<in_normal_range>(q, keys + j + 6, f, m);
        wasm_v128_store(row + j, e0);
        wasm_v128_store(row + j + 2, e1);
        wasm_v128_store(row + j + 4, e2);
        wasm_v128_store(row + j + 6, e3);
        s01 = add(add(s01, e0), e2);
        s23 = add(add(s23, e1), e3);
    }
    if (j + 4 <= n) {
        const v128_t e0 = gaussian_pair<in_normal_range>(q, keys + j, f, m), e1 = gaussian_pair<in_normal_range>(q, keys + j + 2, f, m);
        wasm_v128_store(row + j, e0);
        wasm_v128_store(row + j + 2, e1);
        s01 = add(s01, e0);
        s23 = add(s23, e1);
        j += 4;
    }
    if (j + 2 <= n) {  // lanes 0 and 1
        const v128_t e0 = gaussian_pair<in_normal_range>(q, keys + j, f, m);
        wasm_v128_store(row + j, e0);
        s01 = add(s01, e0);
        j += 2;
    }
    store_lanes(sum, s01, s23);
    return j;
}

// Training, row i: the four sums of the loss and its gradient, with
// e_j = 2^(factor (d_j^2 - min_d2)): sum e_j, sum e_j y_j, sum e_j d_j^2,
// sum e_j d_j^2 y_j, over j != skip (skip >= n: every j). The left-out
// point's lane is cleared (its weight is +0, as in the portable loop).
struct TrainingLanes {
    v128_t s01, s23, sy01, sy23, sd01, sd23, sdy01, sdy23;
};

// Two points, j and j + 1, into the lane pair (s, sy, sd, sdy); `masked`
// clears the lane of `skip` if it is one of them.
template <bool masked, bool in_normal_range>
inline void training_pair(v128_t& s, v128_t& sy, v128_t& sd, v128_t& sdy, v128_t q, const double* x,
                          const double* y, std::size_t j, std::size_t skip, v128_t f, v128_t m) noexcept {
    const v128_t d = sub(q, wasm_v128_load(x + j));
    const v128_t d2 = mul(d, d);
    v128_t e = exp2<in_normal_range>(mul(f, sub(d2, m)));
    if constexpr (masked) {
        e = wasm_v128_andnot(e, wasm_i64x2_make(j == skip ? -1 : 0, j + 1 == skip ? -1 : 0));
    }
    const v128_t yj = wasm_v128_load(y + j);
    const v128_t ed2 = mul(e, d2);
    s = add(s, e);
    sy = add(sy, mul(e, yj));
    sd = add(sd, ed2);
    sdy = add(sdy, mul(ed2, yj));
}

// Four points from j on.
template <bool masked, bool in_normal_range>
inline void training_step(TrainingLanes& l, v128_t q, const double* x, const double* y, std::size_t j,
                          std::size_t skip, v128_t f, v128_t m) noexcept {
    training_pair<masked, in_normal_range>(l.s01, l.sy01, l.sd01, l.sdy01, q, x, y, j, skip, f, m);
    training_pair<masked, in_normal_range>(l.s23, l.sy23, l.sd23, l.sdy23, q, x, y, j + 2, skip, f, m);
}

// Handles [0, n - n % 2) and returns n - n % 2.
template <bool in_normal_range>
__attribute__((always_inline)) inline std::size_t training_sums(double xi, const double* x, const double* y,
                                                                std::size_t n, std::size_t skip, double factor,
                                                                double min_d2, double (&sum)[4], double (&sum_y)[4],
                                                                double (&sum_d2)[4],
                                                                double (&sum_d2_y)[4]) noexcept {
    const v128_t q = splat(xi), f = splat(factor), m = splat(min_d2);
    TrainingLanes l;
    load_lanes(sum, l.s01, l.s23);
    load_lanes(sum_y, l.sy01, l.sy23);
    load_lanes(sum_d2, l.sd01, l.sd23);
    load_lanes(sum_d2_y, l.sdy01, l.sdy23);
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        if (skip - j < 4)  // skip in [j, j + 4) (unsigned)
            training_step<true, in_normal_range>(l, q, x, y, j, skip, f, m);
        else
            training_step<false, in_normal_range>(l, q, x, y, j, skip, f, m);
    }
    if (j + 2 <= n) {  // lanes 0 and 1
        training_pair<true, in_normal_range>(l.s01, l.sy01, l.sd01, l.sdy01, q, x, y, j, skip, f, m);
        j += 2;
    }
    store_lanes(sum, l.s01, l.s23);
    store_lanes(sum_y, l.sy01, l.sy23);
    store_lanes(sum_d2, l.sd01, l.sd23);
    store_lanes(sum_d2_y, l.sdy01, l.sdy23);
    return j;
}

}  // namespace attention::wasm_simd
#endif  // __wasm_simd128__
