#pragma once
// d2l's AdditiveAttention as forward/backward pairs over raw row-major
// arrays, dropout 0 and no biases:
//   features = tanh(q W_q^T + k W_k^T) for each query and key of an item,
//   scores = features w_v^T, weights = d2l's masked softmax over the item's
//   first valid_len keys (the rest weight 0), out = weights V.
// W_q is (hidden x query_size), W_k (hidden x key_size), w_v (1 x hidden),
// nn.Linear's layout. The keys' projection is its own pair of functions:
// the Bahdanau decoder asks one query per item at every step over the same
// keys, so it projects the keys once per sequence, and sums their
// projection's gradient over the steps before one backward pass through W_k.
//
// Rows: queries b * queries + i, keys and values b * keys + j (item b).
// (scoring/checked_additive_attention.hpp is the page's checked entry to it.)
#include <cstddef>
#include <vector>

namespace attention::layers {

struct AdditiveShape {
    std::size_t batch = 1;
    std::size_t queries = 1, keys = 1;  // per item
    std::size_t query_size = 0, key_size = 0, value_size = 0;
    std::size_t hidden = 0;  // the features' width
};

// projected_keys (batch * keys x hidden) = keys W_k^T.
void additive_keys_forward(const AdditiveShape& shape, const double* keys, const double* w_k,
                           double* projected_keys, std::vector<double>& transposed);
// Given dprojected_keys: dw_k += dprojected_keys^T keys, dkeys += dprojected_keys W_k (dkeys may be null).
void additive_keys_backward(const AdditiveShape& shape, const double* keys, const double* w_k,
                            const double* dprojected_keys, double* dw_k, double* dkeys);

struct AdditiveCache {
    std::vector<double> projected_queries;  // batch * queries x hidden
    std::vector<double> features;           // batch * queries * keys x hidden (rows past a valid length unset)
    std::vector<double> weights;            // batch * queries x keys, 0 past the item's valid length
    std::vector<std::size_t> visible;       // batch * queries: the keys each query row saw
};

// What the page's forward-only call (scoring/checked_additive_attention)
// asks beyond the models' pass; the defaults ask nothing.
struct AdditiveExtras {
    // batch * queries counts, in [1, keys]: the keys each query row sees, in
    // place of valid_lens (a causal decoder's self-attention).
    const std::size_t* visible = nullptr;
    // batch * queries x keys: every key's score, masked ones too, before the softmax.
    double* scores = nullptr;
    // Forward only (no backward pass follows): the weights go to this array
    // (batch * queries x keys) instead of the cache, and the features are
    // not kept (a row of them at a time).
    double* weights = nullptr;
};

// out (batch * queries x value_size) for queries over projected keys
// (additive_keys_forward) and values. valid_lens: one per item, each in [1,
// keys] (null: every key). `transposed` holds W_q^T while it projects.
void additive_attention_forward(const AdditiveShape& shape, const double* queries, const double* projected_keys,
                                const double* values, const int* valid_lens, const double* w_q, const double* w_v,
                                AdditiveCache& cache, double* out, std::vector<double>& transposed,
                                const AdditiveExtras& extras = {});

// The backward pass's buffers.
struct AdditiveScratch {
    std::vector<double> dprojected_queries, dweights;
};

// After the forward pass of the same inputs (its masks are the cache's),
// given dout: dw_q and dw_v accumulate, and so do dqueries, dprojected_keys
// (summed over calls that share the keys, for one additive_keys_backward) and
// dvalues; dqueries and dvalues may be null.
void additive_attention_backward(const AdditiveShape& shape, const double* queries, const double* values,
                                 const double* w_q, const double* w_v,
                                 const AdditiveCache& cache, const double* dout, double* dw_q, double* dw_v,
                                 double* dqueries, double* dprojected_keys, double* dvalues,
                                 AdditiveScratch& scratch);

}  // namespace attention::layers
