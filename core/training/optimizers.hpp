#pragma once
// The two optimisers of the attention model, step for step as torch.optim
// does them with its defaults (no momentum, no weight decay):
//   SGD:  p -= lr * g
//   Adam: m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2;
//         p -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
// (torch.optim.Adam's single-tensor update, the same operations in the same order).
// Parameters, gradients and the moments are flat vectors of one layout
// (AttentionModel::values), so one loop updates every parameter.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

#include "contract/kind_names.hpp"

namespace attention {

enum class OptimizerKind { sgd, adam };

inline constexpr KindNames<OptimizerKind, 2> optimizer_names{
    "optimizer", {{{OptimizerKind::adam, "adam"}, {OptimizerKind::sgd, "sgd"}}}};

struct OptimizerOptions {
    OptimizerKind kind = OptimizerKind::adam;
    double lr = 0.001;  // torch.optim.Adam's default; SGD has none in torch, the same is used here
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
};

// Adam's state per parameter: the moments (empty until the first step) and
// the number of steps taken. SGD keeps only the step count.
struct OptimizerState {
    std::uint64_t step = 0;
    xt::xtensor<double, 1> m;
    xt::xtensor<double, 1> v;
};

// Checks lr (finite, in (0, max_learning_rate]), betas in [0, 1), eps > 0 and finite,
// and that the sizes of parameters, gradients and a non-empty state agree.
void check_optimizer(const OptimizerOptions& options, std::size_t parameters, std::size_t gradients,
                     const OptimizerState& state);

// A state handed in from outside (the JS API's model objects) before a call
// that takes `steps` steps: the moments finite, Adam's second moments v >= 0
// (sums of squares: a negative one makes every parameter NaN), and the step
// count, with the steps to come, within 2^53 - 1 (what a JS number counts
// exactly, so the state returned can be handed in again). Errors name
// optimizerState.m, .v or .step and quote the caller's own value.
inline constexpr std::uint64_t max_optimizer_step = (std::uint64_t{1} << 53) - 1;
void check_optimizer_state(const OptimizerState& state, std::uint64_t steps);

// One step in place: parameters and state updated from the gradients.
void optimizer_step(xt::xtensor<double, 1>& parameters, const xt::xtensor<double, 1>& gradients,
                    OptimizerState& state, const OptimizerOptions& options);

}  // namespace attention
