// Bindings of the sequence-to-sequence models (core/seq2seq/): config, init,
// forward pass, loss, optimiser step, training, greedy translation, and the
// tasks with their vocabularies.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "model_transfer.hpp"
#include "inspection/alignment.hpp"
#include "row_steps_transfer.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/tasks.hpp"
#include "seq2seq/training.hpp"
#include "transfer.hpp"

using namespace attention::transfer;
namespace lim = attention::limits;

// Its sizes are the task's when it has one.
val attention::transfer::config_to_js(const attention::Seq2SeqConfig& c, const val& task) {
    val config = val::object();
    put(config, "architecture", val(std::string(attention::seq2seq_architecture_name(c.architecture))));
    put(config, "task", task);
    put(config, "sourceVocab", c.source_vocab);
    put(config, "targetVocab", c.target_vocab);
    put(config, "sourceLength", c.source_length);
    put(config, "targetLength", c.target_length);
    put(config, "hidden", c.hidden);
    put(config, "embed", c.embed);
    put(config, "layers", c.layers);
    put(config, "bidirectional", val(c.bidirectional));
    put(config, "scoring", val(std::string(attention::seq2seq_scoring_names.name_of(attention::seq2seq_scoring(c)))));
    put(config, "cell", val(std::string(attention::seq2seq_cell_names.name_of(c.cell))));
    put(config, "heads", c.heads);
    put(config, "ffnHidden", c.ffn_hidden);
    put(config, "blocks", c.blocks);
    put(config, "embeddingScale", c.embedding_scale);
    put(config, "seed", c.seed);
    return config;
}

namespace {

// The translators' calls (model_call, model_transfer.hpp).
template <class Body>
val translator_call(Body&& body) {
    return model_call(attention::release_seq2seq_workspace, std::forward<Body>(body));
}

val words(const std::vector<std::string>& list) {
    val array = val::array();
    for (const auto& word : list) array.call<void>("push", val(word));
    return array;
}

// The sizes a config names, or its task's: a config that has a task and
// sizes too must agree with the task.
std::size_t task_size(const val& config, const char* key, attention::CountRange range, std::size_t of_task,
                      bool has_task) {
    const val given = config[key];
    if (given.isNull() || given.isUndefined()) {
        if (!has_task) attention::fail(key, "a count (or a task that sets it)", "null");
        return of_task;
    }
    if (has_task) {
        // The task's size is the one count accepted: any other number, whole or not, is refused as such.
        const double number = given.as<double>();
        if (number != static_cast<double>(of_task))
            attention::fail(key, attention::text(of_task, " (the task's), or null"), number);
        return of_task;
    }
    return count(given.as<double>(), key, range);
}

attention::Seq2SeqConfig seq2seq_config(const val& config) {
    attention::Seq2SeqConfig c;
    c.architecture = attention::seq2seq_architecture_from_name(config["architecture"].as<std::string>());
    const val task = config["task"];
    const bool has_task = !task.isNull();
    attention::Seq2SeqTaskShape shape;
    if (has_task) shape = attention::seq2seq_task_shape(attention::seq2seq_task_from_name(task.as<std::string>()));
    // Each size read in the range the core's check gives it (a size no count holds says that range too).
    const auto range = [&](const char* key) { return attention::seq2seq_config_range(c.architecture, key); };
    const auto size = [&](const char* key) { return count(config[key].as<double>(), key, range(key)); };
    c.source_vocab = task_size(config, "sourceVocab", range("sourceVocab"), shape.source_vocab, has_task);
    c.target_vocab = task_size(config, "targetVocab", range("targetVocab"), shape.target_vocab, has_task);
    c.source_length = task_size(config, "sourceLength", range("sourceLength"), shape.source_length, has_task);
    c.target_length = task_size(config, "targetLength", range("targetLength"), shape.target_length, has_task);
    c.hidden = size("hidden");
    c.embed = size("embed");
    c.layers = size("layers");
    c.bidirectional = config["bidirectional"].as<bool>();
    const val scoring = config["scoring"];  // null: the architecture's own
    if (!scoring.isNull()) c.scoring = attention::seq2seq_scoring_names.from_name(scoring.as<std::string>());
    c.cell = attention::seq2seq_cell_names.from_name(config["cell"].as<std::string>());
    c.heads = size("heads");
    c.ffn_hidden = size("ffnHidden");
    c.blocks = size("blocks");
    c.embedding_scale = config["embeddingScale"].as<double>();
    c.seed = seed_of(config["seed"].as<double>());
    attention::check_seq2seq_config(c);
    return c;
}

// A translator as the JS API hands it over, with its config's task (a name or null).
struct IncomingTranslator : IncomingModel<attention::Seq2SeqModel> {
    val task = val::null();
};

IncomingTranslator incoming_translator(const val& model) {
    const val config = model["config"];
    const auto c = seq2seq_config(config);
    return {incoming_model<attention::Seq2SeqModel>(model, c, attention::seq2seq_layout(c),
                                                    attention::seq2seq_parameter_count(c)),
            config["task"]};
}

val model_to_js(const val& task, const attention::Seq2SeqModel& model, const attention::OptimizerState& state) {
    return model_object(config_to_js(model.config, task), model.layout, model.values, state);
}

constexpr std::size_t max_tokens = lim::max_model_batch * lim::max_model_length;

// An Int32Array of exactly `expected` ids (its length checked before it is copied).
void require_length(const val& array, std::size_t expected, const char* name, const char* what) {
    const std::size_t length = limited_length(array, max_tokens, name, what);
    if (length != expected) attention::fail(name, attention::text(expected, " ", what), length);
}

// {batch, source, sourceLens, targetIn, targetOut, targetLens}: every
// length checked against the config before anything is copied.
attention::Seq2SeqBatch batch_of(const attention::Seq2SeqConfig& config, const val& in, bool with_targets) {
    attention::Seq2SeqBatch batch;
    // As many items as the sources hold: a wrong count of lengths or targets is then theirs to name.
    const std::size_t tokens = limited_length(in["source"], max_tokens, "source", "tokens");
    batch.batch = std::max<std::size_t>(1, tokens / config.source_length);
    // A translation takes no batch argument: its sources set how many items its pass holds.
    const char* items = with_targets ? "batch" : "source";
    attention::require_count(items, batch.batch, 1, lim::max_model_batch);
    if (!with_targets) attention::check_seq2seq_pass(config, batch.batch, items, batch.batch, "sources");
    require_length(in["source"], batch.batch * config.source_length, "source", "tokens (batch * sourceLength)");
    require_length(in["sourceLens"], batch.batch, "sourceLens", "lengths (one per item)");
    if (with_targets) {
        const std::size_t tokens = batch.batch * config.target_length;
        require_length(in["targetIn"], tokens, "targetIn", "tokens (batch * targetLength)");
        require_length(in["targetOut"], tokens, "targetOut", "tokens (batch * targetLength)");
        require_length(in["targetLens"], batch.batch, "targetLens", "lengths (one per item)");
    }
    batch.source = integers(in["source"], max_tokens, "source", "tokens");
    batch.source_lens = integers(in["sourceLens"], lim::max_model_batch, "sourceLens", "lengths");
    if (with_targets) {
        batch.target_in = integers(in["targetIn"], max_tokens, "targetIn", "tokens");
        batch.target_out = integers(in["targetOut"], max_tokens, "targetOut", "tokens");
        batch.target_lens = integers(in["targetLens"], lim::max_model_batch, "targetLens", "lengths");
    }
    return batch;
}

val batch_to_js(const attention::Seq2SeqBatch& batch) {
    val object = val::object();
    object.set("source", to_js_int32(batch.source));
    object.set("sourceLens", to_js_int32(batch.source_lens));
    object.set("targetIn", to_js_int32(batch.target_in));
    object.set("targetOut", to_js_int32(batch.target_out));
    object.set("targetLens", to_js_int32(batch.target_lens));
    return object;
}

attention::Seq2SeqTask task_of(const val& value) { return attention::seq2seq_task_from_name(value.as<std::string>()); }

val seq2seq_vocabulary(val task_name) {
    return guarded([&] {
        const auto task = task_of(task_name);
        const auto& vocabulary = attention::seq2seq_vocabulary(task);
        const auto shape = attention::seq2seq_task_shape(task);
        val object = val::object();
        object.set("source", words(vocabulary.source));
        object.set("target", words(vocabulary.target));
        object.set("sourceLength", static_cast<double>(shape.source_length));
        object.set("targetLength", static_cast<double>(shape.target_length));
        object.set("heldOut", static_cast<double>(attention::seq2seq_held_out_size(task)));
        return object;
    });
}

val seq2seq_init(val config) {
    return translator_call([&] {
        return model_to_js(config["task"], attention::init_seq2seq_model(seq2seq_config(config)), {});
    });
}

val seq2seq_task_batch(val options) {
    return guarded([&] {
        const std::size_t batch = count(options["batch"].as<double>(), "batch");
        return batch_to_js(attention::seq2seq_task_batch(task_of(options["task"]), batch,
                                                         seed_of(options["seed"].as<double>())));
    });
}

val seq2seq_held_out(val options) {
    return guarded([&] {
        return batch_to_js(attention::seq2seq_held_out(task_of(options["task"]),
                                                       count(options["count"].as<double>(), "count")));
    });
}

val seq2seq_task_ideal(val options, double item) {
    return guarded([&] {
        const auto task = task_of(options["task"]);
        const std::size_t n = count(options["count"].as<double>(), "count");
        const std::size_t i = count(item, "item");
        const auto pairs = attention::seq2seq_held_out(task, n);
        attention::require_count("item", i, 0, n - 1);
        return to_js(attention::seq2seq_ideal_alignment(task, pairs, i));
    });
}

val seq2seq_forward(val model, val batch_object) {
    return translator_call([&] {
        const auto in = incoming_translator(model);
        const auto batch = batch_of(in.config, batch_object, true);
        const auto m = in.copy();
        const auto result = attention::seq2seq_forward(m, batch);
        val object = val::object();
        object.set("logits", to_js(result.logits));
        object.set("crossWeights", to_js(result.cross_weights));
        object.set("selfWeights", to_js(result.self_weights));
        object.set("encoderWeights", to_js(result.encoder_weights));
        return object;
    });
}

// How far each decoder map follows the task's ideal alignment (inspection/alignment.hpp).
val seq2seq_alignment(val model, val options) {
    return translator_call([&] {
        const auto in = incoming_translator(model);
        const auto task = task_of(options["task"]);
        const std::size_t n = count(options["count"].as<double>(), "count");
        const auto result = attention::seq2seq_alignment(in.copy(), task, n);
        val object = val::object();
        object.set("scores", to_js(result.scores));
        object.set("mean", to_js(result.mean));
        put(object, "blocks", result.scores.shape(0));
        put(object, "heads", result.scores.shape(1));
        put(object, "count", result.scores.shape(2));
        return object;
    });
}

// One row of a translator's attention in its teacher-forced forward pass, taken apart (attention_row_steps.hpp).
val seq2seq_row_steps(val model, val batch_object, val choice) {
    return translator_call([&] {
        const auto row = row_choice(choice);
        const auto kind = attention::seq2seq_attention_from_name(choice["attention"].as<std::string>());
        const auto in = incoming_translator(model);
        const auto batch = batch_of(in.config, batch_object, true);
        const auto m = in.copy();
        return row_steps_to_js(attention::seq2seq_row_steps(m, batch, row, kind));
    });
}

val seq2seq_loss(val model, val batch_object) {
    return translator_call([&] {
        const auto in = incoming_translator(model);
        const auto batch = batch_of(in.config, batch_object, true);
        const auto m = in.copy();
        const auto result = attention::seq2seq_loss(m, batch);
        val object = val::object();
        object.set("loss", result.loss);
        object.set("tokenLoss", result.token_loss);
        object.set("gradients", named_arrays(m.layout, result.gradients));
        return object;
    });
}

val seq2seq_step(val model, val batch_object, val options) {
    return translator_call([&] {
        const auto in = incoming_translator(model);
        const auto batch = batch_of(in.config, batch_object, true);
        const auto optimizer = optimizer_options(options);
        const double clip = options["clip"].as<double>();
        attention::require_range("clip", clip, 0.0, std::numeric_limits<double>::max());
        auto [m, state] = in.for_step(optimizer);
        auto loss = attention::seq2seq_loss(m, batch);
        attention::clip_gradients(loss.gradients, clip);
        attention::optimizer_step(m.values, loss.gradients, state, optimizer);
        return step_object(model_to_js(in.task, m, state), loss.token_loss);
    });
}

val seq2seq_train(val model, val options) {
    return translator_call([&] {
        const auto in = incoming_translator(model);
        attention::Seq2SeqTrainingOptions o;
        o.task = task_of(options["task"]);
        read_training_options(options, o);
        o.clip = options["clip"].as<double>();
        auto state = copy_state(in.parameters);
        auto m = in.copy();
        const auto result = attention::train_seq2seq(m, state, o);
        val object = training_object(model_to_js(in.task, m, state), result);
        object.set("bleu", to_js(result.bleu));
        object.set("heldOutBleu", number_or_null(result.held_out_bleu));
        return object;
    });
}

// The config as the core reads and checks it (its sizes the task's where it
// leaves them null): the JS API sizes a single source's padding by it.
val seq2seq_checked_config(val config) {
    return guarded([&] { return config_to_js(seq2seq_config(config), config["task"]); });
}

// {source, sourceLens, batch, maxLength}, the JS API having padded a single source.
val seq2seq_translate(val model, val options) {
    return translator_call([&] {
        const auto in = incoming_translator(model);
        const auto batch = batch_of(in.config, options, false);
        const std::size_t max_length = count(options["maxLength"].as<double>(), "maxLength");
        const auto m = in.copy();
        const auto result = attention::seq2seq_translate(m, batch.source, batch.source_lens, batch.batch, max_length);
        val object = val::object();
        object.set("tokens", to_js_int32(result.tokens));
        object.set("lengths", to_js_int32(result.lengths));
        object.set("crossWeights", to_js(result.cross_weights));
        return object;
    });
}

// The text is refused by its length before it is copied: its UTF-8 bytes
// are at least as many as its UTF-16 code units.
val seq2seq_source_from_text(val task, val text) {
    return guarded([&] {
        const auto which = task_of(task);
        const double units = text["length"].as<double>();
        if (const std::size_t limit = attention::seq2seq_text_limit(which); units > static_cast<double>(limit))
            attention::fail("text", attention::text("at most ", limit, " bytes"),
                            attention::text("at least ", units, " bytes"));
        const std::vector<int> ids = attention::seq2seq_source_from_text(which, text.as<std::string>());
        return val::take_ownership(attention_js_int32_copy(ids.data(), static_cast<double>(ids.size())));
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_seq2seq) {
    emscripten::function("seq2seqVocabulary", &seq2seq_vocabulary);
    emscripten::function("seq2seqInit", &seq2seq_init);
    emscripten::function("seq2seqTaskBatch", &seq2seq_task_batch);
    emscripten::function("seq2seqHeldOut", &seq2seq_held_out);
    emscripten::function("seq2seqTaskIdeal", &seq2seq_task_ideal);
    emscripten::function("seq2seqForward", &seq2seq_forward);
    emscripten::function("seq2seqAlignment", &seq2seq_alignment);
    emscripten::function("seq2seqRowSteps", &seq2seq_row_steps);
    emscripten::function("seq2seqLoss", &seq2seq_loss);
    emscripten::function("seq2seqStep", &seq2seq_step);
    emscripten::function("seq2seqTrain", &seq2seq_train);
    emscripten::function("seq2seqCheckedConfig", &seq2seq_checked_config);
    emscripten::function("seq2seqTranslate", &seq2seq_translate);
    emscripten::function("seq2seqSourceFromText", &seq2seq_source_from_text);
}
