#include "layers/linear.hpp"

#include <algorithm>

#include "numerics/matrix_products.hpp"

namespace attention::layers {

void linear_forward(const LinearShape& shape, const double* x, const double* weight, const double* bias, double* y,
                    std::vector<double>& transposed) {
    const std::size_t rows = shape.rows, in = shape.in, out = shape.out;
    transposed.resize(in * out);
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t i = 0; i < in; ++i) transposed[i * out + o] = weight[o * in + i];
    for (std::size_t r = 0; r < rows; ++r) {
        double* yr = y + r * out;
        if (bias)
            std::copy(bias, bias + out, yr);
        else
            std::fill(yr, yr + out, 0.0);
    }
    matrix::multiply_add({x, in, 1}, transposed.data(), out, y, out, rows, out, in);
}

void transpose_weight(const LinearShape& shape, const double* weight, std::vector<double>& transposed) {
    const std::size_t in = shape.in, out = shape.out;
    transposed.resize(in * out);
    for (std::size_t o = 0; o < out; ++o)
        for (std::size_t i = 0; i < in; ++i) transposed[i * out + o] = weight[o * in + i];
}

void linear_backward(const LinearShape& shape, const double* dy, const double* x, const double* weight,
                     double* dweight, double* dbias, double* dx) {
    const std::size_t rows = shape.rows, in = shape.in, out = shape.out;
    matrix::multiply_add({dy, 1, out}, x, in, dweight, in, out, in, rows);
    if (dbias)
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t o = 0; o < out; ++o) dbias[o] += dy[r * out + o];
    if (dx) matrix::multiply_add({dy, out, 1}, weight, in, dx, in, rows, in, out);
}

xt::xtensor<double, 3> linear_forward(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 2>& weight) {
    const std::size_t batch = x.shape(0), rows = x.shape(1), in = x.shape(2), out = weight.shape(0);
    xt::xtensor<double, 3> y = xt::xtensor<double, 3>::from_shape({batch, rows, out});
    std::vector<double> transposed;
    linear_forward({batch * rows, in, out}, x.data(), weight.data(), nullptr, y.data(), transposed);
    return y;
}

}  // namespace attention::layers
