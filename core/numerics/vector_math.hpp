#pragma once
// The building blocks of the hot row loops (Gaussian pooling, kernel-width
// training), written so that compilers vectorise them - SSE2 natively, wasm
// SIMD in the browser build (-msimd128) - and so that every build rounds the
// same way:
//  - exp from + - * and exact scaling by powers of two, inlined: a libm call
//    would stop vectorisation (it is most of the cost of these loops), and
//    glibc and Emscripten's musl may round differently;
//  - sums kept in `lanes` interleaved partials added in a fixed
//    order: a plain running sum is a serial chain that compilers may not
//    reorder, while independent partials map onto vector registers.
// With -ffp-contract=off (no fused multiply-add) the results are the same
// bits natively and in wasm.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "numerics/table_exp2.hpp"

namespace attention::vector_math {

namespace detail {
inline std::uint64_t bits(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}
inline double from_bits(std::uint64_t b) {
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}
}  // namespace detail

// 2^x for x <= 0: the softmaxes and gates of the trainable models, and the
// Gaussian rows of huge inputs (the fast Gaussian rows use the shorter
// table_exp2.hpp). It was written for the exponents of the Gaussian rows: they
// compute their exponents in base 2, x = (d^2 - min d^2) * (-w^2/2 * log2 e),
// so log2 e is folded into one constant per call and the reduction needs no
// Cody-Waite split: x = k + r with k an integer, |r| <= 1/2, r = x - k exact.
// (An exp in base e cost four more operations an element, about 15% of a row
// in wasm.)
// - 2^r by the degree-11 Chebyshev interpolant on [-1/2, 1/2] (mpmath
//   chebyfit at 50 digits, rounded to double; c0 = 1 exactly; within 3e-18 of
//   2^r), evaluated by Estrin's scheme for short dependency chains;
// - times 2^(k + 1000), written into the exponent bits (a normal number for
//   every k from -1100 to 0), then times 2^-1000: exact for normal results,
//   one correct rounding for subnormal ones.
// Within 4.3e-16 of std::exp2 (measured). The exponent x carries its own
// rounding (relative 1e-16, as any computed exponent), a relative error of
// about |x| 1e-16 in 2^x: under 1e-14 for every weight above 1e-30 of the
// row's largest. x < -1075 gives 0, 2^-inf = 0, 2^NaN = NaN.
// Branch-free and inlined, so loops over it vectorise; the wasm SIMD version
// (wasm_simd.hpp) does the same operations in the same order, so both builds
// compute the same bits.
namespace detail {
inline constexpr double exp2_shift = 0x1.8p52;  // x + shift rounds x to an integer, held in the low bits
inline constexpr std::uint64_t exp2_biased_exponent = std::uint64_t{1023 + 1000} << 52;
inline constexpr double exp2_c1 = 0x1.62e42fefa39efp-1, exp2_c2 = 0x1.ebfbdff82c5aep-3,
                        exp2_c3 = 0x1.c6b08d704a0c6p-5, exp2_c4 = 0x1.3b2ab6fb9f1a5p-7,
                        exp2_c5 = 0x1.5d87fe78a3f9cp-10, exp2_c6 = 0x1.430913112c61bp-13,
                        exp2_c7 = 0x1.ffcbfc6da6ed1p-17, exp2_c8 = 0x1.62bfc2c86d700p-20,
                        exp2_c9 = 0x1.b524ebd13a55fp-24, exp2_c10 = 0x1.e6228acd1c6e5p-28,
                        exp2_c11 = 0x1.e9ec1fcb69a7fp-32;  // c0 = 1
inline constexpr double exp2_floor = -1100.0;  // 2^-1100 rounds to 0
}  // namespace detail

inline double exp2_nonpositive(double x) {
    assert(!(x > 0.0));
    using namespace detail;
    // Below -1100 (and -inf) the result rounds to 0 anyway: clamping there is
    // one operation where a select would be two; NaN stays NaN.
    x = x < exp2_floor ? exp2_floor : x;
    const double t = x + exp2_shift;
    const double k = t - exp2_shift;
    const double r = x - k;
    const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const double p = (((1.0 + r * exp2_c1) + r2 * (exp2_c2 + r * exp2_c3)) +
                      r4 * ((exp2_c4 + r * exp2_c5) + r2 * (exp2_c6 + r * exp2_c7))) +
                     r8 * ((exp2_c8 + r * exp2_c9) + r2 * (exp2_c10 + r * exp2_c11));
    // 2^(k+1000) in the exponent bits (a normal number for every k from -1100 to 0), then 2^-1000:
    // exact for normal results, one correct rounding for subnormal ones (and 0 below 2^-1075).
    const double scale = from_bits((bits(t) << 52) + exp2_biased_exponent);
    return (p * scale) * 0x1p-1000;
}

// exp(x) for x <= 0 through exp2_nonpositive: the softmaxes of the trainable
// models (their exponents are max-subtracted scores or logits).
inline constexpr double log2e = 1.4426950408889634074;
inline double exp_nonpositive(double x) {
    return exp2_nonpositive(x * log2e);
}

// The gates of the recurrent layers (layers/gru.hpp) and additive attention's
// features, branch-free and the same bits natively and in wasm. tanh(x) =
// sign(x) (1 - e) / (1 + e) with e = exp(-2|x|) by the table exp2
// (table_exp2.hpp: additive attention's features are most of a step's tanh,
// and wasm_simd::tanh computes them two at a time with the same operations;
// the polynomial exp2 made the additive Transformer's step about 7 % slower
// in wasm): within about 5e-16 of tanh in absolute terms (the
// relative error grows near 0, where 1 - e cancels; no model here needs more
// than absolute accuracy). sigmoid(x) = 1 / (1 + e) for x >= 0 and e / (1 + e)
// below, e = exp(-|x|) by exp_nonpositive: a few ulp relative. NaN gives NaN; +-inf give +-1 and 1, 0.
inline double tanh(double x) {
    const double magnitude = x < 0.0 ? -x : x;
    const double e = exp2_nonpositive_table(magnitude * (-2.0 * log2e));
    const double t = (1.0 - e) / (1.0 + e);
    return x < 0.0 ? -t : t;
}
inline double sigmoid(double x) {
    const double magnitude = x < 0.0 ? -x : x;
    const double e = exp_nonpositive(-magnitude);
    const double s = 1.0 / (1.0 + e);
    return x < 0.0 ? e * s : s;
}

// The factor that turns d^2 - min d^2 into the base-2 exponent of a Gaussian
// row: -w^2/2 * log2 e, kept finite (see gaussian_rate) so that 0 * factor
// is 0, not NaN.
inline double gaussian_exp2_factor(double half_w2) {
    const double rate = half_w2 * log2e;
    return -(rate < std::numeric_limits<double>::max() ? rate : std::numeric_limits<double>::max());
}

inline constexpr std::size_t lanes = 4;

// Calls body(j, lane) for j = 0 .. n-1 with lane = j % lanes (in blocks of
// `lanes` consecutive j, which compilers turn into vector operations).
template <class Body>
inline void for_each_lane(std::size_t n, Body&& body) {
    std::size_t j = 0;
    for (; j + lanes <= n; j += lanes)
        for (std::size_t lane = 0; lane < lanes; ++lane) body(j + lane, lane);
    for (std::size_t lane = 0; j < n; ++j, ++lane) body(j, lane);
}

inline double total(const double (&partial)[lanes]) {
    return (partial[0] + partial[1]) + (partial[2] + partial[3]);
}

// sum_j a[j]
inline double sum(const double* a, std::size_t n) {
    double partial[lanes] = {};
    for_each_lane(n, [&](std::size_t j, std::size_t lane) { partial[lane] += a[j]; });
    return total(partial);
}

// sum_j a[j] * b[j]
inline double dot(const double* a, const double* b, std::size_t n) {
    double partial[lanes] = {};
    for_each_lane(n, [&](std::size_t j, std::size_t lane) { partial[lane] += a[j] * b[j]; });
    return total(partial);
}

// y[j] += a * x[j]
inline void axpy(double* y, double a, const double* x, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) y[j] += a * x[j];
}

}  // namespace attention::vector_math
