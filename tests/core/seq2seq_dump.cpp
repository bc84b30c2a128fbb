// Trains the translators natively on a fixed list of cases (both
// architectures, a few steps, small sizes, held-out evaluations) and greedily
// translates the first held-out sources with each trained model; prints, as
// JSON with every double a float.hex() string, each case's config and
// options, its losses, evaluations, stop reason, final parameters and
// translations, so the Node tests can check that the wasm build gives the
// same bits.
#include <cstdio>
#include <string>
#include <vector>

#include "hex_float.hpp"
#include "seq2seq/tasks.hpp"
#include "seq2seq/training.hpp"

namespace {

struct Case {
    attention::Seq2SeqConfig config;
    attention::Seq2SeqTrainingOptions training;
};

// Held-out sources each case translates after training.
constexpr std::size_t translated = 4;

std::vector<Case> cases() {
    std::vector<Case> list;
    auto add = [&](attention::Seq2SeqTask task, auto change) {
        Case c;
        const auto shape = attention::seq2seq_task_shape(task);
        c.config.source_vocab = shape.source_vocab, c.config.target_vocab = shape.target_vocab;
        c.config.source_length = shape.source_length, c.config.target_length = shape.target_length;
        c.config.hidden = 16, c.config.embed = 8, c.config.heads = 4, c.config.ffn_hidden = 32, c.config.blocks = 2;
        c.training.task = task;
        c.training.steps = 4, c.training.batch = 6, c.training.eval_every = 2, c.training.held_out = 8;
        change(c);
        list.push_back(c);
    };
    using attention::Seq2SeqArchitecture;
    using attention::Seq2SeqTask;
    // Bahdanau et al.'s bidirectional encoder of two layers, d2l's Adam recipe.
    add(Seq2SeqTask::reverse, [](Case&) {});
    // d2l 10.4's one-way GRU, SGD without clipping, no evaluation at the end.
    add(Seq2SeqTask::numbers_en_zh, [](Case& c) {
        c.config.bidirectional = false, c.config.layers = 1, c.config.seed = 3;
        c.training.optimizer = {attention::OptimizerKind::sgd, 0.5}, c.training.clip = 0.0;
        c.training.steps = 3, c.training.evaluate_at_end = false, c.training.seed = 11;
    });
    // d2l 10.7's Transformer with its embedding scale sqrt(hidden).
    add(Seq2SeqTask::dates, [](Case& c) {
        c.config.architecture = Seq2SeqArchitecture::transformer, c.config.embedding_scale = 4.0, c.config.seed = 5;
    });
    add(Seq2SeqTask::numbers_zh_en, [](Case& c) {
        c.config.architecture = Seq2SeqArchitecture::transformer, c.config.hidden = 8, c.config.heads = 2;
        c.config.blocks = 1;
        c.training.seed = 4294967295u, c.training.clip = 0.25, c.training.eval_every = 3, c.training.batch = 3;
    });
    // SGD at a huge learning rate: the run stops where it diverges, the same everywhere. The step
    // where it overflows depends on rounding (summing the heads' softmax in lanes moved it from
    // within the 6 steps this case took before to after step 8): 10 steps leave room past it.
    add(Seq2SeqTask::sort, [](Case& c) {
        c.config.architecture = Seq2SeqArchitecture::transformer, c.config.hidden = 8, c.config.heads = 2;
        c.config.blocks = 1;
        c.training.optimizer = {attention::OptimizerKind::sgd, 1000.0}, c.training.clip = 0.0, c.training.steps = 10;
    });
    return list;
}

void print_hex_array(const char* name, const double* values, std::size_t size) {
    std::printf("\"%s\":[", name);
    for (std::size_t i = 0; i < size; ++i)
        std::printf("%s\"%s\"", i ? "," : "", attention::testing::to_hex(values[i]).c_str());
    std::printf("]");
}

void print_int_array(const char* name, const int* values, std::size_t size) {
    std::printf("\"%s\":[", name);
    for (std::size_t i = 0; i < size; ++i) std::printf("%s%d", i ? "," : "", values[i]);
    std::printf("]");
}

// Stop reasons are plain ASCII without quotes or backslashes.
std::string json_text(const std::string& text) { return text.empty() ? "null" : "\"" + text + "\""; }

}  // namespace

int main() {
    using attention::testing::to_hex;
    std::printf("{\"cases\":[");
    bool first = true;
    for (const Case& c : cases()) {
        auto model = attention::init_seq2seq_model(c.config);
        attention::OptimizerState state;
        const auto result = attention::train_seq2seq(model, state, c.training);
        const auto held = attention::seq2seq_held_out(c.training.task, translated);
        const auto translation = attention::seq2seq_translate(model, held.source, held.source_lens, translated,
                                                              c.config.target_length);
        const auto& k = c.config;
        const auto& t = c.training;
        std::printf("%s{\"config\":{\"architecture\":\"%s\",\"task\":\"%s\",\"hidden\":%zu,\"embed\":%zu,\"layers\":%zu,"
                    "\"bidirectional\":%s,\"heads\":%zu,\"ffnHidden\":%zu,\"blocks\":%zu,\"embeddingScale\":\"%s\","
                    "\"seed\":%u},",
                    first ? "" : ",", attention::seq2seq_architecture_name(k.architecture),
                    attention::seq2seq_task_name(t.task), k.hidden, k.embed, k.layers, k.bidirectional ? "true" : "false",
                    k.heads, k.ffn_hidden, k.blocks, to_hex(k.embedding_scale).c_str(), k.seed);
        std::printf("\"training\":{\"task\":\"%s\",\"steps\":%zu,\"batch\":%zu,\"optimizer\":\"%s\",\"lr\":\"%s\","
                    "\"clip\":\"%s\",\"seed\":%u,\"evalEvery\":%zu,\"heldOut\":%zu,\"evaluateAtEnd\":%s},",
                    attention::seq2seq_task_name(t.task), t.steps, t.batch,
                    t.optimizer.kind == attention::OptimizerKind::adam ? "adam" : "sgd", to_hex(t.optimizer.lr).c_str(),
                    to_hex(t.clip).c_str(), t.seed, t.eval_every, t.held_out, t.evaluate_at_end ? "true" : "false");
        print_hex_array("loss", result.loss.data(), result.loss.size());
        std::printf(",");
        print_hex_array("accuracy", result.accuracy.data(), result.accuracy.size());
        std::printf(",");
        print_hex_array("bleu", result.bleu.data(), result.bleu.size());
        std::printf(",");
        print_hex_array("evaluatedAt", result.evaluated_at.data(), result.evaluated_at.size());
        std::printf(",\"heldOutAccuracy\":\"%s\",\"heldOutBleu\":\"%s\",\"stopReason\":%s,\"step\":%llu,",
                    to_hex(result.held_out_accuracy).c_str(), to_hex(result.held_out_bleu).c_str(),
                    json_text(result.stop_reason).c_str(), static_cast<unsigned long long>(state.step));
        print_hex_array("params", model.values.data(), model.values.size());
        std::printf(",\"translation\":{");
        print_int_array("tokens", translation.tokens.data(), translation.tokens.size());
        std::printf(",");
        print_int_array("lengths", translation.lengths.data(), translation.lengths.size());
        std::printf(",");
        print_hex_array("crossWeights", translation.cross_weights.data(), translation.cross_weights.size());
        std::printf("}}");
        first = false;
    }
    std::printf("]}\n");
}
