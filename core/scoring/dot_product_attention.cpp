#include "scoring/dot_product_attention.hpp"

#include <cmath>

#include "contract/attention_checks.hpp"
#include "numerics/batch_matrix_product.hpp"
#include "contract/errors.hpp"
#include "scoring/masked_softmax.hpp"

namespace attention {

namespace detail {

std::optional<BadScore> scaled_dot_scores(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys,
                                          xt::xtensor<double, 3>& scores) {
    const std::size_t batch = queries.shape(0), nq = queries.shape(1), nk = keys.shape(1), d = queries.shape(2);
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    scores = xt::xtensor<double, 3>::from_shape({batch, nq, nk});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t q = 0; q < nq; ++q) {
            const double* query = &queries(b, q, 0);
            for (std::size_t k = 0; k < nk; ++k) {
                const double* key = &keys(b, k, 0);
                double dot = 0.0;
                for (std::size_t c = 0; c < d; ++c) dot += query[c] * key[c];
                const double score = dot * scale;
                if (!std::isfinite(score)) return BadScore{b, q, k, score};
                scores(b, q, k) = score;
            }
        }
    return std::nullopt;
}

}  // namespace detail

AttentionResult dot_product_attention(const xt::xtensor<double, 3>& queries,
                                      const xt::xtensor<double, 3>& keys,
                                      const xt::xtensor<double, 3>& values,
                                      const xt::xtensor<int, 1>& valid_lens) {
    const std::size_t d = queries.shape(2);
    check_dot_product_shape({extents_of(queries, keys), d, values.shape(2)});
    if (keys.shape(2) != d) fail("keys", text("the queries' feature size d=", d), keys.shape(2));
    check_attention_tensors(queries, keys, values);
    xt::xtensor<double, 3> scores;
    // Finite inputs, yet q.k overflows: the queries (or keys) are too large. PyTorch's weights are NaN there.
    if (const auto bad = detail::scaled_dot_scores(queries, keys, scores))
        fail("queries", "numbers small enough that the scores q.k / sqrt(d) stay finite",
             text("a score of ", bad->score, " (batch item ", bad->item, ", query ", bad->query, ", key ", bad->key,
                  ")"));
    AttentionResult result;
    result.weights = masked_softmax(scores, valid_lens);
    result.output = batch_matrix_product_unchecked(result.weights, values);
    result.scores = std::move(scores);
    return result;
}

}  // namespace attention
