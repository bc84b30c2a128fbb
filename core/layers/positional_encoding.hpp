#pragma once
// Sinusoidal positional encoding (d2l 10.6.3):
// P[i, 2j] = sin(i / 10000^(2j/d)), P[i, 2j+1] = cos(i / 10000^(2j/d)).
#include <cstddef>

#include <xtensor/xtensor.hpp>

namespace attention {

// (max_len x dim); an odd dim keeps the last sine column without its cosine.
xt::xtensor<double, 2> positional_encoding(std::size_t max_len, std::size_t dim);

}  // namespace attention
