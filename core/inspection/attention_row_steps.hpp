#pragma once
// One row of a trained model's attention map taken apart, step by step, as
// the scoring section teaches it (d2l 10.3):
//   1. the query q and the keys k_j (and the values v_j);
//   2. the scores: q . k_j / sqrt(d) for scaled dot products, or
//      w_v . tanh(W_q q + W_k k_j) for additive attention;
//   3. the mask: keys at or past the valid length, and with causal
//      self-attention keys after the query, get d2l's -1e6;
//   4. the softmax of the masked scores: the weights, the map's row;
//   5. the weighted sum of the values: the row's output.
// Every number is recomputed here from the inputs the model's own forward
// pass made (attention_row_inputs.hpp) on the batch given, for the row chosen
// by (block, item, head, query); the tests check them against the layers'
// weights and outputs.
#include <cstddef>
#include <string>

#include <xtensor/xtensor.hpp>

#include "encoder/attention_model.hpp"
#include "contract/attention_row_inputs.hpp"
#include "contract/kind_names.hpp"
#include "seq2seq/model.hpp"

namespace attention {

// d2l's masked_softmax fills masked scores with this value.
inline constexpr double masked_score = -1e6;

struct RowChoice {
    std::size_t block = 0;
    std::size_t item = 0;   // of the batch
    std::size_t head = 0;
    std::size_t query = 0;  // the query position (a translator's target position)
};

struct AttentionRowSteps {
    std::string scoring;                   // "dot" or "additive"
    xt::xtensor<double, 1> query;          // dot: the head's part of W_q x_i (d); additive: the query itself
    xt::xtensor<double, 2> keys;           // keys x d: dot, the head's part of W_k x_j; additive, the keys
    xt::xtensor<double, 2> values;         // keys x dv
    // Additive only (empty for dot products): W_q q, W_k k_j, their sum's tanh, and w_v.
    xt::xtensor<double, 1> projected_query;  // hidden
    xt::xtensor<double, 2> projected_keys;   // keys x hidden
    xt::xtensor<double, 2> features;         // keys x hidden
    xt::xtensor<double, 1> w_v;              // hidden
    double scale = 1.0;                    // dot: sqrt(d), what the products are divided by; additive: 1
    xt::xtensor<double, 1> scores;         // keys: every key's score, masked or not
    xt::xtensor<int, 1> visible;           // keys: 1 where the query sees the key, 0 where it is masked
    std::size_t valid_length = 0;          // the keys the valid length lets through
    bool causal = false;
    xt::xtensor<double, 1> masked_scores;  // the scores, masked_score where masked
    xt::xtensor<double, 1> weights;        // keys: the softmax of the masked scores
    xt::xtensor<double, 1> output;         // dv: sum_j weights_j v_j
};

// The steps of one row from a model's inputs (checked by the callers).
AttentionRowSteps dot_product_row_steps(const DotProductItemInputs& inputs, std::size_t head, std::size_t query);
AttentionRowSteps additive_row_steps(const AdditiveItemInputs& inputs, std::size_t query);

// Block `choice.block`, head `choice.head`, query `choice.query` of item
// `choice.item` in the encoder's forward pass of the batch (as
// attention_model_forward takes it). Errors name block, item, head, query.
AttentionRowSteps attention_model_row_steps(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                            const BatchOptions& options, const RowChoice& choice);

// Which of a translator's attentions: the decoder's over the source (the
// only one Bahdanau's has), or the Transformer decoder's masked self-attention.
enum class Seq2SeqAttention { cross, self };

inline constexpr KindNames<Seq2SeqAttention, 2> seq2seq_attention_names{
    "attention", {{{Seq2SeqAttention::cross, "cross"}, {Seq2SeqAttention::self, "self"}}}};
// Throws ArgumentError("attention") for a name outside the table.
Seq2SeqAttention seq2seq_attention_from_name(const std::string& name);

// A translator's teacher-forced forward pass of the batch (as seq2seq_forward
// takes it): query position choice.query is target position t. Bahdanau's
// has one block of one head. Errors name block, item, head, query, attention.
AttentionRowSteps seq2seq_row_steps(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const RowChoice& choice,
                                    Seq2SeqAttention attention = Seq2SeqAttention::cross);

}  // namespace attention
