#include "linear.hpp"

namespace attention {

xt::xtensor<double, 3> linear(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 2>& weight) {
    const std::size_t batch = x.shape(0), rows = x.shape(1), in = x.shape(2), out = weight.shape(0);
    xt::xtensor<double, 3> result = xt::xtensor<double, 3>::from_shape({batch, rows, out});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t r = 0; r < rows; ++r) {
            const double* input = &x(b, r, 0);
            for (std::size_t o = 0; o < out; ++o) {
                const double* w = &weight(o, 0);
                double sum = 0.0;
                for (std::size_t i = 0; i < in; ++i) sum += input[i] * w[i];
                result(b, r, o) = sum;
            }
        }
    return result;
}

}  // namespace attention
