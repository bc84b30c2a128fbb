#include "numerics/random.hpp"

#include <cmath>

#include "numerics/portable_math.hpp"

namespace attention {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

constexpr double two_pi = 6.283185307179586476925;

}  // namespace

Random::Random(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
}

std::uint64_t Random::next_bits() noexcept {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
}

double Random::uniform() noexcept { return static_cast<double>(next_bits() >> 11) * 0x1.0p-53; }

double Random::normal() noexcept {
    if (has_spare_) {
        has_spare_ = false;
        return spare_normal_;
    }
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    const double radius = std::sqrt(-2.0 * portable::log(u1));
    spare_normal_ = radius * portable::sin(two_pi * u2);
    has_spare_ = true;
    return radius * portable::cos(two_pi * u2);
}

}  // namespace attention
