#include "training/softmax_cross_entropy.hpp"

#include <algorithm>

#include "numerics/portable_math.hpp"
#include "numerics/softmax_row.hpp"

namespace attention::layers {

double cross_entropy(const double* logits, std::size_t classes, std::size_t target, double* shifted, double& sum) {
    const double top = row_maximum(logits, classes);
    std::copy(logits, logits + classes, shifted);
    sum = exponentials_and_sum(shifted, classes, top, 1.0);
    return (top + portable::log(sum)) - logits[target];
}

void softmax_cross_entropy(const double* logits, std::size_t rows, std::size_t classes, const int* targets,
                           const double* divisors, double* losses, double* dlogits) {
    for (std::size_t r = 0; r < rows; ++r) {
        double* d = dlogits + r * classes;
        if (divisors[r] == 0.0) {
            losses[r] = 0.0;
            std::fill(d, d + classes, 0.0);
            continue;
        }
        const auto target = static_cast<std::size_t>(targets[r]);
        double sum = 0.0;
        losses[r] = cross_entropy(logits + r * classes, classes, target, d, sum);
        for (std::size_t v = 0; v < classes; ++v) d[v] = d[v] / sum / divisors[r];
        d[target] -= 1.0 / divisors[r];
    }
}

}  // namespace attention::layers
