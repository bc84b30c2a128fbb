#pragma once
// Why scaled dot-product attention divides by sqrt(d): for random q, k with
// independent N(0, 1) entries, q.k has variance d, so unscaled scores grow
// with d and the softmax collapses onto one key. Measured by sampling.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention {

struct ScalingStudyRow {
    std::size_t d = 0;
    double variance = 0.0;         // sample variance of q.k
    double scaled_variance = 0.0;  // sample variance of q.k / sqrt(d)
    double max_weight = 0.0;       // mean over queries of the largest softmax weight, unscaled scores
    double scaled_max_weight = 0.0;
};

// The defaults are the JS API's too (its `defaults`).
struct ScalingStudyOptions {
    std::vector<std::size_t> dims = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
    std::size_t samples = 500;  // queries per d
    std::size_t keys = 10;      // keys per query
    std::uint32_t seed = 0;
};

// The options' limits (core/limits.hpp), naming the option at fault: sizes,
// and the work, samples * (keys + 1) * (sum of dims) normal draws.
void check_scaling_study(const ScalingStudyOptions& options);

// For each d: `samples` queries, each scored against `keys` random keys.
std::vector<ScalingStudyRow> scaling_study(const ScalingStudyOptions& options = {});

}  // namespace attention
