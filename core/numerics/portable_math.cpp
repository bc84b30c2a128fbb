#include "numerics/portable_math.hpp"

#include <cmath>
#include <limits>

namespace attention::portable {
namespace {

constexpr double ln2_hi = 6.93147180369123816490e-01;  // 32 significant bits: k * ln2_hi is exact
constexpr double ln2_lo = 1.90821492927058770002e-10;
constexpr double pio2_hi = 1.57079632673412561417e+00;  // 33 significant bits
constexpr double pio2_lo = 6.07710050650619224932e-11;
constexpr double sqrt_half = 0.70710678118654752440;

// Round half away from zero, with exact operations only.
double round_to_integer(double x) { return x >= 0 ? std::floor(x + 0.5) : -std::floor(-x + 0.5); }

// Taylor series of sin and cos on |r| <= pi/4, Horner form; the last terms are below 1e-19.
double sin_kernel(double r) {
    const double r2 = r * r;
    double sum = 0.0;
    for (int k = 17; k >= 3; k -= 2) sum = (sum + 1.0) * r2 / (-(k * (k - 1.0)));
    return r * (1.0 + sum);
}

double cos_kernel(double r) {
    const double r2 = r * r;
    double sum = 0.0;
    for (int k = 18; k >= 2; k -= 2) sum = (sum + 1.0) * r2 / (-(k * (k - 1.0)));
    return 1.0 + sum;
}

// Reduces x to r in [-pi/4, pi/4] and the quadrant x lies in (0 to 3), for
// |x| <= trig_max_argument. There k = round(x / (pi/2)) has at most 20 bits,
// so k * pio2_hi (33 bits) is exact, x - k * pio2_hi is exact too (the two
// are within a factor 2), and r is off by about k * 1e-26 (pio2_lo's own
// error and its product's rounding): under 1e-20, far below an ulp of sin.
// Beyond, k * pio2_hi rounds and r (hence sin) would be wrong by up to
// |x| * 1e-16 or more; there the caller gets NaN (see sin and cos).
int reduce_quarter_turns(double x, double& r) {
    const double k = round_to_integer(x / pio2_hi);
    r = (x - k * pio2_hi) - k * pio2_lo;
    // k is a whole number below 2^20 in magnitude: the cast is exact.
    const long quadrant = static_cast<long>(k) % 4;
    return static_cast<int>(quadrant < 0 ? quadrant + 4 : quadrant);
}

}  // namespace

double exp(double x) noexcept {
    if (std::isnan(x)) return x;
    if (x > 709.78) return std::numeric_limits<double>::infinity();
    if (x < -745.2) return 0.0;
    const double k = round_to_integer(x / (ln2_hi + ln2_lo));
    const double r = (x - k * ln2_hi) - k * ln2_lo;  // |r| <= 0.35
    double sum = 1.0;
    for (int n = 17; n >= 1; --n) sum = 1.0 + sum * r / n;
    return std::ldexp(sum, static_cast<int>(k));
}

double log(double x) noexcept {
    if (std::isnan(x) || x < 0) return std::numeric_limits<double>::quiet_NaN();
    if (x == 0) return -std::numeric_limits<double>::infinity();
    if (std::isinf(x)) return x;
    int exponent = 0;
    double m = std::frexp(x, &exponent);  // m in [0.5, 1)
    if (m < sqrt_half) {
        m *= 2.0;
        --exponent;
    }
    // log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172.
    const double s = (m - 1.0) / (m + 1.0);
    const double s2 = s * s;
    double series = 0.0;
    for (int k = 25; k >= 3; k -= 2) series = (series + 1.0 / k) * s2;
    const double log_m = 2.0 * s * (1.0 + series);
    return exponent * ln2_hi + (log_m + exponent * ln2_lo);
}

double sin(double x) noexcept {
    if (!(std::fabs(x) <= trig_max_argument)) return std::numeric_limits<double>::quiet_NaN();  // NaN too
    double r = 0.0;
    switch (reduce_quarter_turns(x, r)) {
        case 0: return sin_kernel(r);
        case 1: return cos_kernel(r);
        case 2: return -sin_kernel(r);
        default: return -cos_kernel(r);
    }
}

double cos(double x) noexcept {
    if (!(std::fabs(x) <= trig_max_argument)) return std::numeric_limits<double>::quiet_NaN();  // NaN too
    double r = 0.0;
    switch (reduce_quarter_turns(x, r)) {
        case 0: return cos_kernel(r);
        case 1: return -sin_kernel(r);
        case 2: return -cos_kernel(r);
        default: return sin_kernel(r);
    }
}

double pow(double x, double exponent) noexcept {
    if (x == 0) return exponent > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return exp(exponent * log(x));
}

}  // namespace attention::portable
