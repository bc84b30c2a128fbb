#include "regression/dataset.hpp"

#include <algorithm>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/portable_math.hpp"
#include "numerics/random.hpp"

namespace attention {

Dataset make_dataset(const DatasetOptions& options) {
    require_count("n", options.n, 1, limits::max_points);
    require_range("noise", options.noise, 0.0, limits::max_noise);
    require_range("xMax", options.x_max, 0.0, limits::max_x);
    if (options.x_max <= 0.0) fail("xMax", "a positive number", options.x_max);

    // Draw order follows the book: all inputs first, then all noise terms.
    Random random(options.seed);
    Dataset data{xt::xtensor<double, 1>::from_shape({options.n}),
                 xt::xtensor<double, 1>::from_shape({options.n})};
    for (auto& x : data.x) x = random.uniform() * options.x_max;
    std::sort(data.x.begin(), data.x.end());
    for (std::size_t i = 0; i < options.n; ++i)
        data.y(i) = truth(data.x(i)) + options.noise * random.normal();
    return data;
}

double truth(double x) {
    if (!(x >= 0.0) || !std::isfinite(x)) fail("x", "finite numbers >= 0", x);
    // The data set's own range: portable::sin is accurate far beyond it, but
    // not for every double (see portable_math.hpp).
    if (x > limits::max_x) fail("x", text("numbers in [0, ", limits::max_x, "] (the data set's xMax limit)"), x);
    return 2.0 * portable::sin(x) + portable::pow(x, 0.8);
}

xt::xtensor<double, 1> truth(const xt::xtensor<double, 1>& x) {
    require_count("x.length", x.size(), 0, limits::max_points);
    xt::xtensor<double, 1> result = xt::xtensor<double, 1>::from_shape({x.size()});
    for (std::size_t i = 0; i < x.size(); ++i) result(i) = truth(x(i));
    return result;
}

}  // namespace attention
