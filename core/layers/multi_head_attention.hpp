#pragma once
// d2l's MultiHeadAttention (10.5) as a forward/backward pair over raw arrays,
// dropout 0 and no biases: Q = queries Wq^T, K = keys Wk^T, V = values Wv^T,
// each head's scaled dot-product attention over its columns, out = concat Wo^T.
// Queries and keys may come from different sequences of different lengths
// (a decoder's encoder-decoder attention), and each query sees a count of
// keys from the start of its item: the valid length, and for causal
// self-attention at most its own position + 1 (visible_keys). Masked keys get
// weight 0, as d2l's masked softmax gives them (exp(-1e6 - top) is 0).
//
// Rows are positions b * length + i of `hidden` numbers, row-major, d2l's
// (batch, length, hidden); head h owns columns h * hidden / heads onwards
// (d2l's transpose_qkv without the copy).
#include <cstddef>
#include <vector>

#include "layers/additive_heads.hpp"

namespace attention::layers {

struct AttentionShape {
    std::size_t batch = 1;
    std::size_t queries = 1;  // query positions per item
    std::size_t keys = 1;     // key (and value) positions per item
    std::size_t hidden = 1;   // every row's width: inputs, projections and output
    std::size_t heads = 1;    // divides hidden
    // The values' and the heads' output rows' width, when not hidden (0): the
    // page's dot-product attention takes values of their own width dv; the
    // models project all three to hidden. Read by scaled_dot_product_forward only.
    std::size_t value_width = 0;
};

// visible[b * queries + i]: the keys query i of item b sees, the first
// valid_lens[b] (all `keys` when valid_lens is null), and with causal at most i + 1.
void visible_keys(const AttentionShape& shape, const int* valid_lens, bool causal, std::vector<std::size_t>& visible);

struct AttentionWeights {
    const double *wq, *wk, *wv, *wo;  // hidden x hidden each, nn.Linear's (out x in)
    AdditiveHeadsWeights additive{};  // set: the heads score additively (layers/additive_heads)
};
struct AttentionGradients {
    double *wq, *wk, *wv, *wo;
    AdditiveHeadsGradients additive{};
};

// What the backward pass needs of the forward pass.
struct AttentionCache {
    std::vector<double> q, k, v;   // projected rows
    std::vector<double> weights;   // batch x heads x queries x keys, 0 past a query's visible keys
    std::vector<double> concat;    // batch * queries rows: the heads' outputs, before Wo
    AdditiveHeadsCache additive;   // additive scoring's
    std::size_t doubles() const;
};

// What the page's forward-only call (scoring/checked_multi_head_attention)
// asks beyond the models' pass; the defaults ask nothing.
struct AttentionExtras {
    // One factor a head, its output scaled before Wo (the page's headMask;
    // the flags' off is a factor 0, on a factor 1).
    const double* head_factors = nullptr;
    // batch x heads x queries x keys: every score Q K^T / sqrt(d), masked ones
    // too, before the softmax (the page checks them for overflow).
    double* scores = nullptr;
};

// out (batch * queries x hidden) for queries (batch * queries rows) attending
// over keys and values (batch * keys rows each; they may be the same array).
// heads_off (null: none): one flag a head; a head whose flag is not 0 is
// switched off, its output zeroed before Wo (Michel et al.'s head mask; the
// model's accuracy without it measures the head's importance, d2l 10.5's
// exercise). Its weights are still computed, and shown.
void multi_head_attention_forward(const AttentionShape& shape, const double* queries, const double* keys,
                                  const double* values, const std::size_t* visible, const AttentionWeights& w,
                                  AttentionCache& cache, double* out, std::vector<double>& transposed,
                                  const int* heads_off = nullptr, const AttentionExtras& extras = {});

// The buffers of the backward pass.
struct AttentionScratch {
    std::vector<double> dq, dk, dv, dconcat, head;  // head: one head's V^T and score gradients
    AdditiveHeadsScratch additive;
    std::size_t doubles() const;
};

// Given dout: the weights' gradients accumulate, and so do the inputs'
// (dqueries += dQ Wq, then dkeys += dK Wk, then dvalues += dV Wv: for
// self-attention all three may be the same array).
void multi_head_attention_backward(const AttentionShape& shape, const double* queries, const double* keys,
                                   const double* values, const std::size_t* visible, const AttentionWeights& w,
                                   const AttentionCache& cache, const double* dout, const AttentionGradients& grads,
                                   double* dqueries, double* dkeys, double* dvalues, AttentionScratch& scratch,
                                   const int* heads_off = nullptr);

// The heads alone, on projected Q, K, V: concat = softmax(Q K^T / sqrt(d)) V per head.
// `scratch` holds a head's K^T. scores (null: not kept): as AttentionExtras's.
void scaled_dot_product_forward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                                const std::size_t* visible, double* weights, double* concat,
                                std::vector<double>& scratch, double* scores = nullptr);
// The heads on projected Q, K, V as `additive` says: scaled dot products
// (additive absent), or additive scoring through `additive_cache`.
void attention_heads_forward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                             const std::size_t* visible, const AdditiveHeadsWeights& additive, double* weights,
                             double* concat, std::vector<double>& scratch, AdditiveHeadsCache& additive_cache);
// dconcat -> dq, dk, dv (overwritten). `scratch` holds a head's V^T and its dL/dscores.
void scaled_dot_product_backward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                                 const std::size_t* visible, const double* weights, const double* dconcat,
                                 double* dq, double* dk, double* dv, std::vector<double>& scratch);

}  // namespace attention::layers
