#include "regression/kernels.hpp"

#include "contract/errors.hpp"

namespace attention {
namespace {
constexpr Kernel all_kernels[] = {Kernel::gaussian, Kernel::boxcar, Kernel::constant,
                                  Kernel::triangular, Kernel::epanechnikov};
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
