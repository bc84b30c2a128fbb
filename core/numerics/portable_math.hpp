#pragma once
// Elementary functions written with IEEE-754 basic operations only (+ - * /,
// sqrt, exact scaling by powers of two). glibc and Emscripten's musl may
// round sin/log/exp/pow differently in the last bit; these give the same bits
// on every platform, so a seed draws the same data set natively and in wasm.
// Accuracy is a few ulp: plenty for data generation, not used on hot paths.
// noexcept, as Random: calls from code with cleanups then stay inside wasm.

namespace attention::portable {

double exp(double x) noexcept;
double log(double x) noexcept;  // x > 0
// sin and cos reduce x by quarter turns with a two-part pi/2 (Cody-Waite),
// accurate (within 1e-15 of libm) for |x| <= trig_max_argument = 2^20 pi/2
// (about 1.6e6); beyond it, and for infinities and NaN, they return NaN
// rather than a wrong number. The data set needs |x| <= 1000 (truth) and
// [0, 2 pi] (Box-Muller).
inline constexpr double trig_max_argument = 1647099.0;  // < 2^20 * pi/2 = 1647099.3...
double sin(double x) noexcept;
double cos(double x) noexcept;
double pow(double x, double exponent) noexcept;  // x >= 0

}  // namespace attention::portable
