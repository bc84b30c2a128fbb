// Additive attention (d2l 10.3.2) against the book's PyTorch layer, and its
// bad inputs.
#include <cmath>
#include <limits>

#include "scoring/checked_additive_attention.hpp"
#include "scoring/masked_softmax.hpp"
#include "contract/limits.hpp"
#include "reference.hpp"

namespace {
struct Inputs {
    xt::xtensor<double, 3> queries, keys, values;
    xt::xtensor<double, 2> w_q, w_k;
    xt::xtensor<double, 1> w_v;
    xt::xtensor<int, 1> lens;
};

Inputs inputs(const ref::json& c) {
    const auto& s = c["shape"];
    const std::size_t b = s["batch"], nq = s["nq"], nk = s["nk"], dq = s["dq"], dk = s["dk"], dv = s["dv"],
                      h = s["h"];
    return {ref::tensor<3>(c["queries"], {b, nq, dq}), ref::tensor<3>(c["keys"], {b, nk, dk}),
            ref::tensor<3>(c["values"], {b, nk, dv}),  ref::tensor<2>(c["Wq"], {h, dq}),
            ref::tensor<2>(c["Wk"], {h, dk}),          ref::tensor<1>(c["wv"], {h}),
            ref::lengths(c["validLens"])};
}

attention::AttentionResult run(const Inputs& in) {
    return attention::additive_attention(in.queries, in.keys, in.values, in.w_q, in.w_k, in.w_v, in.lens);
}
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("additive_attention matches d2l's AdditiveAttention (PyTorch)", "[additive]") {
    for (const auto& c : ref::references()["additiveAttention"]) {
        INFO(c["name"].get<std::string>());
        const auto result = run(inputs(c));
        CHECK(result.output.shape(2) == c["shape"]["dv"].get<std::size_t>());
        CHECK_NEAR_REF(result.weights, c["weights"]);
        CHECK_NEAR_REF(result.output, c["output"]);
    }
}

TEST_CASE("additive_attention returns the unmasked scores its weights come from", "[additive]") {
    for (const auto& c : ref::references()["additiveAttention"]) {
        INFO(c["name"].get<std::string>());
        const Inputs in = inputs(c);
        const auto result = run(in);
        REQUIRE(result.scores.shape() == result.weights.shape());
        const bool same = attention::masked_softmax(result.scores, in.lens) == result.weights;
        CHECK(same);
        // Scores are w_v . tanh(...), so |score| <= sum |w_v|.
        double bound = 0.0;
        for (double w : in.w_v) bound += std::abs(w);
        for (double score : result.scores) CHECK(std::abs(score) <= bound);
    }
}

TEST_CASE("additive_attention: the book's demo attends uniformly to the valid keys", "[additive]") {
    // Keys all ones: every key scores the same, so valid lengths 2 and 6 give
    // weights 1/2 and 1/6 and the mean of the first 2 or 6 values.
    const auto in = inputs(ref::references()["additiveAttention"][0]);
    const auto result = run(in);
    for (std::size_t k = 0; k < 10; ++k) {
        CHECK(result.weights(0, 0, k) == Approx(k < 2 ? 0.5 : 0.0).margin(1e-15));
        CHECK(result.weights(1, 0, k) == Approx(k < 6 ? 1.0 / 6 : 0.0).margin(1e-15));
    }
    CHECK(result.output(0, 0, 0) == Approx(2.0).epsilon(1e-14));   // mean of 0, 4
    CHECK(result.output(1, 0, 3) == Approx(13.0).epsilon(1e-14));  // mean of 3, 7, ..., 23
}

TEST_CASE("additive_attention refuses bad inputs, naming them", "[additive][errors]") {
    namespace lim = attention::limits;
    const auto good = inputs(ref::references()["additiveAttention"][1]);
    auto with = [&](auto change) {
        Inputs in = good;
        change(in);
        return in;
    };
    SECTION("weight shapes") {
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.w_q = xt::zeros<double>({8, 19}); })), "Wq",
                                    "expected shape (h=8, dq=20)");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.w_q = xt::zeros<double>({7, 20}); })), "Wq");
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.w_k = xt::zeros<double>({8, 3}); })), "Wk",
                                    "expected shape (h=8, dk=2)");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.w_k = xt::zeros<double>({9, 2}); })), "Wk");
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.w_v = xt::zeros<double>({0}); })), "h",
                                    "[1, 1024], got 0");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.w_v = xt::zeros<double>({lim::max_dimension + 1}); })),
                               "h");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.w_v = xt::zeros<double>({9}); })), "Wq");
    }
    SECTION("non-finite numbers") {
        for (double bad : {not_a_number, infinity, -infinity}) {
            REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.queries(1, 0, 5) = bad; })), "queries");
            REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.keys(0, 9, 1) = bad; })), "keys");
            REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.values(1, 3, 2) = bad; })), "values");
            REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.w_q(7, 19) = bad; })), "Wq", "at index 159");
            REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.w_k(0, 0) = bad; })), "Wk");
            REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.w_v(3) = bad; })), "wv");
        }
    }
    SECTION("valid lengths") {
        auto lens = [](std::initializer_list<int> v) {
            xt::xtensor<int, 1> r = xt::xtensor<int, 1>::from_shape({v.size()});
            std::copy(v.begin(), v.end(), r.begin());
            return r;
        };
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.lens = lens({2, 11}); })), "validLens",
                                    "[0, 10] (nk), got 11");
        REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.lens = lens({-3, 1}); })), "validLens");
        REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.lens = lens({2, 3, 4}); })), "validLens");
    }
    SECTION("work bound: batch * nq * nk * h") {
        // Every size is within its limit, but 1000 * 1000 * 100 tanh evaluations are not.
        const auto q = xt::xtensor<double, 3>(xt::zeros<double>({1, 1000, 1}));
        const auto w = xt::xtensor<double, 2>(xt::zeros<double>({100, 1}));
        const auto v = xt::xtensor<double, 1>(xt::zeros<double>({100}));
        REQUIRE_ARGUMENT_ERROR_WITH(attention::additive_attention(q, q, q, w, w, v, good.lens), "h",
                                    "batch * nq * nk * h <= 16777216");
    }
}

TEST_CASE("additive_attention: finite inputs whose scores overflow are refused, naming the argument to change",
          "[additive][errors]") {
    const xt::xtensor<int, 1> none = xt::xtensor<int, 1>::from_shape({0});
    const xt::xtensor<double, 3> one = {{{1.0}}};
    const xt::xtensor<double, 2> unit = {{1.0}};
    // The sum of h terms wv[c] tanh(...) overflows: wv.
    const xt::xtensor<double, 2> unit2 = {{1.0}, {1.0}};
    const xt::xtensor<double, 1> huge_wv = {1e308, 1e308};
    REQUIRE_ARGUMENT_ERROR_WITH(attention::additive_attention(one, one, one, unit2, unit2, huge_wv, none), "wv",
                                "numbers small enough that the scores, sums of h terms wv[c] tanh(...), stay finite, "
                                "got a score of Infinity (batch item 0, query 0, key 0)");
    // A projection Wq q that is NaN (Infinity - Infinity in its own sum): the queries.
    const xt::xtensor<double, 3> two = {{{2.0, -2.0}}};
    const xt::xtensor<double, 2> huge_row = {{1e308, 1e308}};
    const xt::xtensor<double, 1> wv = {1.0};
    REQUIRE_ARGUMENT_ERROR_WITH(attention::additive_attention(two, one, one, huge_row, unit, wv, none), "queries",
                                "their projections by Wq overflow");
    // ... or Wk k: the keys.
    REQUIRE_ARGUMENT_ERROR_WITH(attention::additive_attention(one, two, one, unit, huge_row, wv, none), "keys",
                                "their projections by Wk overflow");
    // Both projections infinite, with opposite signs: Infinity - Infinity in the tanh. The queries.
    const xt::xtensor<double, 3> big = {{{1e200}}}, minus_big = {{{-1e200}}};
    const xt::xtensor<double, 2> big_w = {{1e200}};
    REQUIRE_ARGUMENT_ERROR_WITH(attention::additive_attention(big, minus_big, one, big_w, big_w, wv, none), "queries",
                                "got a score of NaN");
    // A projection that overflows alone is harmless: tanh saturates, as in PyTorch (score = wv).
    const auto saturated = attention::additive_attention(big, one, one, big_w, unit, wv, none);
    CHECK(saturated.scores(0, 0, 0) == 1.0);
    CHECK(saturated.output(0, 0, 0) == 1.0);
    // Huge queries and keys with modest weights: the tanh saturates, nothing overflows.
    const auto huge_inputs = attention::additive_attention(big, big, one, unit, unit, wv, none);
    CHECK(huge_inputs.scores(0, 0, 0) == 1.0);
}

TEST_CASE("additive_attention: masked keys weigh exactly 0, as in the models, even below d2l's -1e6",
          "[additive]") {
    // The visible key scores 1e7 * tanh(-2) (about -9.6e6), under d2l's mask value -1e6,
    // where d2l's masked softmax would give the masked key all the weight.
    const xt::xtensor<double, 3> queries = {{{-1.0}}}, keys = {{{-1.0}, {0.0}}}, values = {{{2.0}, {3.0}}};
    const xt::xtensor<double, 2> unit = {{1.0}};
    const xt::xtensor<double, 1> wv = {1e7};
    const xt::xtensor<int, 1> lens = {1};
    const auto result = attention::additive_attention(queries, keys, values, unit, unit, wv, lens);
    CHECK(result.scores(0, 0, 0) < -9e6);
    CHECK(result.weights(0, 0, 0) == 1.0);
    CHECK(result.weights(0, 0, 1) == 0.0);
    CHECK(result.output(0, 0, 0) == 2.0);
}
