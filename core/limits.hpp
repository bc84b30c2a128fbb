#pragma once
// Documented size limits. They keep a hostile or mistyped size from asking
// the browser for gigabytes; every entry point checks them before allocating.
#include <cstddef>

namespace attention::limits {

inline constexpr std::size_t max_points = 10000;             // data set, queries, keys
inline constexpr std::size_t max_matrix_elements = 1u << 24;  // any result matrix (16.7 M doubles)
inline constexpr std::size_t max_dimension = 1024;           // feature / hidden sizes
inline constexpr std::size_t max_batch = 64;
inline constexpr std::size_t max_epochs = 10000;
inline constexpr std::size_t max_sequence = 10000;           // positional encoding length
inline constexpr double max_x = 1000.0;                      // data set xMax
inline constexpr double max_noise = 100.0;

}  // namespace attention::limits
