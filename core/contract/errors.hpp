#pragma once
// Argument errors carry fields: the argument's name, what was expected, what
// was got and the index of the element at fault. The JS API hands the fields
// to the page, which words the error in its own language instead of parsing
// the message; the message says the same in English.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "contract/escaped_code_points.hpp"

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

// One step through UTF-8 text: the code point that starts at a byte and its
// size in bytes, or, for a byte that starts no well-formed sequence (a
// continuation byte, a lead byte cut short or followed by too few
// continuation bytes, an overlong form, above U+10FFFF), that byte alone,
// marked not a character. A surrogate written in three bytes (CESU-8, WTF-8)
// is read as the surrogate: quoted() escapes it as JS writes a lone one.
struct Utf8Step {
    char32_t code_point;  // the byte itself when !character
    std::size_t size;     // 1 to 4
    bool character;
};

inline Utf8Step utf8_step(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[at + k]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return {lead, 1, true};
    const std::size_t size = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
                           : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (size == 0 || at + size > text.size()) return {lead, 1, false};
    char32_t c = lead & (size == 2 ? 0x1F : size == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < size; ++k) {
        if ((byte(k) & 0xC0) != 0x80) return {lead, 1, false};
        c = (c << 6) | (byte(k) & 0x3F);
    }
    const char32_t smallest = size == 2 ? 0x80 : size == 3 ? 0x800 : 0x10000;
    if (c < smallest || c > 0x10FFFF) return {lead, 1, false};
    return {c, size, true};
}

// Whether an error's quote escapes a code point: every control, format,
// surrogate, private-use, unassigned, line- or paragraph-separator code
// point and every default-ignorable one, by the Unicode data's own
// properties (the generated table escaped_code_points.hpp says where it
// comes from and how it is checked). Each of them shows nothing, shows as
// something else, or reorders or hides the text around it where a page
// shows the message.
inline bool is_escaped_code_point(char32_t c) {
    const auto& runs = unicode::escaped_code_point_runs;
    const auto& index = unicode::escaped_code_point_index;
    std::size_t at = 0;
    const auto varint = [&] {
        std::uint32_t number = 0;
        for (int shift = 0; at < std::size(runs); shift += 7) {
            const std::uint8_t byte = runs[at++];
            number |= static_cast<std::uint32_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0) break;
        }
        return number;
    };
    // The last indexed range that starts at or before c, then the ranges after it until one ends at or past c.
    std::size_t low = 0, high = std::size(index);
    while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        if (index[middle].first <= c) low = middle + 1;
        else high = middle;
    }
    if (low == 0) return false;
    char32_t first = index[low - 1].first;
    at = index[low - 1].length_at;
    while (true) {
        const char32_t last = first + varint();
        if (c <= last) return true;
        if (at >= std::size(runs)) return false;
        first = last + 1 + varint();
        if (c < first) return false;
    }
}

// The most code points an error quotes of a caller's text: a longer text
// shows this many, around the part at fault, with an ellipsis for what is left out.
inline constexpr std::size_t longest_quote = 200;

// The bytes [begin, end) of a quoted text that an error is about (the word
// that was not understood); empty: the text as a whole.
struct QuoteFocus {
    std::size_t begin = 0, end = 0;
};

// A name or other text of the caller's as an error shows it: in quotes (an
// empty one still shows), whole when it has at most longest_quote code
// points; a longer one shows that many (a megabyte of text still makes a
// short message), from its start when the part at fault (`focus`) ends
// within them, else around that part, with an ellipsis (U+2026) for each
// side left out; never cut inside a character. Escaped, so a message shows
// every character the caller typed and nothing else: control bytes and any
// byte that is no UTF-8 as \xNN (a NUL would end the message early), the
// code points is_escaped_code_point() names as \uNNNN, or \u{NNNNN} past
// U+FFFF (as JS writes them; a lone surrogate, which the JS API hands over
// already written as its escape \uD800, reads the same).
inline std::string quoted(std::string_view name, QuoteFocus focus = {}) {
    // Where the focus lies, in code points (a byte that is no UTF-8 counts as one).
    std::size_t count = 0, focus_first = 0, focus_last = 0;
    for (std::size_t at = 0; at < name.size(); at += utf8_step(name, at).size, ++count) {
        if (at <= focus.begin) focus_first = count;
        if (at < focus.end) focus_last = count + 1;
    }
    focus_last = std::max(focus_last, focus_first);
    std::size_t first = 0, last = count;  // the code points shown
    if (count > longest_quote) {
        const std::size_t width = focus_last - focus_first;
        if (focus_last <= longest_quote) first = 0;
        else if (width >= longest_quote) first = focus_first;
        else first = std::min(focus_first - std::min(focus_first, (longest_quote - width) / 2), count - longest_quote);
        last = first + longest_quote;
    }
    std::string result = "'";
    if (first > 0) result += "\xE2\x80\xA6";
    std::size_t index = 0;
    for (std::size_t at = 0; at < name.size() && index < last; ++index) {
        const Utf8Step step = utf8_step(name, at);
        if (index >= first) {
            char escaped[16];
            if (!step.character || step.code_point < 0x20 || step.code_point == 0x7F) {
                std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(step.code_point));
                result += escaped;
            } else if (is_escaped_code_point(step.code_point)) {
                std::snprintf(escaped, sizeof escaped, step.code_point > 0xFFFF ? "\\u{%X}" : "\\u%04X",
                              static_cast<unsigned>(step.code_point));
                result += escaped;
            } else {
                result += name.substr(at, step.size);
            }
        }
        at += step.size;
    }
    if (last < count) result += "\xE2\x80\xA6";  // U+2026, an ellipsis
    return result + "'";
}

// The part of `text` that `part` views (a word split out of it), as a quote's focus.
inline QuoteFocus focus_of(std::string_view text, std::string_view part) {
    const std::less<const char*> before;
    if (before(part.data(), text.data()) || before(text.data() + text.size(), part.data() + part.size())) return {};
    const auto begin = static_cast<std::size_t>(part.data() - text.data());
    return {begin, begin + part.size()};
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

// The whole numbers a count may take.
struct CountRange {
    std::size_t low = 0, high = 0;
};

inline void require_count(std::string_view argument, std::size_t value, CountRange range) {
    require_count(argument, value, range.low, range.high);
}

// The most any count read from a JS number holds (the bindings refuse more
// before it could wrap in a 32-bit size_t); far above every limit.
inline constexpr std::size_t largest_count = 2147483647;

// A count handed over as a JS number: a whole number in `range` (within
// [0, largest_count]), else refused with that range, as require_count words
// it for a whole number out of it (so 2^31 reads as 1025 does where the
// limit is 1024), the number quoted as JS writes it.
inline std::size_t count_of_number(std::string_view argument, double value, CountRange range) {
    const bool whole = std::isfinite(value) && value == std::floor(value);
    if (whole && value >= static_cast<double>(range.low) && value <= static_cast<double>(range.high))
        return static_cast<std::size_t>(value);
    fail(argument, text(whole ? "a count in [" : "a whole number in [", range.low, ", ", range.high, "]"), value);
}

}  // namespace attention
