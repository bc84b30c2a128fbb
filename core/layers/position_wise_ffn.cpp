#include "layers/position_wise_ffn.hpp"

#include <algorithm>

#include "layers/linear.hpp"

namespace attention::layers {

void position_wise_ffn_forward(const FfnShape& shape, const double* x, const FfnWeights& w, FfnCache& cache,
                               double* out, std::vector<double>& transposed) {
    cache.activation.resize(shape.rows * shape.inner);
    linear_forward({shape.rows, shape.hidden, shape.inner}, x, w.w1, w.b1, cache.activation.data(), transposed);
    for (double& a : cache.activation) a = a > 0.0 ? a : 0.0;
    linear_forward({shape.rows, shape.inner, shape.hidden}, cache.activation.data(), w.w2, w.b2, out, transposed);
}

void position_wise_ffn_backward(const FfnShape& shape, const double* x, const FfnWeights& w, const FfnCache& cache,
                                const double* dout, const FfnGradients& grads, double* dx,
                                std::vector<double>& dactivation) {
    const std::size_t count = shape.rows * shape.inner;
    dactivation.assign(count, 0.0);
    linear_backward({shape.rows, shape.inner, shape.hidden}, dout, cache.activation.data(), w.w2, grads.w2, grads.b2,
                    dactivation.data());
    for (std::size_t e = 0; e < count; ++e)
        if (!(cache.activation[e] > 0.0)) dactivation[e] = 0.0;
    linear_backward({shape.rows, shape.hidden, shape.inner}, dactivation.data(), x, w.w1, grads.w1, grads.b1, dx);
}

}  // namespace attention::layers
