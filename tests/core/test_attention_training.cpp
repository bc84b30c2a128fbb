// The training loop of the attention model: batches as a function of seed and
// global step (so training in chunks is training in one go), held-out
// evaluations, the checks and work limit; and the attention-only default
// learning reverse.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "encoder/attention_model.hpp"
#include "encoder/attention_training.hpp"
#include "contract/limits.hpp"
#include "reference.hpp"

using attention::AttentionTask;
using attention::ModelTrainingOptions;

namespace {
attention::EncoderConfig small_config() {
    attention::EncoderConfig config;
    config.seed = 3;
    return config;
}
ModelTrainingOptions options_for(AttentionTask task, std::size_t steps) {
    ModelTrainingOptions o;
    o.task = task;
    o.steps = steps;
    o.batch = 8;
    o.seed = 21;
    o.eval_every = 4;
    o.held_out = 16;
    return o;
}
}  // namespace

TEST_CASE("train_attention_model: each step is one optimiser step on the batch of seed + step", "[training]") {
    const auto config = small_config();
    auto trained = attention::init_attention_model(config);
    attention::OptimizerState trained_state;
    auto o = options_for(AttentionTask::shift, 3);
    o.variable_lengths = true;
    o.causal = true;
    const auto result = attention::train_attention_model(trained, trained_state, o);

    auto manual = attention::init_attention_model(config);
    attention::OptimizerState manual_state;
    for (std::uint64_t t = 0; t < 3; ++t) {
        const auto task = attention::training_batch_options(config, o, t);
        CHECK(task.seed == o.seed + t);
        const auto batch = attention::attention_task_batch(task);
        attention::BatchOptions b;
        b.batch = o.batch;
        b.valid_lens = batch.valid_lens;
        b.causal = true;
        const auto loss = attention::attention_model_loss(manual, batch.tokens, batch.targets, b);
        CHECK(result.loss(t) == loss.loss);
        attention::optimizer_step(manual.values, loss.gradients, manual_state, o.optimizer);
    }
    CHECK((trained.values == manual.values));
    CHECK(trained_state.step == 3);
    CHECK((trained_state.m == manual_state.m));
}

TEST_CASE("train_attention_model: ten calls of three steps give the model of one call of thirty", "[training]") {
    const auto config = small_config();
    for (AttentionTask task : {AttentionTask::reverse, AttentionTask::lookup}) {
        auto whole = attention::init_attention_model(config);
        attention::OptimizerState whole_state;
        const auto once = attention::train_attention_model(whole, whole_state, options_for(task, 30));
        auto chunked = attention::init_attention_model(config);
        attention::OptimizerState chunked_state;
        std::vector<double> losses, evaluated_at;
        for (int call = 0; call < 10; ++call) {
            const auto part = attention::train_attention_model(chunked, chunked_state, options_for(task, 3));
            losses.insert(losses.end(), part.loss.begin(), part.loss.end());
            evaluated_at.insert(evaluated_at.end(), part.evaluated_at.begin(), part.evaluated_at.end());
        }
        CHECK((chunked.values == whole.values));
        CHECK(std::vector<double>(once.loss.begin(), once.loss.end()) == losses);
        CHECK(std::vector<double>(once.evaluated_at.begin(), once.evaluated_at.end()) == evaluated_at);
        // Evaluated after steps 4, 8, ..., 28.
        REQUIRE(once.evaluated_at.size() == 7);
        CHECK(once.evaluated_at(0) == 4);
        CHECK(once.evaluated_at(6) == 28);
    }
}

TEST_CASE("train_attention_model: held-out accuracy is the model's accuracy on the held-out batch", "[training]") {
    const auto config = small_config();
    auto model = attention::init_attention_model(config);
    attention::OptimizerState state;
    auto o = options_for(AttentionTask::sort, 8);  // ends on an evaluation (8 = 2 x 4)
    const auto result = attention::train_attention_model(model, state, o);
    const auto held_out = attention::held_out_options(config, o);
    CHECK(held_out.seed == (o.seed ^ attention::held_out_seed_mix));
    CHECK(held_out.batch == o.held_out);
    const auto test = attention::attention_task_batch(held_out);
    attention::BatchOptions b;
    b.batch = o.held_out;
    b.valid_lens = test.valid_lens;
    const double accuracy = attention::attention_model_accuracy(model, test.tokens, test.targets, b).accuracy;
    CHECK(result.held_out_accuracy == accuracy);
    CHECK(result.accuracy(result.accuracy.size() - 1) == accuracy);
    // A call that does not end on an evaluation measures at its end all the same.
    o.steps = 3;
    const auto more = attention::train_attention_model(model, state, o);
    CHECK(more.accuracy.size() == 0);
    CHECK(more.held_out_accuracy == attention::attention_model_accuracy(model, test.tokens, test.targets, b).accuracy);
    // Unless told not to: then only evaluation steps evaluate.
    o.evaluate_at_end = false;
    CHECK(std::isnan(attention::train_attention_model(model, state, o).held_out_accuracy));  // steps 12 to 14
    o.steps = 2;
    CHECK(attention::train_attention_model(model, state, o).held_out_accuracy >= 0.0);  // ends on step 16
}

TEST_CASE("train_attention_model: refused options name their argument and leave the model as it was", "[training]") {
    const auto config = small_config();
    auto model = attention::init_attention_model(config);
    const auto before = model.values;
    attention::OptimizerState state;
    auto with = [&](auto change) {
        auto o = options_for(AttentionTask::reverse, 5);
        change(o);
        return o;
    };
    using O = ModelTrainingOptions;
    REQUIRE_ARGUMENT_ERROR(train_attention_model(model, state, with([](O& o) { o.steps = 0; })), "steps");
    REQUIRE_ARGUMENT_ERROR(
        train_attention_model(model, state, with([](O& o) { o.steps = attention::limits::max_training_steps + 1; })),
        "steps");
    REQUIRE_ARGUMENT_ERROR(train_attention_model(model, state, with([](O& o) { o.eval_every = 0; })), "evalEvery");
    REQUIRE_ARGUMENT_ERROR(train_attention_model(model, state, with([](O& o) { o.held_out = 0; })), "heldOut");
    REQUIRE_ARGUMENT_ERROR(train_attention_model(model, state, with([](O& o) { o.batch = 0; })), "batch");
    REQUIRE_ARGUMENT_ERROR(train_attention_model(model, state, with([](O& o) { o.optimizer.lr = -1; })), "lr");
    REQUIRE_ARGUMENT_ERROR(
        train_attention_model(model, state, with([](O& o) { o.task = AttentionTask::shift, o.lag = 8; })), "lag");
    // The work of the whole call is bounded before the first step.
    REQUIRE_ARGUMENT_ERROR(train_attention_model(model, state, with([](O& o) {
                               o.batch = attention::limits::max_model_batch;
                               o.steps = attention::limits::max_training_steps;
                           })),
                           "steps");
    CHECK((model.values == before));
    CHECK(state.step == 0);
    // lookup needs vocab >= length / 2: the model's vocab is checked against its length.
    auto narrow = small_config();
    narrow.vocab = 3;
    auto narrow_model = attention::init_attention_model(narrow);
    REQUIRE_ARGUMENT_ERROR(
        train_attention_model(narrow_model, state, with([](O& o) { o.task = AttentionTask::lookup; })), "vocab");
}

TEST_CASE("train_attention_model: a diverging run stops at its last finite model, wherever the calls are cut",
          "[training]") {
    const auto config = small_config();
    auto diverging = [] {
        auto o = options_for(AttentionTask::reverse, 200);
        o.optimizer = {attention::OptimizerKind::sgd, 1.0};
        o.evaluate_at_end = false;
        return o;
    };
    auto whole = attention::init_attention_model(config);
    attention::OptimizerState whole_state;
    const auto result = attention::train_attention_model(whole, whole_state, diverging());
    REQUIRE_FALSE(result.stop_reason.empty());
    CHECK(result.stop_reason.find("try a smaller learning rate") != std::string::npos);
    const std::uint64_t stopped = whole_state.step;
    CHECK(stopped > 0);
    CHECK(stopped < 200);
    CHECK(result.loss.size() == stopped);
    for (double loss : result.loss) CHECK(std::isfinite(loss));
    for (double value : whole.values) REQUIRE(std::isfinite(value));
    for (double at : result.evaluated_at) CHECK(at <= static_cast<double>(stopped));
    // The model kept has a finite loss on the batch it would train on next.
    const auto next = attention::attention_task_batch(attention::training_batch_options(config, diverging(), stopped));
    attention::BatchOptions b;
    b.batch = 8;
    CHECK(std::isfinite(attention::attention_model_accuracy(whole, next.tokens, next.targets, b).loss));
    // One step at a time: the same stop, the same bits.
    auto stepped = attention::init_attention_model(config);
    attention::OptimizerState stepped_state;
    auto one = diverging();
    one.steps = 1;
    std::string reason;
    for (int call = 0; call < 200 && reason.empty(); ++call)
        reason = attention::train_attention_model(stepped, stepped_state, one).stop_reason;
    CHECK(reason == result.stop_reason);
    CHECK(stepped_state.step == stopped);
    CHECK(xt::all(xt::equal(stepped.values, whole.values)));
    // Handed back, the stopped model takes no step and stays as it is.
    const auto again = attention::train_attention_model(stepped, stepped_state, diverging());
    CHECK(again.loss.size() == 0);
    CHECK(stepped_state.step == stopped);
    CHECK(xt::all(xt::equal(stepped.values, whole.values)));
}

TEST_CASE("train_attention_model: the step count given, with the steps to take, stays within 2^53 - 1", "[training]") {
    auto model = attention::init_attention_model(small_config());
    attention::OptimizerState state;
    state.step = attention::max_optimizer_step - 2;
    auto error = ref::argument_error_of(
        [&] { attention::train_attention_model(model, state, options_for(AttentionTask::reverse, 3)); });
    CHECK(error.argument == "optimizerState.step");
    CHECK(error.got == "9007199254740989");
    CHECK(error.expected == "a step count in [0, 9007199254740988] (3 steps to take, within 2^53 - 1)");
    attention::train_attention_model(model, state, options_for(AttentionTask::reverse, 2));
    CHECK(state.step == attention::max_optimizer_step);
}

TEST_CASE("the attention-only default learns reverse: >= 99% held out within 2,000 Adam steps", "[training][learning]") {
    attention::EncoderConfig config;  // vocab 10, length 8, hidden 32, heads 4, one attention-only block
    auto model = attention::init_attention_model(config);
    attention::OptimizerState state;
    ModelTrainingOptions o;  // reverse, batch 32, Adam at 0.01, seed 0, 256 held out
    o.steps = 100;
    double accuracy = 0;
    const auto start = std::chrono::steady_clock::now();
    while (state.step < 2000 && accuracy < 0.99) accuracy = train_attention_model(model, state, o).held_out_accuracy;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("reverse: %.1f%% held out after %llu Adam steps (%.2f s)\n", 100 * accuracy,
                static_cast<unsigned long long>(state.step), seconds);
    CHECK(accuracy >= 0.99);
}
