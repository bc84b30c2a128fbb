// Softmax and d2l's masked softmax, against PyTorch, with this project's
// all-zero rows for valid length 0.
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "contract/limits.hpp"
#include "reference.hpp"
#include "scoring/masked_softmax.hpp"

using attention::masked_softmax;
using ref::lens;
using ref::no_mask;

TEST_CASE("softmax_row is a stable softmax", "[softmax]") {
    std::vector<double> row = {1.0, 2.0, 3.0, -1.0};
    std::vector<double> expected;
    double sum = 0.0;
    for (double v : row) sum += std::exp(v);
    for (double v : row) expected.push_back(std::exp(v) / sum);
    attention::softmax_row(row.data(), row.size(), row.size());
    CHECK_NEAR_TOL(row, expected, 1e-15);

    // Huge scores would overflow exp without the max subtracted.
    std::vector<double> huge = {1000.0, 1001.0, 999.0, 1002.0};
    std::vector<double> shifted = {0.0, 1.0, -1.0, 2.0};
    attention::softmax_row(huge.data(), huge.size(), huge.size());
    attention::softmax_row(shifted.data(), shifted.size(), shifted.size());
    CHECK_NEAR_TOL(huge, shifted, 1e-15);
    CHECK(std::accumulate(huge.begin(), huge.end(), 0.0) == Approx(1.0).epsilon(1e-15));

    std::vector<double> empty;
    attention::softmax_row(empty.data(), 0, 0);  // no row, nothing to do
    std::vector<double> single = {-1e300};
    attention::softmax_row(single.data(), 1, 1);
    CHECK(single[0] == 1.0);
}

TEST_CASE("masked_softmax matches d2l's (PyTorch)", "[softmax]") {
    for (const auto& c : ref::references()["maskedSoftmax"]) {
        INFO(c["name"].get<std::string>());
        const auto scores = ref::tensor<3>(c["scores"], ref::shape<3>(c["shape"]));
        const auto weights = masked_softmax(scores, ref::lengths(c["validLens"]));
        CHECK_NEAR_REF(weights, c["weights"]);
    }
}

TEST_CASE("masked_softmax: masked keys get exactly 0, valid length 0 gives a zero row", "[softmax]") {
    xt::xtensor<double, 3> scores = {{{0.5, 2.0, -1.0, 3.0}, {1.0, 1.0, 1.0, 1.0}},
                                     {{-2.0, 0.0, 7.0, 1.0}, {0.1, 0.2, 0.3, 0.4}}};
    SECTION("per batch item") {
        const auto w = masked_softmax(scores, lens({3, 0}));
        for (std::size_t q = 0; q < 2; ++q) {
            CHECK(w(0, q, 3) == 0.0);
            CHECK(w(0, q, 0) + w(0, q, 1) + w(0, q, 2) == Approx(1.0).epsilon(1e-15));
            for (std::size_t k = 0; k < 4; ++k) CHECK(w(1, q, k) == 0.0);
        }
    }
    SECTION("per row") {
        const auto w = masked_softmax(scores, lens({1, 4, 0, 2}));
        CHECK(w(0, 0, 0) == 1.0);
        CHECK(w(0, 1, 0) == Approx(0.25).epsilon(1e-15));
        for (std::size_t k = 0; k < 4; ++k) CHECK(w(1, 0, k) == 0.0);
        CHECK(w(1, 1, 2) == 0.0);
        CHECK(w(1, 1, 0) + w(1, 1, 1) == Approx(1.0).epsilon(1e-15));
    }
    SECTION("no mask equals full lengths") {
        CHECK_SAME_BITS(masked_softmax(scores, no_mask), masked_softmax(scores, lens({4, 4})));
        CHECK_SAME_BITS(masked_softmax(scores, no_mask), masked_softmax(scores, lens({4, 4, 4, 4})));
    }
}

TEST_CASE("masked_softmax refuses bad shapes, values and lengths", "[softmax][errors]") {
    namespace lim = attention::limits;
    using shape = std::array<std::size_t, 3>;
    auto zeros = [](shape s) { return xt::xtensor<double, 3>(xt::zeros<double>(s)); };
    REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(zeros({0, 2, 2}), no_mask), "batch", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(zeros({lim::max_batch + 1, 1, 1}), no_mask), "batch", "got 65");
    REQUIRE_ARGUMENT_ERROR(masked_softmax(zeros({1, 0, 2}), no_mask), "nq");
    REQUIRE_ARGUMENT_ERROR(masked_softmax(zeros({1, lim::max_points + 1, 1}), no_mask), "nq");
    REQUIRE_ARGUMENT_ERROR(masked_softmax(zeros({1, 2, 0}), no_mask), "nk");
    REQUIRE_ARGUMENT_ERROR(masked_softmax(zeros({1, 1, lim::max_points + 1}), no_mask), "nk");
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                       -std::numeric_limits<double>::infinity()}) {
        auto scores = zeros({2, 2, 3});
        scores(1, 1, 2) = bad;
        REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(scores, no_mask), "scores", "at index 11");
    }
    const auto scores = zeros({2, 3, 4});
    REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(scores, lens({1})), "validLens",
                                "expected null, 2 (batch) or 6 (batch*nq) lengths, got 1");
    REQUIRE_ARGUMENT_ERROR(masked_softmax(scores, lens({1, 2, 3})), "validLens");
    REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(scores, lens({1, 5})), "validLens",
                                "expected lengths in [0, 4] (nk), got 5 at index 1");
    REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(scores, lens({-1, 2})), "validLens", "got -1 at index 0");
    REQUIRE_ARGUMENT_ERROR(masked_softmax(scores, lens({1, 2, 3, 4, 5, 1})), "validLens");
}

TEST_CASE("masked_softmax bounds batch * nq * nk like every result matrix", "[softmax][errors]") {
    // Each extent allowed, their product (2^24 + 2^14) not.
    const auto scores = xt::xtensor<double, 3>(xt::zeros<double>({std::size_t{64}, std::size_t{513}, std::size_t{512}}));
    REQUIRE_ARGUMENT_ERROR_WITH(masked_softmax(scores, no_mask), "nk", "batch * nq * nk <= 16777216, got 16809984");
}

TEST_CASE("masked_softmax accepts the documented limits", "[softmax]") {
    namespace lim = attention::limits;
    const auto wide = masked_softmax(xt::zeros<double>({std::size_t{1}, std::size_t{1}, lim::max_points}), no_mask);
    CHECK(wide(0, 0, 0) == Approx(1.0 / lim::max_points).epsilon(1e-12));
    const auto deep = masked_softmax(xt::zeros<double>({lim::max_batch, std::size_t{2}, std::size_t{2}}), no_mask);
    CHECK(deep(lim::max_batch - 1, 1, 1) == 0.5);
}
