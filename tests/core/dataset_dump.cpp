// Prints data sets made by the native core as JSON, every double as a
// float.hex() string, so the Node tests can check that the wasm build draws
// the same bits.
//
// Usage: dataset_dump [n,seed,noise,xMax ... | --defaults]
// Without arguments it prints the fixed list below; with --defaults, the data
// set of DatasetOptions' defaults (the JS API's `defaults.dataset` must match).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "regression/dataset.hpp"
#include "hex_float.hpp"

namespace {

struct Request {
    double n, seed, noise, x_max;
};

// The data sets of the references, plus larger and unusual ones that only the
// native-vs-wasm comparison covers.
const std::vector<Request> default_requests = {
    {50, 0, 0.5, 5},      {50, 42, 0.5, 5},  {1, 7, 0.5, 5},       {20, 4294967295.0, 0, 5},
    {100, 1, 2.5, 3.3},   {500, 2024, 0.5, 5}, {10000, 123456789, 0.5, 5}, {3000, 99, 100, 1000},
    {777, 31337, 0.001, 0.01}};

bool parse_request(const char* text, Request& request) {
    char tail = 0;
    return std::sscanf(text, "%lf,%lf,%lf,%lf%c", &request.n, &request.seed, &request.noise,
                       &request.x_max, &tail) == 4;
}

bool whole(double value, double max) { return value >= 0 && value <= max && value == std::floor(value); }

void print_array(const attention::Dataset& data, bool x) {
    const auto& values = x ? data.x : data.y;
    std::printf("\"%s\":[", x ? "x" : "y");
    for (std::size_t i = 0; i < values.size(); ++i)
        std::printf("%s\"%s\"", i ? "," : "", attention::testing::to_hex(values(i)).c_str());
    std::printf("]");
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<Request> requests;
    if (argc == 2 && std::string(argv[1]) == "--defaults") {
        const attention::DatasetOptions defaults;
        requests.push_back({static_cast<double>(defaults.n), static_cast<double>(defaults.seed), defaults.noise,
                            defaults.x_max});
    }
    for (int i = requests.empty() ? 1 : argc; i < argc; ++i) {
        Request request{};
        if (!parse_request(argv[i], request) || !whole(request.n, 1e9) || !whole(request.seed, 4294967295.0)) {
            std::fprintf(stderr, "dataset_dump: expected n,seed,noise,xMax, got '%s'\n", argv[i]);
            return 2;
        }
        requests.push_back(request);
    }
    if (requests.empty()) requests = default_requests;

    // Draw everything first, so a bad request prints an error and no partial JSON.
    std::vector<attention::Dataset> datasets;
    std::vector<attention::DatasetOptions> used;
    for (const Request& request : requests) {
        attention::DatasetOptions options;
        options.n = static_cast<std::size_t>(request.n);
        options.seed = static_cast<std::uint32_t>(request.seed);
        options.noise = request.noise;
        options.x_max = request.x_max;
        try {
            datasets.push_back(attention::make_dataset(options));
        } catch (const std::exception& error) {
            std::fprintf(stderr, "dataset_dump: %s\n", error.what());
            return 1;
        }
        used.push_back(options);
    }

    std::printf("{\"datasets\":[\n");
    for (std::size_t r = 0; r < datasets.size(); ++r) {
        const attention::DatasetOptions& options = used[r];
        std::printf("%s{\"n\":%zu,\"seed\":%u,\"noise\":%.17g,\"xMax\":%.17g,", r ? ",\n" : "", options.n,
                    static_cast<unsigned>(options.seed), options.noise, options.x_max);
        print_array(datasets[r], true);
        std::printf(",");
        print_array(datasets[r], false);
        std::printf("}");
    }
    std::printf("\n]}\n");
    return 0;
}
