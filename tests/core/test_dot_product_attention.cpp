// Scaled dot-product attention (d2l 10.3.3) against the book's PyTorch layer,
// and its bad inputs.
#include <cmath>
#include <limits>

#include "scoring/dot_product_attention.hpp"
#include "scoring/masking.hpp"
#include "reference.hpp"
#include "scoring/masked_softmax.hpp"

namespace {
struct Inputs {
    xt::xtensor<double, 3> queries, keys, values;
    xt::xtensor<int, 1> lens;
};

Inputs inputs(const ref::json& c) {
    const auto& s = c["shape"];
    const std::size_t b = s["batch"], nq = s["nq"], nk = s["nk"], d = s["d"], dv = s["dv"];
    return {ref::tensor<3>(c["queries"], {b, nq, d}), ref::tensor<3>(c["keys"], {b, nk, d}),
            ref::tensor<3>(c["values"], {b, nk, dv}), ref::lengths(c["validLens"])};
}

attention::AttentionResult run(const Inputs& in) {
    return attention::dot_product_attention(in.queries, in.keys, in.values, in.lens);
}
}  // namespace

TEST_CASE("dot_product_attention matches d2l's DotProductAttention (PyTorch)", "[dot]") {
    for (const auto& c : ref::references()["dotProductAttention"]) {
        INFO(c["name"].get<std::string>());
        const auto result = run(inputs(c));
        CHECK_NEAR_REF(result.weights, c["weights"]);
        CHECK_NEAR_REF(result.output, c["output"]);
    }
}

TEST_CASE("dot_product_attention scales scores by 1/sqrt(d)", "[dot]") {
    // One query, two keys: softmax([q.k1, q.k2] / sqrt(d)).
    const xt::xtensor<double, 3> q = {{{1.0, 2.0, 0.0, -1.0}}};
    const xt::xtensor<double, 3> k = {{{1.0, 1.0, 1.0, 1.0}, {0.0, 3.0, 0.0, 0.0}}};
    const xt::xtensor<double, 3> v = {{{1.0}, {-1.0}}};
    const auto result = attention::dot_product_attention(q, k, v, xt::xtensor<int, 1>::from_shape({0}));
    const double s1 = 2.0 / 2.0, s2 = 6.0 / 2.0;
    const double w1 = std::exp(s1) / (std::exp(s1) + std::exp(s2));
    CHECK(result.weights(0, 0, 0) == Approx(w1).epsilon(1e-14));
    CHECK(result.output(0, 0, 0) == Approx(w1 - (1 - w1)).epsilon(1e-14));
    CHECK(result.scores(0, 0, 0) == s1);  // the scores come back too, for the page to show
    CHECK(result.scores(0, 0, 1) == s2);
}

TEST_CASE("dot_product_attention refuses bad inputs, naming them", "[dot][errors]") {
    const auto good = inputs(ref::references()["dotProductAttention"][2]);  // batch 3, nq 4, nk 5, d 6, dv 3
    const double not_a_number = std::numeric_limits<double>::quiet_NaN();
    auto with = [&](auto change) {
        Inputs in = good;
        change(in);
        return in;
    };
    REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.keys = xt::zeros<double>({3, 5, 5}); })), "keys",
                                "feature size d=6, got 5");
    REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.keys = xt::zeros<double>({2, 5, 6}); })), "keys",
                                "same batch size as the queries (3)");
    REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.values = xt::zeros<double>({3, 4, 3}); })), "values",
                                "one value per key (5), got 4");
    REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.queries(2, 3, 5) = not_a_number; })), "queries");
    REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.keys(0, 0, 0) = not_a_number; })), "keys");
    REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.values(1, 1, 1) = not_a_number; })), "values");
    xt::xtensor<int, 1> lens = {1, 2, 6};
    REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.lens = lens; })), "validLens", "got 6 at index 2");
    xt::xtensor<int, 1> five = {1, 2, 3, 4, 5};
    REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.lens = five; })), "validLens",
                                "3 (batch) or 12 (batch*nq) lengths, got 5");
}

TEST_CASE("dot_product_attention: finite inputs whose scores overflow are refused, naming the queries",
          "[dot][errors]") {
    // Once "scores: expected finite numbers, got Infinity": scores is no argument of this function.
    const xt::xtensor<double, 3> huge = {{{1e200}}}, one = {{{1.0}}};
    const xt::xtensor<int, 1> none = xt::xtensor<int, 1>::from_shape({0});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::dot_product_attention(huge, huge, one, none), "queries",
                                "numbers small enough that the scores q.k / sqrt(d) stay finite");
    const auto fields = ref::argument_error_of([&] { attention::dot_product_attention(huge, huge, one, none); });
    CHECK(fields.got == "a score of Infinity (batch item 0, query 0, key 0)");
    CHECK_FALSE(fields.index);
    // Infinity - Infinity inside one dot product: NaN, at the second key of the second batch item.
    const xt::xtensor<double, 3> q = {{{1.0, 1.0}}, {{1e200, 1e200}}}, k = {{{1.0, 1.0}, {2.0, 2.0}},
                                                                          {{1.0, 1.0}, {1e200, -1e200}}};
    const xt::xtensor<double, 3> v = xt::zeros<double>({2, 2, 1});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::dot_product_attention(q, k, v, none), "queries",
                                "got a score of NaN (batch item 1, query 0, key 1)");
    // Masked keys too: their scores are part of the result.
    const xt::xtensor<int, 1> first_only = {1, 1};
    REQUIRE_ARGUMENT_ERROR(attention::dot_product_attention(q, k, v, first_only), "queries");
    // Large but finite scores are fine (1e300 / sqrt(1)).
    const xt::xtensor<double, 3> large = {{{1e150}}};
    const auto result = attention::dot_product_attention(large, large, one, none);
    CHECK(result.scores(0, 0, 0) == Approx(1e300).epsilon(1e-15));
    CHECK(result.weights(0, 0, 0) == 1.0);
    CHECK(result.output(0, 0, 0) == 1.0);
    // Where the scores are the caller's argument, they are named: maskedSoftmax and maskScores.
    const xt::xtensor<double, 3> infinite = {{{std::numeric_limits<double>::infinity()}}};
    REQUIRE_ARGUMENT_ERROR_WITH(attention::masked_softmax(infinite, none), "scores", "got Infinity");
    REQUIRE_ARGUMENT_ERROR_WITH(attention::mask_scores(infinite, none), "scores", "got Infinity");
}
