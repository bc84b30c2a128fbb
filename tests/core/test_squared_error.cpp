// The sum of squared errors: the sum in order, NaN for a missing prediction,
// and refused arguments named.
#include <cmath>
#include <limits>

#include "contract/limits.hpp"
#include "reference.hpp"
#include "regression/squared_error.hpp"

TEST_CASE("sum_squared_error sums (p - t)^2 in order", "[squared_error]") {
    const xt::xtensor<double, 1> predictions = {1.0, 2.5, -1.0};
    const xt::xtensor<double, 1> targets = {0.5, 2.5, 1.0};
    CHECK(attention::sum_squared_error(predictions, targets) == 0.25 + 0.0 + 4.0);
    const xt::xtensor<double, 1> gap = {1.0, std::nan(""), -1.0};
    CHECK(std::isnan(attention::sum_squared_error(gap, targets)));
}

TEST_CASE("sum_squared_error refuses mismatched, empty, oversized and infinite arguments", "[squared_error][errors]") {
    const xt::xtensor<double, 1> three = {1.0, 2.0, 3.0};
    const xt::xtensor<double, 1> two = {1.0, 2.0};
    REQUIRE_ARGUMENT_ERROR_WITH(attention::sum_squared_error(three, two), "targets", "as many numbers as predictions (3)");
    REQUIRE_ARGUMENT_ERROR(attention::sum_squared_error(xt::xtensor<double, 1>::from_shape({0}),
                                                        xt::xtensor<double, 1>::from_shape({0})),
                           "predictions");
    const auto many = xt::zeros<double>({attention::limits::max_points + 1});
    REQUIRE_ARGUMENT_ERROR(attention::sum_squared_error(many, many), "predictions");
    const xt::xtensor<double, 1> infinite = {1.0, std::numeric_limits<double>::infinity()};
    REQUIRE(ref::argument_error_of([&] { attention::sum_squared_error(infinite, two); }).index == 1u);
    REQUIRE_ARGUMENT_ERROR(attention::sum_squared_error(two, infinite), "targets");
    const xt::xtensor<double, 1> missing = {1.0, std::nan("")};
    REQUIRE_ARGUMENT_ERROR(attention::sum_squared_error(two, missing), "targets");
}
