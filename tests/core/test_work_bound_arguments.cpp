// A call over a work or memory bound is refused naming the argument the
// caller passed that drives it (an alignment's count, a training call's
// heldOut or evalEvery, a translation's sources), never one the call does
// not have; and a count read from a JS number says its real range.
#include <cmath>
#include <cstdint>
#include <string>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "contract/pass_bound.hpp"
#include "encoder/attention_model.hpp"
#include "encoder/attention_training.hpp"
#include "reference.hpp"
#include "inspection/alignment.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/tasks.hpp"
#include "seq2seq/training.hpp"
#include "training/optimizers.hpp"

using attention::Seq2SeqConfig;
using attention::Seq2SeqTask;

namespace {

// A Bahdanau translator for numbers-en-zh with hidden = embed = `size`.
Seq2SeqConfig translator(std::size_t size) {
    Seq2SeqConfig config;
    config.hidden = size;
    config.embed = size;
    return config;
}

// K of "at most K <noun> (...)".
std::size_t most_of(const std::string& expected) {
    REQUIRE(expected.rfind("at most ", 0) == 0);
    return static_cast<std::size_t>(std::stoul(expected.substr(8)));
}

}  // namespace

TEST_CASE("seq2seq_alignment over its pass bound names count, with the most pairs the model takes", "[work-bound]") {
    // hidden 384 / embed 384: a pass over 64 pairs is 4.6 G multiply-adds. Once refused naming `batch`,
    // an argument seq2seqAlignment does not have.
    const auto model = attention::init_seq2seq_model(translator(384));
    const auto error = ref::argument_error_of([&] { attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, 64); });
    CHECK(error.argument == "count");
    CHECK(error.got == "64");
    CHECK(error.expected.find(std::to_string(attention::limits::max_model_work)) != std::string::npos);
    const std::size_t most = most_of(error.expected);
    REQUIRE(most >= 1);
    REQUIRE(most < 64);
    // The most is the most: that many pairs are aligned, one more is refused, naming count.
    CHECK(attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, most).scores.shape(2) == most);
    CHECK(ref::argument_error_of([&] { attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, most + 1); })
              .argument == "count");
    // The whole held-out set is read in slices of 64: over the bound whatever the count past 64.
    CHECK(ref::argument_error_of([&] { attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, 500); })
              .argument == "count");
}

TEST_CASE("train_seq2seq names heldOut or evalEvery when the held-out evaluations drive its work", "[work-bound]") {
    attention::Seq2SeqTrainingOptions options;
    options.steps = 1;
    options.batch = 1;
    options.held_out = 500;
    auto refusal = [&](const Seq2SeqConfig& config) {
        auto model = attention::init_seq2seq_model(config);
        attention::OptimizerState state;
        const auto before = model.values;
        const auto error = ref::argument_error_of([&] { attention::train_seq2seq(model, state, options); });
        CHECK(bool(model.values == before));
        return error;
    };
    // hidden 384: one step is cheap, but a slice of 64 held-out pairs is over one pass's bound.
    // Once refused naming `steps` (got 1).
    const auto slice = refusal(translator(384));
    CHECK(slice.argument == "heldOut");
    CHECK(slice.got == "500");
    CHECK(most_of(slice.expected) < attention::seq2seq_held_out_slice);
    // hidden 128: each pass within its bound; four evaluations of 500 pairs are over the call's.
    options.steps = 3;
    options.eval_every = 1;
    const auto evaluations = refusal(translator(128));
    CHECK(evaluations.argument == "heldOut");
    CHECK(evaluations.got == "500");
    CHECK(evaluations.expected.find(std::to_string(attention::limits::max_training_work)) != std::string::npos);
    // Many evaluations of a few pairs each (41 of 20): fewer would do, 20 pairs of one would not: evalEvery.
    options.steps = 40;
    options.held_out = 20;
    const auto often = refusal(translator(128));
    CHECK(often.argument == "evalEvery");
    CHECK(often.got == "1");
    // The steps alone over the bound: steps, however few the evaluations (the one at the end, of one pair).
    options.steps = 10000;
    options.held_out = 1;
    options.eval_every = 10000;
    CHECK(refusal(translator(128)).argument == "steps");
}

TEST_CASE("train_seq2seq names the batch whose step's pass is over its bound, before counting the call", "[work-bound]") {
    attention::Seq2SeqTrainingOptions options;
    options.steps = 1;
    options.batch = 1024;
    options.held_out = 1;
    auto model = attention::init_seq2seq_model(translator(384));
    attention::OptimizerState state;
    const auto error = ref::argument_error_of([&] { attention::train_seq2seq(model, state, options); });
    CHECK(error.argument == "batch");
    CHECK(error.got == "1024");
    CHECK(most_of(error.expected) < 1024);
}

TEST_CASE("train_attention_model names heldOut when the held-out pass is over its bound", "[work-bound]") {
    // Length 256, hidden 2: few multiply-adds, many activations (batch x heads x length^2). A batch of 32
    // fits; the held-out set of 256 sequences does not. Once the run took 50 steps, then its evaluation
    // was refused naming `batch`.
    attention::EncoderConfig config;
    config.vocab = 2;
    config.length = 256;
    config.hidden = 2;
    config.heads = 1;
    auto model = attention::init_attention_model(config);
    attention::OptimizerState state;
    attention::ModelTrainingOptions options;
    options.steps = 60;
    const auto before = model.values;
    const auto error = ref::argument_error_of([&] { attention::train_attention_model(model, state, options); });
    CHECK(error.argument == "heldOut");
    CHECK(error.got == "256");
    CHECK(error.expected.find(std::to_string(attention::limits::max_model_activations)) != std::string::npos);
    CHECK(bool(model.values == before));
    CHECK(state.step == 0);
    const std::size_t most = most_of(error.expected);
    options.held_out = most;
    options.steps = 1;
    CHECK_NOTHROW(attention::train_attention_model(model, state, options));
    options.held_out = most + 1;
    CHECK(ref::argument_error_of([&] { attention::train_attention_model(model, state, options); }).argument == "heldOut");
}

TEST_CASE("the pass bound's most items is exact, and a model too large for one item says so", "[work-bound]") {
    const Seq2SeqConfig config = translator(256);
    const auto error = ref::argument_error_of([&] { attention::check_seq2seq_pass(config, 100, "source", 100, "sources"); });
    CHECK(error.argument == "source");
    CHECK(error.got == "100");
    const std::size_t most = most_of(error.expected);
    CHECK_NOTHROW(attention::check_seq2seq_pass(config, most, "source", most, "sources"));
    CHECK_THROWS_AS(attention::check_seq2seq_pass(config, most + 1, "source", most + 1, "sources"),
                    attention::ArgumentError);
    // Work growing with the items, over the bound already at one.
    const auto none = ref::argument_error_of([] {
        attention::check_pass_bound(3, "count", 3, "pairs", [](std::uint64_t) { return std::uint64_t{0}; },
                                    [](std::uint64_t n) { return (n + 1) * attention::limits::max_model_work; });
    });
    CHECK(none.argument == "count");
    CHECK(none.expected.rfind("a smaller model", 0) == 0);
    // Over the memory bound: it says which.
    const auto memory = ref::argument_error_of([] {
        attention::check_pass_bound(8, "batch", 8, "items",
                                    [](std::uint64_t n) { return n * (attention::limits::max_model_activations / 4); },
                                    [](std::uint64_t) { return std::uint64_t{0}; });
    });
    CHECK(memory.expected == "at most 4 items (this model's forward and backward pass over more keeps more than " +
                                 std::to_string(attention::limits::max_model_activations) + " numbers)");
}

TEST_CASE("a count read from a JS number says its real range, 2^31 and beyond included", "[work-bound]") {
    using attention::count_of_number;
    // Once "a whole number >= 0, got 2147483648", which 2147483648 is.
    const auto huge = ref::argument_error_of([] { count_of_number("hidden", 2147483648.0, {1, 1024}); });
    CHECK(huge.argument == "hidden");
    CHECK(huge.expected == "a count in [1, 1024]");
    CHECK(huge.got == "2147483648");
    // The same words as the core's own check of 1025.
    CHECK(ref::argument_error_of([] { attention::require_count("hidden", 1025, 1, 1024); }).expected == huge.expected);
    CHECK(ref::argument_error_of([] { count_of_number("hidden", 1e300, {1, 1024}); }).got == "1e+300");
    CHECK(ref::argument_error_of([] { count_of_number("hidden", 2.5, {1, 1024}); }).expected ==
          "a whole number in [1, 1024]");
    CHECK(ref::argument_error_of([] { count_of_number("hidden", std::nan(""), {1, 1024}); }).got == "NaN");
    CHECK(ref::argument_error_of([] { count_of_number("n", -1, {0, attention::largest_count}); }).expected ==
          "a count in [0, 2147483647]");
    CHECK(count_of_number("hidden", 1024, {1, 1024}) == 1024);
    CHECK(count_of_number("n", 2147483647.0, {0, attention::largest_count}) == 2147483647u);
    // Each config field's range is its check's: the smallest and largest pass, one past either is refused.
    for (const char* field : {"vocab", "length", "hidden", "heads", "blocks", "ffnHidden"}) {
        INFO(field);
        const auto range = attention::encoder_config_range(field);
        CHECK(range.high < attention::largest_count);
        attention::EncoderConfig config;
        config.hidden = 64;
        config.heads = 1;
        auto with = [&](std::size_t value) {
            auto c = config;
            const std::string name = field;
            (name == "vocab" ? c.vocab : name == "length" ? c.length : name == "hidden" ? c.hidden
             : name == "heads" ? c.heads : name == "blocks" ? c.blocks : c.ffn_hidden) = value;
            return c;
        };
        if (std::string(field) != "hidden") {  // hidden's largest makes too many parameters with the rest
            CHECK_NOTHROW(attention::check_encoder_config(with(range.low)));
            CHECK_NOTHROW(attention::check_encoder_config(with(std::string(field) == "heads" ? 64 : range.high)));
        }
        if (range.low > 0)
            CHECK(ref::argument_error_of([&] { attention::check_encoder_config(with(range.low - 1)); }).argument == field);
        CHECK(ref::argument_error_of([&] { attention::check_encoder_config(with(range.high + 1)); }).argument == field);
    }
    // A translator's: the fields its architecture reads have their limits, the others any count.
    using attention::Seq2SeqArchitecture;
    CHECK(attention::seq2seq_config_range(Seq2SeqArchitecture::bahdanau, "embed").high == attention::limits::max_dimension);
    CHECK(attention::seq2seq_config_range(Seq2SeqArchitecture::transformer, "embed").high == attention::largest_count);
    CHECK(attention::seq2seq_config_range(Seq2SeqArchitecture::bahdanau, "heads").high == attention::largest_count);
    CHECK(attention::seq2seq_config_range(Seq2SeqArchitecture::transformer, "heads").high == attention::limits::max_heads);
    CHECK(attention::seq2seq_config_range(Seq2SeqArchitecture::transformer, "sourceVocab").low == 4);
}
