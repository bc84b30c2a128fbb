// Training the Gaussian width w (d2l 10.2.4): loss and analytic gradient
// against PyTorch autograd and finite differences, the book's SGD loop, the
// loss landscape, divergence, and bad inputs.
#include <cmath>
#include <limits>

#include <xtensor/xview.hpp>

#include "regression/kernel_width_training.hpp"
#include "contract/limits.hpp"
#include "reference.hpp"

using attention::kernel_width_loss;
using attention::TrainingOptions;
using attention::train_kernel_width;

namespace {
const auto& section() { return ref::references()["kernelWidth"]; }
xt::xtensor<double, 1> x_train() { return ref::vector(section()["x"]); }
xt::xtensor<double, 1> y_train() { return ref::vector(section()["y"]); }
TrainingOptions training(double w0, double lr, std::size_t epochs, bool leave_one_out = true) {
    TrainingOptions o;
    o.w0 = w0;
    o.lr = lr;
    o.epochs = epochs;
    o.leave_one_out = leave_one_out;
    return o;
}
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinity = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("kernel_width_loss: loss and gradient match PyTorch autograd", "[training]") {
    const auto x = x_train(), y = y_train();
    for (const auto& c : section()["loss"]) {
        const double w = c["w"];
        const bool loo = c["leaveOneOut"];
        INFO("w=" << w << " leaveOneOut=" << loo);
        const auto result = kernel_width_loss(x, y, w, loo);
        CHECK(result.loss == Approx(c["loss"].get<double>()).epsilon(1e-10));
        CHECK(result.gradient == Approx(c["gradient"].get<double>()).epsilon(1e-9).margin(1e-9));
    }
}

TEST_CASE("kernel_width_loss: the analytic gradient agrees with central differences", "[training]") {
    const auto x = x_train(), y = y_train();
    for (bool loo : {true, false}) {
        for (double w : {-8.0, -2.5, -0.9, -1e-3, 1e-4, 0.05, 0.3, 1.0, 1.7, 4.0, 9.0, 20.0}) {
            INFO("w=" << w << " leaveOneOut=" << loo);
            const double h = 1e-5 * std::max(1.0, std::abs(w));
            const double up = kernel_width_loss(x, y, w + h, loo).loss;
            const double down = kernel_width_loss(x, y, w - h, loo).loss;
            const double numeric = (up - down) / (2 * h);
            const double analytic = kernel_width_loss(x, y, w, loo).gradient;
            CHECK(analytic == Approx(numeric).epsilon(1e-5).margin(1e-6));
        }
    }
}

TEST_CASE("kernel_width_loss: even in w, flat at w = 0", "[training]") {
    const auto x = x_train(), y = y_train();
    CHECK(kernel_width_loss(x, y, 0.0).gradient == 0.0);
    CHECK(kernel_width_loss(x, y, 0.0, false).gradient == 0.0);
    CHECK(std::abs(kernel_width_loss(x, y, 1e-9).gradient) < 1e-7);
    for (double w : {0.4, 2.0, 7.0}) {
        const auto plus = kernel_width_loss(x, y, w), minus = kernel_width_loss(x, y, -w);
        CHECK(plus.loss == minus.loss);
        CHECK(plus.gradient == -minus.gradient);
    }
}

TEST_CASE("train_kernel_width follows the book's SGD loop in PyTorch", "[training]") {
    const auto x = x_train(), y = y_train();
    for (const auto& c : section()["training"]) {
        INFO("w0=" << c["w0"] << " lr=" << c["lr"] << " epochs=" << c["epochs"] << " leaveOneOut="
                   << c["leaveOneOut"]);
        const auto result = train_kernel_width(x, y, training(c["w0"], c["lr"], c["epochs"], c["leaveOneOut"]));
        CHECK(result.stop_reason.empty());
        CHECK_NEAR_REF(result.w, c["w"]);
        CHECK_NEAR_REF(result.loss, c["loss"]);
    }
}

TEST_CASE("train_kernel_width: the loss of an epoch is measured before its step", "[training]") {
    const auto x = x_train(), y = y_train();
    const auto result = train_kernel_width(x, y, training(0.8, 0.5, 4));
    REQUIRE(result.w.size() == 5);
    REQUIRE(result.loss.size() == 4);
    for (std::size_t e = 0; e < 4; ++e) {
        const auto at = kernel_width_loss(x, y, result.w[e]);
        CHECK(result.loss[e] == at.loss);
        CHECK(result.w[e + 1] == result.w[e] - 0.5 * at.gradient);
    }
    // A start at 0 stays there: the gradient is exactly 0.
    const auto stalled = train_kernel_width(x, y, training(0.0, 0.5, 3));
    CHECK(stalled.w == std::vector<double>{0.0, 0.0, 0.0, 0.0});
}

TEST_CASE("without leave-one-out the loss keeps falling as w grows", "[training]") {
    const auto x = x_train(), y = y_train();
    const double at_one = kernel_width_loss(x, y, 1.0, false).loss;
    double previous = infinity;
    for (double w : {1.0, 3.0, 10.0, 30.0, 100.0, 1000.0}) {
        const double loss = kernel_width_loss(x, y, w, false).loss;
        CHECK(loss < previous);
        previous = loss;
    }
    CHECK(previous < 1e-5 * at_one);  // the fit memorises the noise
    // With leave-one-out there is a finite best width.
    CHECK(kernel_width_loss(x, y, 1000.0).loss > kernel_width_loss(x, y, 5.0).loss);
}

TEST_CASE("a diverging training run stops and says why", "[training]") {
    const auto x = x_train(), y = y_train();
    const auto result = train_kernel_width(x, y, training(1.0, 1e308, 50));  // the first step overflows w
    REQUIRE_FALSE(result.stop_reason.empty());
    CHECK_THAT(result.stop_reason, Catch::Contains("training stopped at epoch") &&
                                       Catch::Contains("learning rate"));
    CHECK(result.loss.size() < 50);
    CHECK(result.w.size() == result.loss.size() + 1);
    for (double v : result.w) CHECK(std::isfinite(v));
    for (double v : result.loss) CHECK(std::isfinite(v));
    const std::string epoch = "epoch " + std::to_string(result.loss.size() + 1) + ":";
    CHECK_THAT(result.stop_reason, Catch::Contains(epoch));
}

TEST_CASE("loss_landscape matches PyTorch and the loss itself", "[training]") {
    const auto x = x_train(), y = y_train();
    const auto& landscape = section()["landscape"];
    const auto ws = ref::vector(landscape["ws"]);
    const auto with = attention::loss_landscape(x, y, ws, true);
    const auto without = attention::loss_landscape(x, y, ws, false);
    CHECK_NEAR_REF(with, landscape["leaveOneOut"]);
    CHECK_NEAR_REF(without, landscape["noLeaveOneOut"]);
    for (std::size_t k = 0; k < ws.size(); ++k) {
        CHECK(with(k) == kernel_width_loss(x, y, ws(k)).loss);
        CHECK(without(k) == kernel_width_loss(x, y, ws(k), false).loss);
    }
}

TEST_CASE("training's defaults are the book's: w0 1, lr 0.5, 5 epochs, leave-one-out", "[training]") {
    const TrainingOptions defaults;
    CHECK(defaults.w0 == 1.0);
    CHECK(defaults.lr == 0.5);
    CHECK(defaults.epochs == 5);
    CHECK(defaults.leave_one_out);
}

TEST_CASE("training and the landscape are deterministic", "[training]") {
    const auto x = x_train(), y = y_train();
    const auto a = train_kernel_width(x, y, training(0.3, 0.5, 10));
    const auto b = train_kernel_width(x, y, training(0.3, 0.5, 10));
    CHECK_SAME_BITS(a.w, b.w);
    CHECK_SAME_BITS(a.loss, b.loss);
}

TEST_CASE("training accepts its smallest inputs and the documented limits", "[training]") {
    namespace lim = attention::limits;
    const xt::xtensor<double, 1> one = {1.0}, two_x = {1.0, 2.0}, two_y = {3.0, 5.0};
    // Without leave-one-out a single point predicts itself exactly.
    CHECK(kernel_width_loss(one, one, 2.0, false).loss == 0.0);
    // With leave-one-out two points predict each other.
    CHECK(kernel_width_loss(two_x, two_y, 2.0).loss == 8.0);
    const auto run = train_kernel_width(two_x, two_y, training(1.0, 0.5, lim::max_epochs));
    CHECK(run.loss.size() == lim::max_epochs);
    const xt::xtensor<double, 1> ws = xt::linspace<double>(-5.0, 5.0, lim::max_points);
    CHECK(attention::loss_landscape(two_x, two_y, ws).size() == lim::max_points);
}

TEST_CASE("training refuses bad inputs, naming them", "[training][errors]") {
    namespace lim = attention::limits;
    const auto x = x_train(), y = y_train();
    const xt::xtensor<double, 1> one = {1.0};
    const auto empty = xt::xtensor<double, 1>::from_shape({0});
    const auto too_many = xt::xtensor<double, 1>(xt::zeros<double>({lim::max_points + 1}));
    const xt::xtensor<double, 1> ws = {0.5, 1.0};

    SECTION("data sizes") {
        REQUIRE_ARGUMENT_ERROR_WITH(kernel_width_loss(one, one, 1.0), "x.length", "[2, 10000], got 1");
        REQUIRE_ARGUMENT_ERROR_WITH(kernel_width_loss(empty, empty, 1.0, false), "x.length", "[1, 10000], got 0");
        REQUIRE_ARGUMENT_ERROR(kernel_width_loss(too_many, too_many, 1.0), "x.length");
        const xt::xtensor<double, 1> short_y = xt::view(y, xt::range(0, 49));
        REQUIRE_ARGUMENT_ERROR_WITH(kernel_width_loss(x, short_y, 1.0), "y", "expected 50 values (one per x), got 49");
        REQUIRE_ARGUMENT_ERROR(train_kernel_width(one, one, training(1.0, 0.5, 5)), "x.length");
        REQUIRE_ARGUMENT_ERROR(train_kernel_width(x, short_y, training(1.0, 0.5, 5)), "y");
        REQUIRE_ARGUMENT_ERROR(attention::loss_landscape(one, one, ws), "x.length");
        REQUIRE_ARGUMENT_ERROR(attention::loss_landscape(x, short_y, ws), "y");
    }
    SECTION("non-finite data") {
        for (double bad : {not_a_number, infinity, -infinity}) {
            auto bad_x = x, bad_y = y;
            bad_x(7) = bad;
            bad_y(9) = bad;
            REQUIRE_ARGUMENT_ERROR_WITH(kernel_width_loss(bad_x, y, 1.0), "x", "at index 7");
            REQUIRE_ARGUMENT_ERROR_WITH(kernel_width_loss(x, bad_y, 1.0), "y", "at index 9");
            REQUIRE_ARGUMENT_ERROR(train_kernel_width(bad_x, y, training(1.0, 0.5, 5)), "x");
            REQUIRE_ARGUMENT_ERROR(train_kernel_width(x, bad_y, training(1.0, 0.5, 5, false)), "y");
            REQUIRE_ARGUMENT_ERROR(attention::loss_landscape(bad_x, y, ws), "x");
            REQUIRE_ARGUMENT_ERROR(attention::loss_landscape(x, bad_y, ws), "y");
            REQUIRE_ARGUMENT_ERROR(kernel_width_loss(x, y, bad), "w");
            REQUIRE_ARGUMENT_ERROR(train_kernel_width(x, y, training(bad, 0.5, 5)), "w0");
            REQUIRE_ARGUMENT_ERROR(train_kernel_width(x, y, training(1.0, bad, 5)), "lr");
            xt::xtensor<double, 1> bad_ws = {1.0, bad};
            REQUIRE_ARGUMENT_ERROR_WITH(attention::loss_landscape(x, y, bad_ws), "ws", "at index 1");
        }
    }
    SECTION("learning rate and epochs") {
        for (double lr : {0.0, -0.0, -0.5, -1e-300})
            REQUIRE_ARGUMENT_ERROR_WITH(train_kernel_width(x, y, training(1.0, lr, 5)), "lr",
                                        "expected a positive learning rate");
        REQUIRE_ARGUMENT_ERROR_WITH(train_kernel_width(x, y, training(1.0, 0.5, 0)), "epochs", "got 0");
        REQUIRE_ARGUMENT_ERROR_WITH(train_kernel_width(x, y, training(1.0, 0.5, lim::max_epochs + 1)), "epochs",
                                    "got 10001");
    }
    SECTION("landscape grid") {
        REQUIRE_ARGUMENT_ERROR_WITH(attention::loss_landscape(x, y, empty), "ws.length", "got 0");
        REQUIRE_ARGUMENT_ERROR(attention::loss_landscape(x, y, too_many), "ws.length");
        // n^2 * grid size is bounded: 10000 points allow at most 2 widths.
        const xt::xtensor<double, 1> big_x = xt::linspace<double>(0.0, 5.0, lim::max_points);
        const xt::xtensor<double, 1> eleven = xt::linspace<double>(0.5, 1.5, 11);
        REQUIRE_ARGUMENT_ERROR_WITH(attention::loss_landscape(big_x, big_x, eleven), "ws.length",
                                    "x.length^2 * ws.length <= 268435456, got 1100000000");
        const xt::xtensor<double, 1> three = {0.5, 1.0, 1.5};
        REQUIRE_ARGUMENT_ERROR_WITH(attention::loss_landscape(big_x, big_x, three), "ws.length", "got 300000000");
    }
}

TEST_CASE("the loss stays finite at widths whose square overflows", "[kernel_width_training]") {
    const xt::xtensor<double, 1> x = {0.0, 1.0, 2.5};
    const xt::xtensor<double, 1> y = {1.0, 2.0, 4.0};
    // Each point predicted from its nearest other point: (2-1)^2 + (1-2)^2 + (4-2)^2.
    CHECK(attention::kernel_width_loss(x, y, 1e200).loss == 6.0);
}

// The leave-one-out shift comes from x sorted once: points in any order,
// repeated points (whose nearest other point is at distance 0), odd sizes;
// against a plain long-double computation of the loss and its gradient.
TEST_CASE("kernel_width_loss: unsorted and repeated points, odd sizes", "[training]") {
    for (const std::size_t n : {2u, 3u, 4u, 5u, 7u, 9u, 33u, 100u}) {
        xt::xtensor<double, 1> x = xt::xtensor<double, 1>::from_shape({n});
        xt::xtensor<double, 1> y = xt::xtensor<double, 1>::from_shape({n});
        for (std::size_t j = 0; j < n; ++j) {
            x(j) = std::fmod(3.77 * static_cast<double>(j * j + 1), 5.0);
            y(j) = std::cos(0.9 * static_cast<double>(j)) + 0.1 * static_cast<double>(j % 3);
        }
        if (n > 3) x(n - 2) = x(0);  // a repeated point
        for (const bool leave_one_out : {true, false}) {
            for (const double w : {0.2, 1.0, 3.0, 12.0}) {
                INFO("n=" << n << " w=" << w << " leave_one_out=" << leave_one_out);
                long double loss = 0, gradient = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    long double best = INFINITY;
                    for (std::size_t j = 0; j < n; ++j) {
                        if (leave_one_out && j == i) continue;
                        const long double d = static_cast<long double>(x(i)) - x(j);
                        best = std::min(best, d * d);
                    }
                    long double s = 0, sy = 0, sd = 0, sdy = 0;
                    for (std::size_t j = 0; j < n; ++j) {
                        if (leave_one_out && j == i) continue;
                        const long double d = static_cast<long double>(x(i)) - x(j);
                        const long double e = std::exp(-0.5L * w * w * (d * d - best));
                        s += e;
                        sy += e * y(j);
                        sd += e * d * d;
                        sdy += e * d * d * y(j);
                    }
                    const long double y_hat = sy / s;
                    const long double dy_hat = -w * (sdy - y_hat * sd) / s;
                    loss += (y_hat - y(i)) * (y_hat - y(i));
                    gradient += 2 * (y_hat - y(i)) * dy_hat;
                }
                const auto result = attention::kernel_width_loss(x, y, w, leave_one_out);
                CHECK(std::abs(result.loss - static_cast<double>(loss)) <= 1e-13 * std::max(1.0L, std::abs(loss)));
                CHECK(std::abs(result.gradient - static_cast<double>(gradient)) <=
                      1e-12 * std::max(1.0L, std::abs(gradient)));
            }
        }
    }
}

TEST_CASE("training and the landscape bound their kernel evaluations: x.length^2 * epochs or * ws.length",
          "[kernel_width_training][errors]") {
    namespace lim = attention::limits;
    using attention::check_kernel_evaluations;
    REQUIRE(lim::max_kernel_evaluations == 268435456u);  // 2^28: about a second of wasm
    // At the bound and just over it (8192^2 * 4 = 2^28), in 64 bits.
    REQUIRE_NOTHROW(check_kernel_evaluations(8192, 4, "epochs"));
    REQUIRE_ARGUMENT_ERROR_WITH(check_kernel_evaluations(8192, 5, "epochs"), "epochs",
                                "x.length^2 * epochs <= 268435456, got 335544320");
    REQUIRE_NOTHROW(check_kernel_evaluations(lim::max_points, 2, "ws.length"));
    REQUIRE_ARGUMENT_ERROR_WITH(check_kernel_evaluations(lim::max_points, 3, "ws.length"), "ws.length",
                                "x.length^2 * ws.length <= 268435456, got 300000000");
    // Where a 32-bit product would wrap around to 0 (65536^2 = 2^32) it is still refused.
    REQUIRE_ARGUMENT_ERROR(check_kernel_evaluations(65536, 1, "epochs"), "epochs");
    // The calls check it before any work: the most points allow 2 epochs, not 3.
    const xt::xtensor<double, 1> x = xt::linspace<double>(0.0, 5.0, lim::max_points);
    REQUIRE_ARGUMENT_ERROR_WITH(train_kernel_width(x, x, training(1.0, 0.5, 3)), "epochs", "got 300000000");
    REQUIRE_ARGUMENT_ERROR_WITH(train_kernel_width(x, x, training(1.0, 0.5, lim::max_epochs)), "epochs",
                                "got 1000000000000");
    // Cheap shapes are untouched: 2 points, the most epochs.
    const xt::xtensor<double, 1> two = {1.0, 2.0};
    CHECK(train_kernel_width(two, two, training(1.0, 0.01, lim::max_epochs)).loss.size() == lim::max_epochs);
}
