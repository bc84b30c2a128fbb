// Multi-head attention (d2l 10.5) against the book's PyTorch layer, and bad
// inputs.
#include <cmath>
#include <limits>

#include "scoring/checked_multi_head_attention.hpp"
#include "reference.hpp"

namespace {
struct Inputs {
    xt::xtensor<double, 3> queries, keys, values;
    xt::xtensor<double, 2> w_q, w_k, w_v, w_o;
    std::size_t heads;
    xt::xtensor<int, 1> lens;
    std::vector<double> head_mask;
};

Inputs inputs(const ref::json& model, const ref::json& c) {
    const auto& s = c["shape"];
    const std::size_t b = s["batch"], nq = s["nq"], nk = s["nk"], h = s["hidden"];
    return {ref::tensor<3>(c["queries"], {b, nq, h}),
            ref::tensor<3>(c["keys"], {b, nk, h}),
            ref::tensor<3>(c["values"], {b, nk, h}),
            ref::tensor<2>(model["Wq"], {h, h}),
            ref::tensor<2>(model["Wk"], {h, h}),
            ref::tensor<2>(model["Wv"], {h, h}),
            ref::tensor<2>(model["Wo"], {h, h}),
            s["heads"],
            ref::lengths(c["validLens"]),
            c["headMask"].is_null() ? std::vector<double>{} : ref::numbers(c["headMask"])};
}

attention::AttentionResult run(const Inputs& in) {
    return attention::multi_head_attention(in.queries, in.keys, in.values, in.w_q, in.w_k, in.w_v, in.w_o,
                                           in.heads, in.lens, in.head_mask);
}
}  // namespace

TEST_CASE("multi_head_attention matches d2l's MultiHeadAttention (PyTorch)", "[multihead]") {
    int cases = 0;
    for (const auto& model : ref::references()["multiHeadAttention"])
        for (const auto& c : model["cases"]) {
            INFO(c["name"].get<std::string>() << ", hidden " << model["hidden"] << ", heads " << model["heads"]);
            const auto result = run(inputs(model, c));
            CHECK(result.weights.shape(0) == c["shape"]["batch"].get<std::size_t>() * model["heads"].get<std::size_t>());
            CHECK_NEAR_REF(result.weights, c["weights"]);
            CHECK_NEAR_REF(result.output, c["output"]);
            ++cases;
        }
    CHECK(cases == 8);
}

TEST_CASE("multi_head_attention: self-attention is attention of X to itself", "[multihead]") {
    const auto& model = ref::references()["multiHeadAttention"][1];
    auto in = inputs(model, model["cases"][0]);  // the self-attention case
    REQUIRE(ref::as_vector(in.queries) == ref::as_vector(in.keys));
    const auto self = run(in);
    const auto again = attention::multi_head_attention(in.queries, in.queries, in.queries, in.w_q, in.w_k, in.w_v,
                                                       in.w_o, in.heads, in.lens);
    CHECK_SAME_BITS(self.output, again.output);
}

TEST_CASE("multi_head_attention: a head mask scales each head's output before W_o", "[multihead]") {
    const auto& model = ref::references()["multiHeadAttention"][1];
    auto in = inputs(model, model["cases"][1]);
    const auto plain = run(in);
    in.head_mask = {1.0, 1.0, 1.0};
    CHECK_SAME_BITS(run(in).output, plain.output);
    in.head_mask = {0.0, 0.0, 0.0};
    const auto silent = run(in);
    for (double v : silent.output) REQUIRE(v == 0.0);
    CHECK_SAME_BITS(silent.weights, plain.weights);  // the mask acts after the attention weights
    // Linear in the mask: the output of mask (1, 0, 0) plus (0, 1, 1) is the plain output.
    in.head_mask = {1.0, 0.0, 0.0};
    const auto first = run(in);
    in.head_mask = {0.0, 1.0, 1.0};
    const auto rest = run(in);
    const xt::xtensor<double, 3> sum = first.output + rest.output;
    CHECK_NEAR_TOL(sum, plain.output, 1e-12);
}

TEST_CASE("multi_head_attention refuses bad inputs, naming them", "[multihead][errors]") {
    const auto& model = ref::references()["multiHeadAttention"][1];  // hidden 12, heads 3
    const auto good = inputs(model, model["cases"][1]);                // batch 3, nq 2, nk 5
    auto with = [&](auto change) {
        Inputs in = good;
        change(in);
        return in;
    };
    SECTION("heads") {
        for (std::size_t heads : {0, 5, 7, 13, 24})
            REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.heads = heads; })), "heads",
                                        "expected a divisor of the hidden size 12, got " + std::to_string(heads));
        for (std::size_t heads : {1, 2, 4, 6, 12}) REQUIRE_NOTHROW(run(with([&](Inputs& in) { in.heads = heads; })));
    }
    SECTION("hidden sizes") {
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.keys = xt::zeros<double>({3, 5, 11}); })), "keys",
                                    "keys and values with the hidden size 12");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.values = xt::zeros<double>({3, 5, 13}); })), "keys");
        const char* names[] = {"Wq", "Wk", "Wv", "Wo"};
        for (int m = 0; m < 4; ++m) {
            auto matrix = [m](Inputs& in) -> xt::xtensor<double, 2>& {
                return m == 0 ? in.w_q : m == 1 ? in.w_k : m == 2 ? in.w_v : in.w_o;
            };
            INFO(names[m]);
            REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { matrix(in) = xt::zeros<double>({12, 11}); })),
                                        names[m], "expected shape (hidden=12, hidden=12)");
            REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { matrix(in) = xt::zeros<double>({6, 12}); })), names[m]);
            for (double bad : {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()})
                REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { matrix(in)(2, 3) = bad; })), names[m],
                                            "at index 27");
        }
    }
    SECTION("inputs and valid lengths") {
        const double not_a_number = std::numeric_limits<double>::quiet_NaN();
        REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.queries(0, 0, 0) = not_a_number; })), "queries");
        REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.keys(2, 4, 11) = not_a_number; })), "keys");
        REQUIRE_ARGUMENT_ERROR(run(with([&](Inputs& in) { in.values(1, 1, 1) = not_a_number; })), "values");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.values = xt::zeros<double>({3, 4, 12}); })), "values");
        xt::xtensor<int, 1> four = {1, 2, 3, 4};
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.lens = four; })), "validLens",
                                    "3 (batch) or 6 (batch*nq) lengths, got 4");
        xt::xtensor<int, 1> too_long = {1, 6, 2};
        // The index is the caller's, not that of the lengths repeated per head.
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.lens = too_long; })), "validLens",
                                    "[0, 5] (nk), got 6 at index 1");
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([](Inputs& in) { in.head_mask = {1.0, 0.5}; })), "headMask",
                                    "expected null or 3 factors (one per head), got 2");
        REQUIRE_ARGUMENT_ERROR(run(with([](Inputs& in) { in.head_mask = {1.0, 0.5, 1.0, 1.0}; })), "headMask");
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.head_mask = {1.0, not_a_number, 1.0}; })), "headMask",
                                    "NaN at index 1");
        REQUIRE_ARGUMENT_ERROR(
            run(with([](Inputs& in) { in.head_mask = {std::numeric_limits<double>::infinity(), 0.0, 1.0}; })),
            "headMask");
        xt::xtensor<int, 1> negative = {1, 2, 3, 4, -1, 0};
        REQUIRE_ARGUMENT_ERROR_WITH(run(with([&](Inputs& in) { in.lens = negative; })), "validLens",
                                    "got -1 at index 4");
    }
}

TEST_CASE("multi_head_attention: finite inputs that overflow on the way are refused, naming the argument that feeds it",
          "[multihead][errors]") {
    const xt::xtensor<double, 2> identity = {{1.0, 0.0}, {0.0, 1.0}}, sum_rows = {{1.0, 1.0}, {1.0, 1.0}};
    const xt::xtensor<double, 3> small = {{{1.0, 2.0}}};
    const xt::xtensor<int, 1> none = xt::xtensor<int, 1>::from_shape({0});
    auto run_with = [&](const xt::xtensor<double, 3>& q, const xt::xtensor<double, 3>& k,
                        const xt::xtensor<double, 3>& v, const xt::xtensor<double, 2>& w_q,
                        const xt::xtensor<double, 2>& w_k, const xt::xtensor<double, 2>& w_v,
                        const xt::xtensor<double, 2>& w_o, std::vector<double> mask = {}) {
        return attention::multi_head_attention(q, k, v, w_q, w_k, w_v, w_o, 1, none, mask);
    };
    // The scores of a head: q.k = 2e400.
    const xt::xtensor<double, 3> huge = {{{1e200, 1e200}}};
    REQUIRE_ARGUMENT_ERROR_WITH(run_with(huge, huge, small, identity, identity, identity, identity), "queries",
                                "numbers small enough that every head's scores q.k / sqrt(d) stay finite, got a "
                                "score of Infinity (batch item 0, head 0, query 0, key 0)");
    // A projection: 1e308 + 1e308.
    const xt::xtensor<double, 3> largest = {{{1e308, 1e308}}};
    REQUIRE_ARGUMENT_ERROR_WITH(run_with(largest, small, small, sum_rows, identity, identity, identity), "queries",
                                "their projections by Wq stay finite");
    REQUIRE_ARGUMENT_ERROR_WITH(run_with(small, largest, small, identity, sum_rows, identity, identity), "keys",
                                "their projections by Wk stay finite");
    REQUIRE_ARGUMENT_ERROR_WITH(run_with(small, small, largest, identity, identity, sum_rows, identity), "values",
                                "their projections by Wv stay finite");
    // The output projection: each head's output is a weighted mean of finite values, W_o sums two of 1e308.
    REQUIRE_ARGUMENT_ERROR_WITH(run_with(small, small, largest, identity, identity, identity, sum_rows), "Wo",
                                "numbers small enough that the output stays finite");
    // A head mask factor that overflows a head's output.
    REQUIRE_ARGUMENT_ERROR_WITH(run_with(small, small, largest, identity, identity, identity, identity, {1e10}),
                                "headMask", "factors small enough that every head's output stays finite");
    // Up to there, huge numbers are fine.
    const auto fine = run_with(small, small, largest, identity, identity, identity, identity, {1.0});
    CHECK(fine.output(0, 0, 0) == 1e308);
}

TEST_CASE("multi_head_attention: masked keys weigh exactly 0, as in the models, even below d2l's -1e6",
          "[multihead]") {
    // One head of width 1: the visible key scores 1e4 * -1e4 = -1e8, under d2l's mask value -1e6,
    // where d2l's masked softmax would give the masked key all the weight.
    const xt::xtensor<double, 2> identity = {{1.0}};
    const xt::xtensor<double, 3> queries = {{{1e4}}}, keys = {{{-1e4}, {0.0}}}, values = {{{2.0}, {3.0}}};
    const xt::xtensor<int, 1> lens = {1};
    const auto result = attention::multi_head_attention(queries, keys, values, identity, identity, identity, identity,
                                                        1, lens);
    CHECK(result.weights(0, 0, 0) == 1.0);
    CHECK(result.weights(0, 0, 1) == 0.0);
    CHECK(result.output(0, 0, 0) == 2.0);
}
