#pragma once
// The one softmax row kernel: every softmax of the core runs on it (the
// page's masked softmax, the models' attention weights, softmax
// cross-entropy, pooling's far Gaussian rows, a model's row taken apart;
// tests/web/core-layering.test.mjs finds any other). Each step is its own loop, the maximum and the sum in
// vector_math's fixed lanes, so that every one vectorises, the exps
// included; a scaling of the scores (1 / sqrt(d)) rides in the exponent's
// factor, and the normalisation is one multiplication (as PyTorch's softmax
// does it): a division an element cost more than the exp. Inlined: the
// models call it once a row of a few keys.
#include <algorithm>
#include <cstddef>
#include <limits>

#include "numerics/vector_math.hpp"
#include "numerics/wasm_simd.hpp"

namespace attention {

// The largest of row[0, n), n >= 1 (NaN-free rows).
inline double row_maximum(const double* row, std::size_t n) {
    static_assert(vector_math::lanes == 4, "the maximum below folds four lanes");
    double top_lane[vector_math::lanes];
    std::fill_n(top_lane, vector_math::lanes, -std::numeric_limits<double>::infinity());
    vector_math::for_each_lane(n, [&](std::size_t j, std::size_t lane) {
        top_lane[lane] = top_lane[lane] < row[j] ? row[j] : top_lane[lane];
    });
    return std::max(std::max(top_lane[0], top_lane[1]), std::max(top_lane[2], top_lane[3]));
}

// row[j] = exp((row[j] - top) * scale) for j < n, top >= every row[j] and
// scale > 0 (so every exponent is <= 0), and their sum in vector_math::sum's lanes.
#ifdef ATTENTION_WASM_SIMD
// In wasm one fused pass, four lanes in two vectors (wasm_simd.hpp's exp2 does
// vector_math's operations in their order): the same bits as the portable
// loops below, which clang does not fuse.
inline double exponentials_and_sum(double* row, std::size_t n, double top, double scale) {
    using namespace wasm_simd;
    const double rate = vector_math::log2e * scale;
    const v128_t top2 = splat(top), rate2 = splat(rate);
    v128_t sum01 = splat(0.0), sum23 = splat(0.0);
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        const v128_t e01 = exp2_nonpositive(mul(sub(wasm_v128_load(row + j), top2), rate2));
        const v128_t e23 = exp2_nonpositive(mul(sub(wasm_v128_load(row + j + 2), top2), rate2));
        wasm_v128_store(row + j, e01);
        wasm_v128_store(row + j + 2, e23);
        sum01 = add(sum01, e01);
        sum23 = add(sum23, e23);
    }
    double partial[vector_math::lanes];
    store_lanes(partial, sum01, sum23);
    for (std::size_t lane = 0; j < n; ++j, ++lane) {
        row[j] = vector_math::exp2_nonpositive((row[j] - top) * rate);
        partial[lane] += row[j];
    }
    return vector_math::total(partial);
}
#else
inline double exponentials_and_sum(double* row, std::size_t n, double top, double scale) {
    // exp((s - top) * scale) = 2^((s - top) * log2(e) * scale), an exponent <= 0.
    const double rate = vector_math::log2e * scale;
    for (std::size_t j = 0; j < n; ++j) row[j] = vector_math::exp2_nonpositive((row[j] - top) * rate);
    return vector_math::sum(row, n);
}
#endif

// row[0, visible) becomes the softmax of its scores times `scale` (> 0),
// row[visible, count) 0: the keys past a valid length weigh exactly 0.
inline void softmax_row(double* row, std::size_t visible, std::size_t count, double scale = 1.0) {
    if (visible > 0) {
        const double inverse = 1.0 / exponentials_and_sum(row, visible, row_maximum(row, visible), scale);
        for (std::size_t j = 0; j < visible; ++j) row[j] *= inverse;
    }
    std::fill(row + visible, row + count, 0.0);
}

}  // namespace attention
