// Sinusoidal positional encoding (d2l 10.6.3) against PyTorch, and its limits.
#include <cmath>

#include "contract/limits.hpp"
#include "layers/positional_encoding.hpp"
#include "reference.hpp"

using attention::positional_encoding;

TEST_CASE("positional_encoding matches d2l's PositionalEncoding (PyTorch)", "[positional]") {
    for (const auto& c : ref::references()["positionalEncoding"]) {
        INFO(c["maxLen"] << " x " << c["dim"]);
        const auto p = positional_encoding(c["maxLen"], c["dim"]);
        CHECK(p.shape(0) == c["maxLen"].get<std::size_t>());
        CHECK(p.shape(1) == c["dim"].get<std::size_t>());
        CHECK_NEAR_REF(p, c["P"]);
    }
}

TEST_CASE("positional_encoding: sine and cosine pairs of one frequency", "[positional]") {
    const auto p = positional_encoding(60, 32);
    for (std::size_t j = 0; j < 32; ++j) CHECK(p(0, j) == (j % 2 ? 1.0 : 0.0));  // position 0
    for (std::size_t i = 0; i < 60; ++i) {
        CHECK(p(i, 0) == Approx(std::sin(double(i))).margin(1e-15));
        for (std::size_t j = 0; j < 16; ++j)
            REQUIRE(p(i, 2 * j) * p(i, 2 * j) + p(i, 2 * j + 1) * p(i, 2 * j + 1) == Approx(1.0).epsilon(1e-14));
    }
    // An odd size keeps its last sine column: same as the first columns of a wider encoding.
    const auto odd = positional_encoding(8, 7), even = positional_encoding(8, 8);
    for (std::size_t i = 0; i < 8; ++i) CHECK(odd(i, 6) == Approx(std::sin(i / std::pow(10000.0, 6.0 / 7))));
    CHECK(even(3, 0) == odd(3, 0));
}

TEST_CASE("positional_encoding accepts its limits and refuses bad sizes", "[positional][errors]") {
    namespace lim = attention::limits;
    CHECK(positional_encoding(lim::max_sequence, 2).shape(0) == lim::max_sequence);
    CHECK(positional_encoding(2, lim::max_dimension).shape(1) == lim::max_dimension);
    REQUIRE_ARGUMENT_ERROR_WITH(positional_encoding(0, 32), "maxLen", "[1, 10000], got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(positional_encoding(lim::max_sequence + 1, 32), "maxLen", "got 10001");
    REQUIRE_ARGUMENT_ERROR_WITH(positional_encoding(60, 0), "dim", "[1, 1024], got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(positional_encoding(60, lim::max_dimension + 1), "dim", "got 1025");
}
