#pragma once
// tests/references/seq2seq_references.json (made by make_seq2seq_references.py):
// d2l's translators in PyTorch, float64, as JSON: their configs, parameters and batches.
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model_references.hpp"
#include "seq2seq/model.hpp"

namespace ref {

inline const nlohmann::json& seq2seq_references() {
    static const nlohmann::json parsed = [] {
        std::ifstream file(ATTENTION_SEQ2SEQ_REFERENCES);
        if (!file) throw std::runtime_error("cannot open " ATTENTION_SEQ2SEQ_REFERENCES);
        return nlohmann::json::parse(file);
    }();
    return parsed;
}

inline attention::Seq2SeqConfig config_of(const nlohmann::json& c) {
    attention::Seq2SeqConfig config;
    config.architecture = attention::seq2seq_architecture_from_name(c["architecture"].get<std::string>());
    config.source_vocab = c["sourceVocab"];
    config.target_vocab = c["targetVocab"];
    config.source_length = c["sourceLength"];
    config.target_length = c["targetLength"];
    config.hidden = c["hidden"];
    config.embed = c["embed"];
    config.layers = c["layers"];
    config.bidirectional = c["bidirectional"];
    config.heads = c["heads"];
    config.ffn_hidden = c["ffnHidden"];
    config.blocks = c["blocks"];
    config.embedding_scale = c["embeddingScale"];
    if (c.contains("scoring") && !c["scoring"].is_null())
        config.scoring = attention::seq2seq_scoring_names.from_name(c["scoring"].get<std::string>());
    if (c.contains("cell")) config.cell = attention::seq2seq_cell_names.from_name(c["cell"].get<std::string>());
    return config;
}

inline std::vector<attention::NamedValues> named(const nlohmann::json& list) {
    std::vector<attention::NamedValues> result;
    for (const auto& p : list) result.push_back({p["name"].get<std::string>(), p["values"].get<std::vector<double>>()});
    return result;
}

inline attention::Seq2SeqBatch batch_of(const nlohmann::json& b) {
    attention::Seq2SeqBatch batch;
    batch.batch = b["batch"];
    batch.source = ref::ints(b["source"]);
    batch.source_lens = ref::ints(b["sourceLens"]);
    batch.target_in = ref::ints(b["targetIn"]);
    batch.target_out = ref::ints(b["targetOut"]);
    batch.target_lens = ref::ints(b["targetLens"]);
    return batch;
}

}  // namespace ref
