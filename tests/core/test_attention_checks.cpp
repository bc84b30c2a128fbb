// What the attention layers accept, checked once: extents within the limits,
// each layer's own shape rules (under the caller's names), consistent and
// finite tensors, with their error messages and fields.
#include <limits>

#include "scoring/checked_additive_attention.hpp"
#include "contract/attention_checks.hpp"
#include "scoring/dot_product_attention.hpp"
#include "contract/limits.hpp"
#include "scoring/checked_multi_head_attention.hpp"
#include "reference.hpp"

using attention::check_attention_extents;
using attention::check_attention_tensors;

namespace {
using s3 = std::array<std::size_t, 3>;
xt::xtensor<double, 3> zeros(s3 s) { return xt::xtensor<double, 3>(xt::zeros<double>(s)); }
}  // namespace

TEST_CASE("check_attention_extents bounds batch, nq, nk and the weights they make", "[attention][errors]") {
    namespace lim = attention::limits;
    REQUIRE_NOTHROW(check_attention_extents({2, 3, 5}));
    REQUIRE_NOTHROW(check_attention_extents({lim::max_batch, 512, 512}));  // 2^24 weights: at the limit
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_extents({0, 3, 5}), "batch", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_extents({65, 1, 1}), "batch", "[1, 64], got 65");
    REQUIRE_ARGUMENT_ERROR(check_attention_extents({2, 0, 5}), "nq");
    REQUIRE_ARGUMENT_ERROR(check_attention_extents({1, lim::max_points + 1, 1}), "nq");
    REQUIRE_ARGUMENT_ERROR(check_attention_extents({2, 3, 0}), "nk");
    REQUIRE_ARGUMENT_ERROR(check_attention_extents({1, 1, lim::max_points + 1}), "nk");
    // batch * nq * nk is bounded although each size is allowed.
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_extents({64, 600, 600}), "nk",
                                "batch * nq * nk <= 16777216, got 23040000");
    // In 64 bits: 64 * 8192 * 8192 = 2^32 must not wrap around to 0 in wasm32.
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_extents({64, 8192, 8192}), "nk", "got 4294967296");
    // The caller's names, e.g. the JS API's shape object.
    const attention::ExtentNames js{"shape.batch", "shape.nq", "shape.nk"};
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_extents({0, 3, 5}, js), "shape.batch", "got 0");
    REQUIRE_ARGUMENT_ERROR(check_attention_extents({1, 0, 5}, js), "shape.nq");
    const auto fields = ref::argument_error_of([&] { check_attention_extents({64, 600, 600}, js); });
    CHECK(fields.argument == "shape.nk");
    CHECK(fields.expected == "batch * nq * nk <= 16777216");
    CHECK(fields.got == "23040000");
    CHECK_FALSE(fields.index.has_value());
}

TEST_CASE("each layer's shape check adds its own rules", "[attention][errors]") {
    namespace lim = attention::limits;
    using attention::check_additive_shape;
    using attention::check_dot_product_shape;
    using attention::check_multi_head_shape;
    REQUIRE_NOTHROW(check_dot_product_shape({{2, 3, 5}, 4, 6}));
    REQUIRE_ARGUMENT_ERROR_WITH(check_dot_product_shape({{2, 3, 5}, 0, 6}), "feature size", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(check_dot_product_shape({{2, 3, 5}, 4, lim::max_dimension + 1}), "feature size",
                                "got 1025");
    REQUIRE_ARGUMENT_ERROR(check_dot_product_shape({{0, 3, 5}, 4, 6}), "batch");
    const attention::DotProductNames dot{{"shape.batch", "shape.nq", "shape.nk"}, "shape.d", "shape.dv"};
    REQUIRE_ARGUMENT_ERROR_WITH(check_dot_product_shape({{2, 3, 5}, 0, 6}, dot), "shape.d", "got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(check_dot_product_shape({{2, 3, 5}, 4, 0}, dot), "shape.dv", "got 0");

    REQUIRE_NOTHROW(check_additive_shape({{2, 3, 5}, 4, 4, 6, 8}));
    REQUIRE_ARGUMENT_ERROR_WITH(check_additive_shape({{2, 3, 5}, 4, 4, 6, 0}), "h", "[1, 1024], got 0");
    // Every size within its limit, but 1000 * 1000 * 100 tanh evaluations are not.
    REQUIRE_ARGUMENT_ERROR_WITH(check_additive_shape({{1, 1000, 1000}, 1, 1, 1, 100}), "h",
                                "batch * nq * nk * h <= 16777216, got 100000000");

    REQUIRE_NOTHROW(check_multi_head_shape({{2, 3, 5}, 12, 3}));
    for (std::size_t heads : {0, 5, 7, 13, 24})
        REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{2, 3, 5}, 12, heads}), "heads",
                                    "expected a divisor of the hidden size 12, got " + std::to_string(heads));
    REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{2, 3, 5}, 64, 64}), "heads", "batch * heads <= 64, got 128");
    REQUIRE_NOTHROW(check_multi_head_shape({{1, 3, 5}, 64, 64}));
    const attention::MultiHeadNames multi{{"shape.batch", "shape.nq", "shape.nk"}, "shape.hidden", "shape.heads"};
    REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{2, 3, 5}, 4, 3}, multi), "shape.heads",
                                "expected a divisor of the hidden size 4, got 3");
    REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{2, 3, 5}, 0, 1}, multi), "shape.hidden", "got 0");
}

TEST_CASE("check_attention_tensors refuses inconsistent shapes and numbers, naming them", "[attention][errors]") {
    const auto q = zeros({2, 3, 4}), k = zeros({2, 5, 4}), v = zeros({2, 5, 6});
    REQUIRE_NOTHROW(check_attention_tensors(q, k, v));
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_tensors(q, zeros({3, 5, 4}), v), "keys", "same batch size");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_tensors(q, k, zeros({1, 5, 6})), "keys", "same batch size");
    REQUIRE_ARGUMENT_ERROR_WITH(check_attention_tensors(q, k, zeros({2, 4, 6})), "values",
                                "one value per key (5), got 4");
    for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        auto bq = q, bk = k, bv = v;
        bq(1, 2, 3) = bad;
        bk(0, 4, 0) = bad;
        bv(1, 0, 5) = bad;
        REQUIRE_ARGUMENT_ERROR_WITH(check_attention_tensors(bq, k, v), "queries", "at index 23");
        REQUIRE_ARGUMENT_ERROR_WITH(check_attention_tensors(q, bk, v), "keys", "at index 16");
        REQUIRE_ARGUMENT_ERROR_WITH(check_attention_tensors(q, k, bv), "values", "at index 35");
    }
}

TEST_CASE("the attention layers bound their work: multiply-adds, tanh evaluations, multi-head weights",
          "[attention][errors]") {
    namespace lim = attention::limits;
    using attention::check_additive_shape;
    using attention::check_dot_product_shape;
    using attention::check_multi_head_shape;
    REQUIRE(lim::max_work == 536870912u);  // 2^29 multiply-adds
    REQUIRE(lim::max_tanh_evaluations == 16777216u);

    // Dot product: batch * nq * nk * (d + dv), the larger of d and dv named.
    REQUIRE_NOTHROW(check_dot_product_shape({{1, 4096, 4096}, 16, 16}));  // exactly 2^29
    REQUIRE_ARGUMENT_ERROR_WITH(check_dot_product_shape({{1, 4096, 4096}, 17, 16}), "feature size",
                                "batch * nq * nk * (d + dv) <= 536870912, got 553648128");
    const attention::DotProductNames dot{{"shape.batch", "shape.nq", "shape.nk"}, "shape.d", "shape.dv"};
    REQUIRE_ARGUMENT_ERROR(check_dot_product_shape({{1, 4096, 4096}, 17, 16}, dot), "shape.d");
    REQUIRE_ARGUMENT_ERROR(check_dot_product_shape({{1, 4096, 4096}, 16, 17}, dot), "shape.dv");
    REQUIRE_ARGUMENT_ERROR(check_dot_product_shape({{64, 1000, 1000}, 1024, 1024}, dot), "shape.nk");  // matrix first

    // Additive: batch * nq * nk * h tanh evaluations ...
    REQUIRE_NOTHROW(check_additive_shape({{1, 4096, 4096}, 1, 1, 1, 1}));  // exactly 2^24
    REQUIRE_ARGUMENT_ERROR_WITH(check_additive_shape({{1, 4096, 4096}, 1, 1, 1, 2}), "h",
                                "batch * nq * nk * h <= 16777216, got 33554432");
    // ... and multiply-adds: projections (named h) ...
    REQUIRE_NOTHROW(check_additive_shape({{64, 256, 1}, 31, 1, 1020, 1024}));  // exactly 2^29
    REQUIRE_ARGUMENT_ERROR_WITH(check_additive_shape({{64, 256, 1}, 31, 1, 1021, 1024}), "h",
                                "batch * ((nq * dq + nk * dk) * h + nq * nk * dv) <= 536870912, got 536887296");
    // ... or weighted sums of the values (named dv).
    const attention::AdditiveNames additive{{"shape.batch", "shape.nq", "shape.nk"}, "shape.dq", "shape.dk",
                                            "shape.dv", "shape.h"};
    REQUIRE_NOTHROW(check_additive_shape({{1, 4096, 4096}, 1, 1, 31, 1}, additive));
    REQUIRE_ARGUMENT_ERROR_WITH(check_additive_shape({{1, 4096, 4096}, 1, 1, 32, 1}, additive), "shape.dv",
                                "got 536879104");

    // Multi-head: the weights of every head form the result matrix ...
    REQUIRE_NOTHROW(check_multi_head_shape({{1, 4096, 4096}, 8, 1}));
    REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{1, 4096, 4096}, 8, 2}), "heads",
                                "batch * heads * nq * nk <= 16777216, got 33554432");
    REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{32, 1024, 512}, 2, 2}), "heads", "got 33554432");
    // ... and the multiply-adds of the four projections and of the heads.
    REQUIRE_NOTHROW(check_multi_head_shape({{1, 120, 120}, 1024, 1}));  // 532807680
    const attention::MultiHeadNames multi{{"shape.batch", "shape.nq", "shape.nk"}, "shape.hidden", "shape.heads"};
    REQUIRE_ARGUMENT_ERROR_WITH(check_multi_head_shape({{1, 121, 121}, 1024, 1}, multi), "shape.hidden",
                                "batch * ((2 nq + 2 nk) * hidden^2 + 2 nq * nk * hidden) <= 536870912, got 537495552");
}

TEST_CASE("the layers check their work bounds before any work", "[attention][errors]") {
    const xt::xtensor<int, 1> none = xt::xtensor<int, 1>::from_shape({0});
    // Dot product: 4096 x 4096 scores of d = 17 (and dv = 16): refused, from small tensors.
    REQUIRE_ARGUMENT_ERROR_WITH(attention::dot_product_attention(zeros({1, 4096, 17}), zeros({1, 4096, 17}),
                                                                 zeros({1, 4096, 16}), none),
                                "feature size", "got 553648128");
    // Additive: 2 tanh terms per score of a 4096 x 4096 matrix.
    const xt::xtensor<double, 2> w = xt::zeros<double>({2, 1});
    const xt::xtensor<double, 1> wv = xt::zeros<double>({2});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::additive_attention(zeros({1, 4096, 1}), zeros({1, 4096, 1}),
                                                              zeros({1, 4096, 1}), w, w, wv, none),
                                "h", "got 33554432");
    // Multi-head: 121 queries and keys of hidden size 1024.
    const xt::xtensor<double, 2> big = xt::zeros<double>({1024, 1024});
    const auto x = zeros({1, 121, 1024});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::multi_head_attention(x, x, x, big, big, big, big, 1, none), "feature size",
                                "got 537495552");
    // Two heads of 4096 x 4096 weights.
    const xt::xtensor<double, 2> small = xt::zeros<double>({2, 2});
    const auto y = zeros({1, 4096, 2});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::multi_head_attention(y, y, y, small, small, small, small, 2, none), "heads",
                                "got 33554432");
}
