// Native side of the speed benchmark: Nadaraya-Watson pooling
// (Gaussian kernel) at n queries x n keys, the n x n attention weights, and
// one leave-one-out training epoch at n. tests/benchmarks/bench.mjs runs this
// executable once per size, times the wasm module, plain-JS loops and
// TensorFlow.js the same way, and prints the comparison.
//
// Timing: one call of the whole entry point at a time, a few untimed warm-up
// calls, and the median of N timed calls, both on the wall clock
// (std::chrono::steady_clock) and as CPU time of the process (std::clock).
// This is deliberately the method the Node side uses (performance.now() and
// process.cpuUsage()), so the ratios compare like with like, and it needs
// nothing beyond the core. (Google Benchmark would choose its own iteration
// counts, report means, and add a build dependency a fresh machine would have
// to install.)
//
// Usage: attention_benchmark [--n 2000] [--seed 7] [--x-max 5] [--w 1]
//                            [--warmup 3] [--repetitions 21] [--serve]
// Alone it prints its medians. With --serve (used by bench.mjs) it prints one
// JSON line with the data set and the results (17 significant digits, so the
// caller can check that all implementations agree), then answers each input
// line "pooling", "weights" or "epoch", optionally followed by a count k,
// with "<wall ms> <cpu ms>" of k back-to-back calls timed together (k = 1 by
// default; small sizes use more, so one sample is long enough for the
// clocks), until "quit" or end of input. The caller can so interleave native,
// wasm, JS and TensorFlow.js samples. The weights are checked on three rows
// (first, middle, last), printed as "weightRows"; at sizes whose n x n matrix
// exceeds the core's limit (n > 4096) there is no "weights" path.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "regression/dataset.hpp"
#include "regression/kernel_width_training.hpp"
#include "contract/limits.hpp"
#include "regression/pooling.hpp"

namespace {

struct Config {
    std::size_t n = 2000;
    std::uint32_t seed = 7;
    double x_max = 5.0;
    double w = 1.0;  // kernel width for pooling, w0 for training
    int warmup = 3;
    int repetitions = 21;
    bool serve = false;
};

[[noreturn]] void usage(const char* problem) {
    std::fprintf(stderr,
                 "attention_benchmark: %s\nusage: attention_benchmark [--n N] [--seed S] [--x-max X] "
                 "[--w W] [--warmup K] [--repetitions R] [--serve]\n",
                 problem);
    std::exit(2);
}

Config parse(int argc, char** argv) {
    Config config;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--serve") {
            config.serve = true;
            continue;
        }
        if (i + 1 >= argc) usage(("missing value after " + flag).c_str());
        const char* value = argv[++i];
        if (flag == "--n") config.n = std::strtoul(value, nullptr, 10);
        else if (flag == "--seed") config.seed = static_cast<std::uint32_t>(std::strtoul(value, nullptr, 10));
        else if (flag == "--x-max") config.x_max = std::strtod(value, nullptr);
        else if (flag == "--w") config.w = std::strtod(value, nullptr);
        else if (flag == "--warmup") config.warmup = std::atoi(value);
        else if (flag == "--repetitions") config.repetitions = std::atoi(value);
        else usage(("unknown option " + flag).c_str());
    }
    if (config.n < 2 || config.repetitions < 1 || config.warmup < 0) usage("bad option value");
    return config;
}

// Keeps the optimiser from dropping a result it can see is unused.
volatile double sink = 0.0;

struct Sample {
    double wall_ms;
    double cpu_ms;
};

template <class Body>
std::vector<Sample> time_calls(int warmup, int repetitions, Body&& body, long calls = 1) {
    for (int k = 0; k < warmup; ++k) sink = sink + body();
    std::vector<Sample> samples;
    for (int k = 0; k < repetitions; ++k) {
        const std::clock_t cpu_start = std::clock();
        const auto start = std::chrono::steady_clock::now();
        for (long call = 0; call < calls; ++call) sink = sink + body();
        const auto stop = std::chrono::steady_clock::now();
        const std::clock_t cpu_stop = std::clock();
        samples.push_back({std::chrono::duration<double, std::milli>(stop - start).count(),
                           1000.0 * static_cast<double>(cpu_stop - cpu_start) / CLOCKS_PER_SEC});
    }
    return samples;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t m = values.size() / 2;
    return values.size() % 2 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

double median(const std::vector<Sample>& samples, double Sample::*field) {
    std::vector<double> values;
    for (const Sample& sample : samples) values.push_back(sample.*field);
    return median(values);
}

void print_array(const char* name, const double* data, std::size_t size) {
    std::printf("\"%s\":[", name);
    for (std::size_t i = 0; i < size; ++i) std::printf(i ? ",%.17g" : "%.17g", data[i]);
    std::printf("]");
}

}  // namespace

int run(const Config& config) {
    attention::DatasetOptions options;
    options.n = config.n;
    options.seed = config.seed;
    options.x_max = config.x_max;
    const attention::Dataset data = attention::make_dataset(options);
    // Queries evenly spaced on [0, xMax), one per training point.
    xt::xtensor<double, 1> queries = xt::xtensor<double, 1>::from_shape({config.n});
    for (std::size_t i = 0; i < config.n; ++i)
        queries(i) = static_cast<double>(i) * config.x_max / static_cast<double>(config.n);

    const attention::KernelSpec spec{attention::Kernel::gaussian, config.w};
    attention::TrainingOptions training;
    training.w0 = config.w;
    training.epochs = 1;

    // The n x n weights only where the core allows the matrix.
    const bool has_weights = config.n * config.n <= attention::limits::max_matrix_elements;

    const auto prediction = attention::nadaraya_watson(queries, data.x, data.y, spec);
    const auto trained = attention::train_kernel_width(data.x, data.y, training);

    const std::function<double()> pooling = [&] {
        return attention::nadaraya_watson(queries, data.x, data.y, spec)(0);
    };
    const std::function<double()> weights = [&] {
        return attention::attention_weights(queries, data.x, spec)(config.n - 1, 0);
    };
    const std::function<double()> epoch = [&] {
        return attention::train_kernel_width(data.x, data.y, training).w.back();
    };

    if (!config.serve) {
        const auto pooling_samples = time_calls(config.warmup, config.repetitions, pooling);
        const auto epoch_samples = time_calls(config.warmup, config.repetitions, epoch);
        std::printf("native, n = %zu, medians of %d calls after %d warm-up calls (ms)\n", config.n,
                    config.repetitions, config.warmup);
        std::printf("                              wall clock   CPU time\n");
        std::printf("  Nadaraya-Watson %5zu x %-5zu %10.2f %10.2f\n", config.n, config.n,
                    median(pooling_samples, &Sample::wall_ms), median(pooling_samples, &Sample::cpu_ms));
        if (has_weights) {
            const auto weight_samples = time_calls(config.warmup, config.repetitions, weights);
            std::printf("  attention weights %5zu x %-5zu%8.2f %10.2f\n", config.n, config.n,
                        median(weight_samples, &Sample::wall_ms), median(weight_samples, &Sample::cpu_ms));
        }
        std::printf("  one training epoch          %10.2f %10.2f\n", median(epoch_samples, &Sample::wall_ms),
                    median(epoch_samples, &Sample::cpu_ms));
        return 0;
    }

    std::printf("{\"n\":%zu,\"seed\":%u,\"xMax\":%.17g,\"w\":%.17g,\"data\":{", config.n, config.seed,
                config.x_max, config.w);
    print_array("x", data.x.data(), data.x.size());
    std::printf(",");
    print_array("y", data.y.data(), data.y.size());
    std::printf("},\"results\":{");
    print_array("prediction", prediction.data(), prediction.size());
    std::printf(",");
    print_array("w", trained.w.data(), trained.w.size());
    std::printf(",");
    print_array("loss", trained.loss.data(), trained.loss.size());
    if (has_weights) {
        const auto matrix = attention::attention_weights(queries, data.x, spec);
        const std::size_t rows[] = {0, config.n / 2, config.n - 1};
        std::printf(",\"weightRows\":{\"index\":[%zu,%zu,%zu],", rows[0], rows[1], rows[2]);
        std::vector<double> values;
        for (std::size_t row : rows) values.insert(values.end(), &matrix(row, 0), &matrix(row, 0) + config.n);
        print_array("values", values.data(), values.size());
        std::printf("}");
    }
    std::printf("}}\n");
    std::fflush(stdout);

    for (std::string line; std::getline(std::cin, line) && line != "quit";) {
        const std::size_t space = line.find(' ');
        const std::string command = line.substr(0, space);
        const long calls = space == std::string::npos ? 1 : std::strtol(line.c_str() + space + 1, nullptr, 10);
        const std::function<double()>* body = command == "pooling" ? &pooling
                                              : command == "epoch"  ? &epoch
                                              : command == "weights" && has_weights ? &weights
                                                                                    : nullptr;
        if (body && calls >= 1) {
            const Sample sample = time_calls(0, 1, *body, calls)[0];
            std::printf("%.6f %.6f\n", sample.wall_ms, sample.cpu_ms);
        } else {
            std::printf("error: unknown command '%s'\n", line.c_str());
        }
        std::fflush(stdout);
    }
    return 0;
}

int main(int argc, char** argv) {
    const Config config = parse(argc, argv);
    try {
        return run(config);
    } catch (const std::exception& error) {  // e.g. a size beyond the core's limits
        std::fprintf(stderr, "attention_benchmark: %s\n", error.what());
        return 1;
    }
}
