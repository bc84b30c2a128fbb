#pragma once
// A seeded generator that draws the same numbers on every platform:
// xoshiro256** seeded through SplitMix64, uniforms from the top 53 bits and
// normals by Box-Muller over the portable elementary functions.
// (std::*_distribution differ between libstdc++ and libc++.)
#include <array>
#include <cstdint>

namespace attention {

class Random {
public:
    explicit Random(std::uint64_t seed);
    // noexcept: the wasm build's exception handling otherwise routes each call
    // from a function with cleanups through JS (an invoke_* trampoline).
    std::uint64_t next_bits() noexcept;
    double uniform() noexcept;  // [0, 1)
    double normal() noexcept;   // N(0, 1)

private:
    std::array<std::uint64_t, 4> state_{};
    double spare_normal_ = 0.0;
    bool has_spare_ = false;
};

}  // namespace attention
