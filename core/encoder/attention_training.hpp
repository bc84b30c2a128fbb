#pragma once
// The training loop of the trainable attention model (attention_model.hpp) on
// one of the seeded tasks (attention_tasks.hpp), as the page runs it a few
// steps per frame.
//
// Batches are a function of the seed and the global step: the batch of step t
// (t = the optimiser's step count before it) is the task batch of seed
// (seed + t) mod 2^32. Training in chunks therefore gives exactly the model
// one long call gives, and a PyTorch script can draw the same batches.
// The held-out set is one batch of `held_out` sequences of seed
// seed XOR held_out_seed_mix, evaluated after every global step that is a
// multiple of eval_every and, with evaluate_at_end, at the end of the call
// (a page training a few steps per frame leaves that off).
#include <cstddef>
#include <cstdint>
#include <string>

#include <xtensor/xtensor.hpp>

#include "encoder/attention_model.hpp"
#include "encoder/attention_tasks.hpp"
#include "training/optimizers.hpp"

namespace attention {

inline constexpr std::uint32_t held_out_seed_mix = 0x5bd1e995u;

// The defaults are the JS API's (the page's start: Adam at 0.01 learns reverse).
struct ModelTrainingOptions {
    AttentionTask task = AttentionTask::reverse;
    std::size_t lag = 1;  // shift only
    bool variable_lengths = false;
    bool causal = false;
    std::size_t steps = 100;
    std::size_t batch = 32;
    OptimizerOptions optimizer{OptimizerKind::adam, 0.01};
    std::uint32_t seed = 0;
    std::size_t eval_every = 50;
    std::size_t held_out = 256;
    bool evaluate_at_end = true;
};

struct ModelTrainingResult {
    xt::xtensor<double, 1> loss;          // per step: the batch's loss before its step
    xt::xtensor<double, 1> accuracy;      // held-out accuracy, per evaluation
    xt::xtensor<double, 1> evaluated_at;  // the global step after which each was taken
    double held_out_accuracy = 0.0;       // at the end of the call; NaN if not evaluated there
    // Empty, or why the run stopped before `steps`: a step made the loss or
    // the parameters non-finite (a learning rate too large). The model and
    // state are then the last ones whose loss on their next batch is finite.
    std::string stop_reason;
};

// The task options of the batch of global step `step`, and of the held-out
// set, for a model.
TaskOptions training_batch_options(const EncoderConfig& config, const ModelTrainingOptions& options,
                                   std::uint64_t step);
TaskOptions held_out_options(const EncoderConfig& config, const ModelTrainingOptions& options);

// Checks everything (model, state, task against the model's vocab and length,
// steps in [1, max_training_steps], eval_every >= 1, held_out in
// [1, max_model_batch], the total work within max_training_work) before
// training; then trains model and state in place.
ModelTrainingResult train_attention_model(AttentionModel& model, OptimizerState& state,
                                          const ModelTrainingOptions& options);

}  // namespace attention
