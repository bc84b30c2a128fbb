// The toy data set: bit for bit the Python re-implementation's, sorted, with
// noise of the requested size, and every bad option refused by name.
#include <algorithm>
#include <cmath>
#include <limits>

#include "regression/dataset.hpp"
#include "contract/limits.hpp"
#include "numerics/portable_math.hpp"
#include "reference.hpp"

using attention::DatasetOptions;
using attention::make_dataset;
using attention::truth;

namespace {
DatasetOptions options(std::size_t n, std::uint32_t seed, double noise = 0.5, double x_max = 5.0) {
    DatasetOptions o;
    o.n = n;
    o.seed = seed;
    o.noise = noise;
    o.x_max = x_max;
    return o;
}
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("make_dataset draws the reference data sets bit for bit", "[dataset]") {
    for (const auto& c : ref::references()["datasets"]) {
        INFO("n=" << c["n"] << " seed=" << c["seed"] << " noise=" << c["noise"] << " xMax=" << c["xMax"]);
        const auto data = make_dataset(options(c["n"], c["seed"], c["noise"], c["xMax"]));
        CHECK_SAME_BITS(data.x, ref::numbers(c["x"]));
        CHECK_SAME_BITS(data.y, ref::numbers(c["y"]));
        // The dump format is Python's float.hex(), string for string.
        std::vector<std::string> x_hex, y_hex;
        for (std::size_t i = 0; i < data.x.size(); ++i) {
            x_hex.push_back(attention::testing::to_hex(data.x(i)));
            y_hex.push_back(attention::testing::to_hex(data.y(i)));
        }
        CHECK(x_hex == c["x"].get<std::vector<std::string>>());
        CHECK(y_hex == c["y"].get<std::vector<std::string>>());
    }
}

TEST_CASE("the data set's defaults are the book's: n 50, seed 0, noise 0.5, xMax 5", "[dataset]") {
    const DatasetOptions defaults;
    CHECK(defaults.n == 50);
    CHECK(defaults.seed == 0);
    CHECK(defaults.noise == 0.5);
    CHECK(defaults.x_max == 5.0);
    const auto& book = ref::references()["datasets"][0];  // the book's own settings
    REQUIRE(book["n"] == 50);
    CHECK_SAME_BITS(make_dataset(defaults).x, ref::numbers(book["x"]));
}

TEST_CASE("to_hex writes what Python's float.hex() writes", "[dataset]") {
    using attention::testing::from_hex;
    using attention::testing::to_hex;
    CHECK(to_hex(1.0) == "0x1.0000000000000p+0");
    CHECK(to_hex(-0.0) == "-0x0.0p+0");
    CHECK(to_hex(0.0) == "0x0.0p+0");
    CHECK(to_hex(0.1) == "0x1.999999999999ap-4");
    CHECK(to_hex(std::numeric_limits<double>::denorm_min()) == "0x0.0000000000001p-1022");
    CHECK(to_hex(std::numeric_limits<double>::max()) == "0x1.fffffffffffffp+1023");
    CHECK(to_hex(infinity) == "inf");
    CHECK(to_hex(not_a_number) == "nan");
    for (double v : {0.1, -3.75, 1e-310, 6.02e23, -0.0})
        CHECK(std::signbit(from_hex(to_hex(v))) == std::signbit(v));
    CHECK_SAME_BITS(std::vector<double>({from_hex(to_hex(0.1)), from_hex(to_hex(1e-310))}),
                    std::vector<double>({0.1, 1e-310}));
    CHECK_THROWS(from_hex("0.5"));
    CHECK_THROWS(from_hex("0x1.0p+0junk"));
}

TEST_CASE("make_dataset is deterministic and seeds differ", "[dataset]") {
    const auto a = make_dataset(options(300, 11)), b = make_dataset(options(300, 11));
    const auto c = make_dataset(options(300, 12));
    CHECK_SAME_BITS(a.x, b.x);
    CHECK_SAME_BITS(a.y, b.y);
    CHECK(ref::as_vector(a.x) != ref::as_vector(c.x));
    // The inputs do not depend on the noise level: all inputs are drawn first.
    const auto quiet = make_dataset(options(300, 11, 0.0));
    CHECK_SAME_BITS(quiet.x, a.x);
}

TEST_CASE("make_dataset: sorted inputs from 0 up to xMax, noise of the requested size", "[dataset]") {
    const auto data = make_dataset(options(10000, 3, 0.5, 5.0));
    CHECK(std::is_sorted(data.x.begin(), data.x.end()));
    CHECK(data.x(0) >= 0.0);
    CHECK(data.x(data.x.size() - 1) < 5.0);
    CHECK(data.x(0) < 0.01);       // the draws cover the interval
    CHECK(data.x(9999) > 4.99);
    double sum = 0.0, sum2 = 0.0;
    for (std::size_t i = 0; i < data.x.size(); ++i) {
        const double residual = data.y(i) - truth(data.x(i));
        sum += residual;
        sum2 += residual * residual;
    }
    const double mean = sum / 10000.0;
    CHECK(mean == Approx(0.0).margin(0.02));
    CHECK(std::sqrt(sum2 / 10000.0 - mean * mean) == Approx(0.5).epsilon(0.03));

    // Without noise, y is exactly the truth.
    const auto clean = make_dataset(options(100, 3, 0.0, 7.5));
    CHECK_SAME_BITS(clean.y, truth(clean.x));
    CHECK(clean.x(99) < 7.5);
}

TEST_CASE("make_dataset accepts the documented limits", "[dataset]") {
    namespace lim = attention::limits;
    CHECK(make_dataset(options(lim::max_points, 1)).x.size() == lim::max_points);
    CHECK(make_dataset(options(1, 1)).x.size() == 1);
    const auto wide = make_dataset(options(50, 1, lim::max_noise, lim::max_x));
    CHECK(wide.x(49) < lim::max_x);
    for (double y : wide.y) CHECK(std::isfinite(y));
}

TEST_CASE("truth is f(x) = 2 sin x + x^0.8, as torch computes it", "[dataset]") {
    const auto& t = ref::references()["truth"];
    const auto x = ref::vector(t["x"]);
    const auto y = truth(x);
    CHECK_NEAR_TOL(y, ref::numbers(t["y"]), 1e-13);
    CHECK_SAME_BITS(y, ref::numbers(t["portable"]));  // the portable functions, bit for bit
    std::vector<double> one_by_one;
    for (double v : x) one_by_one.push_back(truth(v));
    CHECK_SAME_BITS(one_by_one, y);
    CHECK(truth(xt::xtensor<double, 1>::from_shape({0})).size() == 0);
}

TEST_CASE("make_dataset refuses bad options, naming them", "[dataset][errors]") {
    namespace lim = attention::limits;
    REQUIRE_ARGUMENT_ERROR_WITH(make_dataset(options(0, 1)), "n", "[1, 10000], got 0");
    REQUIRE_ARGUMENT_ERROR_WITH(make_dataset(options(lim::max_points + 1, 1)), "n", "got 10001");
    for (double noise : {not_a_number, infinity, -infinity, -0.1, lim::max_noise * 1.0001})
        REQUIRE_ARGUMENT_ERROR(make_dataset(options(10, 1, noise)), "noise");
    REQUIRE_ARGUMENT_ERROR_WITH(make_dataset(options(10, 1, -0.1)), "noise", "[0, 100], got -0.1");
    REQUIRE_ARGUMENT_ERROR_WITH(make_dataset(options(10, 1, not_a_number)), "noise", "finite number, got NaN");
    for (double x_max : {not_a_number, infinity, -infinity, 0.0, -1.0, lim::max_x * 1.0001})
        REQUIRE_ARGUMENT_ERROR(make_dataset(options(10, 1, 0.5, x_max)), "xMax");
    REQUIRE_ARGUMENT_ERROR_WITH(make_dataset(options(10, 1, 0.5, 0.0)), "xMax", "positive");
}

TEST_CASE("truth refuses negative or non-finite inputs, naming x", "[dataset][errors]") {
    for (double x : {-1e-300, -1.0, not_a_number, infinity, -infinity}) REQUIRE_ARGUMENT_ERROR(truth(x), "x");
    xt::xtensor<double, 1> with_bad = {1.0, 2.0, -0.5};
    REQUIRE_ARGUMENT_ERROR_WITH(truth(with_bad), "x", "got -0.5");
    with_bad(2) = not_a_number;
    REQUIRE_ARGUMENT_ERROR_WITH(truth(with_bad), "x", "got NaN");
    const auto too_many = xt::xtensor<double, 1>::from_shape({attention::limits::max_points + 1});
    REQUIRE_ARGUMENT_ERROR_WITH(truth(too_many), "x.length", "got 10001");
}

TEST_CASE("truth refuses x beyond the data set's range [0, maxX], naming x", "[dataset][errors]") {
    namespace lim = attention::limits;
    // Huge inputs once came back wrong (4e9 off by 2.96, 1e12 as -3.97e12, 1e100 as -Infinity in wasm).
    for (double x : {4e9, 1e12, 1e100, std::numeric_limits<double>::max(), std::nextafter(lim::max_x, infinity)}) {
        INFO("x = " << x);
        REQUIRE_ARGUMENT_ERROR_WITH(truth(x), "x", "numbers in [0, 1000]");
    }
    const auto fields = ref::argument_error_of([] { truth(4e9); });
    CHECK(fields.expected == "numbers in [0, 1000] (the data set's xMax limit)");
    CHECK(fields.got == "4000000000");
    xt::xtensor<double, 1> with_big = {1.0, 1e12};
    REQUIRE_ARGUMENT_ERROR_WITH(truth(with_big), "x", "got 1000000000000");  // as JS writes it
    // The edge itself is accepted, and as accurate as anywhere else.
    CHECK(truth(lim::max_x) == Approx(2.0 * std::sin(1000.0) + std::pow(1000.0, 0.8)).epsilon(1e-14));
    CHECK(truth(0.0) == 0.0);
}

TEST_CASE("the comparison helpers report differences", "[dataset]") {
    // The reference checks above are only as good as these.
    CHECK(ref::mismatch({1.0, 2.0}, {1.0, 2.0 + 1e-12}) == "");
    CHECK(ref::mismatch({1.0, 2.0}, {1.0, 2.0 + 1e-8}) != "");
    CHECK(ref::mismatch({1.0, not_a_number}, {1.0, not_a_number}) == "");
    CHECK(ref::mismatch({1.0, 2.0}, {1.0, not_a_number}) != "");
    CHECK(ref::mismatch({not_a_number}, {1.0}) != "");
    CHECK(ref::mismatch({1.0}, {1.0, 1.0}) != "");
    CHECK(ref::bit_mismatch({0.0}, {-0.0}) != "");
    CHECK(ref::bit_mismatch({1.0}, {std::nextafter(1.0, 2.0)}) != "");
    CHECK(ref::bit_mismatch({0.1, -3.0}, {0.1, -3.0}) == "");
}
