#include "regression/consistency_study.hpp"

#include <cstdint>

#include "regression/dataset.hpp"
#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "regression/pooling.hpp"
#include "numerics/portable_math.hpp"

namespace attention {
namespace {

// Mean over the queries of (prediction - truth)^2.
double mean_squared_error(const xt::xtensor<double, 1>& prediction, const xt::xtensor<double, 1>& truth) {
    double sum = 0.0;
    for (std::size_t i = 0; i < truth.size(); ++i) sum += (prediction(i) - truth(i)) * (prediction(i) - truth(i));
    return sum / static_cast<double>(truth.size());
}

}  // namespace

void check_consistency_study(const ConsistencyStudyOptions& options) {
    require_count("sizes.length", options.sizes.size(), 1, limits::max_study_sizes);
    for (std::size_t n : options.sizes) require_count("sizes", n, 1, limits::max_points);
    require_count("repeats", options.repeats, 1, limits::max_study_repeats);
    require_count("queries", options.queries, 1, limits::max_points);
    require_range("w", options.w, 0.0, limits::max_study_width);
    require_range("noise", options.noise, 0.0, limits::max_noise);
    require_range("xMax", options.x_max, 0.0, limits::max_x);
    if (options.x_max <= 0.0) fail("xMax", "a positive number", options.x_max);
    // A query costs about as much as 32 kernel evaluations before its first key (measured: a study
    // of one-point data sets is that slow), so a size counts as n + 32 keys.
    std::uint64_t keys = 0;
    for (std::size_t n : options.sizes) keys += n + consistency_query_overhead;
    const std::uint64_t evaluations = 2 * std::uint64_t{options.repeats} * options.queries * keys;
    if (evaluations > limits::max_kernel_evaluations)
        fail("repeats", text("2 * repeats * queries * (sum of sizes + 32 per size) <= ",
                             limits::max_kernel_evaluations, " kernel evaluations (this study: ", evaluations, ")"),
             options.repeats);
}

std::vector<ConsistencyStudyRow> consistency_study(const ConsistencyStudyOptions& options) {
    check_consistency_study(options);
    xt::xtensor<double, 1> queries = xt::xtensor<double, 1>::from_shape({options.queries});
    for (std::size_t i = 0; i < options.queries; ++i)
        queries(i) = static_cast<double>(i) * options.x_max / static_cast<double>(options.queries);
    const xt::xtensor<double, 1> target = truth(queries);

    std::vector<ConsistencyStudyRow> rows;
    for (std::size_t n : options.sizes) {
        ConsistencyStudyRow row;
        row.n = n;
        row.growing_w = options.w * portable::pow(static_cast<double>(n) / consistency_reference_size, 0.2);
        for (std::size_t r = 0; r < options.repeats; ++r) {
            // Seeds wrap modulo 2^32, as every seed of the lab.
            const auto seed = static_cast<std::uint32_t>(options.seed + r);
            const Dataset data = make_dataset({n, seed, options.noise, options.x_max});
            row.fixed_error += mean_squared_error(nadaraya_watson(queries, data.x, data.y, {Kernel::gaussian, options.w}),
                                                  target);
            row.growing_error += mean_squared_error(
                nadaraya_watson(queries, data.x, data.y, {Kernel::gaussian, row.growing_w}), target);
        }
        row.fixed_error /= static_cast<double>(options.repeats);
        row.growing_error /= static_cast<double>(options.repeats);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace attention
