// Batch matrix multiplication (torch.bmm) against PyTorch: the book's ones
// example, seeded random operands and the training's weights times values;
// and the shape checks a learner meets, naming the argument and both shapes.
#include <cstdint>
#include <limits>

#include "numerics/batch_matrix_product.hpp"
#include "contract/limits.hpp"
#include "reference.hpp"

namespace {
using attention::BatchShape;

xt::xtensor<double, 3> operand(const ref::json& c, const char* name, const char* shape) {
    return ref::tensor<3>(c[name], ref::shape<3>(c[shape]));
}
}  // namespace

TEST_CASE("batch_matrix_product matches torch.bmm", "[bmm]") {
    const auto& cases = ref::references()["batchMatrixProduct"];
    REQUIRE(cases.size() >= 6);
    for (const auto& c : cases) {
        INFO(c["name"].get<std::string>());
        const auto product = attention::batch_matrix_product(operand(c, "X", "shapeX"), operand(c, "Y", "shapeY"));
        const auto shape = ref::shape<3>(c["shape"]);
        REQUIRE(product.shape(0) == shape[0]);
        REQUIRE(product.shape(1) == shape[1]);
        REQUIRE(product.shape(2) == shape[2]);
        CHECK(ref::mismatch(ref::as_vector(product), ref::numbers(c["product"]), 1e-13) == std::string());
    }
}

TEST_CASE("the book's example: ones (2, 1, 4) x ones (2, 4, 6) is (2, 1, 6), all 4", "[bmm]") {
    const xt::xtensor<double, 3> x = xt::ones<double>({2, 1, 4}), y = xt::ones<double>({2, 4, 6});
    const auto product = attention::batch_matrix_product(x, y);
    CHECK(product.shape(0) == 2);
    CHECK(product.shape(1) == 1);
    CHECK(product.shape(2) == 6);
    for (double value : product) CHECK(value == 4.0);
}

TEST_CASE("batch_matrix_product sums like a plain triple loop, in order", "[bmm]") {
    // Odd sizes exercise the kernel's edge blocks; sums in order give the same bits as the loop.
    xt::xtensor<double, 3> x = xt::xtensor<double, 3>::from_shape({3, 7, 5});
    xt::xtensor<double, 3> y = xt::xtensor<double, 3>::from_shape({3, 5, 9});
    for (std::size_t i = 0; i < x.size(); ++i) x.data()[i] = 0.1 * static_cast<double>(i % 11) - 0.37;
    for (std::size_t i = 0; i < y.size(); ++i) y.data()[i] = 0.3 * static_cast<double>(i % 7) - 0.9;
    const auto product = attention::batch_matrix_product(x, y);
    for (std::size_t n = 0; n < 3; ++n)
        for (std::size_t a = 0; a < 7; ++a)
            for (std::size_t c = 0; c < 9; ++c) {
                double sum = 0.0;
                for (std::size_t b = 0; b < 5; ++b) sum += x(n, a, b) * y(n, b, c);
                CHECK(product(n, a, c) == sum);
            }
}

TEST_CASE("mismatched shapes name Y and quote both shapes", "[bmm][errors]") {
    const xt::xtensor<double, 3> x = xt::ones<double>({2, 1, 4});
    const auto inner = ref::argument_error_of([&] { attention::batch_matrix_product(x, xt::ones<double>({2, 5, 6})); });
    CHECK(inner.argument == "Y");
    CHECK(inner.expected == "shape (2, 4, c) to match X (2, 1, 4)");
    CHECK(inner.got == "(2, 5, 6)");
    REQUIRE_THROWS_WITH(attention::batch_matrix_product(x, xt::ones<double>({2, 5, 6})),
                        "Y: expected shape (2, 4, c) to match X (2, 1, 4), got (2, 5, 6)");
    const auto batch = ref::argument_error_of([&] { attention::batch_matrix_product(x, xt::ones<double>({3, 4, 6})); });
    CHECK(batch.argument == "Y");
    CHECK(batch.got == "(3, 4, 6)");
}

TEST_CASE("batch_matrix_product refuses empty, oversized and non-finite operands", "[bmm][errors]") {
    const xt::xtensor<double, 3> ones = xt::ones<double>({2, 1, 4});
    REQUIRE_ARGUMENT_ERROR(attention::batch_matrix_product(xt::ones<double>({0, 1, 4}), xt::ones<double>({0, 4, 6})),
                           "X.shape[0] (n)");
    REQUIRE_ARGUMENT_ERROR(attention::batch_matrix_product(ones, xt::ones<double>({2, 4, 0})), "Y.shape[2] (c)");
    xt::xtensor<double, 3> y = xt::ones<double>({2, 4, 6});
    y(1, 2, 3) = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_ARGUMENT_ERROR_WITH(attention::batch_matrix_product(ones, y), "Y", "finite numbers");
    CHECK(ref::argument_error_of([&] { attention::batch_matrix_product(ones, y); }).index == std::size_t{1 * 24 + 2 * 6 + 3});
    xt::xtensor<double, 3> x = ones;
    x(0, 0, 0) = std::numeric_limits<double>::infinity();
    REQUIRE_ARGUMENT_ERROR(attention::batch_matrix_product(x, xt::ones<double>({2, 4, 6})), "X");
}

TEST_CASE("batch_matrix_product refuses finite operands whose products overflow", "[bmm][errors]") {
    // 1e308 * 1e308 + 1e308 * 1e308: torch.bmm gives inf; the core refuses it, naming the entry.
    const xt::xtensor<double, 3> big = {{{1e308, 1e308}}};
    const xt::xtensor<double, 3> column = {{{1e308}, {1e308}}};
    const auto error = ref::argument_error_of([&] { attention::batch_matrix_product(big, column); });
    CHECK(error.argument == "X");
    CHECK(error.expected == "numbers small enough that the products X[i] Y[i] stay finite");
    CHECK(error.got == "an entry of Infinity (batch item 0, row 0, column 0)");
    // The entry is located in a larger product too: item 1, row 2, column 3 of (2, 3, 5) x (2, 5, 4).
    xt::xtensor<double, 3> x = xt::ones<double>({2, 3, 5});
    x(1, 2, 4) = 1e300;
    xt::xtensor<double, 3> y = xt::ones<double>({2, 5, 4});
    y(1, 4, 3) = -1e300;
    CHECK(ref::argument_error_of([&] { attention::batch_matrix_product(x, y); }).got ==
          "an entry of -Infinity (batch item 1, row 2, column 3)");
    // At the edge of overflow, still finite: accepted.
    const xt::xtensor<double, 3> half = {{{8e307, 8e307}}};
    CHECK(attention::batch_matrix_product(half, xt::xtensor<double, 3>{{{1.0}, {1.0}}})(0, 0, 0) == 1.6e308);
}

TEST_CASE("the shape checks bound every size, counting in 64 bits", "[bmm][errors][limits]") {
    namespace lim = attention::limits;
    using attention::check_batch_matrix_product;
    const std::size_t big = lim::max_points;
    // Each extent alone: at the limit accepted (where the products allow), just over refused.
    REQUIRE_NOTHROW(check_batch_matrix_product({1, 1, big}, {1, big, 1}));
    REQUIRE_ARGUMENT_ERROR(check_batch_matrix_product({big + 1, 1, 1}, {big + 1, 1, 1}), "X.shape[0] (n)");
    REQUIRE_ARGUMENT_ERROR(check_batch_matrix_product({1, 1, 1}, {1, 1, big + 1}), "Y.shape[2] (c)");
    // 10000^4 = 10^16 multiply-adds: a size_t product would wrap in wasm32, the 64-bit count does not.
    REQUIRE_ARGUMENT_ERROR(check_batch_matrix_product({big, big, big}, {big, big, big}), "X.shape[2] (b)");
    // Operands within the element limit, the result over it.
    REQUIRE_ARGUMENT_ERROR_WITH(check_batch_matrix_product({64, 512, 1}, {64, 1, 1024}), "Y.shape[2] (c)",
                                "the result's n * a * c");
    // Elements fine, work over: 64 * 64 * 1024 * 256 = 2^30 > 2^29.
    REQUIRE_ARGUMENT_ERROR_WITH(check_batch_matrix_product({64, 64, 1024}, {64, 1024, 256}), "Y.shape[2] (c)",
                                "multiply-adds");
    // The training of w, (n, 1, n-1) x (n, n-1, 1), fits up to n = 4096 (4096 * 4095 weights <= 2^24).
    REQUIRE_NOTHROW(check_batch_matrix_product({4096, 1, 4095}, {4096, 4095, 1}));
    REQUIRE_ARGUMENT_ERROR(check_batch_matrix_product({4097, 1, 4096}, {4097, 4096, 1}), "X.shape[2] (b)");
}
