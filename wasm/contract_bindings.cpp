// Binding of the core's contract, read once by the JS API: the documented
// limits (the table of limits.hpp) and the defaults of its options (the
// option structs), so the JS side holds no number of its own.
#include <emscripten/bind.h>

#include <initializer_list>
#include <string>

#include "attention_model.hpp"
#include "attention_tasks.hpp"
#include "attention_training.hpp"
#include "consistency_study.hpp"
#include "dataset.hpp"
#include "kernel_width_training.hpp"
#include "kernels.hpp"
#include "masking.hpp"
#include "optimizers.hpp"
#include "random_tensor.hpp"
#include "scaling_study.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/training.hpp"
#include "transfer.hpp"

using namespace attention::transfer;
namespace lim = attention::limits;

namespace {

val contract() {
    // Every entry of the table, under its name (a literal, so NUL-terminated).
    val limits = val::object();
    for (const lim::Limit& limit : lim::table) put(limits, limit.name.data(), limit.value);

    const attention::DatasetOptions data;
    val dataset = val::object();
    put(dataset, "n", data.n);
    put(dataset, "seed", data.seed);
    put(dataset, "noise", data.noise);
    put(dataset, "xMax", data.x_max);

    const attention::KernelSpec spec;
    val kernel = val::object();
    put(kernel, "kernel", val(std::string(attention::kernel_name(spec.kernel))));
    put(kernel, "w", spec.w);

    const attention::TrainingOptions train;
    val training = val::object();
    put(training, "w0", train.w0);
    put(training, "lr", train.lr);
    put(training, "epochs", train.epochs);
    put(training, "leaveOneOut", val(train.leave_one_out));

    const attention::ScalingStudyOptions study;
    val dims = val::array();
    for (std::size_t d : study.dims) dims.call<void>("push", static_cast<double>(d));
    val scaling = val::object();
    put(scaling, "dims", dims);
    put(scaling, "samples", study.samples);
    put(scaling, "keys", study.keys);
    put(scaling, "seed", study.seed);

    const attention::ConsistencyStudyOptions consistency_options;
    val sizes = val::array();
    for (std::size_t n : consistency_options.sizes) sizes.call<void>("push", static_cast<double>(n));
    val consistency = val::object();
    put(consistency, "sizes", sizes);
    put(consistency, "repeats", consistency_options.repeats);
    put(consistency, "queries", consistency_options.queries);
    put(consistency, "w", consistency_options.w);
    put(consistency, "noise", consistency_options.noise);
    put(consistency, "xMax", consistency_options.x_max);
    put(consistency, "seed", consistency_options.seed);

    const attention::NormalOptions normal_options;
    val normal = val::object();
    put(normal, "seed", normal_options.seed);
    put(normal, "std", normal_options.std);

    const attention::UniformOptions uniform_options;
    val uniform = val::object();
    put(uniform, "seed", uniform_options.seed);
    put(uniform, "low", uniform_options.low);
    put(uniform, "high", uniform_options.high);

    const attention::ModelTrainingOptions train_model;
    val task = val::object();
    const attention::TaskOptions task_options;
    put(task, "task", val(std::string(attention::attention_task_name(task_options.task))));
    put(task, "batch", task_options.batch);
    put(task, "length", task_options.length);
    put(task, "vocab", task_options.vocab);
    put(task, "seed", task_options.seed);
    put(task, "lag", task_options.lag);
    put(task, "variableLengths", val(task_options.variable_lengths));
    val model_training = val::object();
    put(model_training, "task", val(std::string(attention::attention_task_name(train_model.task))));
    put(model_training, "lag", train_model.lag);
    put(model_training, "variableLengths", val(train_model.variable_lengths));
    put(model_training, "causal", val(train_model.causal));
    put(model_training, "steps", train_model.steps);
    put(model_training, "batch", train_model.batch);
    put(model_training, "optimizer", val(std::string(train_model.optimizer.kind == attention::OptimizerKind::adam ? "adam" : "sgd")));
    put(model_training, "lr", train_model.optimizer.lr);
    put(model_training, "seed", train_model.seed);
    put(model_training, "evalEvery", train_model.eval_every);
    put(model_training, "heldOut", train_model.held_out);
    put(model_training, "evaluateAtEnd", val(train_model.evaluate_at_end));

    // A translator's sizes default to its task's (null).
    const attention::Seq2SeqTrainingOptions train_seq2seq;
    const val seq2seq_task(std::string(attention::seq2seq_task_name(train_seq2seq.task)));
    val seq2seq_model = config_to_js(attention::Seq2SeqConfig{}, seq2seq_task);
    for (const char* size : {"sourceVocab", "targetVocab", "sourceLength", "targetLength"}) put(seq2seq_model, size, val::null());
    val seq2seq_training = val::object();
    put(seq2seq_training, "task", seq2seq_task);
    put(seq2seq_training, "steps", train_seq2seq.steps);
    put(seq2seq_training, "batch", train_seq2seq.batch);
    put(seq2seq_training, "optimizer", val(std::string(train_seq2seq.optimizer.kind == attention::OptimizerKind::adam ? "adam" : "sgd")));
    put(seq2seq_training, "lr", train_seq2seq.optimizer.lr);
    put(seq2seq_training, "clip", train_seq2seq.clip);
    put(seq2seq_training, "seed", train_seq2seq.seed);
    put(seq2seq_training, "evalEvery", train_seq2seq.eval_every);
    put(seq2seq_training, "heldOut", train_seq2seq.held_out);
    put(seq2seq_training, "evaluateAtEnd", val(train_seq2seq.evaluate_at_end));

    val defaults = val::object();
    put(defaults, "attentionModel", config_to_js(attention::ModelConfig{}));
    put(defaults, "attentionTask", task);
    put(defaults, "attentionTraining", model_training);
    put(defaults, "seq2seqModel", seq2seq_model);
    put(defaults, "seq2seqTraining", seq2seq_training);
    put(defaults, "dataset", dataset);
    put(defaults, "kernel", kernel);
    put(defaults, "training", training);
    put(defaults, "scalingStudy", scaling);
    put(defaults, "consistencyStudy", consistency);
    put(defaults, "randomNormal", normal);
    put(defaults, "randomUniform", uniform);
    put(defaults, "maskedScore", attention::masked_score);
    put(defaults, "heldOutSeedMix", attention::held_out_seed_mix);

    val result = val::object();
    put(result, "limits", limits);
    put(result, "defaults", defaults);
    return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_contract) {
    emscripten::function("contract", &contract);
}
