#include "scoring/checked_additive_attention.hpp"

#include <cmath>
#include <string>

#include "contract/attention_checks.hpp"
#include "numerics/batch_matrix_product.hpp"
#include "contract/errors.hpp"
#include "layers/linear.hpp"
#include "scoring/masked_softmax.hpp"

namespace attention {
namespace {

// Finite inputs, yet a score is not finite. A projection that overflows
// alone is harmless (tanh saturates, as in PyTorch); a score is Infinity or
// NaN only when (a) the sum of its h terms wv[c] tanh(...) overflows: wv is too
// large; or (b) a tanh gets NaN: a projection Wq q or Wk k is NaN (its own sum
// hit Infinity - Infinity), or both are infinite with opposite signs. For (b)
// the queries are blamed when their projection is not finite, else the keys.
// PyTorch's weights would be NaN in every case.
[[noreturn]] void fail_score(const xt::xtensor<double, 3>& projected_q, const xt::xtensor<double, 3>& projected_k,
                             const xt::xtensor<double, 1>& w_v, const BadScore& bad) {
    const std::string got = text("a score of ", bad.score, " (batch item ", bad.item, ", query ", bad.query,
                                 ", key ", bad.key, ")");
    for (std::size_t c = 0; c < w_v.size(); ++c) {
        const double pq = projected_q(bad.item, bad.query, c), pk = projected_k(bad.item, bad.key, c);
        if (!std::isnan(std::tanh(pq + pk))) continue;
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

    const auto projected_q = layers::linear_forward(queries, w_q);  // (batch, nq, h)
    const auto projected_k = layers::linear_forward(keys, w_k);     // (batch, nk, h)
    const std::size_t batch = queries.shape(0), nq = queries.shape(1), nk = keys.shape(1);
    xt::xtensor<double, 3> scores = xt::xtensor<double, 3>::from_shape({batch, nq, nk});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t q = 0; q < nq; ++q)
            for (std::size_t k = 0; k < nk; ++k) {
                double score = 0.0;
                for (std::size_t c = 0; c < h; ++c)
                    score += w_v(c) * std::tanh(projected_q(b, q, c) + projected_k(b, k, c));
                if (!std::isfinite(score)) fail_score(projected_q, projected_k, w_v, {b, q, k, score});
                scores(b, q, k) = score;
            }
    AttentionResult result;
    result.weights = masked_softmax(scores, valid_lens);
    result.output = batch_matrix_product_unchecked(result.weights, values);
    result.scores = std::move(scores);
    return result;
}

}  // namespace attention
