// The unchecked batched matrix product the attention layers use: (n, a, b) x (n, b, c) -> (n, a, c), item by item.
#include "numerics/batch_matrix_product.hpp"
#include "reference.hpp"

TEST_CASE("batch_matrix_product_unchecked sums the values with the weights, item by item", "[batch_matrix_product]") {
    const xt::xtensor<double, 3> weights = {{{0.25, 0.75}}, {{1.0, 0.0}}};
    const xt::xtensor<double, 3> values = {{{4.0, 8.0}, {0.0, -4.0}}, {{1.0, 2.0}, {3.0, 4.0}}};
    const auto output = attention::batch_matrix_product_unchecked(weights, values);
    const xt::xtensor<double, 3> expected = {{{1.0, -1.0}}, {{1.0, 2.0}}};
    CHECK(output.shape(0) == 2);
    CHECK(output.shape(1) == 1);
    CHECK(output.shape(2) == 2);
    CHECK_SAME_BITS(output, expected);
}

TEST_CASE("batch_matrix_product_unchecked multiplies rectangular matrices like a plain triple loop", "[batch_matrix_product]") {
    // (2, 3, 4) x (2, 4, 5) with distinct small integers: every product is exact.
    xt::xtensor<double, 3> left = xt::xtensor<double, 3>::from_shape({2, 3, 4});
    xt::xtensor<double, 3> right = xt::xtensor<double, 3>::from_shape({2, 4, 5});
    for (std::size_t i = 0; i < left.size(); ++i) left.data()[i] = static_cast<double>(i % 7) - 3.0;
    for (std::size_t i = 0; i < right.size(); ++i) right.data()[i] = static_cast<double>(i % 5) - 2.0;
    const auto product = attention::batch_matrix_product_unchecked(left, right);
    REQUIRE(product.shape(0) == 2);
    REQUIRE(product.shape(1) == 3);
    REQUIRE(product.shape(2) == 5);
    for (std::size_t n = 0; n < 2; ++n)
        for (std::size_t a = 0; a < 3; ++a)
            for (std::size_t c = 0; c < 5; ++c) {
                double sum = 0.0;
                for (std::size_t b = 0; b < 4; ++b) sum += left(n, a, b) * right(n, b, c);
                CHECK(product(n, a, c) == sum);
            }
    // One hand-checked entry: row (0, 0) of left is -3 -2 -1 0, column 0 of right[0] is -2 -2 -2 -2.
    CHECK(product(0, 0, 0) == 12.0);
}
