#include "softmax.hpp"

#include <algorithm>
#include <cmath>

namespace attention {

void softmax_in_place(double* row, std::size_t length) {
    if (length == 0) return;
    const double max = *std::max_element(row, row + length);
    double sum = 0.0;
    for (std::size_t j = 0; j < length; ++j) {
        row[j] = std::exp(row[j] - max);
        sum += row[j];
    }
    const double inverse = 1.0 / sum;
    for (std::size_t j = 0; j < length; ++j) row[j] *= inverse;
}

xt::xtensor<double, 3> masked_softmax(const xt::xtensor<double, 3>& scores,
                                      const xt::xtensor<int, 1>& valid_lens) {
    const ValidLengths lengths = check_masking(scores, valid_lens);
    const std::size_t batch = scores.shape(0), queries = scores.shape(1), keys = scores.shape(2);
    xt::xtensor<double, 3> weights = scores;
    for (std::size_t b = 0; b < batch; ++b) {
        for (std::size_t q = 0; q < queries; ++q) {
            double* row = &weights(b, q, 0);
            const std::size_t valid = lengths.of_row(b, q);
            if (valid == 0) {
                std::fill(row, row + keys, 0.0);
                continue;
            }
            mask_row(row, valid, keys);
            softmax_in_place(row, keys);
        }
    }
    return weights;
}

}  // namespace attention
