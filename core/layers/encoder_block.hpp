#pragma once
// One Transformer encoder block as a forward/backward pair over raw row-major
// arrays (rows b * length + i of `hidden` numbers), dropout 0:
//   attention only (ffn_hidden 0):  out = MHA(X, X, X)
//   d2l's TransformerEncoderBlock:  Y = AddNorm1(X, MHA(X, X, X)), out = AddNorm2(Y, FFN(Y))
// composed from layers/multi_head_attention, layers/layer_norm and
// layers/position_wise_ffn. The caller keeps X alive between the passes.
#include <cstddef>
#include <vector>

#include "layers/layer_norm.hpp"
#include "layers/multi_head_attention.hpp"
#include "layers/parameter_layout.hpp"
#include "layers/position_wise_ffn.hpp"

namespace attention::layers {

struct EncoderBlockShape {
    std::size_t batch = 1, length = 1, hidden = 1, heads = 1;
    std::size_t ffn_hidden = 0;  // 0: attention only
    AttentionShape attention() const { return {batch, length, length, hidden, heads}; }
    std::size_t rows() const { return batch * length; }
};

struct EncoderBlockWeights {
    AttentionWeights attention;
    const double *ln1_gamma = nullptr, *ln1_beta = nullptr;  // blocks with an FFN
    FfnWeights ffn{};
    const double *ln2_gamma = nullptr, *ln2_beta = nullptr;
};
struct EncoderBlockGradients {
    AttentionGradients attention;
    double *ln1_gamma = nullptr, *ln1_beta = nullptr;
    FfnGradients ffn{};
    double *ln2_gamma = nullptr, *ln2_beta = nullptr;
};

// Where a block's parameters lie in a model's flat vector (its names are the model's own).
struct EncoderBlockHandles {
    ParameterHandle wq, wk, wv, wo;
    AdditiveHeadsHandles additive;  // additive scoring's (size 0: scaled dot products)
    ParameterHandle ln1_gamma, ln1_beta, w1, b1, w2, b2, ln2_gamma, ln2_beta;  // blocks with an FFN
    EncoderBlockWeights weights(const double* params) const;
    EncoderBlockGradients gradients(double* grads) const;
};

// d2l's TransformerEncoderBlock under `block` (ffn_hidden > 0), with d2l's
// names (attention.W_q.weight, ..., addnorm1.ln.weight, ln.bias,
// ffn.dense1.weight, ..., addnorm2.ln.bias) and d2l's seq2seq initialisation:
// Xavier-uniform Linear weights, nn.Linear's biases, LayerNorm 1 and 0.
// additive_heads > 0: the attention's heads, that many, score additively
// (layers/additive_heads, under attention.attention.); 0: scaled dot products.
EncoderBlockHandles describe_d2l_encoder_block(LayoutBuilder& block, std::size_t hidden, std::size_t ffn_hidden,
                                               std::size_t additive_heads = 0);

// What the backward pass needs of the forward pass.
struct EncoderBlockCache {
    AttentionCache attention;
    LayerNormCache norm1;  // blocks with an FFN: Y = AddNorm1(X, MHA(X)) ...
    std::vector<double> y;
    FfnCache ffn;
    LayerNormCache norm2;  // ... and out = AddNorm2(Y, FFN(Y))
};

// Buffers shared by every block of a model, in either pass.
struct EncoderBlockScratch {
    std::vector<double> sublayer;    // rows x hidden: a sublayer's output before its AddNorm
    std::vector<double> transposed;  // a weight's transpose while a product runs
    std::vector<double> dsublayer, dy, dactivation, norm;
    AttentionScratch attention;
    std::size_t doubles() const;
};

// visible: layers/multi_head_attention's visible_keys (valid lengths, causal).
// heads_off: null, or one flag a head (multi_head_attention_forward).
void encoder_block_forward(const EncoderBlockShape& shape, const double* x, const std::size_t* visible,
                           const EncoderBlockWeights& w, EncoderBlockCache& cache, double* out,
                           EncoderBlockScratch& scratch, const int* heads_off = nullptr);

// Given dout (the gradient of the block's output): the weights' gradients
// accumulate and dx is overwritten with the input's gradient. dx may be dout.
void encoder_block_backward(const EncoderBlockShape& shape, const double* x, const std::size_t* visible,
                            const EncoderBlockWeights& w, const EncoderBlockCache& cache, const double* dout,
                            const EncoderBlockGradients& grads, double* dx, EncoderBlockScratch& scratch,
                            const int* heads_off = nullptr);

// The doubles a cache holds (for a workspace's size).
std::size_t cache_doubles(const EncoderBlockCache& cache);

}  // namespace attention::layers
