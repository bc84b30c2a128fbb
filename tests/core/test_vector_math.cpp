// The hot loops' exp: close to std::exp over the softmax range, and the edge
// cases the pooling and training loops rely on.
#include <cmath>
#include <limits>

#include "reference.hpp"
#include "vector_math.hpp"

using attention::vector_math::exp2_nonpositive;

TEST_CASE("exp2_nonpositive is within a few ulp of std::exp2 on [-1022, 0]", "[vector_math]") {
    double worst = 0.0;
    for (int i = 0; i <= 400000; ++i) {
        const double x = -1022.0 * i / 400000.0 - 1e-7 * (i % 7);
        const double expected = std::exp2(x);
        worst = std::max(worst, std::abs(exp2_nonpositive(x) - expected) / expected);
    }
    CHECK(worst < 5e-16);  // measured 4.3e-16
    CHECK(exp2_nonpositive(0.0) == 1.0);
    CHECK(exp2_nonpositive(-0.0) == 1.0);
    for (int k = 0; k <= 1022; ++k) CHECK(exp2_nonpositive(-k) == std::ldexp(1.0, -k));  // powers of two exactly
}

TEST_CASE("exp2_nonpositive: subnormal results, underflow, -inf and NaN", "[vector_math]") {
    for (const double x : {-1022.5, -1030.25, -1050.0, -1073.0, -1074.0})
        CHECK(exp2_nonpositive(x) == Approx(std::exp2(x)).epsilon(1e-3));
    CHECK(exp2_nonpositive(-1074.0) == std::numeric_limits<double>::denorm_min());
    CHECK(exp2_nonpositive(-1076.0) == 0.0);
    CHECK(exp2_nonpositive(-1100.0) == 0.0);
    CHECK(exp2_nonpositive(-1e300) == 0.0);
    CHECK(exp2_nonpositive(-std::numeric_limits<double>::infinity()) == 0.0);
    CHECK(std::isnan(exp2_nonpositive(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("gaussian_exp2_factor keeps 0 * factor finite at overflowing widths", "[vector_math]") {
    using attention::vector_math::gaussian_exp2_factor;
    CHECK(gaussian_exp2_factor(0.5) == Approx(-0.5 * 1.4426950408889634));
    const double huge = gaussian_exp2_factor(std::numeric_limits<double>::max());
    CHECK(huge == -std::numeric_limits<double>::max());
    CHECK(0.0 * huge == 0.0);
}
