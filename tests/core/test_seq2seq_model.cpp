// The translators (core/seq2seq/) against d2l's modules in PyTorch
// (tests/references/seq2seq_references.json, made by
// make_seq2seq_references.py): d2l 10.4's Bahdanau model, one-directional
// and bidirectional, and d2l 10.7's Transformer encoder-decoder. Forward pass
// (logits and every attention map), d2l's objective and the token loss, every
// gradient by name, two clipped Adam steps as d2l's train_seq2seq takes them,
// and greedy translation; then the checks every call makes.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xtensor/xview.hpp>

#include "model_references.hpp"
#include "reference.hpp"
#include "seq2seq_references.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/training.hpp"

using attention::Seq2SeqBatch;
using attention::Seq2SeqConfig;
using attention::Seq2SeqModel;
using ref::batch_of;
using ref::config_of;
using ref::named;
using ref::seq2seq_references;

namespace {

// The flat gradient (or parameter) vector of a model's layout, from named lists.
std::vector<double> in_layout(const Seq2SeqModel& model, const nlohmann::json& list) {
    std::vector<double> flat(model.values.size());
    for (const auto& p : list) {
        const auto& slot = model.slot(p["name"].get<std::string>());
        const auto values = p["values"].get<std::vector<double>>();
        REQUIRE(values.size() == slot.size);
        std::copy(values.begin(), values.end(), flat.begin() + static_cast<std::ptrdiff_t>(slot.offset));
    }
    return flat;
}

}  // namespace

TEST_CASE("translators: layout, forward pass, loss and gradients equal d2l's modules in PyTorch", "[seq2seq-model]") {
    for (const auto& c : seq2seq_references()["cases"]) {
        INFO(c["name"].get<std::string>());
        const Seq2SeqConfig config = config_of(c["config"]);
        const Seq2SeqModel model = attention::seq2seq_model_from(config, named(c["params"]));
        std::vector<std::string> names;
        for (const auto& slot : model.layout) names.push_back(slot.name);
        std::vector<std::string> expected;
        for (const auto& p : c["params"]) expected.push_back(p["name"]);
        CHECK(names == expected);  // state_dict order
        for (const auto& p : c["params"]) CHECK(model.slot(p["name"].get<std::string>()).shape == p["shape"].get<std::vector<std::size_t>>());

        const Seq2SeqBatch batch = batch_of(c);
        const auto forward = attention::seq2seq_forward(model, batch);
        CHECK_NEAR_TOL(forward.logits, c["logits"]["values"].get<std::vector<double>>(), 1e-12);
        CHECK_NEAR_TOL(forward.cross_weights, c["crossWeights"]["values"].get<std::vector<double>>(), 1e-12);
        CHECK(std::vector<std::size_t>(forward.cross_weights.shape().begin(), forward.cross_weights.shape().end()) ==
              c["crossWeights"]["shape"].get<std::vector<std::size_t>>());
        CHECK_NEAR_TOL(forward.self_weights, c["selfWeights"]["values"].get<std::vector<double>>(), 1e-12);
        CHECK_NEAR_TOL(forward.encoder_weights, c["encoderWeights"]["values"].get<std::vector<double>>(), 1e-12);

        const auto loss = attention::seq2seq_loss(model, batch);
        CHECK(std::abs(loss.loss - c["loss"].get<double>()) < 1e-12);
        CHECK(std::abs(loss.token_loss - c["tokenLoss"].get<double>()) < 1e-12);
        CHECK_NEAR_TOL(loss.gradients, in_layout(model, c["gradients"]), 1e-10);
        // The forward pass alone (the training call's check after its last step): the same bits.
        CHECK(attention::seq2seq_token_loss(model, batch) == loss.token_loss);
    }
}

TEST_CASE("translators: two clipped Adam steps as d2l's train_seq2seq takes them", "[seq2seq-model]") {
    for (const auto& c : seq2seq_references()["cases"]) {
        INFO(c["name"].get<std::string>());
        const auto& training = c["training"];
        Seq2SeqModel model = attention::seq2seq_model_from(config_of(c["config"]), named(c["params"]));
        attention::OptimizerState state;
        const attention::OptimizerOptions adam{attention::OptimizerKind::adam, training["lr"].get<double>()};
        for (std::size_t s = 0; s < training["batches"].size(); ++s) {
            auto loss = attention::seq2seq_loss(model, batch_of(training["batches"][s]));
            CHECK(std::abs(loss.loss - training["losses"][s].get<double>()) < 1e-11);
            CHECK(std::abs(loss.token_loss - training["tokenLosses"][s].get<double>()) < 1e-11);
            const double norm = attention::clip_gradients(loss.gradients, training["clip"].get<double>());
            CHECK(std::abs(norm - training["gradientNorms"][s].get<double>()) < 1e-10 * std::max(1.0, norm));
            attention::optimizer_step(model.values, loss.gradients, state, adam);
        }
        CHECK_NEAR_TOL(model.values, in_layout(model, training["paramsAfter"]), 1e-9);
    }
}

TEST_CASE("translators: greedy translation equals d2l's, token by token, with its attention", "[seq2seq-model]") {
    for (const auto& c : seq2seq_references()["cases"]) {
        INFO(c["name"].get<std::string>());
        const Seq2SeqModel model = attention::seq2seq_model_from(config_of(c["config"]), named(c["params"]));
        const auto& t = c["translation"];
        const Seq2SeqBatch batch = batch_of(c);
        const auto out = attention::seq2seq_translate(model, batch.source, batch.source_lens, batch.batch, t["maxLength"]);
        CHECK(ref::as_vector(out.tokens) == ref::as_vector(ref::ints(t["tokens"])));
        CHECK(ref::as_vector(out.lengths) == ref::as_vector(ref::ints(t["lengths"])));
        CHECK_NEAR_TOL(out.cross_weights, t["crossWeights"]["values"].get<std::vector<double>>(), 1e-12);
    }
}

TEST_CASE("translators: every refused argument is named", "[seq2seq-model]") {
    const auto& c = seq2seq_references()["cases"][0];
    const Seq2SeqConfig config = config_of(c["config"]);
    const Seq2SeqModel model = attention::seq2seq_model_from(config, named(c["params"]));
    const Seq2SeqBatch batch = batch_of(c);
    auto refused = [](auto call) { return ref::argument_error_of(call).argument; };

    CHECK(refused([] { attention::seq2seq_architecture_from_name("lstm"); }) == "architecture");
    auto with = [&](auto change) {
        Seq2SeqConfig changed = config;
        change(changed);
        return refused([&] { attention::check_seq2seq_config(changed); });
    };
    CHECK(with([](Seq2SeqConfig& k) { k.source_vocab = 3; }) == "sourceVocab");
    CHECK(with([](Seq2SeqConfig& k) { k.target_vocab = 2000; }) == "targetVocab");
    CHECK(with([](Seq2SeqConfig& k) { k.source_length = 0; }) == "sourceLength");
    CHECK(with([](Seq2SeqConfig& k) { k.target_length = 1000; }) == "targetLength");
    CHECK(with([](Seq2SeqConfig& k) { k.layers = 0; }) == "layers");
    CHECK(with([](Seq2SeqConfig& k) { k.embed = 0; }) == "embed");
    CHECK(with([](Seq2SeqConfig& k) { k.bidirectional = true, k.hidden = 5; }) == "hidden");
    CHECK(with([](Seq2SeqConfig& k) { k.hidden = 1024, k.embed = 1024, k.layers = 8; }) == "hidden");
    CHECK(with([](Seq2SeqConfig& k) { k.architecture = attention::Seq2SeqArchitecture::transformer, k.heads = 3; }) ==
          "heads");
    CHECK(with([](Seq2SeqConfig& k) { k.architecture = attention::Seq2SeqArchitecture::transformer, k.ffn_hidden = 0; }) ==
          "ffnHidden");
    CHECK(with([](Seq2SeqConfig& k) { k.architecture = attention::Seq2SeqArchitecture::transformer, k.blocks = 9; }) ==
          "blocks");
    CHECK(with([](Seq2SeqConfig& k) {
              k.architecture = attention::Seq2SeqArchitecture::transformer, k.embedding_scale = NAN;
          }) == "embeddingScale");
    CHECK(refused([] { attention::seq2seq_scoring_names.from_name("cosine"); }) == "scoring");
    CHECK(refused([] { attention::seq2seq_cell_names.from_name("rnn"); }) == "cell");
    CHECK(with([](Seq2SeqConfig& k) {
              k.architecture = attention::Seq2SeqArchitecture::transformer, k.cell = attention::Seq2SeqCell::lstm;
          }) == "cell");

    auto params = named(c["params"]);
    params.back().values[0] = INFINITY;
    CHECK(refused([&] { attention::seq2seq_model_from(config, params); }) == "params." + params.back().name);
    params.pop_back();
    CHECK(refused([&] { attention::seq2seq_model_from(config, params); }) == "params");

    auto broken = [&](auto change) {
        Seq2SeqBatch b = batch;
        change(b);
        return refused([&] { attention::seq2seq_loss(model, b); });
    };
    CHECK(broken([](Seq2SeqBatch& b) { b.batch = 0; }) == "batch");
    CHECK(broken([](Seq2SeqBatch& b) { b.batch = 4; }) == "source");
    CHECK(broken([](Seq2SeqBatch& b) { b.source_lens = xt::xtensor<int, 1>({1, 1}); }) == "sourceLens");
    CHECK(broken([](Seq2SeqBatch& b) { b.source(0) = 7; }) == "source");
    CHECK(broken([](Seq2SeqBatch& b) { b.source_lens(1) = 6; }) == "sourceLens");
    CHECK(broken([](Seq2SeqBatch& b) { b.target_in(2) = -1; }) == "targetIn");
    CHECK(broken([](Seq2SeqBatch& b) { b.target_out = xt::xtensor<int, 1>({1}); }) == "targetOut");
    CHECK(broken([](Seq2SeqBatch& b) { b.target_out(0) = 6; }) == "targetOut");
    CHECK(broken([](Seq2SeqBatch& b) { b.target_lens(0) = 0; }) == "targetLens");
    CHECK(refused([&] { attention::seq2seq_translate(model, batch.source, batch.source_lens, batch.batch, 5); }) ==
          "maxLength");
    CHECK(refused([&] { attention::seq2seq_translate(model, batch.source, batch.source_lens, 2, 2); }) == "source");
}

TEST_CASE("translators: the training call checks its options against the model and the task", "[seq2seq-model]") {
    Seq2SeqModel model = attention::init_seq2seq_model(Seq2SeqConfig{});
    attention::OptimizerState state;
    auto refused = [&](auto change) {
        attention::Seq2SeqTrainingOptions options;
        change(options);
        return ref::argument_error_of([&] { attention::train_seq2seq(model, state, options); }).argument;
    };
    CHECK(refused([](auto& o) { o.task = attention::Seq2SeqTask::dates; }) == "task");
    CHECK(refused([](auto& o) { o.steps = 0; }) == "steps");
    CHECK(refused([](auto& o) { o.steps = 10000; }) == "steps");
    CHECK(refused([](auto& o) { o.batch = 0; }) == "batch");
    CHECK(refused([](auto& o) { o.eval_every = 0; }) == "evalEvery");
    CHECK(refused([](auto& o) { o.held_out = 501; }) == "heldOut");
    CHECK(refused([](auto& o) { o.clip = -1; }) == "clip");
    CHECK(refused([](auto& o) { o.optimizer.lr = 0; }) == "lr");
    CHECK(state.step == 0);
}

TEST_CASE("translators: a batch whose buffers pass the workspace's size keeps them from its forward pass to its backward pass", "[seq2seq-model]") {
    // d2l's objective is summed over the batch: a batch's loss and gradients are those of its halves, added.
    // 2 x 400 items: the Transformer's buffers pass layers::large_workspace.
    const std::size_t half = 400;
    for (const auto architecture : {attention::Seq2SeqArchitecture::transformer, attention::Seq2SeqArchitecture::bahdanau}) {
        Seq2SeqConfig config;
        config.architecture = architecture;
        const Seq2SeqModel model = attention::init_seq2seq_model(config);
        const Seq2SeqBatch whole = attention::seq2seq_task_batch(attention::Seq2SeqTask::numbers_en_zh, 2 * half, 7);
        const auto part = [&](std::size_t first) {
            const auto rows = [&](const xt::xtensor<int, 1>& all, std::size_t width) {
                return xt::xtensor<int, 1>(xt::view(all, xt::range(first * width, (first + half) * width)));
            };
            Seq2SeqBatch b;
            b.batch = half;
            b.source = rows(whole.source, config.source_length);
            b.source_lens = rows(whole.source_lens, 1);
            b.target_in = rows(whole.target_in, config.target_length);
            b.target_out = rows(whole.target_out, config.target_length);
            b.target_lens = rows(whole.target_lens, 1);
            return attention::seq2seq_loss(model, b);
        };
        const auto both = attention::seq2seq_loss(model, whole);
        const auto first = part(0), second = part(half);
        CHECK(both.loss == Approx(first.loss + second.loss).epsilon(1e-12));
        REQUIRE(both.gradients.size() == first.gradients.size());
        double largest = 0.0;
        for (std::size_t i = 0; i < both.gradients.size(); ++i)
            largest = std::max(largest, std::abs(both.gradients(i) - first.gradients(i) - second.gradients(i)));
        CHECK(largest < 1e-12);
    }
}
