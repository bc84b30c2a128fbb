#include "regression/squared_error.hpp"

#include <cmath>

#include "contract/errors.hpp"
#include "contract/limits.hpp"

namespace attention {

double sum_squared_error(const xt::xtensor<double, 1>& predictions, const xt::xtensor<double, 1>& targets) {
    require_count("predictions", predictions.size(), 1, limits::max_points);
    if (targets.size() != predictions.size())
        fail("targets", text("as many numbers as predictions (", predictions.size(), ")"), targets.size());
    for (std::size_t i = 0; i < predictions.size(); ++i)
        if (std::isinf(predictions(i))) fail("predictions", "finite numbers or NaN (no prediction)", predictions(i), i);
    require_all_finite("targets", targets);
    double total = 0.0;
    for (std::size_t i = 0; i < predictions.size(); ++i) {
        const double error = predictions(i) - targets(i);
        total += error * error;
    }
    return total;
}

}  // namespace attention
