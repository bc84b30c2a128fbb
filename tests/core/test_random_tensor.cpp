// Seeded normal draws for the page's examples: the generator's normals scaled
// by std, bit for bit the Python re-implementation's.
#include <cmath>
#include <limits>

#include "contract/limits.hpp"
#include "numerics/random.hpp"
#include "numerics/random_tensor.hpp"
#include "reference.hpp"

using attention::random_normal;

TEST_CASE("random_normal matches the Python re-implementation bit for bit", "[random_tensor]") {
    for (const auto& c : ref::references()["randomNormal"]) {
        INFO("count " << c["count"] << " seed " << c["seed"] << " std " << c["std"]);
        CHECK_SAME_BITS(random_normal(c["count"], {c["seed"].get<std::uint32_t>(), c["std"].get<double>()}), ref::numbers(c["values"]));
    }
}

TEST_CASE("random_normal is std times the generator's normals", "[random_tensor]") {
    attention::Random random(77);
    std::vector<double> expected;
    for (int i = 0; i < 9; ++i) expected.push_back(0.3 * random.normal());
    CHECK_SAME_BITS(random_normal(9, {77, 0.3}), expected);
    CHECK_SAME_BITS(random_normal(9, {77}), random_normal(9, {77, 1.0}));  // std defaults to 1
    const auto many = random_normal(100000, {5, 2.0});
    double sum = 0.0, sum2 = 0.0;
    for (double v : many) {
        sum += v;
        sum2 += v * v;
    }
    CHECK(sum / 1e5 == Approx(0.0).margin(0.03));
    CHECK(std::sqrt(sum2 / 1e5) == Approx(2.0).epsilon(0.02));
}

TEST_CASE("random_normal accepts its limits and refuses bad arguments, naming them", "[random_tensor][errors]") {
    namespace lim = attention::limits;
    CHECK(random_normal(lim::max_matrix_elements, {1, 1e6}).size() == lim::max_matrix_elements);
    REQUIRE_ARGUMENT_ERROR_WITH(random_normal(0, {1}), "count", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(random_normal(lim::max_matrix_elements + 1, {1}), "count", "got 16777217");
    for (double std : {-0.1, 1e6 * 1.001, std::numeric_limits<double>::quiet_NaN(),
                       std::numeric_limits<double>::infinity()})
        REQUIRE_ARGUMENT_ERROR(random_normal(3, {1, std}), "std");
    REQUIRE_ARGUMENT_ERROR_WITH(random_normal(3, {1, -2.0}), "std", "[0, 1000000], got -2");
}

TEST_CASE("random_uniform is low + (high - low) times the generator's uniforms", "[random_tensor]") {
    attention::Random random(12);
    std::vector<double> expected;
    for (int i = 0; i < 7; ++i) expected.push_back(-2.0 + 5.0 * random.uniform());
    CHECK_SAME_BITS(attention::random_uniform(7, {12, -2.0, 3.0}), expected);
    for (double v : attention::random_uniform(10000, {3})) {  // defaults: U[0, 1)
        CHECK(v >= 0.0);
        CHECK(v < 1.0);
    }
}

TEST_CASE("random_uniform refuses bad bounds and counts, naming them", "[random_tensor][errors]") {
    REQUIRE_ARGUMENT_ERROR_WITH(attention::random_uniform(0, {1}), "count", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(attention::random_uniform(3, {1, 1.0, 1.0}), "high", "above low (1), got 1");
    REQUIRE_ARGUMENT_ERROR(attention::random_uniform(3, {1, std::numeric_limits<double>::quiet_NaN(), 1.0}), "low");
    REQUIRE_ARGUMENT_ERROR(attention::random_uniform(3, {1, 0.0, std::numeric_limits<double>::infinity()}), "high");
}

TEST_CASE("the draws' defaults: seed 0, std 1, low 0 and high 1", "[random_tensor]") {
    const attention::NormalOptions normal;
    CHECK(normal.seed == 0);
    CHECK(normal.std == 1.0);
    const attention::UniformOptions uniform;
    CHECK(uniform.seed == 0);
    CHECK(uniform.low == 0.0);
    CHECK(uniform.high == 1.0);
    attention::Random random(0);
    CHECK(random_normal(1)(0) == random.normal());
}
