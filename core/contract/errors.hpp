#pragma once
// Argument errors carry fields: the argument's name, what was expected, what
// was got and the index of the element at fault. The JS API hands the fields
// to the page, which words the error in its own language instead of parsing
// the message; the message says the same in English.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
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

// A double as JS's String(value) writes it: the shortest digits that read
// back as the same double (10000.000001, 4294967295.5, 1e+21, 1e-7), so a
// message quotes exactly the value the caller passed. (-0 is "0", as in JS.)
inline std::string js_number(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
    if (value == 0.0) return "0";
    // The fewest significant digits that round-trip (17 always do), in d.ddde+x form.
    char buffer[40];
    for (int precision = 0; precision <= 16; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*e", precision, value);
        if (std::strtod(buffer, nullptr) == value) break;
    }
    const std::string_view scientific(buffer);
    const std::size_t e = scientific.find('e');
    std::string digits;
    for (const char c : scientific.substr(0, e))
        if (c >= '0' && c <= '9') digits += c;
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    // ECMAScript's Number::toString: k digits, the decimal point after n of them.
    const int k = static_cast<int>(digits.size());
    const int n = std::atoi(buffer + e + 1) + 1;
    std::string result = value < 0 ? "-" : "";
    if (k <= n && n <= 21) {
        result += digits + std::string(static_cast<std::size_t>(n - k), '0');
    } else if (0 < n && n <= 21) {
        result += digits.substr(0, static_cast<std::size_t>(n)) + "." + digits.substr(static_cast<std::size_t>(n));
    } else if (-6 < n && n <= 0) {
        result += "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
    } else {
        result += digits.substr(0, 1);
        if (k > 1) result += "." + digits.substr(1);
        result += (n - 1 >= 0 ? "e+" : "e-") + std::to_string(n - 1 >= 0 ? n - 1 : 1 - n);
    }
    return result;
}

// Characters that change how the text around them shows without showing
// themselves: C1 controls, the Arabic letter mark, zero-width characters and
// direction marks, the line and paragraph separators, the bidirectional
// embeddings, overrides and isolates, invisible operators, the BOM. An
// error's quote of them would reorder or hide the message where a page shows it.
inline bool is_invisible(char32_t c) {
    return (c >= 0x80 && c <= 0x9F) || c == 0x61C || (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
           (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF;
}

// A name or other text of the caller's as an error shows it: quoted (an
// empty one still shows), cut to at most 40 bytes on a UTF-8 character
// boundary with an ellipsis (a megabyte of text makes a short message),
// control characters as \xNN (a NUL would end the message early), the
// invisible ones above as \uNNNN (as JS writes a lone surrogate's escape).
inline std::string quoted(std::string_view name) {
    constexpr std::size_t longest = 40;
    // Cut before a character, not inside one: back over at most three continuation bytes (UTF-8's
    // longest character is four bytes); past that the text is no UTF-8, and any cut will do.
    std::size_t cut = std::min(name.size(), longest);
    const auto inside_character = [&](std::size_t at) {
        return at < name.size() && (static_cast<unsigned char>(name[at]) & 0xC0) == 0x80;
    };
    std::size_t back = 0;
    while (back < 3 && cut > back && inside_character(cut - back)) ++back;
    if (back < 3 || !inside_character(cut - back)) cut -= back;
    std::string result = "'";
    const std::string_view kept = name.substr(0, cut);
    for (std::size_t at = 0; at < kept.size(); ++at) {
        const auto byte = static_cast<unsigned char>(kept[at]);
        char escaped[8];
        if (byte < 0x20 || byte == 0x7f) {
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            result += escaped;
            continue;
        }
        // A two- or three-byte character that is invisible (every one above is).
        const std::size_t size = (byte & 0xE0) == 0xC0 ? 2 : (byte & 0xF0) == 0xE0 ? 3 : 1;
        if (size > 1 && at + size <= kept.size()) {
            char32_t c = byte & (size == 2 ? 0x1F : 0x0F);
            bool whole = true;
            for (std::size_t k = 1; k < size; ++k) {
                const auto next = static_cast<unsigned char>(kept[at + k]);
                whole = whole && (next & 0xC0) == 0x80;
                c = (c << 6) | (next & 0x3F);
            }
            if (whole && is_invisible(c)) {
                std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(c));
                result += escaped;
                at += size - 1;
                continue;
            }
        }
        result += kept[at];
    }
    if (cut < name.size()) result += "\xE2\x80\xA6";  // U+2026, an ellipsis
    return result + "'";
}

// Message pieces: text, whole numbers, and doubles as JS writes them.
// (No iostreams: they would triple the size of the wasm module.)
inline void append(std::string& message, std::string_view text) { message += text; }
inline void append(std::string& message, char c) { message += c; }
template <class Number, class = std::enable_if_t<std::is_arithmetic_v<Number>>>
void append(std::string& message, Number value) {
    if constexpr (std::is_integral_v<Number>) {
        message += std::to_string(value);
    } else {
        message += js_number(static_cast<double>(value));
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
// a std::string constructor, costs a trip through JS; see wasm/transfer.hpp).
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
