// d2l's masking of scores: valid lengths per batch item or per row, the
// masked scores (-1e6 over the masked keys), the mask and the length of each
// row; d2l's masked_softmax is the softmax of the masked scores.
#include <limits>
#include <vector>

#include "contract/limits.hpp"
#include "scoring/masking.hpp"
#include "reference.hpp"
#include "scoring/masked_softmax.hpp"

using attention::mask_scores;
using attention::masked_score;
using ref::lens;
using ref::no_mask;

TEST_CASE("the masked score is d2l's -1e6", "[masking]") { CHECK(masked_score == -1e6); }

TEST_CASE("ValidLengths reads lengths per item or per row", "[masking]") {
    const auto per_item = lens({2, 5});
    const attention::ValidLengths items(per_item, 2, 3, 5);
    CHECK(items.of_row(0, 2) == 2);
    CHECK(items.of_row(1, 0) == 5);
    const auto per_row = lens({0, 1, 2, 3, 4, 5});
    const attention::ValidLengths rows(per_row, 2, 3, 5);
    CHECK(rows.of_row(0, 2) == 2);
    CHECK(rows.of_row(1, 1) == 4);
    const attention::ValidLengths none(no_mask, 2, 3, 5);
    CHECK(none.of_row(1, 2) == 5);
}

TEST_CASE("mask_scores writes -1e6 over the masked keys and says which and how many", "[masking]") {
    const xt::xtensor<double, 3> scores = {{{0.5, 2.0, -1.0, 3.0}, {1.0, 1.5, 1.0, 1.0}},
                                           {{-2.0, 0.0, 7.0, 1.0}, {0.1, 0.2, 0.3, 0.4}}};
    SECTION("1-D lengths: one per batch item, for every row of the item") {
        const auto result = mask_scores(scores, lens({3, 1}));
        const xt::xtensor<double, 3> expected = {{{0.5, 2.0, -1.0, -1e6}, {1.0, 1.5, 1.0, -1e6}},
                                                 {{-2.0, -1e6, -1e6, -1e6}, {0.1, -1e6, -1e6, -1e6}}};
        CHECK_SAME_BITS(result.scores, expected);
        const xt::xtensor<std::uint8_t, 3> mask = {{{0, 0, 0, 1}, {0, 0, 0, 1}}, {{0, 1, 1, 1}, {0, 1, 1, 1}}};
        CHECK(result.masked == mask);
        const xt::xtensor<int, 2> rows = {{3, 3}, {1, 1}};
        CHECK(result.row_lengths == rows);
    }
    SECTION("2-D lengths: one per row, 0 masks the whole row") {
        const auto result = mask_scores(scores, lens({4, 2, 0, 3}));
        const xt::xtensor<double, 3> expected = {{{0.5, 2.0, -1.0, 3.0}, {1.0, 1.5, -1e6, -1e6}},
                                                 {{-1e6, -1e6, -1e6, -1e6}, {0.1, 0.2, 0.3, -1e6}}};
        CHECK_SAME_BITS(result.scores, expected);
        const xt::xtensor<std::uint8_t, 3> mask = {{{0, 0, 0, 0}, {0, 0, 1, 1}}, {{1, 1, 1, 1}, {0, 0, 0, 1}}};
        CHECK(result.masked == mask);
        const xt::xtensor<int, 2> rows = {{4, 2}, {0, 3}};
        CHECK(result.row_lengths == rows);
    }
    SECTION("no lengths: nothing masked, every row of length nk") {
        const auto result = mask_scores(scores, no_mask);
        CHECK_SAME_BITS(result.scores, scores);
        CHECK(xt::all(xt::equal(result.masked, std::uint8_t{0})));
        CHECK(xt::all(xt::equal(result.row_lengths, 4)));
    }
}

TEST_CASE("masked_softmax is the softmax of the masked scores, but for rows of length 0", "[masking]") {
    for (const auto& c : ref::references()["maskedSoftmax"]) {
        INFO(c["name"].get<std::string>());
        const auto scores = ref::tensor<3>(c["scores"], ref::shape<3>(c["shape"]));
        const auto valid = ref::lengths(c["validLens"]);
        const auto masked = mask_scores(scores, valid);
        const auto weights = attention::masked_softmax(scores, valid);
        // d2l's own masked_softmax, from the masked scores: a plain softmax of each row.
        auto d2l = masked.scores;
        const std::size_t keys = scores.shape(2);
        for (std::size_t row = 0; row < d2l.size() / keys; ++row) attention::softmax_row(&d2l.data()[row * keys], keys, keys);
        for (std::size_t row = 0; row < d2l.size() / keys; ++row) {
            const std::vector<double> ours(weights.data() + row * keys, weights.data() + (row + 1) * keys);
            const std::vector<double> book(d2l.data() + row * keys, d2l.data() + (row + 1) * keys);
            if (masked.row_lengths.data()[row] == 0) {
                CHECK(ours == std::vector<double>(keys, 0.0));                    // ours: no weight at all
                CHECK_NEAR_TOL(book, std::vector<double>(keys, 1.0 / keys), 1e-15);  // d2l: uniform
            } else {
                CHECK_NEAR_TOL(ours, book, 1e-15);
            }
        }
    }
}

TEST_CASE("mask_scores refuses what masked_softmax refuses, with the same messages", "[masking][errors]") {
    namespace lim = attention::limits;
    using shape = std::array<std::size_t, 3>;
    auto zeros = [](shape s) { return xt::xtensor<double, 3>(xt::zeros<double>(s)); };
    REQUIRE_ARGUMENT_ERROR_WITH(mask_scores(zeros({0, 2, 2}), no_mask), "batch", "got 0");
    REQUIRE_ARGUMENT_ERROR(mask_scores(zeros({1, lim::max_points + 1, 1}), no_mask), "nq");
    REQUIRE_ARGUMENT_ERROR(mask_scores(zeros({1, 2, 0}), no_mask), "nk");
    auto scores = zeros({2, 3, 4});
    scores(1, 2, 3) = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_ARGUMENT_ERROR_WITH(mask_scores(scores, no_mask), "scores", "NaN at index 23");
    const auto good = zeros({2, 3, 4});
    REQUIRE_ARGUMENT_ERROR_WITH(mask_scores(good, lens({1})), "validLens",
                                "expected null, 2 (batch) or 6 (batch*nq) lengths, got 1");
    REQUIRE_ARGUMENT_ERROR_WITH(mask_scores(good, lens({1, 5})), "validLens",
                                "expected lengths in [0, 4] (nk), got 5 at index 1");
    for (const auto& bad : {lens({1}), lens({1, 5}), lens({-1, 2})}) {
        std::string a, b;
        try {
            mask_scores(good, bad);
        } catch (const attention::ArgumentError& e) {
            a = e.what();
        }
        try {
            attention::masked_softmax(good, bad);
        } catch (const attention::ArgumentError& e) {
            b = e.what();
        }
        CHECK_FALSE(a.empty());
        CHECK(a == b);
    }
}
