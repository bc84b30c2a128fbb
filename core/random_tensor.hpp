#pragma once
// Seeded random numbers for the page's examples (tokens, projection weights,
// score matrices): the page never draws random numbers itself.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

namespace attention {

// `count` draws from N(0, std^2), the same for the same seed on every platform.
xt::xtensor<double, 1> random_normal(std::size_t count, std::uint32_t seed, double std = 1.0);

// `count` draws from U[low, high), e.g. the book's initial w ~ U[0, 1).
xt::xtensor<double, 1> random_uniform(std::size_t count, std::uint32_t seed, double low = 0.0,
                                      double high = 1.0);

}  // namespace attention
