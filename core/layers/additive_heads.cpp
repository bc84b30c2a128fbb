#include "layers/additive_heads.hpp"

#include <algorithm>

#include "layers/multi_head_attention.hpp"
#include "layers/workspace.hpp"

namespace attention::layers {

namespace {

// Head h of rows (b * length + i, `width` numbers, d of them a head) to item
// b * heads + h of `length` rows of d (d2l's transpose_qkv), and back.
void gather_heads(const AttentionShape& shape, std::size_t length, const double* rows, std::vector<double>& items) {
    const std::size_t heads = shape.heads, d = shape.hidden / heads;
    items.resize(shape.batch * heads * length * d);
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t i = 0; i < length; ++i)
                std::copy_n(rows + (b * length + i) * shape.hidden + h * d, d,
                            items.data() + ((b * heads + h) * length + i) * d);
}
void scatter_heads(const AttentionShape& shape, std::size_t length, const double* items, double* rows) {
    const std::size_t heads = shape.heads, d = shape.hidden / heads;
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t i = 0; i < length; ++i)
                std::copy_n(items + ((b * heads + h) * length + i) * d, d,
                            rows + (b * length + i) * shape.hidden + h * d);
}

AdditiveShape items_shape(const AttentionShape& shape) {
    const std::size_t d = shape.hidden / shape.heads;
    return {shape.batch * shape.heads, shape.queries, shape.keys, d, d, d, d};
}

}  // namespace

AdditiveHeadsWeights AdditiveHeadsHandles::weights(const double* params) const {
    if (w_q.size == 0) return {};
    return {w_q.in(params), w_k.in(params), w_v.in(params)};
}

AdditiveHeadsGradients AdditiveHeadsHandles::gradients(double* grads) const {
    if (w_q.size == 0) return {};
    return {w_q.in(grads), w_k.in(grads), w_v.in(grads)};
}

AdditiveHeadsHandles describe_additive_heads(LayoutBuilder& attention, std::size_t hidden, std::size_t heads) {
    const std::size_t d = hidden / heads;
    AdditiveHeadsHandles k;
    k.w_k = attention.add("W_k.weight", {d, d}, Init::xavier(d, d));
    k.w_q = attention.add("W_q.weight", {d, d}, Init::xavier(d, d));
    k.w_v = attention.add("w_v.weight", {1, d}, Init::xavier(d, 1));
    return k;
}

std::size_t AdditiveHeadsCache::doubles() const {
    return capacity_of(q, k, v, projected_keys, out) +
           capacity_of(attention.projected_queries, attention.features, attention.weights);
}

std::size_t AdditiveHeadsScratch::doubles() const {
    return capacity_of(dq, dk, dv, dout, dprojected_keys) +
           capacity_of(attention.dprojected_queries, attention.dweights);
}

void additive_heads_forward(const AttentionShape& shape, const double* q, const double* k, const double* v,
                            const std::size_t* visible, const AdditiveHeadsWeights& w, double* weights,
                            double* concat, AdditiveHeadsCache& cache, std::vector<double>& transposed) {
    const AdditiveShape items = items_shape(shape);
    const std::size_t nq = shape.queries, heads = shape.heads;
    gather_heads(shape, nq, q, cache.q);
    gather_heads(shape, shape.keys, k, cache.k);
    gather_heads(shape, shape.keys, v, cache.v);
    // Every head of item b sees what its query sees (d2l's repeat_interleave of the valid lengths).
    cache.visible.resize(shape.batch * heads * nq);
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t h = 0; h < heads; ++h) std::copy_n(visible + b * nq, nq, &cache.visible[(b * heads + h) * nq]);
    cache.projected_keys.resize(items.batch * items.keys * items.hidden);
    cache.out.resize(items.batch * nq * items.value_size);
    additive_keys_forward(items, cache.k.data(), w.w_k, cache.projected_keys.data(), transposed);
    AdditiveExtras extras;
    extras.visible = cache.visible.data();
    additive_attention_forward(items, cache.q.data(), cache.projected_keys.data(), cache.v.data(), nullptr, w.w_q,
                               w.w_v, cache.attention, cache.out.data(), transposed, extras);
    // Item b * heads + h's rows are weights' (b, h) block already.
    std::copy(cache.attention.weights.begin(), cache.attention.weights.end(), weights);
    scatter_heads(shape, nq, cache.out.data(), concat);
}

void additive_heads_backward(const AttentionShape& shape, const AdditiveHeadsWeights& w,
                             const AdditiveHeadsCache& cache, const double* dconcat, const AdditiveHeadsGradients& g,
                             double* dq, double* dk, double* dv, AdditiveHeadsScratch& scratch) {
    const AdditiveShape items = items_shape(shape);
    gather_heads(shape, shape.queries, dconcat, scratch.dout);
    scratch.dq.assign(cache.q.size(), 0.0);
    scratch.dk.assign(cache.k.size(), 0.0);
    scratch.dv.assign(cache.v.size(), 0.0);
    scratch.dprojected_keys.assign(cache.projected_keys.size(), 0.0);
    additive_attention_backward(items, cache.q.data(), cache.v.data(), w.w_q, w.w_v, cache.attention,
                                scratch.dout.data(), g.w_q, g.w_v, scratch.dq.data(), scratch.dprojected_keys.data(),
                                scratch.dv.data(), scratch.attention);
    additive_keys_backward(items, cache.k.data(), w.w_k, scratch.dprojected_keys.data(), g.w_k, scratch.dk.data());
    scatter_heads(shape, shape.queries, scratch.dq.data(), dq);
    scatter_heads(shape, shape.keys, scratch.dk.data(), dk);
    scatter_heads(shape, shape.keys, scratch.dv.data(), dv);
}

}  // namespace attention::layers
