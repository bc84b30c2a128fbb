#pragma once
// d2l's PositionWiseFFN (10.7): out = relu(x W1^T + b1) W2^T + b2 at every
// position, as a forward/backward pair over raw row-major arrays.
#include <cstddef>
#include <vector>

namespace attention::layers {

struct FfnShape {
    std::size_t rows = 0;
    std::size_t hidden = 0;  // the input's and output's width
    std::size_t inner = 0;   // ffn_num_hiddens
};
struct FfnWeights {
    const double *w1, *b1, *w2, *b2;  // W1 inner x hidden, W2 hidden x inner
};
struct FfnGradients {
    double *w1, *b1, *w2, *b2;
};
struct FfnCache {
    std::vector<double> activation;  // rows x inner, after the ReLU
};

void position_wise_ffn_forward(const FfnShape& shape, const double* x, const FfnWeights& w, FfnCache& cache,
                               double* out, std::vector<double>& transposed);

// Given dout: the weights' gradients accumulate, dx += the input's gradient.
// `dactivation` holds the gradient of the ReLU's output.
void position_wise_ffn_backward(const FfnShape& shape, const double* x, const FfnWeights& w, const FfnCache& cache,
                                const double* dout, const FfnGradients& grads, double* dx,
                                std::vector<double>& dactivation);

}  // namespace attention::layers
