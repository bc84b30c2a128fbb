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

}  // namespace attention
