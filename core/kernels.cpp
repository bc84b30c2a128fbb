#include "kernels.hpp"

#include <algorithm>
#include <cstdio>

#include "errors.hpp"

namespace attention {
namespace {
constexpr Kernel all_kernels[] = {Kernel::gaussian, Kernel::boxcar, Kernel::constant,
                                  Kernel::triangular, Kernel::epanechnikov};

// A name as an error shows it: quoted (an empty name still shows), cut to at
// most 40 bytes on a UTF-8 character boundary (a message stays readable and
// valid text), control characters as \xNN (a NUL would end the message early).
std::string quoted(const std::string& name) {
    std::size_t cut = std::min<std::size_t>(name.size(), 40);
    while (cut > 0 && cut < name.size() && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
    std::string result = "'";
    for (const char c : name.substr(0, cut)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            result += escaped;
        } else {
            result += c;
        }
    }
    return result + "'";
}

}  // namespace

const char* kernel_name(Kernel kernel) {
    switch (kernel) {
        case Kernel::gaussian: return "gaussian";
        case Kernel::boxcar: return "boxcar";
        case Kernel::constant: return "constant";
        case Kernel::triangular: return "triangular";
        case Kernel::epanechnikov: return "epanechnikov";
    }
    return "?";
}

Kernel parse_kernel(const std::string& name) {
    for (Kernel kernel : all_kernels)
        if (name == kernel_name(kernel)) return kernel;
    ArgumentFields fields{"kernel", "one of gaussian, boxcar, constant, triangular, epanechnikov", quoted(name),
                          std::nullopt};
    const std::string message = fields.argument + ": expected " + fields.expected + "; got " + fields.got;
    throw ArgumentError(std::move(fields), message);
}

}  // namespace attention
