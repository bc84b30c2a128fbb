#pragma once
// The heads of d2l's MultiHeadAttention scoring additively (d2l 10.7's
// exercise: is additive attention a good idea inside a Transformer?). The
// book's MultiHeadAttention hands its `attention` module the heads as items of
// a batch (transpose_qkv), so an AdditiveAttention(num_hiddens = hidden /
// heads) in that place is one set of weights shared by every head:
//   features = tanh(q_h W_q^T + k_h W_k^T), score = features w_v^T,
//   weights = the masked softmax, out_h = weights V_h,
// W_q and W_k (d x d), w_v (1 x d), d = hidden / heads. The rows are
// multi_head_attention's: projected Q, K, V of `hidden` numbers, head h
// owning columns h * d onwards; the heads are gathered into items of their
// own (layers/additive_attention's rows) and their outputs scattered back.
#include <cstddef>
#include <vector>

#include "layers/additive_attention.hpp"
#include "layers/parameter_layout.hpp"

namespace attention::layers {

struct AttentionShape;

struct AdditiveHeadsWeights {
    const double *w_q = nullptr, *w_k = nullptr, *w_v = nullptr;  // all null: scaled dot products score
    bool present() const { return w_q != nullptr; }
};
struct AdditiveHeadsGradients {
    double *w_q = nullptr, *w_k = nullptr, *w_v = nullptr;
};

// Where the shared weights lie in a model's flat vector; size 0 when the
// heads score with dot products.
struct AdditiveHeadsHandles {
    ParameterHandle w_k, w_q, w_v;
    AdditiveHeadsWeights weights(const double* params) const;
    AdditiveHeadsGradients gradients(double* grads) const;
};

// d2l's AdditiveAttention under `attention` ("…attention.attention."), in its
// state_dict order W_k, W_q, w_v, Xavier-uniform as d2l's seq2seq initialises.
AdditiveHeadsHandles describe_additive_heads(LayoutBuilder& attention, std::size_t hidden, std::size_t heads);

struct AdditiveHeadsCache {
    std::vector<double> q, k, v;       // the heads as items: batch * heads x (queries or keys) rows of d
    std::vector<double> projected_keys, out;
    std::vector<std::size_t> visible;  // batch * heads * queries: each query row's visible keys
    AdditiveCache attention;
    std::size_t doubles() const;
};
struct AdditiveHeadsScratch {
    std::vector<double> dq, dk, dv, dout, dprojected_keys;
    AdditiveScratch attention;
    std::size_t doubles() const;
};

// weights (batch x heads x queries x keys, 0 past a query's visible keys) and
// concat (batch * queries x value width: the heads' outputs) from projected q,
// k, v, as scaled_dot_product_forward writes them.
void additive_heads_forward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                            const std::size_t* visible, const AdditiveHeadsWeights& w, double* weights,
                            double* concat, AdditiveHeadsCache& cache, std::vector<double>& transposed);

// dconcat -> dq, dk, dv (overwritten); the shared weights' gradients accumulate.
void additive_heads_backward(const AttentionShape& shape, const AdditiveHeadsWeights& w,
                             const AdditiveHeadsCache& cache, const double* dconcat, const AdditiveHeadsGradients& g,
                             double* dq, double* dk, double* dv, AdditiveHeadsScratch& scratch);

}  // namespace attention::layers
