// One row of a model's attention taken apart (attention_row_steps.hpp):
// on every model and translator of the PyTorch references, every row's
// softmax equals the map's row of the core's forward pass and PyTorch's to
// 1e-12, its weighted sum equals the layer's output, masked keys weigh
// exactly 0; the steps hold together (scores from q and k, weights from the
// masked scores); and every refused choice is named.
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "inspection/attention_row_steps.hpp"
#include "seq2seq/architectures.hpp"
#include "model_references.hpp"
#include "reference.hpp"
#include "seq2seq_references.hpp"

using attention::AttentionRowSteps;
using attention::RowChoice;

namespace {

attention::BatchOptions batch_options(const nlohmann::json& c) {
    attention::BatchOptions options;
    options.batch = c["batch"];
    options.valid_lens = ref::ints(c["validLens"]);
    options.causal = c["causal"];
    if (c.contains("headsOff")) options.heads_off = ref::ints(c["headsOff"]);
    return options;
}

// A row of a (..., keys) array given as a flat list: `offset` rows in.
std::vector<double> row_of(const std::vector<double>& all, std::size_t offset, std::size_t keys) {
    return std::vector<double>(all.begin() + static_cast<std::ptrdiff_t>(offset * keys),
                               all.begin() + static_cast<std::ptrdiff_t>((offset + 1) * keys));
}

// What holds for every row whatever the scoring: the mask from the visible
// count, masked scores, weights summing to 1 with exactly 0 where masked.
void check_row(const AttentionRowSteps& steps, std::size_t seen) {
    const std::size_t n = steps.scores.size();
    double total = 0.0;
    for (std::size_t j = 0; j < n; ++j) {
        INFO("key " << j);
        CHECK(steps.visible(j) == (j < seen ? 1 : 0));
        CHECK(steps.masked_scores(j) == (j < seen ? steps.scores(j) : attention::masked_score));
        if (j >= seen) CHECK(steps.weights(j) == 0.0);
        total += steps.weights(j);
    }
    CHECK(std::abs(total - 1.0) < 1e-12);
    // The weighted sum of the values, written out.
    for (std::size_t c = 0; c < steps.output.size(); ++c) {
        double sum = 0.0;
        for (std::size_t j = 0; j < n; ++j) sum += steps.weights(j) * steps.values(j, c);
        CHECK(std::abs(steps.output(c) - sum) < 1e-12);
    }
}

void check_dot_scores(const AttentionRowSteps& steps) {
    CHECK(steps.scoring == "dot");
    CHECK(steps.scale == std::sqrt(static_cast<double>(steps.query.size())));
    for (std::size_t j = 0; j < steps.scores.size(); ++j) {
        double product = 0.0;
        for (std::size_t c = 0; c < steps.query.size(); ++c) product += steps.query(c) * steps.keys(j, c);
        CHECK(std::abs(steps.scores(j) - product / steps.scale) < 1e-12);
    }
}

}  // namespace

TEST_CASE("attention_model_row_steps: every row's softmax is the map's row, its sum the layer's output", "[row-steps]") {
    double worst = 0.0;
    for (const auto& c : ref::model_references()["model"]) {
        INFO(c["name"].get<std::string>());
        const auto model = attention::attention_model_from(ref::model_config(c["config"]), ref::named_values(c["params"]));
        const auto tokens = ref::ints(c["tokens"]);
        const auto options = batch_options(c);
        const auto& config = model.config;
        const auto forward = attention::attention_model_forward(model, tokens, options);
        const std::vector<double> map(forward.weights.begin(), forward.weights.end());
        const std::vector<double> pytorch = ref::numbers(c["weights"]);
        const std::size_t n = config.length, d = config.hidden / config.heads;
        for (std::size_t block = 0; block < config.blocks; ++block)
            for (std::size_t item = 0; item < options.batch; ++item) {
                const auto layer = attention::attention_model_attention_inputs(model, tokens, options, block, item);
                for (std::size_t head = 0; head < config.heads; ++head)
                    for (std::size_t query = 0; query < n; ++query) {
                        INFO("block " << block << " item " << item << " head " << head << " query " << query);
                        const auto steps = attention::attention_model_row_steps(model, tokens, options,
                                                                                {block, item, head, query});
                        const std::size_t row = ((block * options.batch + item) * config.heads + head) * n + query;
                        CHECK_NEAR_TOL(steps.weights, row_of(map, row, n), 1e-12);
                        CHECK_NEAR_TOL(steps.weights, row_of(pytorch, row, n), 1e-12);
                        worst = std::max(worst, ref::max_error(steps.weights, row_of(pytorch, row, n)));
                        // The head's output before W_o, as the layer computed it (a head
                        // switched off has its output zeroed there: its steps still show it).
                        const bool off = options.heads_off.size() && options.heads_off(block * config.heads + head);
                        if (!off)
                            CHECK_NEAR_TOL(steps.output,
                                           std::vector<double>(layer.outputs.begin() + static_cast<std::ptrdiff_t>(query * config.hidden + head * d),
                                                               layer.outputs.begin() + static_cast<std::ptrdiff_t>(query * config.hidden + (head + 1) * d)),
                                           1e-12);
                        check_dot_scores(steps);
                        check_row(steps, layer.visible[query]);
                        const std::size_t valid = options.valid_lens.size() ? options.valid_lens(item) : n;
                        CHECK(steps.valid_length == valid);
                        CHECK(steps.causal == options.causal);
                        CHECK(layer.visible[query] == (options.causal ? std::min(valid, query + 1) : valid));
                    }
            }
    }
    std::printf("row steps vs PyTorch's encoder maps: %.2g (largest error)\n", worst);
}

TEST_CASE("seq2seq_row_steps: every row of the translators' maps, additive and dot product", "[row-steps]") {
    double worst = 0.0;
    for (const auto& c : ref::seq2seq_references()["cases"]) {
        INFO(c["name"].get<std::string>());
        const auto config = ref::config_of(c["config"]);
        const auto model = attention::seq2seq_model_from(config, ref::named(c["params"]));
        const auto batch = ref::batch_of(c);
        const bool transformer = config.architecture == attention::Seq2SeqArchitecture::transformer;
        const auto forward = attention::seq2seq_forward(model, batch);
        const std::size_t blocks = transformer ? config.blocks : 1, heads = transformer ? config.heads : 1;
        const std::size_t t = config.target_length, s = config.source_length;
        for (const auto kind : {attention::Seq2SeqAttention::cross, attention::Seq2SeqAttention::self}) {
            if (!transformer && kind == attention::Seq2SeqAttention::self) continue;
            const bool self = kind == attention::Seq2SeqAttention::self;
            const std::size_t keys = self ? t : s;
            const auto& weights = self ? forward.self_weights : forward.cross_weights;
            const std::vector<double> map(weights.begin(), weights.end());
            const std::vector<double> pytorch = ref::numbers(c[self ? "selfWeights" : "crossWeights"]["values"]);
            for (std::size_t block = 0; block < blocks; ++block)
                for (std::size_t item = 0; item < batch.batch; ++item)
                    for (std::size_t head = 0; head < heads; ++head)
                        for (std::size_t query = 0; query < t; ++query) {
                            INFO((self ? "self" : "cross") << " block " << block << " item " << item << " head "
                                                           << head << " query " << query);
                            const auto steps = attention::seq2seq_row_steps(model, batch, {block, item, head, query}, kind);
                            const std::size_t row = ((block * batch.batch + item) * heads + head) * t + query;
                            CHECK_NEAR_TOL(steps.weights, row_of(map, row, keys), 1e-12);
                            CHECK_NEAR_TOL(steps.weights, row_of(pytorch, row, keys), 1e-12);
                            worst = std::max(worst, ref::max_error(steps.weights, row_of(pytorch, row, keys)));
                            const std::size_t valid = self ? t : static_cast<std::size_t>(batch.source_lens(item));
                            check_row(steps, self ? std::min(valid, query + 1) : valid);
                            const auto inputs =
                                transformer ? attention::seq2seq_detail::transformer_attention_inputs(
                                                  model, batch, block, item, head, self)
                                            : attention::seq2seq_detail::bahdanau_attention_inputs(model, batch, item);
                            if (attention::seq2seq_scoring(config) == attention::Seq2SeqScoring::dot) {
                                check_dot_scores(steps);
                                const auto& layer = std::get<attention::DotProductItemInputs>(inputs);
                                const std::size_t d = config.hidden / heads, at = query * config.hidden + head * d;
                                CHECK_NEAR_TOL(steps.output,
                                               std::vector<double>(layer.outputs.begin() + static_cast<std::ptrdiff_t>(at),
                                                                   layer.outputs.begin() + static_cast<std::ptrdiff_t>(at + d)),
                                               1e-12);
                                continue;
                            }
                            // Additive: W_q q, W_k k_j, tanh of their sum, w_v's dot with it.
                            // (A Transformer's heads share one AdditiveAttention of hidden / heads.)
                            CHECK(steps.scoring == "additive");
                            const auto& layer = std::get<attention::AdditiveItemInputs>(inputs);
                            const std::size_t h = config.hidden / heads;
                            for (std::size_t j = 0; j < keys; ++j) {
                                double score = 0.0;
                                for (std::size_t r = 0; r < h; ++r) {
                                    double wq = 0.0, wk = 0.0;
                                    for (std::size_t i = 0; i < h; ++i) {
                                        wq += layer.w_q[r * h + i] * steps.query(i);
                                        wk += layer.w_k[r * h + i] * steps.keys(j, i);
                                    }
                                    CHECK(std::abs(steps.features(j, r) - std::tanh(wq + wk)) < 1e-12);
                                    score += layer.w_v[r] * std::tanh(wq + wk);
                                }
                                CHECK(std::abs(steps.scores(j) - score) < 1e-12);
                            }
                            CHECK_NEAR_TOL(steps.output,
                                           std::vector<double>(layer.outputs.begin() + static_cast<std::ptrdiff_t>(query * h),
                                                               layer.outputs.begin() + static_cast<std::ptrdiff_t>((query + 1) * h)),
                                           1e-12);
                        }
        }
    }
    std::printf("row steps vs PyTorch's translator maps: %.2g (largest error)\n", worst);
}

TEST_CASE("row steps: every refused choice is named", "[row-steps][errors]") {
    const auto& c = ref::model_references()["model"][0];
    const auto model = attention::attention_model_from(ref::model_config(c["config"]), ref::named_values(c["params"]));
    const auto tokens = ref::ints(c["tokens"]);
    const auto options = batch_options(c);
    const auto& config = model.config;
    auto steps = [&](RowChoice choice) { return attention::attention_model_row_steps(model, tokens, options, choice); };
    CHECK_NOTHROW(steps({config.blocks - 1, options.batch - 1, config.heads - 1, config.length - 1}));
    REQUIRE_ARGUMENT_ERROR(steps({config.blocks, 0, 0, 0}), "block");
    REQUIRE_ARGUMENT_ERROR(steps({0, options.batch, 0, 0}), "item");
    REQUIRE_ARGUMENT_ERROR(steps({0, 0, config.heads, 0}), "head");
    REQUIRE_ARGUMENT_ERROR(steps({0, 0, 0, config.length}), "query");
    auto bad = tokens;
    bad(1) = static_cast<int>(config.vocab);
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_row_steps(model, bad, options, {}), "tokens");

    for (const auto& s : ref::seq2seq_references()["cases"]) {
        INFO(s["name"].get<std::string>());
        const auto translator = attention::seq2seq_model_from(ref::config_of(s["config"]), ref::named(s["params"]));
        const auto batch = ref::batch_of(s);
        const bool transformer = translator.config.architecture == attention::Seq2SeqArchitecture::transformer;
        auto row = [&](RowChoice choice, attention::Seq2SeqAttention kind = attention::Seq2SeqAttention::cross) {
            return attention::seq2seq_row_steps(translator, batch, choice, kind);
        };
        REQUIRE_ARGUMENT_ERROR(row({transformer ? translator.config.blocks : 1, 0, 0, 0}), "block");
        REQUIRE_ARGUMENT_ERROR(row({0, batch.batch, 0, 0}), "item");
        REQUIRE_ARGUMENT_ERROR(row({0, 0, transformer ? translator.config.heads : 1, 0}), "head");
        REQUIRE_ARGUMENT_ERROR(row({0, 0, 0, translator.config.target_length}), "query");
        if (!transformer) REQUIRE_ARGUMENT_ERROR(row({}, attention::Seq2SeqAttention::self), "attention");
    }
    REQUIRE_ARGUMENT_ERROR(attention::seq2seq_attention_from_name("encoder"), "attention");
}
