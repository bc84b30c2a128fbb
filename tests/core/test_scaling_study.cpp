// The scaling study (why dot products are divided by sqrt(d)): the same
// samples as the Python re-implementation, the variance growing like d, and
// bad arguments.
#include <cmath>

#include "contract/limits.hpp"
#include "reference.hpp"
#include "scoring/scaling_study.hpp"

using attention::scaling_study;

namespace {
std::vector<std::size_t> sizes(const ref::json& list) { return list.get<std::vector<std::size_t>>(); }
}  // namespace

TEST_CASE("scaling_study matches the Python re-implementation", "[scaling]") {
    const auto& study = ref::references()["scalingStudy"];
    const auto rows = scaling_study({sizes(study["dims"]), study["samples"], study["keys"], study["seed"]});
    REQUIRE(rows.size() == study["rows"].size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& expected = study["rows"][i];
        INFO("d = " << rows[i].d);
        CHECK(rows[i].d == expected["d"].get<std::size_t>());
        // Sums of products of the generator's normals: the same operations, so the same bits.
        CHECK(rows[i].variance == expected["variance"].get<double>());
        CHECK(rows[i].scaled_variance == expected["scaledVariance"].get<double>());
        // Softmax uses the platform's exp: a last-bit difference is allowed.
        CHECK(rows[i].max_weight == Approx(expected["maxWeight"].get<double>()).epsilon(1e-12));
        CHECK(rows[i].scaled_max_weight == Approx(expected["scaledMaxWeight"].get<double>()).epsilon(1e-12));
    }
}

TEST_CASE("scaling_study: the variance of q.k grows like d, the scaled one stays near 1", "[scaling]") {
    const auto rows = scaling_study({{4, 64, 256}, 2000, 10, 11});
    for (const auto& row : rows) {
        INFO("d = " << row.d);
        CHECK(row.variance == Approx(double(row.d)).epsilon(0.15));
        CHECK(row.scaled_variance == Approx(1.0).epsilon(0.15));
        CHECK(row.scaled_variance == Approx(row.variance / row.d).epsilon(1e-12));
        CHECK(row.max_weight >= row.scaled_max_weight);
        CHECK(row.scaled_max_weight > 0.1);  // at least uniform over 10 keys
    }
    CHECK(rows[2].max_weight > 0.9);  // unscaled, the softmax collapses onto one key
    // Deterministic per seed.
    const auto again = scaling_study({{4, 64, 256}, 2000, 10, 11});
    CHECK(again[1].variance == rows[1].variance);
    CHECK(again[2].max_weight == rows[2].max_weight);
}

TEST_CASE("scaling_study refuses bad arguments, naming them", "[scaling][errors]") {
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({{}, 100, 10, 0}), "dims.length", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({std::vector<std::size_t>(65, 2), 100, 10, 0}), "dims.length",
                                "[1, 64], got 65");
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({{4, 0}, 100, 10, 0}), "dims", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({{1025}, 100, 10, 0}), "dims", "[1, 1024], got 1025");
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({{4}, 1, 10, 0}), "samples", "[2, 10000], got 1");
    REQUIRE_ARGUMENT_ERROR(scaling_study({{4}, 10001, 10, 0}), "samples");
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({{4}, 100, 0, 0}), "keys", "got 0");
    REQUIRE_ARGUMENT_ERROR(scaling_study({{4}, 100, 1001, 0}), "keys");
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({{1, 2, 3, 4, 5}, 1000, 1000, 0}), "samples",
                                "dims.length * samples * keys <= 4194304");
    CHECK(scaling_study({{1, 2, 3, 4}, 1000, 1000, 0}).size() == 4);  // 4 * 1000 * 1000 <= 2^22
}

TEST_CASE("scaling_study's defaults: d = 1 ... 512, 500 queries of 10 keys, seed 0", "[scaling]") {
    const attention::ScalingStudyOptions defaults;
    CHECK(defaults.dims == std::vector<std::size_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512});
    CHECK(defaults.samples == 500);
    CHECK(defaults.keys == 10);
    CHECK(defaults.seed == 0);
    const auto rows = scaling_study();
    REQUIRE(rows.size() == defaults.dims.size());
    CHECK(rows.back().d == 512);
    const auto same = scaling_study({defaults.dims, 500, 10, 0});
    CHECK(rows.back().variance == same.back().variance);
}

TEST_CASE("scaling_study bounds its normal draws: samples * (keys + 1) * (sum of dims)", "[scaling][errors]") {
    namespace lim = attention::limits;
    using attention::check_scaling_study;
    REQUIRE(lim::max_study_draws == 16777216u);  // 2^24, about a second of wasm
    REQUIRE_NOTHROW(check_scaling_study({{1024}, 2048, 7, 0}));  // exactly 2^24
    REQUIRE_ARGUMENT_ERROR_WITH(check_scaling_study({{1024}, 2049, 7, 0}), "samples",
                                "samples * (keys + 1) * (sum of dims) <= 16777216, got 16785408");
    // Every entry of dims counts: 64 of 1024 allow samples * (keys + 1) <= 256.
    std::vector<std::size_t> wide(lim::max_study_dims, lim::max_dimension);
    REQUIRE_NOTHROW(check_scaling_study({wide, 2, 127, 0}));
    REQUIRE_ARGUMENT_ERROR_WITH(check_scaling_study({wide, 2, 128, 0}), "samples", "got 16908288");
    // The study checks it before drawing anything.
    REQUIRE_ARGUMENT_ERROR_WITH(scaling_study({wide, 100, 10, 0}), "samples", "got 72089600");
    // The defaults are well within it: 500 * 11 * 1023.
    REQUIRE_NOTHROW(check_scaling_study({}));
}
