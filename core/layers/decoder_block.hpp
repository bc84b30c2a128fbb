#pragma once
// d2l's Transformer DecoderBlock (10.7) as a forward/backward pair over raw
// row-major arrays, dropout 0. X holds the target's rows (b * queries + i),
// enc the encoder's output (b * keys + j), `hidden` numbers a row:
//   X2 = attention1(X, X, X)            causal: query i sees keys j <= i
//   Y  = addnorm1(X, X2)
//   Y2 = attention2(Y, enc, enc)        masked by the source's valid lengths
//   Z  = addnorm2(Y, Y2)
//   out = addnorm3(Z, ffn(Z))
// composed from layers/multi_head_attention, layers/layer_norm and
// layers/position_wise_ffn. The caller keeps X and enc alive between the passes.
#include <cstddef>
#include <vector>

#include "layers/layer_norm.hpp"
#include "layers/multi_head_attention.hpp"
#include "layers/parameter_layout.hpp"
#include "layers/position_wise_ffn.hpp"

namespace attention::layers {

struct DecoderBlockShape {
    std::size_t batch = 1;
    std::size_t queries = 1;  // target positions per item
    std::size_t keys = 1;     // source positions per item (the encoder's output)
    std::size_t hidden = 1, heads = 1, ffn_hidden = 1;
    AttentionShape self_attention() const { return {batch, queries, queries, hidden, heads}; }
    AttentionShape cross_attention() const { return {batch, queries, keys, hidden, heads}; }
    std::size_t rows() const { return batch * queries; }
};

struct DecoderBlockWeights {
    AttentionWeights attention1;
    const double *ln1_gamma, *ln1_beta;
    AttentionWeights attention2;
    const double *ln2_gamma, *ln2_beta;
    FfnWeights ffn;
    const double *ln3_gamma, *ln3_beta;
};
struct DecoderBlockGradients {
    AttentionGradients attention1;
    double *ln1_gamma, *ln1_beta;
    AttentionGradients attention2;
    double *ln2_gamma, *ln2_beta;
    FfnGradients ffn;
    double *ln3_gamma, *ln3_beta;
};

// Where a block's parameters lie in a model's flat vector, in d2l's state_dict order.
struct DecoderBlockHandles {
    AdditiveHeadsHandles additive1;  // additive scoring's (size 0: scaled dot products)
    ParameterHandle wq1, wk1, wv1, wo1, ln1_gamma, ln1_beta;
    AdditiveHeadsHandles additive2;
    ParameterHandle wq2, wk2, wv2, wo2, ln2_gamma, ln2_beta;
    ParameterHandle w1, b1, w2, b2, ln3_gamma, ln3_beta;
    DecoderBlockWeights weights(const double* params) const;
    DecoderBlockGradients gradients(double* grads) const;
};

// d2l's names under `block` (attention1.W_q.weight, ..., addnorm1.ln.weight,
// ..., ffn.dense1.weight, ..., addnorm3.ln.bias) and d2l's seq2seq
// initialisation: Xavier-uniform Linear weights, nn.Linear's biases, LayerNorm 1 and 0.
// additive_heads > 0: both attentions' heads, that many, score additively
// (layers/additive_heads, under attention1.attention. and attention2.attention.).
DecoderBlockHandles describe_decoder_block(LayoutBuilder& block, std::size_t hidden, std::size_t ffn_hidden,
                                           std::size_t additive_heads = 0);

// What the backward pass needs of the forward pass.
struct DecoderBlockCache {
    AttentionCache attention1;
    LayerNormCache norm1;
    std::vector<double> y;  // rows x hidden
    AttentionCache attention2;
    LayerNormCache norm2;
    std::vector<double> z;  // rows x hidden
    FfnCache ffn;
    LayerNormCache norm3;
};

// Buffers shared by every block of a model, in either pass.
struct DecoderBlockScratch {
    std::vector<double> sublayer;    // rows x hidden: a sublayer's output before its AddNorm
    std::vector<double> transposed;  // a weight's transpose while a product runs
    std::vector<double> dsublayer, dresidual, dactivation, norm;
    AttentionScratch attention;
    std::size_t doubles() const;
};

// self_visible: visible_keys of shape.self_attention() (causal); cross_visible:
// visible_keys of shape.cross_attention() (the source's valid lengths).
void decoder_block_forward(const DecoderBlockShape& shape, const double* x, const double* enc,
                           const std::size_t* self_visible, const std::size_t* cross_visible,
                           const DecoderBlockWeights& w, DecoderBlockCache& cache, double* out,
                           DecoderBlockScratch& scratch);

// Given dout: the weights' gradients accumulate, dx is overwritten with X's
// gradient (dx may be dout) and denc accumulates enc's (every decoder block
// reads the same encoder output).
void decoder_block_backward(const DecoderBlockShape& shape, const double* x, const double* enc,
                            const std::size_t* self_visible, const std::size_t* cross_visible,
                            const DecoderBlockWeights& w, const DecoderBlockCache& cache, const double* dout,
                            const DecoderBlockGradients& grads, double* dx, double* denc,
                            DecoderBlockScratch& scratch);

std::size_t cache_doubles(const DecoderBlockCache& cache);

}  // namespace attention::layers
