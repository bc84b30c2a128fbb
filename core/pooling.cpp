#include "pooling.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "errors.hpp"
#include "limits.hpp"
#include "vector_math.hpp"

namespace attention {
namespace {

constexpr double undefined = std::numeric_limits<double>::quiet_NaN();

void check_points(const char* name, const xt::xtensor<double, 1>& points) {
    require_count(std::string(name) + ".length", points.size(), 1, limits::max_points);
    require_all_finite(name, points);
}

void check_spec(const KernelSpec& spec) { require_finite("w", spec.w); }

// Writes the unnormalised weights of one query into `row` and returns their sum.
// The Gaussian is shifted by its largest score (the smallest d^2), so that
// weight is exp(0) = 1 and the sum is at least 1.
double kernel_row(double query, const double* keys, std::size_t n_keys, const KernelSpec& spec,
                  double* row) {
    namespace vm = vector_math;
    if (spec.kernel == Kernel::gaussian) {
        const double half_w2 = gaussian_rate(spec.w);
        // d^2 and its minimum in one pass, then the shifted exp.
        double lane_min[vm::lanes] = {vm::no_minimum, vm::no_minimum, vm::no_minimum, vm::no_minimum};
        vm::for_each_lane(n_keys, [&](std::size_t j, std::size_t lane) {
            const double d = query - keys[j];
            row[j] = d * d;
            vm::keep_smaller(lane_min[lane], row[j]);
        });
        const double min_d2 = vm::smallest(lane_min);
        for (std::size_t j = 0; j < n_keys; ++j)
            row[j] = vm::exp_nonpositive(-half_w2 * (row[j] - min_d2));
    } else {
        for (std::size_t j = 0; j < n_keys; ++j)
            row[j] = kernel_value(spec.kernel, (query - keys[j]) * spec.w);
    }
    return vm::sum(row, n_keys);
}

}  // namespace

xt::xtensor<double, 1> average_pool(const xt::xtensor<double, 1>& values, std::size_t n_queries) {
    check_points("values", values);
    require_count("nQueries", n_queries, 1, limits::max_points);
    double sum = 0.0;
    for (double v : values) sum += v;
    xt::xtensor<double, 1> result = xt::xtensor<double, 1>::from_shape({n_queries});
    result.fill(sum / static_cast<double>(values.size()));
    return result;
}

xt::xtensor<double, 2> attention_weights(const xt::xtensor<double, 1>& queries,
                                         const xt::xtensor<double, 1>& keys, const KernelSpec& spec) {
    check_points("queries", queries);
    check_points("keys", keys);
    check_spec(spec);
    if (queries.size() * keys.size() > limits::max_matrix_elements)
        fail("queries", "expected queries.length * keys.length <= ", limits::max_matrix_elements,
             ", got ", queries.size() * keys.size());
    const std::size_t nk = keys.size();
    xt::xtensor<double, 2> weights = xt::xtensor<double, 2>::from_shape({queries.size(), nk});
    for (std::size_t i = 0; i < queries.size(); ++i) {
        double* row = &weights(i, 0);
        const double sum = kernel_row(queries(i), keys.data(), nk, spec, row);
        const double inverse = sum > 0.0 ? 1.0 / sum : undefined;
        for (std::size_t j = 0; j < nk; ++j) row[j] *= inverse;
    }
    return weights;
}

xt::xtensor<double, 1> nadaraya_watson(const xt::xtensor<double, 1>& queries,
                                       const xt::xtensor<double, 1>& keys,
                                       const xt::xtensor<double, 1>& values, const KernelSpec& spec) {
    check_points("queries", queries);
    check_points("keys", keys);
    check_points("values", values);
    check_spec(spec);
    if (values.size() != keys.size())
        fail("values", "expected ", keys.size(), " values (one per key), got ", values.size());
    const std::size_t nk = keys.size();
    std::vector<double> row(nk);
    xt::xtensor<double, 1> prediction = xt::xtensor<double, 1>::from_shape({queries.size()});
    for (std::size_t i = 0; i < queries.size(); ++i) {
        const double sum = kernel_row(queries(i), keys.data(), nk, spec, row.data());
        const double weighted = vector_math::dot(row.data(), values.data(), nk);
        prediction(i) = sum > 0.0 ? weighted / sum : undefined;
    }
    return prediction;
}

}  // namespace attention
