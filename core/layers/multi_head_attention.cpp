#include "layers/multi_head_attention.hpp"

#include <algorithm>
#include <cmath>

#include "layers/linear.hpp"
#include "layers/workspace.hpp"
#include "numerics/matrix_products.hpp"
#include "numerics/vector_math.hpp"
#include "numerics/softmax_row.hpp"

namespace attention::layers {

namespace {

// Zeroes the columns of the heads switched off, in every row (the heads'
// outputs on the way forward, their gradients on the way back).
void silence_heads(const AttentionShape& shape, const int* heads_off, double* rows) {
    if (!heads_off) return;
    const std::size_t dh = shape.hidden / shape.heads, count = shape.batch * shape.queries;
    for (std::size_t h = 0; h < shape.heads; ++h) {
        if (heads_off[h] == 0) continue;
        for (std::size_t r = 0; r < count; ++r) std::fill_n(rows + r * shape.hidden + h * dh, dh, 0.0);
    }
}

// Multiplies the columns of each head by its factor, in every row.
void scale_heads(const AttentionShape& shape, const double* factors, double* rows) {
    if (!factors) return;
    const std::size_t dh = shape.hidden / shape.heads, count = shape.batch * shape.queries;
    for (std::size_t r = 0; r < count; ++r)
        for (std::size_t h = 0; h < shape.heads; ++h)
            for (std::size_t c = 0; c < dh; ++c) rows[r * shape.hidden + h * dh + c] *= factors[h];
}

}  // namespace

std::size_t AttentionCache::doubles() const { return capacity_of(q, k, v, weights, concat) + additive.doubles(); }

std::size_t AttentionScratch::doubles() const { return capacity_of(dq, dk, dv, dconcat, head) + additive.doubles(); }

void visible_keys(const AttentionShape& shape, const int* valid_lens, bool causal, std::vector<std::size_t>& visible) {
    const std::size_t n = shape.queries;
    visible.resize(shape.batch * n);
    for (std::size_t b = 0; b < shape.batch; ++b) {
        const std::size_t valid = valid_lens ? static_cast<std::size_t>(valid_lens[b]) : shape.keys;
        for (std::size_t i = 0; i < n; ++i) visible[b * n + i] = causal ? std::min(valid, i + 1) : valid;
    }
}

namespace {

// rows x columns of `from` (rows `stride` apart) written transposed into `to` (columns x rows).
void transpose(const double* from, std::size_t rows, std::size_t columns, std::size_t stride, double* to) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < columns; ++c) to[c * rows + r] = from[r * stride + c];
}

}  // namespace

// Each head's products run on the tiled kernel, over all of an item's keys;
// the softmax then keeps a query's visible keys and zeroes the rest, so the
// masked keys add exact zeros to the weighted sums.
void scaled_dot_product_forward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                                const std::size_t* visible, double* weights, double* concat,
                                std::vector<double>& scratch, double* scores) {
    const std::size_t nq = shape.queries, nk = shape.keys, hidden = shape.hidden, heads = shape.heads;
    const std::size_t dh = hidden / heads;
    const std::size_t value_width = shape.value_width ? shape.value_width : hidden, dv = value_width / heads;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(dh));
    // Every product below writes its block whole (multiply, not multiply_add): no zeroing pass.
    scratch.resize(dh * nk);
    double* keys_t = scratch.data();
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t h = 0; h < heads; ++h) {
            const double* q_h = q + b * nq * hidden + h * dh;
            const double* k_h = k + b * nk * hidden + h * dh;
            double* w_h = weights + (b * heads + h) * nq * nk;
            // Scores Q_h K_h^T, then each row's softmax over its visible keys.
            transpose(k_h, nk, dh, hidden, keys_t);
            matrix::multiply({q_h, hidden, 1}, keys_t, nk, w_h, nk, nq, nk, dh);
            if (scores) {
                double* s_h = scores + (b * heads + h) * nq * nk;
                for (std::size_t j = 0; j < nq * nk; ++j) s_h[j] = w_h[j] * inv_sqrt_d;
            }
            for (std::size_t i = 0; i < nq; ++i) softmax_row(w_h + i * nk, visible[b * nq + i], nk, inv_sqrt_d);
            // The head's output: weights times V_h.
            matrix::multiply({w_h, nk, 1}, v + b * nk * value_width + h * dv, value_width,
                             concat + b * nq * value_width + h * dv, value_width, nq, dv, nk);
        }
}

void scaled_dot_product_backward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                                 const std::size_t* visible, const double* weights, const double* dconcat,
                                 double* dq, double* dk, double* dv, std::vector<double>& scratch) {
    const std::size_t nq = shape.queries, nk = shape.keys, hidden = shape.hidden, heads = shape.heads;
    const std::size_t dh = hidden / heads;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(dh));
    // Every product below writes its block whole (multiply, not multiply_add): no zeroing pass.
    scratch.resize(dh * nk + nq * nk);
    double* values_t = scratch.data();
    double* dscores = values_t + dh * nk;  // dL/dweights, then dL/dscores in place
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t h = 0; h < heads; ++h) {
            const double* q_h = q + b * nq * hidden + h * dh;
            const double* k_h = k + b * nk * hidden + h * dh;
            const double* v_h = v + b * nk * hidden + h * dh;
            const double* g_h = dconcat + b * nq * hidden + h * dh;
            const double* w_h = weights + (b * heads + h) * nq * nk;
            // dL/dweights = dO_h V_h^T; dV_h = weights^T dO_h.
            transpose(v_h, nk, dh, hidden, values_t);
            matrix::multiply({g_h, hidden, 1}, values_t, nk, dscores, nk, nq, nk, dh);
            matrix::multiply({w_h, 1, nk}, g_h, hidden, dv + b * nk * hidden + h * dh, hidden, nk, dh, nq);
            // Through the softmax: ds_j = w_j (dw_j - sum_k w_k dw_k) / sqrt(d); 0 past the visible keys.
            // (Times 1 / sqrt(d): a division an element cost as much as the rest of the loop.)
            for (std::size_t i = 0; i < nq; ++i) {
                const std::size_t seen = visible[b * nq + i];
                const double* w = w_h + i * nk;
                double* ds = dscores + i * nk;
                const double weighted = vector_math::dot(w, ds, seen);
                for (std::size_t j = 0; j < seen; ++j) ds[j] = w[j] * (ds[j] - weighted) * inv_sqrt_d;
                std::fill(ds + seen, ds + nk, 0.0);
            }
            // dQ_h = dS K_h, dK_h = dS^T Q_h.
            matrix::multiply({dscores, nk, 1}, k_h, hidden, dq + b * nq * hidden + h * dh, hidden, nq, dh, nk);
            matrix::multiply({dscores, 1, nk}, q_h, hidden, dk + b * nk * hidden + h * dh, hidden, nk, dh, nq);
        }
}

void attention_heads_forward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                             const std::size_t* visible, const AdditiveHeadsWeights& additive, double* weights,
                             double* concat, std::vector<double>& scratch, AdditiveHeadsCache& additive_cache) {
    if (additive.present())
        additive_heads_forward(shape, q, k, v, visible, additive, weights, concat, additive_cache, scratch);
    else
        scaled_dot_product_forward(shape, q, k, v, visible, weights, concat, scratch);
}

void multi_head_attention_forward(const AttentionShape& shape, const double* queries, const double* keys,
                                  const double* values, const std::size_t* visible, const AttentionWeights& w,
                                  AttentionCache& cache, double* out, std::vector<double>& transposed,
                                  const int* heads_off, const AttentionExtras& extras) {
    const std::size_t hidden = shape.hidden;
    const std::size_t query_rows = shape.batch * shape.queries, key_rows = shape.batch * shape.keys;
    cache.q.resize(query_rows * hidden), cache.k.resize(key_rows * hidden), cache.v.resize(key_rows * hidden);
    cache.concat.resize(query_rows * hidden);
    cache.weights.resize(shape.batch * shape.heads * shape.queries * shape.keys);
    linear_forward({query_rows, hidden, hidden}, queries, w.wq, nullptr, cache.q.data(), transposed);
    linear_forward({key_rows, hidden, hidden}, keys, w.wk, nullptr, cache.k.data(), transposed);
    linear_forward({key_rows, hidden, hidden}, values, w.wv, nullptr, cache.v.data(), transposed);
    if (w.additive.present())
        additive_heads_forward(shape, cache.q.data(), cache.k.data(), cache.v.data(), visible, w.additive,
                               cache.weights.data(), cache.concat.data(), cache.additive, transposed);
    else
        scaled_dot_product_forward(shape, cache.q.data(), cache.k.data(), cache.v.data(), visible,
                                   cache.weights.data(), cache.concat.data(), transposed, extras.scores);
    silence_heads(shape, heads_off, cache.concat.data());
    scale_heads(shape, extras.head_factors, cache.concat.data());
    linear_forward({query_rows, hidden, hidden}, cache.concat.data(), w.wo, nullptr, out, transposed);
}

void multi_head_attention_backward(const AttentionShape& shape, const double* queries, const double* keys,
                                   const double* values, const std::size_t* visible, const AttentionWeights& w,
                                   const AttentionCache& cache, const double* dout, const AttentionGradients& grads,
                                   double* dqueries, double* dkeys, double* dvalues, AttentionScratch& scratch,
                                   const int* heads_off) {
    const std::size_t hidden = shape.hidden;
    const std::size_t query_rows = shape.batch * shape.queries, key_rows = shape.batch * shape.keys;
    scratch.dconcat.resize(query_rows * hidden);
    scratch.dq.resize(query_rows * hidden), scratch.dk.resize(key_rows * hidden), scratch.dv.resize(key_rows * hidden);
    // dconcat = dout Wo, written whole (linear_backward's dx would accumulate into a zeroed array: the same bits).
    linear_backward({query_rows, hidden, hidden}, dout, cache.concat.data(), w.wo, grads.wo, nullptr, nullptr);
    matrix::multiply({dout, hidden, 1}, w.wo, hidden, scratch.dconcat.data(), hidden, query_rows, hidden, hidden);
    silence_heads(shape, heads_off, scratch.dconcat.data());
    if (w.additive.present())
        additive_heads_backward(shape, w.additive, cache.additive, scratch.dconcat.data(), grads.additive,
                                scratch.dq.data(), scratch.dk.data(), scratch.dv.data(), scratch.additive);
    else
        scaled_dot_product_backward(shape, cache.q.data(), cache.k.data(), cache.v.data(), visible,
                                    cache.weights.data(), scratch.dconcat.data(), scratch.dq.data(),
                                    scratch.dk.data(), scratch.dv.data(), scratch.head);
    linear_backward({query_rows, hidden, hidden}, scratch.dq.data(), queries, w.wq, grads.wq, nullptr, dqueries);
    linear_backward({key_rows, hidden, hidden}, scratch.dk.data(), keys, w.wk, grads.wk, nullptr, dkeys);
    linear_backward({key_rows, hidden, hidden}, scratch.dv.data(), values, w.wv, grads.wv, nullptr, dvalues);
}

}  // namespace attention::layers
