#pragma once
// Nadaraya-Watson kernel regression is consistent (d2l 10.2): given enough
// data its prediction converges to the true function, provided the kernel
// narrows as the data grow. Measured on the book's toy problem: for each
// size n, the mean squared error of the prediction against the noiseless
// f(x) on a grid of queries, averaged over data sets, with the width w held
// fixed (the error stops falling at the kernel's bias) and with w growing as
// n^(1/5) (the bandwidth that balances bias and variance for a smooth f: the
// error keeps falling).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention {

// The defaults are the JS API's too (its `defaults`).
struct ConsistencyStudyOptions {
    std::vector<std::size_t> sizes = {10, 20, 50, 100, 200, 500, 1000, 2000};
    std::size_t repeats = 20;  // data sets per size: seeds seed, seed + 1, ... (mod 2^32)
    std::size_t queries = 50;  // x = i * xMax / queries, i = 0 .. queries - 1 (d2l: 0, 0.1, ..., 4.9)
    double w = 1.0;            // the Gaussian kernel's width, and the growing width's at n = reference_size
    double noise = 0.5;
    double x_max = 5.0;
    std::uint32_t seed = 0;
};

// The growing width is w (n / reference_size)^(1/5): the fixed w at the book's 50 training points.
inline constexpr double consistency_reference_size = 50.0;

struct ConsistencyStudyRow {
    std::size_t n = 0;
    double fixed_error = 0.0;    // mean squared error against f, width w
    double growing_w = 0.0;      // w (n / 50)^(1/5)
    double growing_error = 0.0;  // mean squared error against f, width growing_w
};

// The options' limits (core/limits.hpp), naming the option at fault, and the
// work: 2 * repeats * queries * (sum of sizes + 32 per size) kernel
// evaluations (a query's own cost counted as 32 evaluations).
inline constexpr std::size_t consistency_query_overhead = 32;
void check_consistency_study(const ConsistencyStudyOptions& options);

std::vector<ConsistencyStudyRow> consistency_study(const ConsistencyStudyOptions& options = {});

}  // namespace attention
