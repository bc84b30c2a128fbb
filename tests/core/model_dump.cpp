// Trains the attention model natively on a fixed list of cases and prints, as
// JSON with every double a float.hex() string, each case's options, its
// per-step losses, held-out accuracy and final parameters, so the Node tests
// can check that the wasm build trains the same bits.
#include <cstdio>
#include <vector>

#include "encoder/attention_training.hpp"
#include "hex_float.hpp"

namespace {

struct Case {
    attention::EncoderConfig config;
    attention::ModelTrainingOptions training;
};

std::vector<Case> cases() {
    std::vector<Case> list;
    auto add = [&](auto change) {
        Case c;
        c.training.steps = 6;
        c.training.eval_every = 3;
        change(c);
        list.push_back(c);
    };
    add([](Case&) {});  // the page's default model on reverse
    add([](Case& c) {
        c.config.ffn_hidden = 64, c.config.blocks = 2, c.config.seed = 7;
        c.training.task = attention::AttentionTask::sort, c.training.variable_lengths = true;
    });
    add([](Case& c) {
        c.config.hidden = 128, c.config.heads = 8, c.config.length = 12, c.config.vocab = 12;
        c.config.embedding_scale = 11.313708498984761;  // d2l's sqrt(hidden)
        c.training.task = attention::AttentionTask::lookup, c.training.causal = true;
        c.training.optimizer.kind = attention::OptimizerKind::sgd, c.training.optimizer.lr = 0.3;
    });
    add([](Case& c) {
        c.training.task = attention::AttentionTask::shift, c.training.lag = 3, c.training.seed = 4294967295u;
        c.training.batch = 5, c.training.held_out = 7;
    });
    return list;
}

void print_hex_array(const char* name, const double* values, std::size_t size) {
    std::printf("\"%s\":[", name);
    for (std::size_t i = 0; i < size; ++i)
        std::printf("%s\"%s\"", i ? "," : "", attention::testing::to_hex(values[i]).c_str());
    std::printf("]");
}

}  // namespace

int main() {
    std::printf("{\"cases\":[");
    bool first = true;
    for (const Case& c : cases()) {
        auto model = attention::init_attention_model(c.config);
        attention::OptimizerState state;
        const auto result = attention::train_attention_model(model, state, c.training);
        const auto& k = c.config;
        const auto& t = c.training;
        std::printf("%s{\"config\":{\"vocab\":%zu,\"length\":%zu,\"hidden\":%zu,\"heads\":%zu,\"blocks\":%zu,"
                    "\"ffnHidden\":%zu,\"embeddingScale\":\"%s\",\"seed\":%u},",
                    first ? "" : ",", k.vocab, k.length, k.hidden, k.heads, k.blocks, k.ffn_hidden,
                    attention::testing::to_hex(k.embedding_scale).c_str(), k.seed);
        std::printf("\"training\":{\"task\":\"%s\",\"lag\":%zu,\"variableLengths\":%s,\"causal\":%s,\"steps\":%zu,"
                    "\"batch\":%zu,\"optimizer\":\"%s\",\"lr\":\"%s\",\"seed\":%u,\"evalEvery\":%zu,\"heldOut\":%zu},",
                    attention::attention_task_name(t.task), t.lag, t.variable_lengths ? "true" : "false",
                    t.causal ? "true" : "false", t.steps, t.batch,
                    t.optimizer.kind == attention::OptimizerKind::adam ? "adam" : "sgd",
                    attention::testing::to_hex(t.optimizer.lr).c_str(), t.seed, t.eval_every, t.held_out);
        print_hex_array("loss", result.loss.data(), result.loss.size());
        std::printf(",");
        print_hex_array("accuracy", result.accuracy.data(), result.accuracy.size());
        std::printf(",");
        print_hex_array("params", model.values.data(), model.values.size());
        std::printf("}");
        first = false;
    }
    std::printf("]}\n");
}
