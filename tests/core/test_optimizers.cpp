// SGD and Adam against torch.optim (one tensor, given gradients; and the
// attention model trained a few steps in PyTorch), and refused options.
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "encoder/attention_model.hpp"
#include "contract/limits.hpp"
#include "model_references.hpp"
#include "training/optimizers.hpp"
#include "reference.hpp"

using attention::OptimizerOptions;
using attention::OptimizerState;

namespace {
OptimizerOptions options_of(const std::string& kind, double lr) {
    OptimizerOptions o;
    o.kind = attention::optimizer_names.from_name(kind);
    o.lr = lr;
    return o;
}
xt::xtensor<double, 1> vec(const nlohmann::json& list) { return ref::vector(list); }
}  // namespace

TEST_CASE("optimizer_step follows torch.optim step by step", "[optimizers]") {
    double worst = 0;
    for (const auto& c : ref::model_references()["optimizer"]) {
        INFO(c["optimizer"].get<std::string>() << " lr=" << c["lr"].get<double>());
        const auto options = options_of(c["optimizer"], c["lr"]);
        auto params = vec(c["params"]);
        OptimizerState state;
        for (std::size_t s = 0; s < c["gradients"].size(); ++s) {
            attention::optimizer_step(params, vec(c["gradients"][s]), state, options);
            CHECK(state.step == s + 1);
            CHECK_NEAR_TOL(params, ref::numbers(c["after"][s]), 1e-13);
            worst = std::max(worst, ref::max_error(params, ref::numbers(c["after"][s])));
        }
        if (!c["m"].is_null()) {
            CHECK_NEAR_TOL(state.m, ref::numbers(c["m"]), 1e-15);
            CHECK_NEAR_TOL(state.v, ref::numbers(c["v"]), 1e-15);
        } else {
            CHECK(state.m.size() == 0);
        }
    }
    std::printf("optimizer steps vs torch.optim: largest error %.2g\n", worst);
}

TEST_CASE("training steps of the attention model match PyTorch", "[optimizers][model]") {
    double worst_loss = 0, worst_params = 0;
    for (const auto& c : ref::model_references()["training"]) {
        INFO(c["name"].get<std::string>());
        auto model = attention::attention_model_from(ref::model_config(c["config"]), ref::named_values(c["params"]));
        const auto options = options_of(c["optimizer"], c["lr"]);
        OptimizerState state;
        for (std::size_t s = 0; s < c["batches"].size(); ++s) {
            const auto& b = c["batches"][s];
            attention::BatchOptions batch;
            batch.batch = c["batch"];
            batch.valid_lens = ref::ints(b["validLens"]);
            batch.causal = b["causal"];
            const auto result = attention::attention_model_loss(model, ref::ints(b["tokens"]), ref::ints(b["targets"]), batch);
            const double expected = c["losses"][s];
            CHECK(result.loss == Approx(expected).epsilon(1e-12));
            worst_loss = std::max(worst_loss, std::abs(result.loss - expected) / expected);
            attention::optimizer_step(model.values, result.gradients, state, options);
        }
        for (const auto& s : model.layout) {
            INFO(s.name);
            const std::vector<double> actual(model.values.data() + s.offset, model.values.data() + s.offset + s.size);
            const auto expected = ref::numbers(c["paramsAfter"][s.name]);
            CHECK_NEAR_TOL(actual, expected, 1e-10);
            worst_params = std::max(worst_params, ref::max_error(actual, expected));
        }
    }
    std::printf("training steps vs PyTorch: loss %.2g, parameters %.2g (largest errors)\n", worst_loss, worst_params);
}

TEST_CASE("optimizer_step: SGD keeps no moments, Adam's first step moves every parameter by about lr",
          "[optimizers]") {
    xt::xtensor<double, 1> p = {1.0, -2.0, 0.5};
    const xt::xtensor<double, 1> g = {0.3, -4.0, 1e-3};
    OptimizerState state;
    attention::optimizer_step(p, g, state, options_of("sgd", 0.5));
    CHECK(p(0) == 1.0 - 0.5 * 0.3);
    CHECK(state.m.size() == 0);
    xt::xtensor<double, 1> q = {1.0, -2.0, 0.5};
    OptimizerState adam;
    attention::optimizer_step(q, g, adam, options_of("adam", 0.01));
    CHECK(q(0) == Approx(1.0 - 0.01).epsilon(1e-9));
    CHECK(q(1) == Approx(-2.0 + 0.01).epsilon(1e-9));
    CHECK(q(2) == Approx(0.5 - 0.01).epsilon(1e-4));
}

TEST_CASE("optimizer_step: refused options and sizes", "[optimizers][errors]") {
    xt::xtensor<double, 1> p = {1.0, 2.0};
    const xt::xtensor<double, 1> g = {0.1, 0.2};
    OptimizerState state;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (double lr : {0.0, -0.1, nan, std::numeric_limits<double>::infinity(), attention::limits::max_learning_rate * 2})
        REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, g, state, options_of("adam", lr)), "lr");
    REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, g, state, options_of("sgd", nan)), "lr");
    auto o = options_of("adam", 0.1);
    o.beta1 = 1.0;
    REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, g, state, o), "beta1");
    o = options_of("adam", 0.1);
    o.beta2 = -0.5;
    REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, g, state, o), "beta2");
    o = options_of("adam", 0.1);
    o.eps = 0;
    REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, g, state, o), "eps");
    const xt::xtensor<double, 1> short_g = {0.1};
    REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, short_g, state, options_of("sgd", 0.1)), "gradients");
    OptimizerState wrong;
    wrong.m = xt::zeros<double>({3});
    wrong.v = xt::zeros<double>({3});
    REQUIRE_ARGUMENT_ERROR(attention::optimizer_step(p, g, wrong, options_of("adam", 0.1)), "optimizerState");
    CHECK(p(0) == 1.0);  // nothing moved
    CHECK(state.step == 0);
}

TEST_CASE("check_optimizer_state: finite moments, second moments >= 0, room for the steps", "[optimizers][errors]") {
    attention::OptimizerState state;
    state.m = xt::zeros<double>({4});
    state.v = xt::zeros<double>({4});
    attention::check_optimizer_state(state, 1);
    state.v(2) = -0.5;
    auto error = ref::argument_error_of([&] { attention::check_optimizer_state(state, 1); });
    CHECK(error.argument == "optimizerState.v");
    CHECK(error.expected == "second moments >= 0");
    CHECK(error.got == "-0.5");
    CHECK(error.index == std::optional<std::size_t>(2));
    state.v(2) = 0.0;
    state.m(1) = std::numeric_limits<double>::infinity();
    CHECK(ref::argument_error_of([&] { attention::check_optimizer_state(state, 1); }).argument == "optimizerState.m");
    state.m(1) = 0.0;
    state.step = attention::max_optimizer_step;
    attention::check_optimizer_state(state, 0);
    error = ref::argument_error_of([&] { attention::check_optimizer_state(state, 1); });
    CHECK(error.argument == "optimizerState.step");
    CHECK(error.got == "9007199254740991");
    CHECK(error.expected == "a step count in [0, 9007199254740990] (1 step to take, within 2^53 - 1)");
}
