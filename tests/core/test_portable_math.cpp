// The portable elementary functions: the same bits as the Python
// re-implementation (so native and wasm agree), a few ulp from libm, and the
// documented special values.
#include <cmath>
#include <limits>
#include <string>

#include "numerics/portable_math.hpp"
#include "reference.hpp"

namespace portable = attention::portable;
using attention::testing::from_hex;

namespace {
double ulps_apart(double a, double b) {
    if (a == b) return 0.0;
    return std::abs(a - b) / std::abs(std::nextafter(b, HUGE_VAL) - b);
}
}  // namespace

TEST_CASE("portable functions match the Python re-implementation bit for bit", "[portable_math]") {
    const auto& math = ref::references()["portableMath"];
    for (const char* name : {"exp", "log", "sin", "cos"}) {
        std::vector<double> actual, expected;
        for (const auto& pair : math[name]) {
            const double x = from_hex(pair[0]);
            const std::string function = name;
            actual.push_back(function == "exp"   ? portable::exp(x)
                             : function == "log" ? portable::log(x)
                             : function == "sin" ? portable::sin(x)
                                                 : portable::cos(x));
            expected.push_back(from_hex(pair[1]));
        }
        INFO(name);
        CHECK_SAME_BITS(actual, expected);
    }
    std::vector<double> actual, expected;
    for (const auto& triple : math["pow"]) {
        actual.push_back(portable::pow(from_hex(triple[0]), from_hex(triple[1])));
        expected.push_back(from_hex(triple[2]));
    }
    CHECK_SAME_BITS(actual, expected);
}

TEST_CASE("portable functions are within a few ulp of libm", "[portable_math]") {
    double worst_exp = 0, worst_log = 0, worst_sin = 0, worst_cos = 0, worst_pow = 0;
    for (double x = -700.0; x <= 700.0; x += 0.0137)
        worst_exp = std::max(worst_exp, ulps_apart(portable::exp(x), std::exp(x)));
    for (double x = 1e-300; x < 1e300; x *= 1.37)
        worst_log = std::max(worst_log, ulps_apart(portable::log(x), std::log(x)));
    for (double x = 0.5; x < 2.0; x += 1e-5)  // near 1, where log is small
        worst_log = std::max(worst_log, ulps_apart(portable::log(x), std::log(x)));
    // Trigonometry: absolute error, since sin and cos cross zero; the data set
    // only needs arguments up to 2 pi (Box-Muller) and x_max (at most 1000).
    for (double x = -1000.0; x <= 1000.0; x += 0.00731) {
        worst_sin = std::max(worst_sin, std::abs(portable::sin(x) - std::sin(x)));
        worst_cos = std::max(worst_cos, std::abs(portable::cos(x) - std::cos(x)));
    }
    for (double x = 1e-6; x <= 1000.0; x *= 1.01)
        worst_pow = std::max(worst_pow, ulps_apart(portable::pow(x, 0.8), std::pow(x, 0.8)));
    CHECK(worst_exp <= 4.0);
    CHECK(worst_log <= 4.0);
    CHECK(worst_sin <= 1e-13);
    CHECK(worst_cos <= 1e-13);
    CHECK(worst_pow <= 16.0);
}

TEST_CASE("portable functions handle the edges of their domains", "[portable_math]") {
    const double infinity = std::numeric_limits<double>::infinity();
    const double not_a_number = std::numeric_limits<double>::quiet_NaN();
    CHECK(std::isnan(portable::exp(not_a_number)));
    CHECK(portable::exp(710.0) == infinity);
    CHECK(portable::exp(-746.0) == 0.0);
    CHECK(portable::exp(0.0) == 1.0);
    CHECK(portable::log(1.0) == 0.0);
    CHECK(portable::log(0.0) == -infinity);
    CHECK(std::isnan(portable::log(-1.0)));
    CHECK(std::isnan(portable::log(not_a_number)));
    CHECK(portable::log(infinity) == infinity);
    CHECK(portable::sin(0.0) == 0.0);
    CHECK(portable::cos(0.0) == 1.0);
    CHECK(portable::pow(0.0, 0.8) == 0.0);
    CHECK(portable::pow(0.0, -1.0) == infinity);
    CHECK(portable::pow(1.0, 0.8) == 1.0);
}

TEST_CASE("sin and cos are accurate up to their documented range and NaN beyond it", "[portable_math]") {
    const double edge = portable::trig_max_argument;
    const double infinity = std::numeric_limits<double>::infinity();
    // Near the edge, where k = round(x / (pi/2)) reaches 2^20: as close to libm as near 0.
    double worst_sin = 0, worst_cos = 0;
    for (double x = edge - 50.0; x <= edge; x += 0.00731)
        for (double sign : {1.0, -1.0}) {
            worst_sin = std::max(worst_sin, std::abs(portable::sin(sign * x) - std::sin(sign * x)));
            worst_cos = std::max(worst_cos, std::abs(portable::cos(sign * x) - std::cos(sign * x)));
        }
    for (double x : {edge, -edge, std::nextafter(edge, 0.0)}) {
        worst_sin = std::max(worst_sin, std::abs(portable::sin(x) - std::sin(x)));
        worst_cos = std::max(worst_cos, std::abs(portable::cos(x) - std::cos(x)));
    }
    CHECK(worst_sin <= 2e-16);
    CHECK(worst_cos <= 2e-16);
    // Beyond it (and for what has no sine), NaN: no wrong number, no float-to-integer overflow.
    for (double x : {std::nextafter(edge, infinity), 4e9, 1e12, 1e100, std::numeric_limits<double>::max(), infinity,
                     std::numeric_limits<double>::quiet_NaN()})
        for (double sign : {1.0, -1.0}) {
            INFO("x = " << sign * x);
            CHECK(std::isnan(portable::sin(sign * x)));
            CHECK(std::isnan(portable::cos(sign * x)));
        }
}
