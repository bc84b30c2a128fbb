// Bindings of the trainable attention model: its config, init, forward pass,
// loss, optimiser step, toy tasks and training loop.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "encoder/attention_model.hpp"
#include "encoder/attention_tasks.hpp"
#include "encoder/attention_training.hpp"
#include "training/optimizers.hpp"
#include "model_transfer.hpp"
#include "row_steps_transfer.hpp"
#include "transfer.hpp"

using namespace attention::transfer;
namespace lim = attention::limits;

val attention::transfer::config_to_js(const attention::EncoderConfig& c) {
    val config = val::object();
    put(config, "vocab", c.vocab);
    put(config, "length", c.length);
    put(config, "hidden", c.hidden);
    put(config, "heads", c.heads);
    put(config, "blocks", c.blocks);
    put(config, "ffnHidden", c.ffn_hidden);
    put(config, "embeddingScale", c.embedding_scale);
    put(config, "positional", val(std::string(attention::positional_kind_names.name_of(c.positional))));
    put(config, "seed", c.seed);
    return config;
}

namespace {

attention::EncoderConfig encoder_config(const val& config) {
    attention::EncoderConfig c;
    // Each size read in the range the core's check gives it (a size no count holds says that range too).
    const auto size = [&](const char* key) {
        return count(config[key].as<double>(), key, attention::encoder_config_range(key));
    };
    c.vocab = size("vocab");
    c.length = size("length");
    c.hidden = size("hidden");
    c.heads = size("heads");
    c.blocks = size("blocks");
    c.ffn_hidden = size("ffnHidden");
    c.embedding_scale = config["embeddingScale"].as<double>();
    c.positional = attention::positional_kind_names.from_name(config["positional"].as<std::string>());
    c.seed = seed_of(config["seed"].as<double>());
    attention::check_encoder_config(c);
    return c;
}

// The encoder's calls (model_call, model_transfer.hpp).
template <class Body>
val encoder_call(Body&& body) {
    return model_call(attention::release_encoder_workspace, std::forward<Body>(body));
}

IncomingModel<attention::AttentionModel> incoming_encoder(const val& model) {
    const auto config = encoder_config(model["config"]);
    return incoming_model<attention::AttentionModel>(model, config, attention::encoder_layout(config),
                                                     attention::encoder_parameter_count(config));
}

val model_to_js(const attention::AttentionModel& model, const attention::OptimizerState& state) {
    return model_object(config_to_js(model.config), model.layout, model.values, state);
}

constexpr std::size_t max_tokens = lim::max_model_batch * lim::max_model_length;

constexpr std::size_t max_head_flags = lim::max_blocks * lim::max_heads;

// A batch of sequences ({batch, validLens, causal, headsOff} and the tokens,
// and the targets of a call that has them), the lengths checked against the
// model's config before anything is copied.
struct IncomingBatch {
    const val& tokens;
    const val* targets;
    val lens, heads_off;
    attention::BatchOptions options;

    // The valid lengths and head flags into the options, once every length is known to be right.
    void copy_masks() {
        options.valid_lens = integers(lens, lim::max_model_batch, "validLens", "lengths");
        options.heads_off = integers(heads_off, max_head_flags, "headsOff", "flags");
    }
};

IncomingBatch incoming_batch(const attention::EncoderConfig& config, const val& tokens, const val* targets,
                             const val& options) {
    IncomingBatch in{tokens, targets, options["validLens"], options["headsOff"], {}};
    const std::size_t token_count = limited_length(tokens, max_tokens, "tokens", "tokens");
    const std::optional<std::size_t> target_count =
        targets ? std::optional<std::size_t>(limited_length(*targets, max_tokens, "targets", "tokens")) : std::nullopt;
    in.options.batch = count(options["batch"].as<double>(), "batch");
    in.options.causal = options["causal"].as<bool>();
    attention::check_batch_sizes(config, {in.options.batch, token_count, target_count,
                                          limited_length(in.lens, lim::max_model_batch, "validLens", "lengths"),
                                          limited_length(in.heads_off, max_head_flags, "headsOff", "flags")});
    return in;
}

xt::xtensor<int, 1> token_ids(const val& array, const char* name) { return integers(array, max_tokens, name, "tokens"); }

val attention_model_init(val config) {
    return encoder_call([&] {
        return model_to_js(attention::init_attention_model(encoder_config(config)), {});
    });
}

val attention_model_forward(val model, val tokens, val options) {
    return encoder_call([&] {
        const auto in = incoming_encoder(model);
        auto batch = incoming_batch(in.config, tokens, nullptr, options);
        const auto m = in.copy();
        batch.copy_masks();
        const auto result = attention::attention_model_forward(m, token_ids(tokens, "tokens"), batch.options);
        val object = val::object();
        object.set("logits", to_js(result.logits));
        object.set("weights", to_js(result.weights));
        return object;
    });
}

val attention_model_loss(val model, val tokens, val targets, val options) {
    return encoder_call([&] {
        const auto in = incoming_encoder(model);
        auto batch = incoming_batch(in.config, tokens, &targets, options);
        const auto m = in.copy();
        batch.copy_masks();
        const auto result = attention::attention_model_loss(m, token_ids(tokens, "tokens"),
                                                            token_ids(targets, "targets"), batch.options);
        val object = val::object();
        object.set("loss", result.loss);
        object.set("gradients", named_arrays(m.layout, result.gradients));
        return object;
    });
}

val attention_model_step(val model, val tokens, val targets, val options) {
    return encoder_call([&] {
        const auto in = incoming_encoder(model);
        auto batch = incoming_batch(in.config, tokens, &targets, options);
        const auto optimizer = optimizer_options(options);
        auto [m, state] = in.for_step(optimizer);
        batch.copy_masks();
        const auto loss = attention::attention_model_loss(m, token_ids(tokens, "tokens"),
                                                          token_ids(targets, "targets"), batch.options);
        attention::optimizer_step(m.values, loss.gradients, state, optimizer);
        return step_object(model_to_js(m, state), loss.loss);
    });
}

val attention_model_accuracy(val model, val tokens, val targets, val options) {
    return encoder_call([&] {
        const auto in = incoming_encoder(model);
        auto batch = incoming_batch(in.config, tokens, &targets, options);
        const auto m = in.copy();
        batch.copy_masks();
        const auto result = attention::attention_model_accuracy(m, token_ids(tokens, "tokens"),
                                                                token_ids(targets, "targets"), batch.options);
        val object = val::object();
        object.set("accuracy", result.accuracy);
        object.set("positions", static_cast<double>(result.positions));
        object.set("loss", result.loss);
        return object;
    });
}

// One row of the attention in the forward pass of a batch, taken apart (attention_row_steps.hpp).
val attention_model_row_steps(val model, val tokens, val options, val choice) {
    return encoder_call([&] {
        const auto row = row_choice(choice);
        const auto in = incoming_encoder(model);
        auto batch = incoming_batch(in.config, tokens, nullptr, options);
        const auto m = in.copy();
        batch.copy_masks();
        return row_steps_to_js(attention::attention_model_row_steps(m, token_ids(tokens, "tokens"), batch.options, row));
    });
}

// {task, batch, length, vocab, seed, lag, variableLengths}, checked in JS for type.
attention::TaskOptions task_options(const val& options) {
    attention::TaskOptions t;
    t.task = attention::attention_task_from_name(options["task"].as<std::string>());
    t.batch = count(options["batch"].as<double>(), "batch");
    t.length = count(options["length"].as<double>(), "length");
    t.vocab = count(options["vocab"].as<double>(), "vocab");
    t.seed = seed_of(options["seed"].as<double>());
    t.lag = count(options["lag"].as<double>(), "lag");
    t.variable_lengths = options["variableLengths"].as<bool>();
    attention::check_task_options(t);
    return t;
}

val attention_task_batch(val options) {
    return guarded([&] {
        const auto batch = attention::attention_task_batch(task_options(options));
        val object = val::object();
        object.set("tokens", to_js_int32(batch.tokens));
        object.set("targets", to_js_int32(batch.targets));
        object.set("validLens", to_js_int32(batch.valid_lens));
        return object;
    });
}

val attention_task_ideal(val options, double item) {
    return guarded([&] {
        const auto t = task_options(options);
        const std::size_t i = count(item, "item");
        attention::require_count("item", i, 0, t.batch - 1);
        return to_js(attention::ideal_attention(t, attention::attention_task_batch(t), i));
    });
}

val attention_model_train(val model, val options) {
    return encoder_call([&] {
        const auto in = incoming_encoder(model);
        attention::ModelTrainingOptions o;
        o.task = attention::attention_task_from_name(options["task"].as<std::string>());
        o.lag = count(options["lag"].as<double>(), "lag");
        o.variable_lengths = options["variableLengths"].as<bool>();
        o.causal = options["causal"].as<bool>();
        read_training_options(options, o);
        // The state is checked in the core, against the steps to take, as the caller gave it.
        auto state = copy_state(in.parameters);
        auto m = in.copy();
        const auto result = attention::train_attention_model(m, state, o);
        return training_object(model_to_js(m, state), result);
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_model) {
    emscripten::function("attentionModelInit", &attention_model_init);
    emscripten::function("attentionModelForward", &attention_model_forward);
    emscripten::function("attentionModelRowSteps", &attention_model_row_steps);
    emscripten::function("attentionModelLoss", &attention_model_loss);
    emscripten::function("attentionModelStep", &attention_model_step);
    emscripten::function("attentionModelAccuracy", &attention_model_accuracy);
    emscripten::function("attentionTaskBatch", &attention_task_batch);
    emscripten::function("attentionTaskIdeal", &attention_task_ideal);
    emscripten::function("attentionModelTrain", &attention_model_train);
}
