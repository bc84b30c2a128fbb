#include "scoring/scaling_study.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/random.hpp"
#include "numerics/softmax_row.hpp"

namespace attention {
namespace {

double sample_variance(const std::vector<double>& values) {
    double mean = 0.0;
    for (double v : values) mean += v;
    mean /= static_cast<double>(values.size());
    double sum = 0.0;
    for (double v : values) sum += (v - mean) * (v - mean);
    return sum / static_cast<double>(values.size() - 1);
}

double max_softmax_weight(std::vector<double> scores) {
    softmax_row(scores.data(), scores.size(), scores.size());
    return *std::max_element(scores.begin(), scores.end());
}

}  // namespace

void check_scaling_study(const ScalingStudyOptions& options) {
    const auto& dims = options.dims;
    const std::size_t samples = options.samples, keys = options.keys;
    require_count("dims.length", dims.size(), 1, limits::max_study_dims);
    for (std::size_t d : dims) require_count("dims", d, 1, limits::max_dimension);
    require_count("samples", samples, 2, limits::max_study_samples);
    require_count("keys", keys, 1, limits::max_study_keys);
    if (dims.size() * samples * keys > limits::max_matrix_elements / 4)
        fail("samples", text("dims.length * samples * keys <= ", limits::max_matrix_elements / 4));
    // Each sample draws d query entries and keys * d key entries for every d: in 64 bits,
    // checked before anything is drawn.
    std::uint64_t dims_total = 0;
    for (std::size_t d : dims) dims_total += d;
    const std::uint64_t draws = std::uint64_t{samples} * (std::uint64_t{keys} + 1) * dims_total;
    if (draws > limits::max_study_draws)
        fail("samples", text("samples * (keys + 1) * (sum of dims) <= ", limits::max_study_draws), draws);
}

std::vector<ScalingStudyRow> scaling_study(const ScalingStudyOptions& options) {
    check_scaling_study(options);
    const auto& dims = options.dims;
    const std::size_t samples = options.samples, keys = options.keys;
    const std::uint32_t seed = options.seed;

    std::vector<ScalingStudyRow> rows;
    for (std::size_t d : dims) {
        Random random(seed + static_cast<std::uint32_t>(d));
        const double scale = 1.0 / std::sqrt(static_cast<double>(d));
        std::vector<double> query(d), scores(keys), first_scores;
        double max_weight = 0.0, scaled_max_weight = 0.0;
        for (std::size_t s = 0; s < samples; ++s) {
            for (double& q : query) q = random.normal();
            for (std::size_t k = 0; k < keys; ++k) {
                double dot = 0.0;
                for (std::size_t c = 0; c < d; ++c) dot += query[c] * random.normal();
                scores[k] = dot;
            }
            first_scores.push_back(scores[0]);  // one score per query: independent samples of q.k
            max_weight += max_softmax_weight(scores);
            for (double& score : scores) score *= scale;
            scaled_max_weight += max_softmax_weight(scores);
        }
        ScalingStudyRow row;
        row.d = d;
        row.variance = sample_variance(first_scores);
        row.scaled_variance = row.variance * scale * scale;
        row.max_weight = max_weight / static_cast<double>(samples);
        row.scaled_max_weight = scaled_max_weight / static_cast<double>(samples);
        rows.push_back(row);
    }
    return rows;
}

}  // namespace attention
