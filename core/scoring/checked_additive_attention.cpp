#include "scoring/checked_additive_attention.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "contract/attention_checks.hpp"
#include "contract/errors.hpp"
#include "layers/additive_attention.hpp"
#include "scoring/masking.hpp"

namespace attention {
namespace {

// The projections Wq q and Wk k (h numbers each) of the query and key of a bad score.
struct ProjectedPair {
    const double *query, *key;
};

// Finite inputs, yet a score is not finite. A projection that overflows
// alone is harmless (tanh saturates, as in PyTorch); a score is Infinity or
// NaN only when (a) the sum of its h terms wv[c] tanh(...) overflows: wv is too
// large; or (b) a tanh gets NaN: a projection Wq q or Wk k is NaN (its own sum
// hit Infinity - Infinity), or both are infinite with opposite signs. For (b)
// the queries are blamed when their projection is not finite, else the keys.
// PyTorch's weights would be NaN in every case.
[[noreturn]] void fail_score(const ProjectedPair& projected, const xt::xtensor<double, 1>& w_v, const BadScore& bad) {
    const std::string got = text("a score of ", bad.score, " (batch item ", bad.item, ", query ", bad.query,
                                 ", key ", bad.key, ")");
    for (std::size_t c = 0; c < w_v.size(); ++c) {
        const double pq = projected.query[c], pk = projected.key[c];
        if (!std::isnan(pq + pk)) continue;  // tanh is NaN exactly where its argument is
        if (!std::isfinite(pq))
            fail("queries", "numbers small enough that the scores stay finite (their projections by Wq overflow)",
                 got);
        fail("keys", "numbers small enough that the scores stay finite (their projections by Wk overflow)", got);
    }
    fail("wv", "numbers small enough that the scores, sums of h terms wv[c] tanh(...), stay finite", got);
}

}  // namespace

AttentionResult additive_attention(const xt::xtensor<double, 3>& queries,
                                   const xt::xtensor<double, 3>& keys,
                                   const xt::xtensor<double, 3>& values,
                                   const xt::xtensor<double, 2>& w_q, const xt::xtensor<double, 2>& w_k,
                                   const xt::xtensor<double, 1>& w_v,
                                   const xt::xtensor<int, 1>& valid_lens) {
    const std::size_t h = w_v.size();
    check_additive_shape({extents_of(queries, keys), queries.shape(2), keys.shape(2), values.shape(2), h});
    check_attention_tensors(queries, keys, values);
    if (w_q.shape(0) != h || w_q.shape(1) != queries.shape(2))
        fail("Wq", text("shape (h=", h, ", dq=", queries.shape(2), ")"));
    if (w_k.shape(0) != h || w_k.shape(1) != keys.shape(2))
        fail("Wk", text("shape (h=", h, ", dk=", keys.shape(2), ")"));
    require_all_finite("Wq", w_q);
    require_all_finite("Wk", w_k);
    require_all_finite("wv", w_v);

    const std::size_t batch = queries.shape(0), nq = queries.shape(1), nk = keys.shape(1);
    const ValidLengths checked(valid_lens, batch, nq, nk);
    std::vector<std::size_t> visible(batch * nq);
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < nq; ++i) visible[b * nq + i] = checked.of_row(b, i);

    // The models' layer (layers/additive_attention.hpp), forward only, asked for every score.
    const layers::AdditiveShape shape{batch, nq, nk, queries.shape(2), keys.shape(2), values.shape(2), h};
    std::vector<double> projected_k(batch * nk * h), transposed;
    layers::AdditiveCache cache;
    AttentionResult result;
    result.scores = xt::xtensor<double, 3>::from_shape({batch, nq, nk});
    result.weights = xt::xtensor<double, 3>::from_shape({batch, nq, nk});
    result.output = xt::xtensor<double, 3>::from_shape({batch, nq, values.shape(2)});
    layers::additive_keys_forward(shape, keys.data(), w_k.data(), projected_k.data(), transposed);
    layers::additive_attention_forward(shape, queries.data(), projected_k.data(), values.data(), nullptr, w_q.data(),
                                       w_v.data(), cache, result.output.data(), transposed,
                                       {visible.data(), result.scores.data(), result.weights.data()});
    for (std::size_t i = 0; i < result.scores.size(); ++i)
        if (!std::isfinite(result.scores.data()[i])) {
            const std::size_t b = i / (nq * nk), q = i / nk % nq, k = i % nk;
            fail_score({cache.projected_queries.data() + (b * nq + q) * h, projected_k.data() + (b * nk + k) * h},
                       w_v, {b, q, k, result.scores.data()[i]});
        }
    return result;
}

}  // namespace attention
