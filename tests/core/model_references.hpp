#pragma once
// tests/references/model_references.json (made by make_model_references.py):
// d2l's Transformer encoder and torch.optim in PyTorch, float64, as JSON.
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xtensor/xtensor.hpp>

#include "encoder/attention_model.hpp"

namespace ref {

inline const nlohmann::json& model_references() {
    static const nlohmann::json parsed = [] {
        std::ifstream file(ATTENTION_MODEL_REFERENCES);
        if (!file) throw std::runtime_error("cannot open " ATTENTION_MODEL_REFERENCES);
        return nlohmann::json::parse(file);
    }();
    return parsed;
}

inline attention::EncoderConfig model_config(const nlohmann::json& c) {
    attention::EncoderConfig config;
    config.vocab = c["vocab"];
    config.length = c["length"];
    config.hidden = c["hidden"];
    config.heads = c["heads"];
    config.blocks = c["blocks"];
    config.ffn_hidden = c["ffnHidden"];
    config.embedding_scale = c["embeddingScale"];
    config.positional = attention::positional_kind_names.from_name(c.value("positional", "sinusoidal"));
    return config;
}

inline std::vector<attention::NamedValues> named_values(const nlohmann::json& params) {
    std::vector<attention::NamedValues> result;
    for (auto it = params.begin(); it != params.end(); ++it)
        result.push_back({it.key(), it.value().get<std::vector<double>>()});
    return result;
}

inline xt::xtensor<int, 1> ints(const nlohmann::json& list) {
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({list.is_null() ? 0 : list.size()});
    for (std::size_t i = 0; i < result.size(); ++i) result(i) = static_cast<int>(list[i].get<double>());
    return result;
}

// The largest |a - b| / max(1, |b|).
template <class A, class B>
double max_error(const A& actual, const B& expected) {
    double worst = 0.0;
    auto e = expected.begin();
    for (auto a = actual.begin(); a != actual.end(); ++a, ++e) {
        const double scale = std::max(1.0, std::abs(static_cast<double>(*e)));
        worst = std::max(worst, std::abs(*a - *e) / scale);
    }
    return worst;
}

}  // namespace ref
