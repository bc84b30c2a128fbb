#include "numerics/random_tensor.hpp"

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/random.hpp"

namespace attention {

xt::xtensor<double, 1> random_normal(std::size_t count, const NormalOptions& options) {
    require_count("count", count, 1, limits::max_matrix_elements);
    require_range("std", options.std, 0.0, limits::max_random_magnitude);
    Random random(options.seed);
    xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({count});
    for (double& v : values) v = options.std * random.normal();
    return values;
}

xt::xtensor<double, 1> random_uniform(std::size_t count, const UniformOptions& options) {
    const double low = options.low, high = options.high;
    require_count("count", count, 1, limits::max_matrix_elements);
    require_range("low", low, -limits::max_random_magnitude, limits::max_random_magnitude);
    require_range("high", high, -limits::max_random_magnitude, limits::max_random_magnitude);
    if (!(high > low)) fail("high", text("a value above low (", low, ")"), high);
    Random random(options.seed);
    xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({count});
    for (double& v : values) v = low + (high - low) * random.uniform();
    return values;
}

}  // namespace attention
