#include "softmax.hpp"

#include <algorithm>
#include <cmath>

#include "errors.hpp"
#include "limits.hpp"

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

ValidLengths::ValidLengths(const xt::xtensor<int, 1>& valid_lens, std::size_t batch,
                           std::size_t queries, std::size_t keys)
    : lens_(valid_lens), queries_(queries), keys_(keys), per_row_(valid_lens.size() == batch * queries) {
    const std::size_t n = valid_lens.size();
    if (n != 0 && n != batch && n != batch * queries)
        fail("validLens", "expected null, ", batch, " (batch) or ", batch * queries,
             " (batch*nq) lengths, got ", n);
    for (std::size_t i = 0; i < n; ++i)
        if (valid_lens(i) < 0 || static_cast<std::size_t>(valid_lens(i)) > keys)
            fail("validLens", "expected lengths in [0, ", keys, "] (nk), got ", valid_lens(i),
                 " at index ", i);
}

std::size_t ValidLengths::of_row(std::size_t b, std::size_t q) const {
    if (lens_.size() == 0) return keys_;
    // With one query per item both readings of the lengths agree.
    return static_cast<std::size_t>(per_row_ ? lens_(b * queries_ + q) : lens_(b));
}

xt::xtensor<double, 3> masked_softmax(const xt::xtensor<double, 3>& scores,
                                      const xt::xtensor<int, 1>& valid_lens) {
    const std::size_t batch = scores.shape(0), queries = scores.shape(1), keys = scores.shape(2);
    require_count("batch", batch, 1, limits::max_batch);
    require_count("nq", queries, 1, limits::max_points);
    require_count("nk", keys, 1, limits::max_points);
    require_all_finite("scores", scores);
    const ValidLengths lengths(valid_lens, batch, queries, keys);

    xt::xtensor<double, 3> weights = scores;
    for (std::size_t b = 0; b < batch; ++b) {
        for (std::size_t q = 0; q < queries; ++q) {
            double* row = &weights(b, q, 0);
            const std::size_t valid = lengths.of_row(b, q);
            if (valid == 0) {
                std::fill(row, row + keys, 0.0);
                continue;
            }
            // d2l's recipe: masked scores become -1e6, then an ordinary softmax.
            std::fill(row + valid, row + keys, masked_score);
            softmax_in_place(row, keys);
        }
    }
    return weights;
}

}  // namespace attention
