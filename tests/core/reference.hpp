#pragma once
// Shared helpers of the core tests: the PyTorch-made references
// (tests/references/references.json) as tensors, and element-wise comparisons
// whose failure message names the first differing element.
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <xtensor/xtensor.hpp>

#include "errors.hpp"
#include "hex_float.hpp"

namespace ref {

using json = nlohmann::json;

// The whole file, parsed once.
const json& references();

// A JSON list of numbers (null meaning NaN), or of float.hex() strings.
std::vector<double> numbers(const json& list);

// Flat row-major JSON numbers as a tensor of the given shape.
template <std::size_t N>
xt::xtensor<double, N> tensor(const json& list, const std::array<std::size_t, N>& shape) {
    const std::vector<double> values = numbers(list);
    xt::xtensor<double, N> result = xt::xtensor<double, N>::from_shape(shape);
    if (values.size() != result.size())
        throw std::runtime_error("reference has " + std::to_string(values.size()) + " numbers, expected " +
                                 std::to_string(result.size()));
    std::copy(values.begin(), values.end(), result.begin());
    return result;
}

// A JSON list of N sizes.
template <std::size_t N>
std::array<std::size_t, N> shape(const json& list) {
    std::array<std::size_t, N> result{};
    for (std::size_t i = 0; i < N; ++i) result[i] = list.at(i).get<std::size_t>();
    return result;
}

inline xt::xtensor<double, 1> vector(const json& list) { return tensor<1>(list, {list.size()}); }

// Valid lengths: null -> none, a list or a list of lists (flattened).
xt::xtensor<int, 1> lengths(const json& value);

// Empty when every element of `actual` is within tolerance * max(1, |expected|)
// of `expected` (NaN matches only NaN); otherwise the first mismatch, described.
std::string mismatch(const std::vector<double>& actual, const std::vector<double>& expected,
                     double tolerance = 1e-9);
// Empty when both hold the same bits.
std::string bit_mismatch(const std::vector<double>& actual, const std::vector<double>& expected);

template <class Container>
std::vector<double> as_vector(const Container& values) {
    return std::vector<double>(values.begin(), values.end());
}

}  // namespace ref

// One assertion per array, with the first differing element in the message.
#define CHECK_NEAR_REF(actual, expected) \
    CHECK(::ref::mismatch(::ref::as_vector(actual), ::ref::numbers(expected)) == std::string())
#define CHECK_NEAR_TOL(actual, expected, tolerance) \
    CHECK(::ref::mismatch(::ref::as_vector(actual), ::ref::as_vector(expected), tolerance) == std::string())
#define CHECK_SAME_BITS(actual, expected) \
    CHECK(::ref::bit_mismatch(::ref::as_vector(actual), ::ref::as_vector(expected)) == std::string())

// The call throws attention::ArgumentError whose message starts with "<argument>: "
// (and, for the second form, also contains `detail`: the expected value).
#define REQUIRE_ARGUMENT_ERROR(expression, argument)                                      \
    do {                                                                                  \
        REQUIRE_THROWS_AS(expression, ::attention::ArgumentError);                        \
        REQUIRE_THROWS_WITH(expression, Catch::StartsWith(std::string(argument) + ": ")); \
    } while (false)
#define REQUIRE_ARGUMENT_ERROR_WITH(expression, argument, detail)                          \
    do {                                                                                   \
        REQUIRE_THROWS_AS(expression, ::attention::ArgumentError);                         \
        REQUIRE_THROWS_WITH(expression, Catch::StartsWith(std::string(argument) + ": ") && \
                                            Catch::Contains(std::string(detail)));         \
    } while (false)
