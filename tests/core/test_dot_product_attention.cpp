// Scaled dot-product attention (d2l 10.3.3) against the book's PyTorch layer,
// and its bad inputs.
#include <cmath>
#include <limits>

#include "dot_product_attention.hpp"
#include "reference.hpp"

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
