// What the attention layers share: the weighted sum of values and the input
// checks (sizes, limits, finiteness), with their error messages.
#include <limits>

#include "attention_result.hpp"
#include "limits.hpp"
#include "reference.hpp"

using attention::check_attention_inputs;

TEST_CASE("batch_matmul sums the values with the weights, item by item", "[attention]") {
    const xt::xtensor<double, 3> weights = {{{0.25, 0.75}}, {{1.0, 0.0}}};
    const xt::xtensor<double, 3> values = {{{4.0, 8.0}, {0.0, -4.0}}, {{1.0, 2.0}, {3.0, 4.0}}};
    const auto output = attention::batch_matmul(weights, values);
    const xt::xtensor<double, 3> expected = {{{1.0, -1.0}}, {{1.0, 2.0}}};
    CHECK_SAME_BITS(output, expected);
}

TEST_CASE("check_attention_inputs refuses bad shapes and numbers, naming them", "[attention][errors]") {
    namespace lim = attention::limits;
    using s3 = std::array<std::size_t, 3>;
    auto zeros = [](s3 s) { return xt::xtensor<double, 3>(xt::zeros<double>(s)); };
    const auto q = zeros({2, 3, 4}), k = zeros({2, 5, 4}), v = zeros({2, 5, 6});
    REQUIRE_NOTHROW(check_attention_inputs(q, k, v));
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(zeros({0, 3, 4}), zeros({0, 5, 4}), zeros({0, 5, 6})),
                                "batch", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(zeros({65, 1, 1}), zeros({65, 1, 1}), zeros({65, 1, 1})),
                                "batch", "[1, 64], got 65");
    REQUIRE_ARGUMENT_ERROR(check_attention_inputs(zeros({2, 0, 4}), k, v), "nq");
    REQUIRE_ARGUMENT_ERROR(check_attention_inputs(zeros({1, lim::max_points + 1, 1}), zeros({1, 1, 1}),
                                                  zeros({1, 1, 1})),
                           "nq");
    REQUIRE_ARGUMENT_ERROR(check_attention_inputs(q, zeros({2, 0, 4}), zeros({2, 0, 6})), "nk");
    REQUIRE_ARGUMENT_ERROR(check_attention_inputs(zeros({1, 1, 1}), zeros({1, lim::max_points + 1, 1}),
                                                  zeros({1, lim::max_points + 1, 1})),
                           "nk");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(q, zeros({3, 5, 4}), v), "keys", "same batch size");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(q, k, zeros({1, 5, 6})), "keys", "same batch size");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(q, k, zeros({2, 4, 6})), "values",
                                "one value per key (5), got 4");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(zeros({2, 3, 0}), k, v), "feature size", "got 0");
    REQUIRE_ARGUMENT_ERROR(check_attention_inputs(q, zeros({2, 5, 0}), v), "feature size");
    REQUIRE_ARGUMENT_ERROR(check_attention_inputs(q, k, zeros({2, 5, 0})), "feature size");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(zeros({2, 1, lim::max_dimension + 1}), zeros({2, 1, 1}),
                                                       zeros({2, 1, 1})),
                                "feature size", "got 1025");
    // batch * nq * nk is bounded although each size is allowed.
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(zeros({64, 600, 1}), zeros({64, 600, 1}),
                                                       zeros({64, 600, 1})),
                                "nk", "batch * nq * nk <= 16777216");
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        auto bq = q, bk = k, bv = v;
        bq(1, 2, 3) = bad;
        bk(0, 4, 0) = bad;
        bv(1, 0, 5) = bad;
        REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(bq, k, v), "queries", "at index 23");
        REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(q, bk, v), "keys", "at index 16");
        REQUIRE_ARGUMENT_ERROR_WITH(check_attention_inputs(q, k, bv), "values", "at index 35");
    }
}
