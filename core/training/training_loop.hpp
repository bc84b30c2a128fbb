#pragma once
// The loop both trainable models share (attention_training.cpp,
// seq2seq/training.cpp): optimiser steps on the batch of each global step,
// evaluations every few steps, and a run that diverges stops.
//
// Before each step the parameters and the optimiser's state are kept, and a
// step is undone when it makes the parameters non-finite or the loss of the
// next batch non-finite (for the call's last step, a forward pass on the
// batch the next call starts with tells). So the model returned is finite
// with a finite loss on its next batch, and a run stops at the same step
// however it is cut into calls.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "training/optimizers.hpp"

namespace attention {

inline xt::xtensor<double, 1> as_tensor(const std::vector<double>& values) {
    xt::xtensor<double, 1> result = xt::xtensor<double, 1>::from_shape({values.size()});
    std::copy(values.begin(), values.end(), result.begin());
    return result;
}

inline bool all_finite(const xt::xtensor<double, 1>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

inline std::string diverged(std::uint64_t step) {
    return "training stopped after step " + std::to_string(step) +
           ": the next step makes the loss or the parameters no longer finite (try a smaller learning rate); "
           "the model is the one after step " + std::to_string(step);
}

// A training call's counts, as the caller set them, and its work
// (multiply-adds) term by term.
struct TrainingCallWork {
    std::size_t steps = 0, eval_every = 1, held_out = 0;
    std::uint64_t evaluations = 0;          // held-out evaluations the call makes
    std::uint64_t fewest_evaluations = 0;   // those it makes whatever evalEvery is (evalEvery > steps)
    std::uint64_t step_work = 0;            // steps x one step's work, and the last step's check
    std::uint64_t evaluation_work = 0;      // one evaluation's, over heldOut items
    std::uint64_t one_item_evaluation = 0;  // one evaluation's over a single item (heldOut 1)

    std::uint64_t work() const { return step_work + evaluations * evaluation_work; }
};

// What a training call checks before its first step, after the model's own
// options: the optimiser and its state for `steps` steps of `parameters`
// numbers, and the call's work within the limit. Over it, the refusal names
// what the caller has to change: an argument of the held-out evaluations
// when changing it alone brings the call within the limit (`heldOut`, the
// items each evaluation reads, down to 1; or `evalEvery`, up past `steps`,
// for fewer evaluations; both would do: the one of the larger factor,
// heldOut against steps / evalEvery); otherwise `steps`.
inline void check_training_call(const OptimizerOptions& optimizer, const OptimizerState& state,
                                std::size_t parameters, const TrainingCallWork& call) {
    check_optimizer(optimizer, parameters, parameters, state);
    check_optimizer_state(state, call.steps);
    const std::uint64_t work = call.work();
    if (work <= limits::max_training_work) return;
    const std::string expected =
        text("a training call of at most ", limits::max_training_work, " multiply-adds (this one: ", work, ")");
    const bool held_out_would_do =
        call.held_out > 1 && call.step_work + call.evaluations * call.one_item_evaluation <= limits::max_training_work;
    const bool eval_every_would_do =
        call.evaluations > call.fewest_evaluations &&
        call.step_work + call.fewest_evaluations * call.evaluation_work <= limits::max_training_work;
    if (held_out_would_do && (!eval_every_would_do || call.held_out >= call.steps / call.eval_every))
        fail("heldOut", expected, call.held_out);
    if (eval_every_would_do) fail("evalEvery", expected, call.eval_every);
    fail("steps", expected, call.steps);
}

template <class Metrics>
struct TrainingLoopResult {
    std::vector<double> losses;         // per step taken: the batch's loss before its step
    std::vector<Metrics> evaluations;   // at evaluated_at
    std::vector<double> evaluated_at;   // global steps
    std::string stop_reason;            // empty unless the run diverged
};

// step_loss(gradients) -> the loss of the batch of global step state.step,
//   with the gradients of the step to take written to `gradients`;
// next_loss() -> the loss of the batch of global step state.step (forward only);
// evaluate() -> Metrics of the model as it is.
template <class Metrics, class StepLoss, class NextLoss, class Evaluate>
TrainingLoopResult<Metrics> run_training_loop(xt::xtensor<double, 1>& parameters, OptimizerState& state,
                                              const OptimizerOptions& optimizer, std::size_t steps,
                                              std::size_t eval_every, StepLoss step_loss, NextLoss next_loss,
                                              Evaluate evaluate) {
    TrainingLoopResult<Metrics> result;
    xt::xtensor<double, 1> kept_parameters, gradients;
    OptimizerState kept_state;
    bool kept = false;  // a step of this call that can be undone
    auto undo = [&] {
        parameters = kept_parameters;
        state = kept_state;
        result.losses.pop_back();
        while (!result.evaluated_at.empty() && result.evaluated_at.back() > static_cast<double>(state.step)) {
            result.evaluated_at.pop_back();
            result.evaluations.pop_back();
        }
    };
    for (std::size_t s = 0; s < steps; ++s) {
        const double loss = step_loss(gradients);
        if (!std::isfinite(loss)) {
            if (kept) undo();  // else the model was handed in so: it stays as it is
            result.stop_reason = diverged(state.step);
            return result;
        }
        kept_parameters = parameters;
        kept_state = state;
        kept = true;
        result.losses.push_back(loss);
        optimizer_step(parameters, gradients, state, optimizer);
        if (!all_finite(parameters) || !all_finite(state.m) || !all_finite(state.v)) {
            undo();
            result.stop_reason = diverged(state.step);
            return result;
        }
        if (state.step % eval_every == 0) {
            result.evaluations.push_back(evaluate());
            result.evaluated_at.push_back(static_cast<double>(state.step));
        }
    }
    if (kept && !std::isfinite(next_loss())) {
        undo();
        result.stop_reason = diverged(state.step);
    }
    return result;
}

}  // namespace attention
