// The hot loops' exp: close to std::exp over the softmax range, and the edge
// cases the pooling and training loops rely on.
#include <cmath>
#include <limits>

#include "reference.hpp"
#include "vector_math.hpp"

using attention::vector_math::exp_nonpositive;

TEST_CASE("exp_nonpositive is within a few ulp of std::exp on [-745, 0]", "[vector_math]") {
    double worst = 0.0;
    for (int i = 0; i <= 200000; ++i) {
        const double x = -708.0 * i / 200000.0;
        const double expected = std::exp(x);
        worst = std::max(worst, std::abs(exp_nonpositive(x) - expected) / expected);
    }
    CHECK(worst < 1e-15);
    CHECK(exp_nonpositive(0.0) == 1.0);
    // Subnormal results keep their value to the precision left to them.
    CHECK(exp_nonpositive(-740.0) == Approx(std::exp(-740.0)).epsilon(1e-3));
}

TEST_CASE("exp_nonpositive handles the edges: far below, -inf and NaN", "[vector_math]") {
    CHECK(exp_nonpositive(-1000.5) == 0.0);
    CHECK(exp_nonpositive(-1e300) == 0.0);
    CHECK(exp_nonpositive(-std::numeric_limits<double>::infinity()) == 0.0);
    CHECK(std::isnan(exp_nonpositive(std::numeric_limits<double>::quiet_NaN())));
}
