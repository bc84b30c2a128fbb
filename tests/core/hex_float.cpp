#include "hex_float.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace attention::testing {

std::string to_hex(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const char* sign = (bits >> 63) ? "-" : "";
    const std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
    const int biased = static_cast<int>((bits >> 52) & 0x7ff);
    char buffer[40];
    if (biased == 0 && mantissa == 0) {
        std::snprintf(buffer, sizeof buffer, "%s0x0.0p+0", sign);
    } else {
        // Subnormals keep a leading 0 and the smallest exponent, as Python writes them.
        const int exponent = biased == 0 ? -1022 : biased - 1023;
        std::snprintf(buffer, sizeof buffer, "%s0x%d.%013llxp%+d", sign, biased == 0 ? 0 : 1,
                      static_cast<unsigned long long>(mantissa), exponent);
    }
    return buffer;
}

double from_hex(const std::string& text) {
    if (text == "nan") return std::nan("");
    if (text == "inf") return HUGE_VAL;
    if (text == "-inf") return -HUGE_VAL;
    const bool hex = text.rfind("0x", 0) == 0 || text.rfind("-0x", 0) == 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (!hex || text.empty() || end != text.c_str() + text.size())
        throw std::invalid_argument("not a hex float: '" + text + "'");
    return value;
}

}  // namespace attention::testing
