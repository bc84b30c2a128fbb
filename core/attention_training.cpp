#include "attention_training.hpp"

#include <algorithm>
#include <cmath>
#include <string>
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

xt::xtensor<double, 1> as_tensor(const std::vector<double>& values) {
    xt::xtensor<double, 1> result = xt::xtensor<double, 1>::from_shape({values.size()});
    std::copy(values.begin(), values.end(), result.begin());
    return result;
}

bool all_finite(const xt::xtensor<double, 1>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

std::string diverged(std::uint64_t step) {
    return "training stopped after step " + std::to_string(step) +
           ": the next step makes the loss or the parameters no longer finite (try a smaller learning rate); "
           "the model is the one after step " + std::to_string(step);
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
    task.seed = options.seed ^ held_out_seed_mix;
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
    check_optimizer_state(state, options.steps);
    const std::uint64_t evaluations = options.steps / options.eval_every + 2;
    const std::uint64_t work = options.steps * model_pass_work(config, options.batch) +
                               evaluations * model_forward_work(config, options.held_out) +
                               model_forward_work(config, options.batch);  // the last step's check
    if (work > limits::max_training_work)
        fail("steps", text("a training call of at most ", limits::max_training_work, " multiply-adds (this one: ",
                           work, ")"),
             options.steps);

    const TaskBatch test = attention_task_batch(held_out_options(config, options));
    const BatchOptions test_options = batch_options(test, options.held_out, options.causal);
    auto evaluate = [&] { return attention_model_accuracy(model, test.tokens, test.targets, test_options).accuracy; };

    // A run that diverges stops. Before each step the model and the state are
    // kept, and a step is undone when it makes the parameters non-finite or
    // the loss of the next batch non-finite (for the call's last step, a
    // forward pass on the batch the next call starts with tells). So the model
    // returned is finite with a finite loss on its next batch, and a run stops
    // at the same step however it is cut into calls.
    ModelTrainingResult result;
    std::vector<double> losses, accuracy, evaluated_at;
    xt::xtensor<double, 1> kept_values;
    OptimizerState kept_state;
    bool kept = false;  // a step of this call that can be undone
    auto undo = [&] {
        model.values = kept_values;
        state = kept_state;
        losses.pop_back();
        while (!evaluated_at.empty() && evaluated_at.back() > static_cast<double>(state.step)) {
            evaluated_at.pop_back();
            accuracy.pop_back();
        }
    };
    auto next_batch = [&] { return attention_task_batch(training_batch_options(config, options, state.step)); };
    for (std::size_t s = 0; s < options.steps; ++s) {
        const TaskBatch batch = next_batch();
        const auto loss =
            attention_model_loss(model, batch.tokens, batch.targets, batch_options(batch, options.batch, options.causal));
        if (!std::isfinite(loss.loss)) {
            if (kept) undo();  // else the model was handed in so: it stays as it is
            result.stop_reason = diverged(state.step);
            break;
        }
        kept_values = model.values;
        kept_state = state;
        kept = true;
        losses.push_back(loss.loss);
        optimizer_step(model.values, loss.gradients, state, options.optimizer);
        if (!all_finite(model.values) || !all_finite(state.m) || !all_finite(state.v)) {
            undo();
            result.stop_reason = diverged(state.step);
            break;
        }
        if (state.step % options.eval_every == 0) {
            accuracy.push_back(evaluate());
            evaluated_at.push_back(static_cast<double>(state.step));
        }
    }
    if (result.stop_reason.empty() && kept) {
        const TaskBatch batch = next_batch();
        const BatchOptions next = batch_options(batch, options.batch, options.causal);
        if (!std::isfinite(attention_model_accuracy(model, batch.tokens, batch.targets, next).loss)) {
            undo();
            result.stop_reason = diverged(state.step);
        }
    }
    result.loss = as_tensor(losses);
    const bool evaluated = !evaluated_at.empty() && evaluated_at.back() == static_cast<double>(state.step);
    result.held_out_accuracy = evaluated                   ? accuracy.back()
                               : options.evaluate_at_end ? evaluate()
                                                         : std::numeric_limits<double>::quiet_NaN();
    result.accuracy = as_tensor(accuracy);
    result.evaluated_at = as_tensor(evaluated_at);
    return result;
}

}  // namespace attention
