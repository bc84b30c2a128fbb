#pragma once
// Shared helpers of the core tests: the PyTorch-made references
// (tests/references/references.json) as tensors, and element-wise comparisons
// whose failure message names the first differing element.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <xtensor/xtensor.hpp>

#include "contract/errors.hpp"
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

// Valid lengths as the masking functions take them; no_mask: none (every key valid).
inline xt::xtensor<int, 1> lens(std::initializer_list<int> values) {
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({values.size()});
    std::copy(values.begin(), values.end(), result.begin());
    return result;
}
inline const xt::xtensor<int, 1> no_mask = xt::xtensor<int, 1>::from_shape({0});

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

// One assertion per array, with the first differing element in the message.
#define CHECK_NEAR_REF(actual, expected) \
    CHECK(::ref::mismatch(::ref::as_vector(actual), ::ref::numbers(expected)) == std::string())
#define CHECK_NEAR_TOL(actual, expected, tolerance) \
    CHECK(::ref::mismatch(::ref::as_vector(actual), ::ref::as_vector(expected), tolerance) == std::string())
#define CHECK_SAME_BITS(actual, expected) \
    CHECK(::ref::bit_mismatch(::ref::as_vector(actual), ::ref::as_vector(expected)) == std::string())

// The fields of the ArgumentError `call` throws. Fails the test if it throws
// nothing or something else, or if its message disagrees with its fields:
// "<argument>: expected <expected>", then got and " at index <index>" when set.
template <class Call>
attention::ArgumentFields argument_error_of(Call&& call) {
    try {
        call();
    } catch (const attention::ArgumentError& error) {
        const attention::ArgumentFields fields{error.argument(), error.expected(), error.got(), error.index()};
        const std::string message = error.what();
        INFO("message: " << message);
        CHECK(message.rfind(fields.argument + ": expected " + fields.expected, 0) == 0);
        CHECK((fields.got.empty() || message.find(fields.got) != std::string::npos));
        const std::string at = fields.index ? " at index " + std::to_string(*fields.index) : "";
        CHECK((fields.index ? message.size() >= at.size() && message.compare(message.size() - at.size(), at.size(), at) == 0
                            : message.find(" at index ") == std::string::npos));
        return fields;
    }
    FAIL("expected an attention::ArgumentError");
    return {};
}

}  // namespace ref

// The call throws attention::ArgumentError whose message starts with "<name>: "
// (and, for the second form, also contains `detail`: the expected value), and
// whose argument field is `name`.
#define REQUIRE_ARGUMENT_ERROR(expression, name)                                                    \
    do {                                                                                            \
        REQUIRE_THROWS_AS(expression, ::attention::ArgumentError);                                  \
        REQUIRE_THROWS_WITH(expression, Catch::StartsWith(std::string(name) + ": "));               \
        REQUIRE(::ref::argument_error_of([&] { (void)(expression); }).argument == std::string(name)); \
    } while (false)
#define REQUIRE_ARGUMENT_ERROR_WITH(expression, name, detail)                                       \
    do {                                                                                            \
        REQUIRE_THROWS_AS(expression, ::attention::ArgumentError);                                  \
        REQUIRE_THROWS_WITH(expression, Catch::StartsWith(std::string(name) + ": ") &&              \
                                            Catch::Contains(std::string(detail)));                  \
        REQUIRE(::ref::argument_error_of([&] { (void)(expression); }).argument == std::string(name)); \
    } while (false)
