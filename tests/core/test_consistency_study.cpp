// The consistency study: each row is the error of the core's own Nadaraya-Watson
// against the truth, as composed here by hand; the growing width keeps
// lowering the error as n grows while the fixed width stalls at its bias;
// every option is checked, naming it.
#include <cmath>
#include <cstdint>
#include <string>

#include "regression/consistency_study.hpp"
#include "regression/dataset.hpp"
#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "regression/pooling.hpp"
#include "numerics/portable_math.hpp"
#include "reference.hpp"

using attention::ConsistencyStudyOptions;
using attention::consistency_study;

namespace {

// The error the study reports for one size, composed from the public functions.
double composed_error(const ConsistencyStudyOptions& o, std::size_t n, double w) {
    xt::xtensor<double, 1> queries = xt::xtensor<double, 1>::from_shape({o.queries});
    for (std::size_t i = 0; i < o.queries; ++i) queries(i) = static_cast<double>(i) * o.x_max / static_cast<double>(o.queries);
    const auto truth = attention::truth(queries);
    double total = 0.0;
    for (std::size_t r = 0; r < o.repeats; ++r) {
        const auto data = attention::make_dataset({n, static_cast<std::uint32_t>(o.seed + r), o.noise, o.x_max});
        const auto prediction = attention::nadaraya_watson(queries, data.x, data.y, {attention::Kernel::gaussian, w});
        double sum = 0.0;
        for (std::size_t i = 0; i < o.queries; ++i) sum += (prediction(i) - truth(i)) * (prediction(i) - truth(i));
        total += sum / static_cast<double>(o.queries);
    }
    return total / static_cast<double>(o.repeats);
}

}  // namespace

TEST_CASE("consistency_study: each row is the composed error of Nadaraya-Watson against f", "[consistency]") {
    ConsistencyStudyOptions o;
    o.sizes = {7, 50, 300};
    o.repeats = 3;
    o.queries = 11;
    o.w = 1.5;
    o.noise = 0.7;
    o.x_max = 4.0;
    o.seed = 4294967294u;  // the seeds of the repeats wrap past 2^32
    const auto rows = consistency_study(o);
    REQUIRE(rows.size() == 3);
    for (const auto& row : rows) {
        INFO("n " << row.n);
        CHECK(row.growing_w == attention::portable::pow(static_cast<double>(row.n) / 50.0, 0.2) * 1.5);
        CHECK(row.fixed_error == composed_error(o, row.n, 1.5));
        CHECK(row.growing_error == composed_error(o, row.n, row.growing_w));
    }
    CHECK(rows[1].fixed_error == rows[1].growing_error);  // n = 50: the same width
}

TEST_CASE("consistency_study: with a growing width the error keeps falling, with a fixed one it stalls", "[consistency]") {
    const auto rows = consistency_study();  // the defaults: n = 10 ... 2000, 20 data sets each
    REQUIRE(rows.size() == 8);
    for (std::size_t k = 1; k < rows.size(); ++k) {
        INFO("n " << rows[k].n);
        CHECK(rows[k].growing_error < rows[k - 1].growing_error);
    }
    // The fixed width's bias: at n = 2000 its error is several times the growing width's,
    // and it fell by less than a third from n = 500 on.
    CHECK(rows.back().fixed_error > 3.0 * rows.back().growing_error);
    CHECK(rows.back().fixed_error > 0.67 * rows[5].fixed_error);
    CHECK(rows.back().growing_error < 0.1 * rows.front().growing_error);
}

TEST_CASE("consistency_study refuses bad options, naming them", "[consistency][errors]") {
    const auto refused = [](auto change, const std::string& argument) {
        ConsistencyStudyOptions o;
        change(o);
        INFO("refused: " << argument);
        CHECK(ref::argument_error_of([&] { consistency_study(o); }).argument == argument);
    };
    refused([](auto& o) { o.sizes = {}; }, "sizes.length");
    refused([](auto& o) { o.sizes = std::vector<std::size_t>(65, 10); }, "sizes.length");
    refused([](auto& o) { o.sizes = {10, 0}; }, "sizes");
    refused([](auto& o) { o.sizes = {10001}; }, "sizes");
    refused([](auto& o) { o.repeats = 0; }, "repeats");
    refused([](auto& o) { o.repeats = 1001; }, "repeats");
    refused([](auto& o) { o.queries = 0; }, "queries");
    refused([](auto& o) { o.w = -1.0; }, "w");
    refused([](auto& o) { o.w = std::nan(""); }, "w");
    refused([](auto& o) { o.w = 2e6; }, "w");
    refused([](auto& o) { o.noise = -0.1; }, "noise");
    refused([](auto& o) { o.x_max = 0.0; }, "xMax");
    refused([](auto& o) { o.x_max = INFINITY; }, "xMax");
    // Within every single limit, too much work: 2 * 1000 * 10000 * 10000 kernel evaluations;
    // and many one-point data sets, whose cost is the queries': 2 * 63 * 1000 * 64 * (1 + 32)
    // = 266,112,000 evaluations are accepted, one more repeat is not.
    refused([](auto& o) { o.sizes = {10000}; o.repeats = 1000; o.queries = 10000; }, "repeats");
    refused([](auto& o) { o.sizes = std::vector<std::size_t>(64, 1); o.repeats = 64; o.queries = 1000; }, "repeats");
    ConsistencyStudyOptions edge;
    edge.sizes = std::vector<std::size_t>(64, 1);
    edge.repeats = 63;
    edge.queries = 1000;
    CHECK_NOTHROW(attention::check_consistency_study(edge));
}
