#include "batch_matmul.hpp"

namespace attention {

xt::xtensor<double, 3> batch_matmul(const xt::xtensor<double, 3>& left, const xt::xtensor<double, 3>& right) {
    const std::size_t n = left.shape(0), a = left.shape(1), b = left.shape(2), c = right.shape(2);
    xt::xtensor<double, 3> output = xt::zeros<double>({n, a, c});
    // Row by row over contiguous rows of `right`: out[i, :] += left[i, k] * right[k, :].
    for (std::size_t item = 0; item < n; ++item)
        for (std::size_t i = 0; i < a; ++i) {
            double* out = &output(item, i, 0);
            for (std::size_t k = 0; k < b; ++k) {
                const double factor = left(item, i, k);
                const double* row = &right(item, k, 0);
                for (std::size_t j = 0; j < c; ++j) out[j] += factor * row[j];
            }
        }
    return output;
}

}  // namespace attention
