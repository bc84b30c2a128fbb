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

// For each d: `samples` queries, each scored against `keys` random keys.
std::vector<ScalingStudyRow> scaling_study(const std::vector<std::size_t>& dims, std::size_t samples,
                                           std::size_t keys, std::uint32_t seed);

}  // namespace attention
