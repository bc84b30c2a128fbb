#pragma once
// Argument errors: every message names the argument and what was expected,
// so the JS API can hand it to the learner unchanged.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace attention {

class ArgumentError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// Message pieces: text, whole numbers, and doubles printed the way JS would
// read them (NaN, Infinity, up to 10 significant digits).
// (No iostreams: they would triple the size of the wasm module.)
inline void append(std::string& message, const std::string& text) { message += text; }
inline void append(std::string& message, const char* text) { message += text; }
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

// The checks take the argument's name as a string_view: nothing is built on
// the success path (in the wasm build every call that may throw, such as a
// std::string constructor, costs a trip through JS; see wasm/bindings.cpp).
template <class... Parts>
[[noreturn]] void fail(std::string_view argument, const Parts&... parts) {
    std::string message(argument);
    message += ": ";
    (append(message, parts), ...);
    throw ArgumentError(message);
}

inline void require_finite(std::string_view argument, double value) {
    if (!std::isfinite(value)) fail(argument, "expected a finite number, got ", value);
}

// Checks every element of a contiguous container (xtensor or std::vector).
template <class Container>
void require_all_finite(std::string_view argument, const Container& values) {
    std::size_t index = 0;
    for (double value : values) {
        if (!std::isfinite(value))
            fail(argument, "expected finite numbers, got ", value, " at index ", index);
        ++index;
    }
}

inline void require_range(std::string_view argument, double value, double low, double high) {
    require_finite(argument, value);
    if (value < low || value > high)
        fail(argument, "expected a value in [", low, ", ", high, "], got ", value);
}

inline void require_count(std::string_view argument, std::size_t value, std::size_t low,
                          std::size_t high) {
    if (value < low || value > high)
        fail(argument, "expected a count in [", low, ", ", high, "], got ", value);
}

}  // namespace attention
