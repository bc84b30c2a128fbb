#include "layers/additive_attention.hpp"

#include <algorithm>

#include "layers/linear.hpp"
#include "numerics/softmax_row.hpp"
#include "numerics/vector_math.hpp"
#include "numerics/wasm_simd.hpp"  // empty unless the build targets wasm SIMD

namespace attention::layers {

namespace {

std::size_t visible_keys(const AdditiveShape& shape, const int* valid_lens, std::size_t item) {
    return valid_lens ? static_cast<std::size_t>(valid_lens[item]) : shape.keys;
}

// feature[c] = tanh(pq[c] + pk[c]), c < n: in wasm two lanes at a time by
// hand, as clang does not vectorise the table exp2's loads there.
void features_of(const double* pq, const double* pk, double* feature, std::size_t n) {
    std::size_t c = 0;
#ifdef ATTENTION_WASM_SIMD
    for (; c + 2 <= n; c += 2)
        wasm_v128_store(feature + c,
                        wasm_simd::tanh(wasm_simd::add(wasm_v128_load(pq + c), wasm_v128_load(pk + c))));
#endif
    for (; c < n; ++c) feature[c] = vector_math::tanh(pq[c] + pk[c]);
}

}  // namespace

void additive_keys_forward(const AdditiveShape& shape, const double* keys, const double* w_k,
                           double* projected_keys, std::vector<double>& transposed) {
    linear_forward({shape.batch * shape.keys, shape.key_size, shape.hidden}, keys, w_k, nullptr, projected_keys,
                   transposed);
}

void additive_keys_backward(const AdditiveShape& shape, const double* keys, const double* w_k,
                            const double* dprojected_keys, double* dw_k, double* dkeys) {
    linear_backward({shape.batch * shape.keys, shape.key_size, shape.hidden}, dprojected_keys, keys, w_k, dw_k,
                    nullptr, dkeys);
}

void additive_attention_forward(const AdditiveShape& shape, const double* queries, const double* projected_keys,
                                const double* values, const int* valid_lens, const double* w_q, const double* w_v,
                                AdditiveCache& cache, double* out, std::vector<double>& transposed,
                                const AdditiveExtras& extras) {
    const std::size_t nq = shape.queries, nk = shape.keys, hidden = shape.hidden, dv = shape.value_size;
    const std::size_t query_rows = shape.batch * nq;
    // Forward only, every feature is written over the one before it.
    const bool forward_only = extras.weights != nullptr;
    const std::size_t feature_stride = forward_only ? 0 : hidden;
    cache.projected_queries.resize(query_rows * hidden);
    cache.features.resize(forward_only ? hidden : query_rows * nk * hidden);
    cache.weights.resize(forward_only ? 0 : query_rows * nk);
    cache.visible.resize(forward_only ? 0 : query_rows);
    double* const all_weights = forward_only ? extras.weights : cache.weights.data();
    linear_forward({query_rows, shape.query_size, hidden}, queries, w_q, nullptr, cache.projected_queries.data(),
                   transposed);
    for (std::size_t b = 0; b < shape.batch; ++b) {
        const std::size_t item_visible = visible_keys(shape, valid_lens, b);
        for (std::size_t i = 0; i < nq; ++i) {
            const std::size_t row = b * nq + i;
            const std::size_t visible = extras.visible ? extras.visible[row] : item_visible;
            if (!forward_only) cache.visible[row] = visible;
            const std::size_t scored = extras.scores ? nk : visible;
            const double* pq = cache.projected_queries.data() + row * hidden;
            double* weights = all_weights + row * nk;
            for (std::size_t j = 0; j < scored; ++j) {
                const double* pk = projected_keys + (b * nk + j) * hidden;
                double* feature = cache.features.data() + (row * nk + j) * feature_stride;
                features_of(pq, pk, feature, hidden);
                weights[j] = vector_math::dot(feature, w_v, hidden);
            }
            if (extras.scores) std::copy(weights, weights + nk, extras.scores + row * nk);
            // d2l's masked softmax: the keys past the valid length weigh exactly 0.
            softmax_row(weights, visible, nk);
            double* o = out + row * dv;
            std::fill(o, o + dv, 0.0);
            for (std::size_t j = 0; j < visible; ++j) vector_math::axpy(o, weights[j], values + (b * nk + j) * dv, dv);
        }
    }
}

void additive_attention_backward(const AdditiveShape& shape, const double* queries, const double* values,
                                 const double* w_q, const double* w_v, const AdditiveCache& cache, const double* dout,
                                 double* dw_q, double* dw_v, double* dqueries, double* dprojected_keys,
                                 double* dvalues, AdditiveScratch& scratch) {
    const std::size_t nq = shape.queries, nk = shape.keys, hidden = shape.hidden, dv = shape.value_size;
    const std::size_t query_rows = shape.batch * nq;
    scratch.dprojected_queries.assign(query_rows * hidden, 0.0);
    scratch.dweights.resize(nk);
    for (std::size_t b = 0; b < shape.batch; ++b) {
        for (std::size_t i = 0; i < nq; ++i) {
            const std::size_t row = b * nq + i;
            const std::size_t visible = cache.visible[row];
            const double* weights = cache.weights.data() + row * nk;
            const double* d = dout + row * dv;
            double* dweights = scratch.dweights.data();
            // out = weights V
            double weighted = 0.0;  // sum_j weights[j] dweights[j]
            for (std::size_t j = 0; j < visible; ++j) {
                const double* v = values + (b * nk + j) * dv;
                dweights[j] = vector_math::dot(d, v, dv);
                weighted += weights[j] * dweights[j];
                if (dvalues) vector_math::axpy(dvalues + (b * nk + j) * dv, weights[j], d, dv);
            }
            double* __restrict dpq = scratch.dprojected_queries.data() + row * hidden;
            for (std::size_t j = 0; j < visible; ++j) {
                // softmax, then score = feature . w_v, feature = tanh(pq + pk)
                const double dscore = weights[j] * (dweights[j] - weighted);
                const double* __restrict feature = cache.features.data() + (row * nk + j) * hidden;
                // d(pq + pk), the tanh's input, goes to both projections in one pass.
                double* __restrict dpk = dprojected_keys + (b * nk + j) * hidden;
                for (std::size_t c = 0; c < hidden; ++c) {
                    dw_v[c] += dscore * feature[c];
                    const double dpre = (dscore * w_v[c]) * (1.0 - feature[c] * feature[c]);
                    dpq[c] += dpre;
                    dpk[c] += dpre;
                }
            }
        }
    }
    linear_backward({query_rows, shape.query_size, hidden}, scratch.dprojected_queries.data(), queries, w_q, dw_q,
                    nullptr, dqueries);
}

}  // namespace attention::layers
