#pragma once
// The sequence-to-sequence models of d2l's attention chapter, trained on the
// tasks of seq2seq/tasks.hpp, in float64 with dropout 0:
//   bahdanau     d2l 10.4: Seq2SeqEncoder (embedding, a GRU of `layers`
//                layers, time-major, over every source position, padding
//                included, as d2l runs it) and Seq2SeqAttentionDecoder (at
//                each target step the query is the last layer's state, the
//                context additive attention over the encoder's outputs masked
//                by the source's valid length; the GRU's input is
//                [context, embedding of the previous token]; a dense readout).
//                With `scoring` dot the attention is d2l's scaled
//                DotProductAttention instead (10.4, exercise 2): no
//                parameters, scores q.k / sqrt(hidden). The keys are as wide
//                as the query even with the bidirectional encoder, whose two
//                directions of hidden / 2 units each join into hidden.
//                With `bidirectional` the encoder is Bahdanau et al.'s: each
//                layer runs hidden / 2 units each way, outputs and the final
//                state of each layer concatenated [forward, backward].
//   transformer  d2l 10.7: TransformerEncoder and TransformerDecoder (masked
//                self-attention, encoder-decoder attention, FFN, three
//                AddNorms), embeddings times embedding_scale plus the
//                positional encoding. With `scoring` additive every
//                MultiHeadAttention's `attention` is d2l's
//                AdditiveAttention(hidden / heads), one shared by its heads
//                (10.7's exercise; layers/additive_heads.hpp).
// Parameters are named as the state_dict of d2l's modules wrapped in
// d2l.EncoderDecoder (encoder.embedding.weight, encoder.rnn.weight_ih_l0,
// decoder.attention.W_q.weight, decoder.blks.block0.attention2.W_k.weight,
// ...), in state_dict order and with PyTorch's shapes, so load_state_dict
// takes them as they are.
//
// Token ids 0, 1 and 2 are <pad>, <bos> and <eos> in both vocabularies.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "contract/errors.hpp"
#include "contract/kind_names.hpp"
#include "layers/parameter_layout.hpp"
#include "training/trainable_model.hpp"

namespace attention {

inline constexpr int pad_token = 0;
inline constexpr int bos_token = 1;
inline constexpr int eos_token = 2;

enum class Seq2SeqArchitecture { bahdanau, transformer };

inline constexpr KindNames<Seq2SeqArchitecture, 2> seq2seq_architecture_names{
    "architecture", {{{Seq2SeqArchitecture::bahdanau, "bahdanau"}, {Seq2SeqArchitecture::transformer, "transformer"}}}};

// The attention scoring: Bahdanau's is additive (d2l 10.4), the
// Transformer's the scaled dot product (10.7); either takes the other.
enum class Seq2SeqScoring { additive, dot };

inline constexpr KindNames<Seq2SeqScoring, 2> seq2seq_scoring_names{
    "scoring", {{{Seq2SeqScoring::additive, "additive"}, {Seq2SeqScoring::dot, "dot"}}}};

// The Bahdanau translator's recurrent cell, in its encoder and its decoder:
// d2l 10.4's nn.GRU, or nn.LSTM (its exercise 1), whose state is the pair
// (h, c): the decoder starts from the encoder's final pairs and queries the
// attention with the top layer's h.
enum class Seq2SeqCell { gru, lstm };

inline constexpr KindNames<Seq2SeqCell, 2> seq2seq_cell_names{
    "cell", {{{Seq2SeqCell::gru, "gru"}, {Seq2SeqCell::lstm, "lstm"}}}};

// "bahdanau", "transformer"; throws ArgumentError("architecture") otherwise.
Seq2SeqArchitecture seq2seq_architecture_from_name(std::string_view name);
const char* seq2seq_architecture_name(Seq2SeqArchitecture architecture);

// The defaults are the JS API's: d2l 10.4's sizes with Bahdanau et al.'s
// bidirectional encoder, for numbers-en-zh.
struct Seq2SeqConfig {
    Seq2SeqArchitecture architecture = Seq2SeqArchitecture::bahdanau;
    std::size_t source_vocab = 34, target_vocab = 16;
    std::size_t source_length = 8, target_length = 8;  // positions of a batch's rows
    std::size_t hidden = 32;
    // bahdanau
    std::size_t embed = 32;
    std::size_t layers = 2;
    bool bidirectional = true;  // hidden even: hidden / 2 units each way
    std::optional<Seq2SeqScoring> scoring;  // unset: the architecture's own (seq2seq_scoring)
    Seq2SeqCell cell = Seq2SeqCell::gru;    // Bahdanau's (the Transformer has none: gru)
    // transformer
    std::size_t heads = 4;  // divides hidden
    std::size_t ffn_hidden = 64;
    std::size_t blocks = 2;
    double embedding_scale = 1.0;  // d2l: sqrt(hidden)
    std::uint32_t seed = 0;
};

// The config's scoring, or its architecture's own when it names none.
Seq2SeqScoring seq2seq_scoring(const Seq2SeqConfig& config);

using Seq2SeqModel = TrainableModel<Seq2SeqConfig>;
template <>
const ParameterSlot& Seq2SeqModel::slot(std::string_view name) const;

// Sizes within limits (computed in 64 bits, nothing allocated); errors name
// the config's field as the JS API spells it (sourceVocab, hidden, ...).
void check_seq2seq_config(const Seq2SeqConfig& config);
// The range check_seq2seq_config gives a count field of an architecture's
// config (sourceVocab, targetVocab, sourceLength, targetLength, hidden;
// Bahdanau's embed and layers; the Transformer's heads, which must also
// divide hidden, ffnHidden and blocks; any count for a field the
// architecture does not read): the bindings read a JS number into the field
// by it, so a size no count holds (2^31, 1e300) is refused with its own bound.
CountRange seq2seq_config_range(Seq2SeqArchitecture architecture, std::string_view field);
std::vector<ParameterSlot> seq2seq_layout(const Seq2SeqConfig& config);
std::size_t seq2seq_parameter_count(const Seq2SeqConfig& config);

// d2l's initialisation drawn from the core's seeded generator, in layout
// order: embeddings N(0, 1); Xavier-uniform on every Linear weight and every
// GRU weight matrix (d2l's xavier_init_weights); biases PyTorch's
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)) (a GRU's: fan_in = its hidden units);
// an LSTM's weights and biases all PyTorch's U(-1/sqrt(units), 1/sqrt(units)),
// as d2l's xavier_init_weights leaves nn.LSTM untouched; LayerNorm 1 and 0.
Seq2SeqModel init_seq2seq_model(const Seq2SeqConfig& config);

// A model from given parameters: every name once, sizes as the layout says,
// finite values; errors name "params.<name>".
Seq2SeqModel seq2seq_model_from(const Seq2SeqConfig& config, const std::vector<NamedValues>& params);

// One forward and backward pass over `items` sequences within the limits
// (contract/pass_bound.hpp), else refused naming `argument`, the caller's
// argument that sets them (its value `given`; `noun`: what it counts).
void check_seq2seq_pass(const Seq2SeqConfig& config, std::size_t items, std::string_view argument, std::size_t given,
                        std::string_view noun);

// One batch, row-major: source (batch x source_length) with its valid
// lengths (each in [1, source_length], <eos> included, <pad> after);
// target_out (batch x target_length) is the target with <eos>, <pad> past
// target_lens (each in [1, target_length]); target_in is <bos> then
// target_out shifted right (teacher forcing, as d2l makes it: a short
// target's <eos> stays in it; positions past target_lens take no part).
struct Seq2SeqBatch {
    std::size_t batch = 1;
    xt::xtensor<int, 1> source, source_lens, target_in, target_out, target_lens;
};

// Sizes first (before any value is read), then every token within its
// vocabulary and every length in range; errors name batch, source,
// sourceLens, targetIn, targetOut, targetLens. A batch without targets
// (translation) passes empty target arrays and with_targets false.
void check_seq2seq_batch(const Seq2SeqModel& model, const Seq2SeqBatch& batch, bool with_targets = true);

struct Seq2SeqForward {
    xt::xtensor<double, 3> logits;           // (batch, target_length, target_vocab)
    // The decoder's attention over the source: (blocks, batch, heads,
    // target_length, source_length); bahdanau: one block of one head.
    xt::xtensor<double, 5> cross_weights;
    // transformer: the decoder's masked self-attention (blocks, batch, heads,
    // target_length, target_length) and the encoder's (..., source_length,
    // source_length); bahdanau: empty (0 blocks).
    xt::xtensor<double, 5> self_weights;
    xt::xtensor<double, 5> encoder_weights;
};

// Teacher forcing: the decoder reads target_in.
Seq2SeqForward seq2seq_forward(const Seq2SeqModel& model, const Seq2SeqBatch& batch);

struct Seq2SeqLoss {
    // d2l's objective: MaskedSoftmaxCELoss summed over the batch (each item's
    // cross-entropies, 0 at padding, averaged over target_length positions);
    // `gradients` are its gradient, in the model's layout.
    double loss = 0.0;
    // The mean cross-entropy per valid target token (d2l's train_seq2seq
    // prints l.sum() / tokens, this divided by target_length).
    double token_loss = 0.0;
    xt::xtensor<double, 1> gradients;
};
Seq2SeqLoss seq2seq_loss(const Seq2SeqModel& model, const Seq2SeqBatch& batch);
// Its token_loss alone, from the forward pass: the same number, a third of the work.
double seq2seq_token_loss(const Seq2SeqModel& model, const Seq2SeqBatch& batch);

// Greedy decoding of every item at once: <bos> first, then each step's
// argmax (ties: the first) fed back, until <eos> or max_length tokens.
struct Translation {
    xt::xtensor<int, 1> tokens;           // batch x max_length: the emitted tokens, <eos> included, <pad> after
    xt::xtensor<int, 1> lengths;          // batch: tokens emitted
    xt::xtensor<double, 5> cross_weights; // (blocks, batch, heads, max_length, source_length), 0 past an item's length
};
// source and source_lens as in Seq2SeqBatch; max_length in [1, target_length].
Translation seq2seq_translate(const Seq2SeqModel& model, const xt::xtensor<int, 1>& source,
                              const xt::xtensor<int, 1>& source_lens, std::size_t batch, std::size_t max_length);

// Frees the buffers kept between calls (layers/workspace.hpp); the wasm
// bindings call it at the end of every call.
void release_seq2seq_workspace();

}  // namespace attention
