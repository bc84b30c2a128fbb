#pragma once
// A trainable Transformer encoder, d2l 10.7 in float64 with dropout 0:
//   X = embedding[tokens] * embeddingScale + P, where P is, as `positional` says,
//     sinusoidal: d2l's PositionalEncoding (positional_encoding.hpp);
//     learned: a parameter `positional` (length x hidden) drawn N(0, 1), as
//       d2l's BERT learns its position embedding (d2l 10.6, exercise 2);
//     none: 0, so attention sees a set of tokens, blind to their order;
//   then `blocks` blocks, each either
//     attention only (ffnHidden = 0):  X = MHA(X, X, X)
//     d2l's TransformerEncoderBlock:   Y = LN1(X + MHA(X, X, X)), X = LN2(Y + FFN(Y))
//       with FFN(Y) = relu(Y W1^T + b1) W2^T + b2 and LayerNorm eps 1e-5,
//   then logits = X readout^T + readoutBias at every position.
// MHA is d2l's MultiHeadAttention (multi_head_attention.hpp): Wq, Wk, Wv, Wo
// (hidden x hidden, no bias), heads of hidden / heads, scaled dot products,
// keys at or past an item's valid length masked as d2l masks them (masking.hpp),
// and with `causal` also every key after the query.
//
// The loss is the mean softmax cross-entropy over the valid positions, and
// its gradient is computed by a backward pass written out by hand. Parameters
// and gradients share one flat layout with PyTorch's names and shapes
// (nn.Linear weights out x in), so the page and a PyTorch snippet can exchange
// them as they are.
//
// The model composes the layers of core/layers/ (each a forward and backward
// pair); every exponential and logarithm goes through the portable routines,
// so native and wasm builds compute the same bits.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "contract/attention_row_inputs.hpp"
#include "contract/kind_names.hpp"
#include "contract/errors.hpp"
#include "layers/parameter_layout.hpp"
#include "training/trainable_model.hpp"

namespace attention {

enum class PositionalKind { sinusoidal, learned, none };

inline constexpr KindNames<PositionalKind, 3> positional_kind_names{
    "positional", {{{PositionalKind::sinusoidal, "sinusoidal"}, {PositionalKind::learned, "learned"},
                    {PositionalKind::none, "none"}}}};

// The defaults are the JS API's: the attention-only model the page starts with.
struct EncoderConfig {
    std::size_t vocab = 10;
    std::size_t length = 8;        // positions per sequence (the positional encoding's rows)
    std::size_t hidden = 32;
    std::size_t heads = 4;         // divides hidden
    std::size_t blocks = 1;
    std::size_t ffn_hidden = 0;    // 0: attention-only blocks; otherwise d2l's encoder block
    double embedding_scale = 1.0;  // d2l uses sqrt(hidden); 1 here: N(0, 1) embeddings scaled by
                                   // sqrt(hidden) drown the positional encoding (the page shows it)
    PositionalKind positional = PositionalKind::sinusoidal;
    std::uint32_t seed = 0;
};

using AttentionModel = TrainableModel<EncoderConfig>;
template <>
const ParameterSlot& AttentionModel::slot(std::string_view name) const;

// Validates a configuration (sizes within limits/, heads dividing hidden,
// every product within the limits, computed in 64 bits) without allocating.
void check_encoder_config(const EncoderConfig& config);
// The range check_encoder_config gives a count field of the config ("vocab",
// "length", "hidden", "heads", "blocks", "ffnHidden"; heads must also divide
// hidden): the bindings read a JS number into the field by it, so a size no
// count holds (2^31, 1e300) is refused with the field's own bound.
CountRange encoder_config_range(std::string_view field);

// The names, shapes and offsets of a configuration's parameters, in order:
// embedding; with learned positions, positional; per block b{i}.Wq, Wk, Wv, Wo, and with an FFN b{i}.ln1.gamma,
// ln1.beta, W1, b1, W2, b2, ln2.gamma, ln2.beta; readout, readoutBias.
std::vector<ParameterSlot> encoder_layout(const EncoderConfig& config);
std::size_t encoder_parameter_count(const EncoderConfig& config);

// PyTorch's initialisation drawn from the core's seeded generator (random.hpp),
// the same on every platform: embedding (and learned positions) N(0, 1); every Linear weight and bias
// U(-1/sqrt(in), 1/sqrt(in)); LayerNorm gamma 1, beta 0. Parameters are drawn
// in layout order, each row-major.
AttentionModel init_attention_model(const EncoderConfig& config);

// A model from given parameters (e.g. the page's, or PyTorch's): every name
// of the layout exactly once, sizes as the layout says, finite values
// (layers/parameter_layout.hpp's checks). Errors name the parameter as "params.<name>".
AttentionModel attention_model_from(const EncoderConfig& config, const std::vector<NamedValues>& params);

// One batch of sequences: tokens (batch x length, row-major) in [0, vocab),
// valid_lens empty (every position valid) or one length per item in
// [1, length]; positions at or past it are padding: their keys are masked for
// every query and they take no part in the loss. causal: query i sees keys j <= i.
// heads_off empty (every head on) or one flag per head of every block
// (blocks x heads, 0 or 1): a head flagged 1 is switched off, its output
// zeroed before Wo, in the forward and the backward pass alike.
struct BatchOptions {
    std::size_t batch = 1;
    xt::xtensor<int, 1> valid_lens;
    bool causal = false;
    xt::xtensor<int, 1> heads_off;
};

// The sizes of a batch's arrays, checked before their contents are read
// (the bindings check them before copying anything): batch within the
// limits (its activations and work too), tokens and targets batch * length
// each, valid lengths none or batch, head flags none or blocks * heads. The
// model calls check them first.
struct BatchSizes {
    std::size_t batch = 1;
    std::size_t tokens = 0;
    std::optional<std::size_t> targets;  // none: a call without targets
    std::size_t valid_lens = 0;
    std::size_t heads_off = 0;
};
void check_batch_sizes(const EncoderConfig& config, const BatchSizes& sizes);

struct ForwardResult {
    xt::xtensor<double, 3> logits;   // (batch, length, vocab)
    xt::xtensor<double, 5> weights;  // (blocks, batch, heads, length, length)
};

ForwardResult attention_model_forward(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                      const BatchOptions& options);

struct LossResult {
    double loss = 0.0;                // mean cross-entropy over the valid positions
    xt::xtensor<double, 1> gradients; // dloss/dparameter, in the model's layout
};

// targets like tokens, in [0, vocab) at every position (padding positions take no part in the loss).
LossResult attention_model_loss(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                const xt::xtensor<int, 1>& targets, const BatchOptions& options);

// Block `block`'s attention over item `item` in the forward pass of a batch
// (attention_row_inputs.hpp): what attention_row_steps.hpp takes apart.
// Errors name block and item.
DotProductItemInputs attention_model_attention_inputs(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                                      const BatchOptions& options, std::size_t block,
                                                      std::size_t item);

// Multiply-adds of one forward pass over `batch` sequences, and of a forward
// and backward pass (three forward passes' worth), in 64 bits; what the work
// limits (limits.hpp) count.
std::uint64_t model_forward_work(const EncoderConfig& config, std::uint64_t batch);
std::uint64_t model_pass_work(const EncoderConfig& config, std::uint64_t batch);

// One forward and backward pass over `items` sequences within the limits
// (contract/pass_bound.hpp), else refused naming `argument`, the caller's
// argument that sets them (its value `given`; `noun`: what it counts).
void check_encoder_pass(const EncoderConfig& config, std::size_t items, std::string_view argument, std::size_t given,
                        std::string_view noun);

// The buffers of a forward and backward pass are kept from call to call (a
// training step then allocates nothing; the core is single-threaded). This frees them: the
// wasm bindings call it at the end of every call, so memory returns to its
// level between calls.
void release_encoder_workspace();

// The share of valid positions whose largest logit is the target (ties: the
// first largest), how many valid positions there were, and the loss there
// (as attention_model_loss's, from a forward pass alone).
struct Accuracy {
    double accuracy = 0.0;
    std::size_t positions = 0;
    double loss = 0.0;
};
Accuracy attention_model_accuracy(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                  const xt::xtensor<int, 1>& targets, const BatchOptions& options);

}  // namespace attention
