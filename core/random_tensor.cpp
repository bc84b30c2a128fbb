#include "random_tensor.hpp"

#include "errors.hpp"
#include "limits.hpp"
#include "random.hpp"

namespace attention {

xt::xtensor<double, 1> random_normal(std::size_t count, std::uint32_t seed, double std) {
    require_count("count", count, 1, limits::max_matrix_elements);
    require_range("std", std, 0.0, 1e6);
    Random random(seed);
    xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({count});
    for (double& v : values) v = std * random.normal();
    return values;
}

xt::xtensor<double, 1> random_uniform(std::size_t count, std::uint32_t seed, double low, double high) {
    require_count("count", count, 1, limits::max_matrix_elements);
    require_range("low", low, -1e6, 1e6);
    require_range("high", high, -1e6, 1e6);
    if (!(high > low)) fail("high", "expected a value above low (", low, "), got ", high);
    Random random(seed);
    xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({count});
    for (double& v : values) v = low + (high - low) * random.uniform();
    return values;
}

}  // namespace attention
