// Average pooling and Nadaraya-Watson pooling for every kernel, against the
// d2l recipes in PyTorch; the NaN contract for queries with no key in reach.
#include <cmath>
#include <limits>

#include <xtensor/xbuilder.hpp>

#include "contract/limits.hpp"
#include "regression/pooling.hpp"
#include "reference.hpp"

using attention::Kernel;
using attention::KernelSpec;

namespace {
const auto& pooling() { return ref::references()["pooling"]; }
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("average_pool gives every query the mean of the values", "[pooling]") {
    const auto values = ref::vector(pooling()["values"]);
    const auto average = attention::average_pool(values, pooling()["queries"].size());
    CHECK_NEAR_REF(average, pooling()["average"]);
    CHECK(ref::as_vector(attention::average_pool(xt::xtensor<double, 1>{4.0}, 3)) == std::vector<double>{4.0, 4.0, 4.0});
}

TEST_CASE("nadaraya_watson and attention_weights match PyTorch for every kernel and width", "[pooling]") {
    const auto queries = ref::vector(pooling()["queries"]);
    const auto weight_queries = ref::vector(pooling()["weightQueries"]);
    const auto keys = ref::vector(pooling()["keys"]);
    const auto values = ref::vector(pooling()["values"]);
    int with_weights = 0;
    for (const auto& c : pooling()["cases"]) {
        const KernelSpec spec{attention::parse_kernel(c["kernel"]), c["w"]};
        INFO(c["kernel"].get<std::string>() << " w=" << spec.w);
        CHECK_NEAR_REF(attention::nadaraya_watson(queries, keys, values, spec), c["prediction"]);
        if (c.contains("weights")) {
            ++with_weights;
            CHECK_NEAR_REF(attention::attention_weights(weight_queries, keys, spec), c["weights"]);
        }
    }
    CHECK(with_weights == 20);
}

TEST_CASE("pooling properties: rows sum to 1, the sign of w is irrelevant, weights agree with predictions",
          "[pooling]") {
    const auto queries = ref::vector(pooling()["queries"]);
    const auto keys = ref::vector(pooling()["keys"]);
    const auto values = ref::vector(pooling()["values"]);
    for (Kernel kernel : {Kernel::gaussian, Kernel::boxcar, Kernel::constant, Kernel::triangular,
                          Kernel::epanechnikov}) {
        for (double w : {0.0, 0.7, 3.0, 25.0}) {
            INFO(attention::kernel_name(kernel) << " w=" << w);
            const auto weights = attention::attention_weights(queries, keys, {kernel, w});
            const auto prediction = attention::nadaraya_watson(queries, keys, values, {kernel, w});
            CHECK_SAME_BITS(attention::attention_weights(queries, keys, {kernel, -w}), weights);
            CHECK_SAME_BITS(attention::nadaraya_watson(queries, keys, values, {kernel, -w}), prediction);
            std::vector<double> from_weights;
            int negative = 0;
            for (std::size_t i = 0; i < queries.size(); ++i) {
                double sum = 0.0, weighted = 0.0;
                for (std::size_t j = 0; j < keys.size(); ++j) {
                    if (weights(i, j) < 0.0) ++negative;
                    sum += weights(i, j);
                    weighted += weights(i, j) * values(j);
                }
                if (!std::isnan(sum)) CHECK(sum == Approx(1.0).epsilon(1e-12));
                from_weights.push_back(weighted);
            }
            CHECK(negative == 0);
            CHECK_NEAR_TOL(prediction, from_weights, 1e-12);
        }
    }
}

TEST_CASE("a zero width or the constant kernel is average pooling", "[pooling]") {
    const auto queries = ref::vector(pooling()["queries"]);
    const auto keys = ref::vector(pooling()["keys"]);
    const auto values = ref::vector(pooling()["values"]);
    const auto average = attention::average_pool(values, queries.size());
    CHECK_NEAR_TOL(attention::nadaraya_watson(queries, keys, values, {Kernel::constant, 3.0}), average, 1e-13);
    for (Kernel kernel : {Kernel::gaussian, Kernel::boxcar, Kernel::triangular, Kernel::epanechnikov})
        CHECK_NEAR_TOL(attention::nadaraya_watson(queries, keys, values, {kernel, 0.0}), average, 1e-13);
}

TEST_CASE("NaN contract: a query with no key in reach has a NaN row and prediction", "[pooling]") {
    const xt::xtensor<double, 1> keys = {1.0, 2.0, 3.0};
    const xt::xtensor<double, 1> values = {10.0, 20.0, 30.0};
    const xt::xtensor<double, 1> queries = {1.05, 1.5, 2.95, 9.0};
    for (Kernel kernel : {Kernel::boxcar, Kernel::triangular, Kernel::epanechnikov}) {
        INFO(attention::kernel_name(kernel));
        const KernelSpec spec{kernel, 5.0};  // reach 0.2 around each key
        const auto weights = attention::attention_weights(queries, keys, spec);
        const auto prediction = attention::nadaraya_watson(queries, keys, values, spec);
        CHECK(weights(0, 0) == Approx(1.0).epsilon(1e-15));
        CHECK(weights(0, 1) == 0.0);
        CHECK(prediction(0) == Approx(10.0).epsilon(1e-15));
        CHECK(prediction(2) == Approx(30.0).epsilon(1e-15));
        for (std::size_t row : {1, 3}) {
            CHECK(std::isnan(prediction(row)));
            for (std::size_t j = 0; j < 3; ++j) CHECK(std::isnan(weights(row, j)));
        }
    }
    // The Gaussian never empties a row: far away, the nearest key takes all the weight.
    const auto far = attention::attention_weights(queries, keys, {Kernel::gaussian, 1e6});
    const auto far_prediction = attention::nadaraya_watson(queries, keys, values, {Kernel::gaussian, 1e6});
    CHECK(far(3, 2) == 1.0);
    CHECK(far(3, 0) == 0.0);
    CHECK(far_prediction(3) == 30.0);
    CHECK(far_prediction(1) == 15.0);  // a tie between two keys halves the weight
}

TEST_CASE("pooling is deterministic", "[pooling]") {
    const auto keys = ref::vector(pooling()["keys"]);
    const auto values = ref::vector(pooling()["values"]);
    const auto queries = ref::vector(pooling()["queries"]);
    CHECK_SAME_BITS(attention::nadaraya_watson(queries, keys, values, {Kernel::gaussian, 2.5}),
                    attention::nadaraya_watson(queries, keys, values, {Kernel::gaussian, 2.5}));
    CHECK_SAME_BITS(attention::attention_weights(queries, keys, {Kernel::epanechnikov, 2.5}),
                    attention::attention_weights(queries, keys, {Kernel::epanechnikov, 2.5}));
}

TEST_CASE("pooling accepts the documented limits", "[pooling]") {
    namespace lim = attention::limits;
    const xt::xtensor<double, 1> many = xt::linspace<double>(0.0, 5.0, lim::max_points);
    const xt::xtensor<double, 1> one = {2.5};
    CHECK(attention::nadaraya_watson(many, many, many, {Kernel::constant, 1.0})(0) == Approx(2.5));
    CHECK(attention::attention_weights(many, one, {}).shape(0) == lim::max_points);
    CHECK(attention::average_pool(one, lim::max_points).size() == lim::max_points);
    const xt::xtensor<double, 1> n4096 = xt::linspace<double>(0.0, 5.0, 4096);  // 4096^2 = the matrix limit
    CHECK(attention::attention_weights(n4096, n4096, {}).size() == lim::max_matrix_elements);
}

TEST_CASE("pooling refuses bad inputs, naming them", "[pooling][errors]") {
    namespace lim = attention::limits;
    const xt::xtensor<double, 1> good = {0.5, 1.0, 2.0};
    const auto empty = xt::xtensor<double, 1>::from_shape({0});
    const auto too_many = xt::xtensor<double, 1>(xt::zeros<double>({lim::max_points + 1}));
    const KernelSpec spec{};

    SECTION("average_pool") {
        REQUIRE_ARGUMENT_ERROR_WITH(attention::average_pool(empty, 3), "values.length", "got 0");
        REQUIRE_ARGUMENT_ERROR(attention::average_pool(too_many, 3), "values.length");
        REQUIRE_ARGUMENT_ERROR_WITH(attention::average_pool(good, 0), "nQueries", "got 0");
        REQUIRE_ARGUMENT_ERROR(attention::average_pool(good, lim::max_points + 1), "nQueries");
        for (double bad : {not_a_number, infinity, -infinity}) {
            xt::xtensor<double, 1> values = good;
            values(1) = bad;
            REQUIRE_ARGUMENT_ERROR_WITH(attention::average_pool(values, 3), "values", "at index 1");
        }
    }
    SECTION("attention_weights and nadaraya_watson: sizes") {
        REQUIRE_ARGUMENT_ERROR(attention::attention_weights(empty, good, spec), "queries.length");
        REQUIRE_ARGUMENT_ERROR(attention::attention_weights(too_many, good, spec), "queries.length");
        REQUIRE_ARGUMENT_ERROR(attention::attention_weights(good, empty, spec), "keys.length");
        REQUIRE_ARGUMENT_ERROR(attention::attention_weights(good, too_many, spec), "keys.length");
        REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(empty, good, good, spec), "queries.length");
        REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(too_many, good, good, spec), "queries.length");
        REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, empty, good, spec), "keys.length");
        REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, too_many, good, spec), "keys.length");
        REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, good, empty, spec), "values.length");
        REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, good, too_many, spec), "values.length");
        const xt::xtensor<double, 1> two = {1.0, 2.0};
        REQUIRE_ARGUMENT_ERROR_WITH(attention::nadaraya_watson(good, good, two, spec), "values",
                                    "expected 3 values (one per key), got 2");
        // Each size is allowed, their product is not: 5000 x 5000 > 2^24.
        const xt::xtensor<double, 1> n5000 = xt::linspace<double>(0.0, 5.0, 5000);
        REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_weights(n5000, n5000, spec), "queries",
                                    "queries.length * keys.length <= 16777216");
    }
    SECTION("attention_weights and nadaraya_watson: values") {
        for (double bad : {not_a_number, infinity, -infinity}) {
            xt::xtensor<double, 1> with_bad = good;
            with_bad(2) = bad;
            REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_weights(with_bad, good, spec), "queries", "at index 2");
            REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_weights(good, with_bad, spec), "keys", "at index 2");
            REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(with_bad, good, good, spec), "queries");
            REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, with_bad, good, spec), "keys");
            REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, good, with_bad, spec), "values");
            REQUIRE_ARGUMENT_ERROR(attention::attention_weights(good, good, {Kernel::gaussian, bad}), "w");
            REQUIRE_ARGUMENT_ERROR(attention::nadaraya_watson(good, good, good, {Kernel::boxcar, bad}), "w");
        }
    }
}

TEST_CASE("Gaussian pooling at widths whose square overflows is one-hot on the nearest key", "[pooling]") {
    const xt::xtensor<double, 1> keys = {0.0, 1.0, 2.0};
    const xt::xtensor<double, 1> values = {10.0, 20.0, 30.0};
    for (double w : {1e155, -1e200, 1e308}) {
        INFO("w " << w);
        const attention::KernelSpec spec{attention::Kernel::gaussian, w};
        const auto weights = attention::attention_weights(xt::xtensor<double, 1>{0.9, 2.0}, keys, spec);
        CHECK(weights(0, 0) == 0.0);
        CHECK(weights(0, 1) == 1.0);
        CHECK(weights(1, 2) == 1.0);
        const auto prediction = attention::nadaraya_watson(xt::xtensor<double, 1>{0.9, 2.0}, keys, values, spec);
        CHECK(prediction(0) == 20.0);
        CHECK(prediction(1) == 30.0);
    }
}

// The row loops shift each Gaussian row by its nearest key, found among the
// keys sorted once per call; against a plain long-double softmax with keys in
// any order, repeated keys, and queries far outside the keys.
TEST_CASE("Gaussian pooling: unsorted and repeated keys, far queries, odd sizes", "[pooling]") {
    for (const std::size_t n : {1u, 2u, 3u, 5u, 8u, 9u, 31u, 64u, 101u}) {
        xt::xtensor<double, 1> keys = xt::xtensor<double, 1>::from_shape({n});
        xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({n});
        for (std::size_t j = 0; j < n; ++j) {
            keys(j) = std::fmod(7.31 * static_cast<double>(j * j), 5.0) - 1.0;  // unsorted, some repeated
            values(j) = std::sin(1.7 * static_cast<double>(j));
        }
        if (n > 2) keys(n - 1) = keys(1);
        const xt::xtensor<double, 1> queries{-40.0, -1.0, 0.3, 2.0, 3.999, 25.0};
        for (const double w : {0.3, 1.0, 4.0, 30.0}) {
            INFO("n=" << n << " w=" << w);
            const KernelSpec spec{Kernel::gaussian, w};
            const auto prediction = attention::nadaraya_watson(queries, keys, values, spec);
            const auto weights = attention::attention_weights(queries, keys, spec);
            for (std::size_t i = 0; i < queries.size(); ++i) {
                long double best = INFINITY;
                for (std::size_t j = 0; j < n; ++j) {
                    const long double d = static_cast<long double>(queries(i)) - keys(j);
                    best = std::min(best, d * d);
                }
                long double sum = 0, weighted = 0;
                std::vector<long double> e(n);
                for (std::size_t j = 0; j < n; ++j) {
                    const long double d = static_cast<long double>(queries(i)) - keys(j);
                    e[j] = std::exp(-0.5L * w * w * (d * d - best));
                    sum += e[j];
                    weighted += e[j] * values(j);
                }
                CHECK(std::abs(prediction(i) - static_cast<double>(weighted / sum)) < 1e-13);
                for (std::size_t j = 0; j < n; ++j)
                    CHECK(std::abs(weights(i, j) - static_cast<double>(e[j] / sum)) < 1e-15);
            }
        }
    }
}

TEST_CASE("pooling of huge values: the weighted mean does not overflow where it is representable", "[pooling]") {
    // PyTorch normalises the weights before the product with the values and gets 1e308 here.
    const double largest = std::numeric_limits<double>::max();
    for (Kernel kernel : {Kernel::gaussian, Kernel::boxcar, Kernel::constant, Kernel::triangular,
                          Kernel::epanechnikov}) {
        INFO(attention::kernel_name(kernel));
        const KernelSpec spec{kernel, 1.0};
        CHECK(attention::nadaraya_watson({0.5}, {0.0, 1.0}, {1e308, 1e308}, spec)(0) == 1e308);
        CHECK(attention::nadaraya_watson({0.5}, {0.0, 1.0}, {largest, largest}, spec)(0) == largest);
        CHECK(attention::nadaraya_watson({0.5}, {0.0, 1.0}, {1e308, -1e308}, spec)(0) == 0.0);
        CHECK(attention::nadaraya_watson({0.5}, {0.0, 1.0}, {-largest, -largest}, spec)(0) == -largest);
        // Uneven weights: a mean of equal values may round a last bit above them; it is kept to them, not
        // Infinity (or is a few last bits below them: four products, the sums and the division each round).
        double four_ulps_below = largest;
        for (int ulp = 0; ulp < 4; ++ulp) four_ulps_below = std::nextafter(four_ulps_below, 0.0);
        for (double q : {0.3, 0.55, 0.9, 1.7}) {
            const double mean = attention::nadaraya_watson({q}, {0.0, 0.7, 1.1, 1.9},
                                                           {largest, largest, largest, largest}, spec)(0);
            CHECK(mean <= largest);
            CHECK(mean >= four_ulps_below);
        }
    }
    // Every one of the most values the limits allow, each the largest double.
    const auto keys = xt::linspace<double>(0.0, 1.0, attention::limits::max_points);
    xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({keys.size()});
    values.fill(largest);
    const auto prediction = attention::nadaraya_watson({0.25, 0.5}, keys, values, {Kernel::gaussian, 0.0});
    CHECK(prediction(0) == Approx(largest).epsilon(1e-12));
    CHECK(std::isfinite(prediction(1)));
    CHECK(attention::average_pool({1e308, 1e308}, 2)(1) == 1e308);
    CHECK(attention::average_pool(values, 1)(0) == Approx(largest).epsilon(1e-12));
    // Below the scaling threshold (2^1009) nothing changes: the same bits as a scaled-down copy, scaled up.
    const xt::xtensor<double, 1> moderate = {0x1p1008, 0x1p1009}, halved = {0x1p1007, 0x1p1008};
    CHECK(attention::nadaraya_watson({0.3}, {0.0, 1.0}, moderate, {})(0) ==
          2.0 * attention::nadaraya_watson({0.3}, {0.0, 1.0}, halved, {})(0));
}

TEST_CASE("Gaussian pooling of far queries or keys follows PyTorch's recipe, or the far limit where it gives NaN",
          "[pooling]") {
    // Beyond 2^500 the squared distance of the fast rows could overflow: those rows follow PyTorch's
    // softmax(-((q - k) w)^2 / 2) step by step.
    // PyTorch: 1.4999999999875 ((q - k) w = 1e-5, although (q - k)^2 alone overflows).
    CHECK(attention::nadaraya_watson({0.0}, {0.0, 1e155}, {1.0, 2.0}, {Kernel::gaussian, 1e-160})(0) ==
          Approx(1.4999999999875).epsilon(1e-13));
    // PyTorch: [0, 1] and 2 (the far key's score is -inf).
    CHECK(ref::as_vector(attention::attention_weights({1e200}, {0.0, 1e200}, {})) == std::vector<double>{0.0, 1.0});
    CHECK(attention::nadaraya_watson({1e200}, {0.0, 1e200}, {1.0, 2.0}, {})(0) == 2.0);
    // PyTorch: 2 ((q - k) overflows to Infinity: weight 0).
    CHECK(attention::nadaraya_watson({1e308}, {-1e308, 1e308}, {1.0, 2.0}, {Kernel::gaussian, 1e-308})(0) == 2.0);
    // A far key does not change the weights of the near ones (PyTorch: the same weights, bit for bit, with
    // or without it), and gets weight 0.
    const std::vector<double> near_weights = {0x1.1983d7795f413p-1, 0x1.ccf8510d417d8p-2, 0x1.d9291ddb596f8p-1,
                                              0x1.36b7112534848p-4};
    const auto with_far = attention::attention_weights({0.3, -2.0}, {0.0, 1.0, 1e200}, {});
    CHECK(with_far(0, 2) == 0.0);
    CHECK(with_far(1, 2) == 0.0);
    CHECK_NEAR_TOL(std::vector<double>({with_far(0, 0), with_far(0, 1), with_far(1, 0), with_far(1, 1)}),
                   near_weights, 1e-15);
    CHECK_NEAR_TOL(attention::attention_weights({0.3, -2.0}, {0.0, 1.0}, {}), near_weights, 1e-15);
    CHECK_NEAR_TOL(attention::nadaraya_watson({0.3, -2.0}, {0.0, 1.0, 1e200}, {1.0, 2.0, 3.0}, {}),
                   std::vector<double>({1.450166002687522, 1.0758581800212437}), 1e-14);
    // Where PyTorch has no finite score at all (its row is NaN: every (q - k) w overflows), the row is the
    // Gaussian's limit for a large width, as for a huge w: the nearest keys, by the rounded distance, share
    // the weight. 1e308 - 0 and 1e308 - 1 round to the same distance: a tie.
    CHECK(ref::as_vector(attention::attention_weights({1e308}, {0.0, 1.0}, {})) == std::vector<double>{0.5, 0.5});
    CHECK(attention::nadaraya_watson({1e308}, {0.0, 1.0}, {1.0, 1.0}, {})(0) == 1.0);
    CHECK(attention::nadaraya_watson({1e308}, {0.0, 1.0}, {1.0, 3.0}, {})(0) == 2.0);
    CHECK(attention::nadaraya_watson({-1e308}, {1e308, 1.0}, {1.0, 3.0}, {})(0) == 3.0);
    CHECK(attention::nadaraya_watson({1e300}, {0.0, 1e299}, {1.0, 3.0}, {Kernel::gaussian, 1e10})(0) == 3.0);
    // A zero width is average pooling there too (PyTorch: Infinity * 0 = NaN).
    CHECK(attention::nadaraya_watson({1e308}, {-1e308, 0.0}, {1.0, 3.0}, {Kernel::gaussian, 0.0})(0) == 2.0);
    // Every far row sums to 1 and has no NaN.
    const xt::xtensor<double, 1> far_queries = {-1e308, -1e200, 0.0, 3.0, 1e160, 1e308};
    const xt::xtensor<double, 1> far_keys = {-1e308, -1.0, 0.0, 2.0, 1e155, 1e300};
    for (double w : {0.0, 1e-300, 1e-160, 1.0, 1e10, 1e200}) {
        INFO("w=" << w);
        const auto weights = attention::attention_weights(far_queries, far_keys, {Kernel::gaussian, w});
        for (std::size_t i = 0; i < far_queries.size(); ++i) {
            double sum = 0.0;
            for (std::size_t j = 0; j < far_keys.size(); ++j) {
                CHECK(weights(i, j) >= 0.0);
                sum += weights(i, j);
            }
            CHECK(sum == Approx(1.0).epsilon(1e-15));
        }
        for (double p : attention::nadaraya_watson(far_queries, far_keys, far_keys, {Kernel::gaussian, w}))
            CHECK(std::isfinite(p));
    }
}
