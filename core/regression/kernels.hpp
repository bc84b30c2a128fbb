#pragma once
// Similarity kernels of attention pooling by similarity (d2l 2nd edition),
// evaluated at the scaled distance d = (query - key) * w.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace attention {

enum class Kernel { gaussian, boxcar, constant, triangular, epanechnikov };

// "triangular" is what d2l calls "Epanechikov": max(0, 1 - |d|);
// "epanechnikov" is the true one, max(0, 1 - d^2).
Kernel parse_kernel(const std::string& name);
const char* kernel_name(Kernel kernel);

// Unnormalised kernel value; for the Gaussian this is exp(-d^2 / 2).
inline double kernel_value(Kernel kernel, double d) {
    switch (kernel) {
        case Kernel::boxcar: return (d < 1.0 && d > -1.0) ? 1.0 : 0.0;
        case Kernel::constant: return 1.0;
        case Kernel::triangular: {
            const double v = 1.0 - (d < 0 ? -d : d);
            return v > 0.0 ? v : 0.0;
        }
        case Kernel::epanechnikov: {
            const double v = 1.0 - d * d;
            return v > 0.0 ? v : 0.0;
        }
        case Kernel::gaussian: break;
    }
    return std::exp(-0.5 * d * d);
}

// The Gaussian's w^2 / 2, kept finite: for |w| > ~1e154 it would overflow to
// infinity and infinity * 0 (the nearest key's distance to itself) is NaN,
// where the limit is a one-hot row on the nearest key.
inline double gaussian_rate(double w) {
    return std::min(0.5 * w * w, std::numeric_limits<double>::max());
}

// Kernel and width, validated together.
struct KernelSpec {
    Kernel kernel = Kernel::gaussian;
    double w = 1.0;
};

}  // namespace attention
