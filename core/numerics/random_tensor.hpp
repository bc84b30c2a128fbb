#pragma once
// Seeded random numbers for the page's examples (tokens, projection weights,
// score matrices): the page never draws random numbers itself.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

namespace attention {

// The defaults here are the JS API's too (its `defaults`).
struct NormalOptions {
    std::uint32_t seed = 0;
    double std = 1.0;
};

struct UniformOptions {
    std::uint32_t seed = 0;
    double low = 0.0;  // e.g. the book's initial w ~ U[0, 1)
    double high = 1.0;
};

// `count` draws from N(0, std^2), the same for the same seed on every platform.
xt::xtensor<double, 1> random_normal(std::size_t count, const NormalOptions& options = {});

// `count` draws from U[low, high).
xt::xtensor<double, 1> random_uniform(std::size_t count, const UniformOptions& options = {});

}  // namespace attention
