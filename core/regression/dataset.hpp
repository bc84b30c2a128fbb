#pragma once
// The book's toy regression data: f(x) = 2 sin x + x^0.8 plus Gaussian noise,
// n inputs drawn uniformly on [0, xMax) and sorted.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

namespace attention {

struct DatasetOptions {
    std::size_t n = 50;
    std::uint32_t seed = 0;
    double noise = 0.5;  // standard deviation of the noise
    double x_max = 5.0;
};

struct Dataset {
    xt::xtensor<double, 1> x;
    xt::xtensor<double, 1> y;
};

// Same seed, same bits, natively and in WebAssembly.
Dataset make_dataset(const DatasetOptions& options);

// The noiseless function, for x in [0, limits::max_x] (the inputs a data set
// can draw); anything else is refused, naming x.
double truth(double x);
xt::xtensor<double, 1> truth(const xt::xtensor<double, 1>& x);

}  // namespace attention
