// The similarity kernels: their definitions, symmetry, compact support, and
// kernel names.
#include <cmath>
#include <string>

#include "regression/kernels.hpp"
#include "reference.hpp"

using attention::Kernel;
using attention::kernel_value;

TEST_CASE("kernel names round-trip through parse_kernel", "[kernels]") {
    for (Kernel k : {Kernel::gaussian, Kernel::boxcar, Kernel::constant, Kernel::triangular,
                     Kernel::epanechnikov})
        CHECK(attention::parse_kernel(attention::kernel_name(k)) == k);
    CHECK(std::string(attention::kernel_name(Kernel::triangular)) == "triangular");
    CHECK(std::string(attention::kernel_name(Kernel::epanechnikov)) == "epanechnikov");
}

TEST_CASE("parse_kernel refuses unknown names, naming the kernel argument", "[kernels][errors]") {
    for (const char* name : {"", "Gaussian", "epanechikov", "gaussian ", "box car", "linear"})
        REQUIRE_ARGUMENT_ERROR_WITH(attention::parse_kernel(name), "kernel",
                                    "expected one of gaussian, boxcar, constant, triangular, epanechnikov");
    REQUIRE_ARGUMENT_ERROR_WITH(attention::parse_kernel("cosine"), "kernel", "got 'cosine'");
    // A long name is cut at 200 code points, so a message stays readable.
    const std::string long_name(500, 'z');
    REQUIRE_THROWS_WITH(attention::parse_kernel(long_name),
                        Catch::Contains("got '" + std::string(200, 'z') + "\xe2\x80\xa6'"));
}

TEST_CASE("kernel values follow their definitions", "[kernels]") {
    for (double d : {0.0, 0.25, 0.5, 0.999, 1.0, 1.5, 3.0, 40.0}) {
        INFO("d = " << d);
        for (double s : {d, -d}) {
            CHECK(kernel_value(Kernel::gaussian, s) == Approx(std::exp(-d * d / 2)).epsilon(1e-15));
            CHECK(kernel_value(Kernel::boxcar, s) == (d < 1.0 ? 1.0 : 0.0));
            CHECK(kernel_value(Kernel::constant, s) == 1.0);
            CHECK(kernel_value(Kernel::triangular, s) == Approx(std::max(0.0, 1.0 - d)).margin(1e-16));
            CHECK(kernel_value(Kernel::epanechnikov, s) == Approx(std::max(0.0, 1.0 - d * d)).margin(1e-16));
        }
    }
    // Compact support ends exactly at |d| = 1; the triangular kernel is not the Epanechnikov one.
    CHECK(kernel_value(Kernel::boxcar, 1.0) == 0.0);
    CHECK(kernel_value(Kernel::boxcar, std::nextafter(1.0, 0.0)) == 1.0);
    CHECK(kernel_value(Kernel::triangular, 0.5) == 0.5);
    CHECK(kernel_value(Kernel::epanechnikov, 0.5) == 0.75);
    CHECK(kernel_value(Kernel::gaussian, 1e200) == 0.0);
}
