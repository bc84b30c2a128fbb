#include "attention_training.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "errors.hpp"
#include "limits.hpp"

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

TaskOptions training_batch_options(const ModelConfig& config, const ModelTrainingOptions& options,
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

TaskOptions held_out_options(const ModelConfig& config, const ModelTrainingOptions& options) {
    TaskOptions task = training_batch_options(config, options, 0);
    task.batch = options.held_out;
    task.seed = options.seed ^ held_out_seed_mask;
    return task;
}

ModelTrainingResult train_attention_model(AttentionModel& model, OptimizerState& state,
                                          const ModelTrainingOptions& options) {
    const ModelConfig& config = model.config;
    check_model_config(config);
    require_count("steps", options.steps, 1, limits::max_training_steps);
    require_count("evalEvery", options.eval_every, 1, limits::max_training_steps);
    require_count("heldOut", options.held_out, 1, limits::max_model_batch);
    check_task_options(training_batch_options(config, options, 0));
    check_optimizer(options.optimizer, model.values.size(), model.values.size(), state);
    const std::uint64_t evaluations = options.steps / options.eval_every + 2;
    const std::uint64_t work = options.steps * model_pass_work(config, options.batch) +
                               evaluations * model_forward_work(config, options.held_out);
    if (work > limits::max_training_work)
        fail("steps", text("a training call of at most ", limits::max_training_work, " multiply-adds (this one: ",
                           work, ")"),
             options.steps);

    const TaskBatch test = attention_task_batch(held_out_options(config, options));
    const BatchOptions test_options = batch_options(test, options.held_out, options.causal);
    auto evaluate = [&] { return attention_model_accuracy(model, test.tokens, test.targets, test_options).accuracy; };

    ModelTrainingResult result;
    result.loss = xt::xtensor<double, 1>::from_shape({options.steps});
    std::vector<double> accuracy, evaluated_at;
    for (std::size_t s = 0; s < options.steps; ++s) {
        const TaskBatch batch = attention_task_batch(training_batch_options(config, options, state.step));
        const auto loss =
            attention_model_loss(model, batch.tokens, batch.targets, batch_options(batch, options.batch, options.causal));
        result.loss(s) = loss.loss;
        optimizer_step(model.values, loss.gradients, state, options.optimizer);
        if (state.step % options.eval_every == 0) {
            accuracy.push_back(evaluate());
            evaluated_at.push_back(static_cast<double>(state.step));
        }
    }
    const bool evaluated = !evaluated_at.empty() && evaluated_at.back() == static_cast<double>(state.step);
    result.held_out_accuracy = evaluated                   ? accuracy.back()
                               : options.evaluate_at_end ? evaluate()
                                                         : std::numeric_limits<double>::quiet_NaN();
    result.accuracy = xt::xtensor<double, 1>::from_shape({accuracy.size()});
    std::copy(accuracy.begin(), accuracy.end(), result.accuracy.begin());
    result.evaluated_at = xt::xtensor<double, 1>::from_shape({evaluated_at.size()});
    std::copy(evaluated_at.begin(), evaluated_at.end(), result.evaluated_at.begin());
    return result;
}

}  // namespace attention
