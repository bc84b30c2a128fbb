#include "scoring/masked_softmax.hpp"

#include <algorithm>

namespace attention {

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
            softmax_row(row, keys, keys);
        }
    }
    return weights;
}

}  // namespace attention
