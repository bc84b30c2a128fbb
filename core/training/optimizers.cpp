#include "training/optimizers.hpp"

#include <algorithm>
#include <cmath>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/portable_math.hpp"

namespace attention {

void check_optimizer(const OptimizerOptions& options, std::size_t parameters, std::size_t gradients,
                     const OptimizerState& state) {
    require_finite("lr", options.lr);
    if (!(options.lr > 0.0) || options.lr > limits::max_learning_rate)
        fail("lr", text("a learning rate in (0, ", limits::max_learning_rate, "]"), options.lr);
    if (options.kind == OptimizerKind::adam) {
        require_finite("beta1", options.beta1);
        if (!(options.beta1 >= 0.0 && options.beta1 < 1.0)) fail("beta1", "a value in [0, 1)", options.beta1);
        require_finite("beta2", options.beta2);
        if (!(options.beta2 >= 0.0 && options.beta2 < 1.0)) fail("beta2", "a value in [0, 1)", options.beta2);
        require_finite("eps", options.eps);
        if (!(options.eps > 0.0)) fail("eps", "a positive number", options.eps);
    }
    if (gradients != parameters) fail("gradients", text(parameters, " numbers, one per parameter"), gradients);
    if (state.m.size() != state.v.size() || (state.m.size() != 0 && state.m.size() != parameters))
        fail("optimizerState", text("empty moments or ", parameters, " of each, one per parameter"), state.m.size());
    if (state.step >= (std::uint64_t{1} << 53)) fail("optimizerState", "a step count below 2^53", state.step);
}

void check_optimizer_state(const OptimizerState& state, std::uint64_t steps) {
    require_all_finite("optimizerState.m", state.m);
    require_all_finite("optimizerState.v", state.v);
    for (std::size_t e = 0; e < state.v.size(); ++e)
        if (state.v(e) < 0.0) fail("optimizerState.v", "second moments >= 0", state.v(e), e);
    if (steps > max_optimizer_step || state.step > max_optimizer_step - steps)
        fail("optimizerState.step",
             text("a step count in [0, ", max_optimizer_step - std::min(steps, max_optimizer_step), "] (", steps,
                  steps == 1 ? " step" : " steps", " to take, within 2^53 - 1)"),
             state.step);
}

void optimizer_step(xt::xtensor<double, 1>& parameters, const xt::xtensor<double, 1>& gradients,
                    OptimizerState& state, const OptimizerOptions& options) {
    check_optimizer(options, parameters.size(), gradients.size(), state);
    const std::size_t n = parameters.size();
    double* p = parameters.data();
    const double* g = gradients.data();
    ++state.step;
    if (options.kind == OptimizerKind::sgd) {
        for (std::size_t e = 0; e < n; ++e) p[e] += -options.lr * g[e];
        return;
    }
    if (state.m.size() == 0) {
        state.m = xt::zeros<double>({n});
        state.v = xt::zeros<double>({n});
    }
    double* m = state.m.data();
    double* v = state.v.data();
    const double beta1 = options.beta1, beta2 = options.beta2;
    const double t = static_cast<double>(state.step);
    const double bias_correction1 = 1.0 - portable::pow(beta1, t);
    const double bias_correction2 = 1.0 - portable::pow(beta2, t);
    const double step_size = options.lr / bias_correction1;
    const double bias_correction2_sqrt = std::sqrt(bias_correction2);
    const double one_minus_beta1 = 1.0 - beta1, one_minus_beta2 = 1.0 - beta2;
    for (std::size_t e = 0; e < n; ++e) {
        m[e] = m[e] * beta1 + g[e] * one_minus_beta1;
        v[e] = v[e] * beta2 + one_minus_beta2 * g[e] * g[e];
        const double denom = std::sqrt(v[e]) / bias_correction2_sqrt + options.eps;
        p[e] = p[e] + -step_size * (m[e] / denom);
    }
}

}  // namespace attention
