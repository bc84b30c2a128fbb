#include "encoder/attention_training.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <limits>
#include <vector>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "training/training_loop.hpp"

namespace attention {

namespace {

BatchOptions batch_options(const TaskBatch& batch, std::size_t size, bool causal) {
    BatchOptions options;
    options.batch = size;
    options.valid_lens = batch.valid_lens;
    options.causal = causal;
    return options;
}

}  // namespace

TaskOptions training_batch_options(const EncoderConfig& config, const ModelTrainingOptions& options,
                                   std::uint64_t step) {
    TaskOptions task;
    task.task = options.task;
    task.batch = options.batch;
    task.length = config.length;
    task.vocab = config.vocab;
    task.seed = static_cast<std::uint32_t>(options.seed + step);  // mod 2^32
    task.lag = options.lag;
    task.variable_lengths = options.variable_lengths;
    return task;
}

TaskOptions held_out_options(const EncoderConfig& config, const ModelTrainingOptions& options) {
    TaskOptions task = training_batch_options(config, options, 0);
    task.batch = options.held_out;
    task.seed = options.seed ^ held_out_seed_mix;
    return task;
}

ModelTrainingResult train_attention_model(AttentionModel& model, OptimizerState& state,
                                          const ModelTrainingOptions& options) {
    const EncoderConfig& config = model.config;
    check_encoder_config(config);
    require_count("steps", options.steps, 1, limits::max_training_steps);
    require_count("evalEvery", options.eval_every, 1, limits::max_training_steps);
    require_count("heldOut", options.held_out, 1, limits::max_model_batch);
    check_task_options(training_batch_options(config, options, 0));
    // Each pass within its own bound first: a step's over `batch` sequences, the evaluation's over all `heldOut`.
    check_encoder_pass(config, options.batch, "batch", options.batch, "sequences");
    check_encoder_pass(config, options.held_out, "heldOut", options.held_out, "held-out sequences");
    TrainingCallWork call;
    call.steps = options.steps;
    call.eval_every = options.eval_every;
    call.held_out = options.held_out;
    call.evaluations = options.steps / options.eval_every + 2;
    call.fewest_evaluations = 2;  // as counted: the call's last, and one at the end
    call.step_work = options.steps * model_pass_work(config, options.batch) +
                     model_forward_work(config, options.batch);  // the last step's check
    call.evaluation_work = model_forward_work(config, options.held_out);
    call.one_item_evaluation = model_forward_work(config, 1);
    check_training_call(options.optimizer, state, model.values.size(), call);

    const TaskBatch test = attention_task_batch(held_out_options(config, options));
    const BatchOptions test_options = batch_options(test, options.held_out, options.causal);
    auto evaluate = [&] { return attention_model_accuracy(model, test.tokens, test.targets, test_options).accuracy; };

    auto batch_of_step = [&] { return attention_task_batch(training_batch_options(config, options, state.step)); };
    auto step_loss = [&](xt::xtensor<double, 1>& gradients) {
        const TaskBatch batch = batch_of_step();
        auto loss =
            attention_model_loss(model, batch.tokens, batch.targets, batch_options(batch, options.batch, options.causal));
        gradients = std::move(loss.gradients);
        return loss.loss;
    };
    auto next_loss = [&] {
        const TaskBatch batch = batch_of_step();
        return attention_model_accuracy(model, batch.tokens, batch.targets,
                                        batch_options(batch, options.batch, options.causal))
            .loss;
    };
    auto run = run_training_loop<double>(model.values, state, options.optimizer, options.steps, options.eval_every,
                                         step_loss, next_loss, evaluate);
    ModelTrainingResult result;
    result.stop_reason = run.stop_reason;
    result.loss = as_tensor(run.losses);
    const bool evaluated = !run.evaluated_at.empty() && run.evaluated_at.back() == static_cast<double>(state.step);
    result.held_out_accuracy = evaluated                   ? run.evaluations.back()
                               : options.evaluate_at_end ? evaluate()
                                                         : std::numeric_limits<double>::quiet_NaN();
    result.accuracy = as_tensor(run.evaluations);
    result.evaluated_at = as_tensor(run.evaluated_at);
    return result;
}

}  // namespace attention
