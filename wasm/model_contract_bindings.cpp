// Binding of the trainable models' part of the contract, read once by the JS
// API when the models' module is loaded: the defaults of the encoder's and
// the translators' options (the option structs), and the names each kind
// takes (optimiser, task, architecture). The limits, theirs
// included, come with the basics (contract_bindings.cpp).
#include <emscripten/bind.h>

#include <initializer_list>
#include <string>

#include "encoder/attention_model.hpp"
#include "encoder/attention_tasks.hpp"
#include "encoder/attention_training.hpp"
#include "training/optimizers.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/training.hpp"
#include "transfer.hpp"

using namespace attention::transfer;

namespace {

template <class Table>
val names_to_js(const Table& table) {
    val list = val::array();
    for (const std::string& name : table.names()) list.call<void>("push", val(name));
    return list;
}

// The training loop's options both models' trainings share.
template <class TrainingOptions>
void put_training_loop(val& into, const TrainingOptions& options) {
    put(into, "steps", options.steps);
    put(into, "batch", options.batch);
    put(into, "optimizer", val(std::string(attention::optimizer_names.name_of(options.optimizer.kind))));
    put(into, "lr", options.optimizer.lr);
    put(into, "seed", options.seed);
    put(into, "evalEvery", options.eval_every);
    put(into, "heldOut", options.held_out);
    put(into, "evaluateAtEnd", val(options.evaluate_at_end));
}

val model_contract() {
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
    put_training_loop(model_training, train_model);

    // A translator's sizes default to its task's (null).
    const attention::Seq2SeqTrainingOptions train_seq2seq;
    const val seq2seq_task(std::string(attention::seq2seq_task_name(train_seq2seq.task)));
    val seq2seq_model = config_to_js(attention::Seq2SeqConfig{}, seq2seq_task);
    // Its scoring too: null takes the architecture's own, whichever architecture the config names.
    for (const char* field : {"sourceVocab", "targetVocab", "sourceLength", "targetLength", "scoring"})
        put(seq2seq_model, field, val::null());
    val seq2seq_training = val::object();
    put(seq2seq_training, "task", seq2seq_task);
    put_training_loop(seq2seq_training, train_seq2seq);
    put(seq2seq_training, "clip", train_seq2seq.clip);

    val defaults = val::object();
    put(defaults, "attentionModel", config_to_js(attention::EncoderConfig{}));
    put(defaults, "attentionTask", task);
    put(defaults, "attentionTraining", model_training);
    put(defaults, "seq2seqModel", seq2seq_model);
    put(defaults, "seq2seqTraining", seq2seq_training);
    put(defaults, "heldOutSeedMix", attention::held_out_seed_mix);

    // Each kind's names, from its one table (contract/kind_names.hpp).
    val kinds = val::object();
    put(kinds, "optimizer", names_to_js(attention::optimizer_names));
    put(kinds, "attentionTask", names_to_js(attention::attention_task_names));
    put(kinds, "positional", names_to_js(attention::positional_kind_names));
    put(kinds, "seq2seqTask", names_to_js(attention::seq2seq_task_names));
    put(kinds, "seq2seqArchitecture", names_to_js(attention::seq2seq_architecture_names));
    put(kinds, "seq2seqScoring", names_to_js(attention::seq2seq_scoring_names));
    put(kinds, "seq2seqCell", names_to_js(attention::seq2seq_cell_names));

    val result = val::object();
    put(result, "defaults", defaults);
    put(result, "kinds", kinds);
    return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_model_contract) {
    emscripten::function("modelContract", &model_contract);
}
