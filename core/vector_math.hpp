#pragma once
// The building blocks of the hot row loops (Gaussian pooling, kernel-width
// training), written so that compilers vectorise them - SSE2 natively, wasm
// SIMD in the browser build (-msimd128) - and so that every build rounds the
// same way:
//  - exp from + - * and exact scaling by powers of two, inlined: a libm call
//    would stop vectorisation (it is most of the cost of these loops), and
//    glibc and Emscripten's musl may round differently;
//  - sums and minima kept in `lanes` interleaved partials added in a fixed
//    order: a plain running sum is a serial chain that compilers may not
//    reorder, while independent partials map onto vector registers.
// With -ffp-contract=off (no fused multiply-add) the results are the same
// bits natively and in wasm.
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

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

// exp(x) for x <= 0, the exponent of a max-subtracted softmax score: within
// about 1 ulp of the correctly rounded value (measured worst 4.3e-16 relative
// to std::exp on [-707, 0]); subnormal results (x < -708) are right too, and
// x < -1000 gives 0. exp(NaN) is NaN, exp(-inf) is 0. (It stays exact up to
// x = 15; beyond that the scaling below overflows, so x > 0 is outside the
// contract.) Branch-free, so loops over it vectorise.
//  - x = k ln2 + r with |r| <= ln2/2 (Cody-Waite: ln2_hi has 32 significant
//    bits, so k * ln2_hi is exact for every k that occurs);
//  - exp(r) by the degree-11 Chebyshev interpolant on [-ln2/2, ln2/2]
//    (mpmath: chebyfit(exp, [-log(2)/2, log(2)/2], 12) at 50 digits, rounded
//    to double; coefficients within 0.3% of 1/n!, error 1.7e-17 relative,
//    against 6e-15 for the Taylor polynomial of the same degree), evaluated by
//    Estrin's scheme for short dependency chains;
//  - times 2^(k + 1000), written into the exponent bits (a normal number for
//    every k from -1443, x = -1000, up to 23), then times 2^-1000: exact for
//    normal results, one correct rounding for subnormal ones.
inline double exp_nonpositive(double x) {
    assert(!(x > 0.0));
    constexpr double log2e = 1.4426950408889634074;
    constexpr double ln2_hi = 6.93147180369123816490e-01;
    constexpr double ln2_lo = 1.90821492927058770002e-10;
    constexpr double shift = 0x1.8p52;  // y + shift rounds y to an integer, held in the low bits
    constexpr std::uint64_t biased_exponent = std::uint64_t{1023 + 1000} << 52;
    constexpr double c2 = 0x1.0000000000011p-1, c3 = 0x1.555555555555ap-3,
                     c4 = 0x1.555555554f0cfp-5, c5 = 0x1.111111110f225p-7,
                     c6 = 0x1.6c16c187fbe02p-10, c7 = 0x1.a01a01b14378fp-13,
                     c8 = 0x1.a01991ac8730ap-16, c9 = 0x1.71ddf5749d126p-19,
                     c10 = 0x1.28b4057f44145p-22, c11 = 0x1.af631d0059becp-26;  // c0 = c1 = 1

    const double t = x * log2e + shift;
    const double k = t - shift;
    const double r = (x - k * ln2_hi) - k * ln2_lo;

    const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const double exp_r = (((1.0 + r) + r2 * (c2 + r * c3)) + r4 * ((c4 + r * c5) + r2 * (c6 + r * c7))) +
                         r8 * ((c8 + r * c9) + r2 * (c10 + r * c11));

    // bits(t) is bits(shift) + k, and the low 52 bits of bits(shift) are 0:
    // shifted left by 52, it leaves k in the exponent field.
    const double scale = detail::from_bits((detail::bits(t) << 52) + biased_exponent);  // 2^(k+1000)
    return x < -1000.0 ? 0.0 : (exp_r * scale) * 0x1p-1000;
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

// Running minima, one a lane: start from `no_minimum`, fold values in with
// keep_smaller (NaN is never kept), and read the result with smallest.
inline constexpr double no_minimum = std::numeric_limits<double>::infinity();
inline void keep_smaller(double& partial, double value) { partial = value < partial ? value : partial; }
inline double smallest(const double (&partial)[lanes]) {
    double m01 = partial[0], m23 = partial[2];
    keep_smaller(m01, partial[1]);
    keep_smaller(m23, partial[3]);
    keep_smaller(m01, m23);
    return m01;
}

// min_j a[j], +inf for n = 0 (NaN entries are skipped).
inline double min(const double* a, std::size_t n) {
    double partial[lanes] = {no_minimum, no_minimum, no_minimum, no_minimum};
    for_each_lane(n, [&](std::size_t j, std::size_t lane) { keep_smaller(partial[lane], a[j]); });
    return smallest(partial);
}

}  // namespace attention::vector_math
