#include "inspection/attention_row_steps.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include "contract/errors.hpp"
#include "seq2seq/architectures.hpp"
#include "numerics/softmax_row.hpp"
#include "numerics/vector_math.hpp"

namespace attention {

namespace {

// Steps 3 to 5 from the scores: d2l's masked softmax (masked scores set to
// -1e6, then the softmax of the whole row through the core's one softmax
// kernel: their exponentials are exactly 0) and the weighted sum of the values.
void mask_softmax_and_sum(AttentionRowSteps& steps, std::size_t seen) {
    const std::size_t n = steps.scores.size(), dv = steps.values.shape(1);
    steps.visible = xt::xtensor<int, 1>::from_shape({n});
    steps.masked_scores = xt::xtensor<double, 1>::from_shape({n});
    for (std::size_t j = 0; j < n; ++j) {
        steps.visible(j) = j < seen ? 1 : 0;
        steps.masked_scores(j) = j < seen ? steps.scores(j) : masked_score;
    }
    steps.weights = steps.masked_scores;
    softmax_row(steps.weights.data(), n, n);
    steps.output = xt::zeros<double>({dv});
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t c = 0; c < dv; ++c) steps.output(c) += steps.weights(j) * steps.values(j, c);
}

}  // namespace

AttentionRowSteps dot_product_row_steps(const DotProductItemInputs& inputs, std::size_t head, std::size_t query) {
    require_count("head", head, 0, inputs.heads - 1);
    require_count("query", query, 0, inputs.queries - 1);
    const std::size_t d = inputs.hidden / inputs.heads, n = inputs.keys, column = head * d;
    AttentionRowSteps steps;
    steps.scoring = "dot";
    steps.query = xt::xtensor<double, 1>::from_shape({d});
    steps.keys = xt::xtensor<double, 2>::from_shape({n, d});
    steps.values = xt::xtensor<double, 2>::from_shape({n, d});
    std::copy_n(inputs.q.data() + query * inputs.hidden + column, d, steps.query.data());
    for (std::size_t j = 0; j < n; ++j) {
        std::copy_n(inputs.k.data() + j * inputs.hidden + column, d, &steps.keys(j, 0));
        std::copy_n(inputs.v.data() + j * inputs.hidden + column, d, &steps.values(j, 0));
    }
    steps.scale = std::sqrt(static_cast<double>(d));
    steps.scores = xt::xtensor<double, 1>::from_shape({n});
    for (std::size_t j = 0; j < n; ++j) {
        double product = 0.0;
        for (std::size_t c = 0; c < d; ++c) product += steps.query(c) * steps.keys(j, c);
        steps.scores(j) = product / steps.scale;
    }
    steps.valid_length = inputs.valid_length;
    steps.causal = inputs.causal;
    mask_softmax_and_sum(steps, inputs.visible[query]);
    return steps;
}

AttentionRowSteps additive_row_steps(const AdditiveItemInputs& inputs, std::size_t query) {
    require_count("query", query, 0, inputs.queries - 1);
    const std::size_t n = inputs.keys, h = inputs.hidden, dq = inputs.query_size, dk = inputs.key_size;
    AttentionRowSteps steps;
    steps.scoring = "additive";
    steps.query = xt::xtensor<double, 1>::from_shape({dq});
    std::copy_n(inputs.query_rows.data() + query * dq, dq, steps.query.data());
    steps.keys = xt::xtensor<double, 2>::from_shape({n, dk});
    std::copy(inputs.key_rows.begin(), inputs.key_rows.end(), steps.keys.begin());
    if (inputs.value_rows.empty()) {
        steps.values = steps.keys;  // d2l's decoder attends over the encoder's outputs as keys and values
    } else {
        steps.values = xt::xtensor<double, 2>::from_shape({n, dk});
        std::copy(inputs.value_rows.begin(), inputs.value_rows.end(), steps.values.begin());
    }
    steps.w_v = xt::xtensor<double, 1>::from_shape({h});
    std::copy(inputs.w_v.begin(), inputs.w_v.end(), steps.w_v.begin());
    // W_q q and W_k k_j: nn.Linear's rows (out x in) dotted with the input.
    steps.projected_query = xt::xtensor<double, 1>::from_shape({h});
    for (std::size_t r = 0; r < h; ++r)
        steps.projected_query(r) = vector_math::dot(inputs.w_q.data() + r * dq, steps.query.data(), dq);
    steps.projected_keys = xt::xtensor<double, 2>::from_shape({n, h});
    steps.features = xt::xtensor<double, 2>::from_shape({n, h});
    steps.scores = xt::xtensor<double, 1>::from_shape({n});
    for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t r = 0; r < h; ++r) {
            steps.projected_keys(j, r) = vector_math::dot(inputs.w_k.data() + r * dk, &steps.keys(j, 0), dk);
            steps.features(j, r) = vector_math::tanh(steps.projected_query(r) + steps.projected_keys(j, r));
        }
        steps.scores(j) = vector_math::dot(&steps.features(j, 0), steps.w_v.data(), h);
    }
    steps.valid_length = inputs.valid_length;
    steps.causal = inputs.causal;
    mask_softmax_and_sum(steps, inputs.visible.empty() ? inputs.valid_length : inputs.visible[query]);
    return steps;
}

AttentionRowSteps attention_model_row_steps(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                            const BatchOptions& options, const RowChoice& choice) {
    // The head and query are checked before the forward pass is paid for.
    check_encoder_config(model.config);
    require_count("head", choice.head, 0, model.config.heads - 1);
    require_count("query", choice.query, 0, model.config.length - 1);
    const DotProductItemInputs inputs =
        attention_model_attention_inputs(model, tokens, options, choice.block, choice.item);
    return dot_product_row_steps(inputs, choice.head, choice.query);
}

Seq2SeqAttention seq2seq_attention_from_name(const std::string& name) {
    return seq2seq_attention_names.from_name(name);
}

AttentionRowSteps seq2seq_row_steps(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const RowChoice& choice,
                                    Seq2SeqAttention attention) {
    check_seq2seq_batch(model, batch);
    const Seq2SeqConfig& config = model.config;
    const bool transformer = config.architecture == Seq2SeqArchitecture::transformer;
    if (!transformer && attention == Seq2SeqAttention::self)
        fail("attention", "\"cross\" (Bahdanau's decoder has no self-attention)", "\"self\"");
    require_count("block", choice.block, 0, transformer ? config.blocks - 1 : 0);
    require_count("item", choice.item, 0, batch.batch - 1);
    require_count("head", choice.head, 0, transformer ? config.heads - 1 : 0);
    require_count("query", choice.query, 0, config.target_length - 1);
    if (!transformer) {
        const auto inputs = seq2seq_detail::bahdanau_attention_inputs(model, batch, choice.item);
        if (const auto* additive = std::get_if<AdditiveItemInputs>(&inputs))
            return additive_row_steps(*additive, choice.query);
        return dot_product_row_steps(*std::get_if<DotProductItemInputs>(&inputs), 0, choice.query);
    }
    const auto inputs = seq2seq_detail::transformer_attention_inputs(model, batch, choice.block, choice.item,
                                                                     choice.head, attention == Seq2SeqAttention::self);
    if (const auto* additive = std::get_if<AdditiveItemInputs>(&inputs))
        return additive_row_steps(*additive, choice.query);
    return dot_product_row_steps(*std::get_if<DotProductItemInputs>(&inputs), choice.head, choice.query);
}

}  // namespace attention
