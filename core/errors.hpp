#pragma once
// Argument errors carry fields: the argument's name, what was expected, what
// was got and the index of the element at fault. The JS API hands the fields
// to the page, which words the error in its own language instead of parsing
// the message; the message says the same in English.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace attention {

struct ArgumentFields {
    std::string argument;              // as the caller named it, e.g. "validLens" or "shape.nk"
    std::string expected;              // e.g. "lengths in [0, 10] (nk)"
    std::string got;                   // e.g. "11"; empty when the error names no value
    std::optional<std::size_t> index;  // the element at fault, when the error is about one
};

// "<argument>: expected <expected>[, got <got>][ at index <index>]".
inline std::string standard_message(const ArgumentFields& fields) {
    std::string message = fields.argument + ": expected " + fields.expected;
    if (!fields.got.empty()) message += ", got " + fields.got;
    if (fields.index) message += " at index " + std::to_string(*fields.index);
    return message;
}

class ArgumentError : public std::invalid_argument {
public:
    explicit ArgumentError(ArgumentFields fields)
        : std::invalid_argument(standard_message(fields)), fields_(std::move(fields)) {}
    // For the few errors worded otherwise: the same fields, their own message.
    ArgumentError(ArgumentFields fields, const std::string& message)
        : std::invalid_argument(message), fields_(std::move(fields)) {}

    const std::string& argument() const noexcept { return fields_.argument; }
    const std::string& expected() const noexcept { return fields_.expected; }
    const std::string& got() const noexcept { return fields_.got; }
    const std::optional<std::size_t>& index() const noexcept { return fields_.index; }

private:
    ArgumentFields fields_;
};

// Message pieces: text, whole numbers, and doubles printed the way JS would
// read them (NaN, Infinity, up to 10 significant digits).
// (No iostreams: they would triple the size of the wasm module.)
inline void append(std::string& message, std::string_view text) { message += text; }
inline void append(std::string& message, char c) { message += c; }
template <class Number, class = std::enable_if_t<std::is_arithmetic_v<Number>>>
void append(std::string& message, Number value) {
    if constexpr (std::is_integral_v<Number>) {
        message += std::to_string(value);
    } else if (std::isnan(value)) {
        message += "NaN";
    } else if (std::isinf(value)) {
        message += value > 0 ? "Infinity" : "-Infinity";
    } else {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.10g", static_cast<double>(value));
        message += buffer;
    }
}

// The pieces joined into one string, e.g. text("lengths in [0, ", nk, "] (nk)").
template <class... Parts>
std::string text(const Parts&... parts) {
    std::string result;
    (append(result, parts), ...);
    return result;
}

// Throws the ArgumentError of `argument`: `expected` is what it should have
// been, `got` (any one message piece; none by default) what it was, `index`
// the element at fault. Callers build `expected` only on their failure path,
// and the checks take the argument's name as a string_view: nothing is built
// on the success path (in the wasm build every call that may throw, such as
// a std::string constructor, costs a trip through JS; see wasm/bindings.cpp).
template <class Got = std::string_view>
[[noreturn]] void fail(std::string_view argument, std::string expected, const Got& got = {},
                       std::optional<std::size_t> index = std::nullopt) {
    throw ArgumentError({std::string(argument), std::move(expected), text(got), index});
}

inline void require_finite(std::string_view argument, double value) {
    if (!std::isfinite(value)) fail(argument, "a finite number", value);
}

// Checks every element of a contiguous container (xtensor or std::vector).
template <class Container>
void require_all_finite(std::string_view argument, const Container& values) {
    std::size_t index = 0;
    for (double value : values) {
        if (!std::isfinite(value)) fail(argument, "finite numbers", value, index);
        ++index;
    }
}

inline void require_range(std::string_view argument, double value, double low, double high) {
    require_finite(argument, value);
    if (value < low || value > high) fail(argument, text("a value in [", low, ", ", high, "]"), value);
}

inline void require_count(std::string_view argument, std::size_t value, std::size_t low,
                          std::size_t high) {
    if (value < low || value > high) fail(argument, text("a count in [", low, ", ", high, "]"), value);
}

}  // namespace attention
