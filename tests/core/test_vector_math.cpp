// The hot loops' exp: close to std::exp over the softmax range, and the edge
// cases the pooling and training loops rely on.
#include <cmath>
#include <limits>

#include "reference.hpp"
#include "numerics/table_exp2.hpp"
#include "numerics/vector_math.hpp"

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

// The Gaussian rows' exp (table_exp2.hpp): its table, its accuracy, its two
// forms giving the same bits, and the edge cases of the general form.
TEST_CASE("the table exp2: its powers of two are 2^(j/256) within an ulp", "[vector_math]") {
    using attention::vector_math::table_exp2::powers;
    CHECK(powers[0] == 1.0);
    for (int j = 0; j < 256; ++j) {
        INFO("j = " << j);
        const double expected = std::exp2(j / 256.0);
        CHECK(std::abs(powers[j] - expected) <= std::nextafter(expected, 2.0) - expected);
    }
}

TEST_CASE("the table exp2 is within 2.3e-16 of std::exp2 on [-1022, 0], its two forms the same bits",
          "[vector_math]") {
    using attention::vector_math::exp2_nonpositive_table;
    using attention::vector_math::exp2_normal_range;
    double worst = 0.0;
    int compared = 0;
    for (int i = 0; i <= 400000; ++i) {
        const double x = -1022.0 * i / 400000.0 - 1e-7 * (i % 7);
        const double expected = std::exp2(x);
        const double general = exp2_nonpositive_table(x);
        worst = std::max(worst, std::abs(general - expected) / expected);
        if (x >= -960.0) {
            ++compared;
            if (exp2_normal_range(x) != general) FAIL("the two forms differ at x = " << x);
        }
    }
    CHECK(worst < 2.3e-16);  // measured 2.2e-16
    CHECK(compared > 370000);
    CHECK(exp2_normal_range(0.0) == 1.0);
    CHECK(exp2_normal_range(-0.0) == 1.0);
    CHECK(exp2_nonpositive_table(0.0) == 1.0);
    for (int k = 0; k <= 1022; ++k) {
        CHECK(exp2_nonpositive_table(-k) == std::ldexp(1.0, -k));  // powers of two exactly
        if (k <= 960) CHECK(exp2_normal_range(-k) == std::ldexp(1.0, -k));
    }
}

TEST_CASE("the table exp2: subnormal results, underflow, -inf and NaN", "[vector_math]") {
    using attention::vector_math::exp2_nonpositive_table;
    for (const double x : {-1022.5, -1030.25, -1050.0, -1073.0, -1074.0})
        CHECK(exp2_nonpositive_table(x) == Approx(std::exp2(x)).epsilon(1e-3));
    CHECK(exp2_nonpositive_table(-1074.0) == std::numeric_limits<double>::denorm_min());
    CHECK(exp2_nonpositive_table(-1076.0) == 0.0);
    CHECK(exp2_nonpositive_table(-1100.0) == 0.0);
    CHECK(exp2_nonpositive_table(-1e300) == 0.0);
    CHECK(exp2_nonpositive_table(-std::numeric_limits<double>::infinity()) == 0.0);
    CHECK(std::isnan(exp2_nonpositive_table(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("a Gaussian row is in the table exp2's normal range when its farthest key's exponent is",
          "[vector_math]") {
    using attention::vector_math::table_exp2::row_in_normal_range;
    CHECK(row_in_normal_range(-0.72, 25.0, 0.0));
    CHECK(row_in_normal_range(-1.0, 960.0, 0.0));
    CHECK_FALSE(row_in_normal_range(-1.0, 960.5, 0.0));
    CHECK(row_in_normal_range(-1.0, 1000.0, 40.0));
    CHECK_FALSE(row_in_normal_range(-std::numeric_limits<double>::max(), 1.0, 0.0));
    CHECK_FALSE(row_in_normal_range(-1.0, std::numeric_limits<double>::infinity(), 0.0));
}
