#pragma once
// The training loop of the sequence-to-sequence models (model.hpp) on a task
// (tasks.hpp), d2l's train_seq2seq: teacher forcing, d2l's objective,
// gradient clipping to a global norm, then an optimiser step, a few steps per
// frame on the page.
//
// As for the encoder (attention_training.hpp): the batch of global step t
// (t = the optimiser's step count before it) is the task batch of seed
// (seed + t) mod 2^32, so training in chunks gives exactly the model one call
// gives and a PyTorch script draws the same batches. The held-out set is the
// task's own (tasks.hpp), greedily translated after every global step that is
// a multiple of eval_every and, with evaluate_at_end, at the call's end.
#include <cstddef>
#include <cstdint>
#include <string>

#include <xtensor/xtensor.hpp>

#include "training/optimizers.hpp"
#include "model.hpp"
#include "tasks.hpp"

namespace attention {

// The defaults are the JS API's: d2l 10.4's recipe (Adam at 0.005, batch 64, clipping at 1).
struct Seq2SeqTrainingOptions {
    Seq2SeqTask task = Seq2SeqTask::numbers_en_zh;
    std::size_t steps = 50;
    std::size_t batch = 64;
    OptimizerOptions optimizer{OptimizerKind::adam, 0.005};
    double clip = 1.0;  // d2l's grad_clipping theta; 0: no clipping
    std::uint32_t seed = 0;
    std::size_t eval_every = 50;
    std::size_t held_out = 500;  // pairs of the task's held-out set, from the first
    bool evaluate_at_end = true;
};

struct Seq2SeqTrainingResult {
    xt::xtensor<double, 1> loss;          // per step: the batch's token loss before its step
    xt::xtensor<double, 1> accuracy;      // held-out exact match, per evaluation
    xt::xtensor<double, 1> bleu;          // held-out mean BLEU (k = 2), per evaluation
    xt::xtensor<double, 1> evaluated_at;  // the global step after which each was taken
    double held_out_accuracy = 0.0;       // at the call's end; NaN if not evaluated there
    double held_out_bleu = 0.0;
    std::string stop_reason;              // empty, or why the run stopped early (divergence)
};

// Scales every gradient by theta / norm when their global L2 norm exceeds
// theta (d2l's grad_clipping); returns the norm before.
double clip_gradients(xt::xtensor<double, 1>& gradients, double theta);

// The held-out exact match and mean BLEU of a model on `count` held-out pairs.
struct Seq2SeqEvaluation {
    double accuracy = 0.0, bleu = 0.0;
};
Seq2SeqEvaluation evaluate_seq2seq(const Seq2SeqModel& model, Seq2SeqTask task, std::size_t count);

// Checks everything (model against the task's shape, state, steps, batch,
// clip, the work) before training; then trains model and state in place.
Seq2SeqTrainingResult train_seq2seq(Seq2SeqModel& model, OptimizerState& state, const Seq2SeqTrainingOptions& options);

}  // namespace attention
