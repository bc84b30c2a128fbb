// What the attention layers accept, checked once: extents within the limits,
// each layer's own shape rules (under the caller's names), consistent and
// finite tensors, with their error messages and fields.
#include <limits>

#include "attention_checks.hpp"
#include "limits.hpp"
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
                                "batch * nq * nk * h <= 67108864, got 100000000");

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
