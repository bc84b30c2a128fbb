#include "scoring/dot_product_attention.hpp"

#include <cmath>
#include <exception>
#include <vector>

#include "contract/attention_checks.hpp"
#include "contract/errors.hpp"
#include "layers/multi_head_attention.hpp"
#include "scoring/masking.hpp"

namespace attention {

// The checks, then the models' heads as one head of width d, values dv wide.
AttentionResult dot_product_attention(const xt::xtensor<double, 3>& queries,
                                      const xt::xtensor<double, 3>& keys,
                                      const xt::xtensor<double, 3>& values,
                                      const xt::xtensor<int, 1>& valid_lens) {
    const std::size_t d = queries.shape(2), dv = values.shape(2);
    check_dot_product_shape({extents_of(queries, keys), d, dv});
    if (keys.shape(2) != d) fail("keys", text("the queries' feature size d=", d), keys.shape(2));
    check_attention_tensors(queries, keys, values);
    const std::size_t batch = queries.shape(0), nq = queries.shape(1), nk = keys.shape(1);
    // An overflowing score is named before bad valid lengths, as the scores come first:
    // with bad lengths every key is visible until the scores are checked.
    std::exception_ptr bad_lengths;
    std::vector<std::size_t> visible(batch * nq, nk);
    try {
        const ValidLengths checked(valid_lens, batch, nq, nk);
        for (std::size_t b = 0; b < batch; ++b)
            for (std::size_t i = 0; i < nq; ++i) visible[b * nq + i] = checked.of_row(b, i);
    } catch (...) {
        bad_lengths = std::current_exception();
    }

    AttentionResult result;
    result.scores = xt::xtensor<double, 3>::from_shape({batch, nq, nk});
    result.weights = xt::xtensor<double, 3>::from_shape({batch, nq, nk});
    result.output = xt::xtensor<double, 3>::from_shape({batch, nq, dv});
    std::vector<double> scratch;
    layers::scaled_dot_product_forward({batch, nq, nk, d, 1, dv}, queries.data(), keys.data(), values.data(),
                                       visible.data(), result.weights.data(), result.output.data(), scratch,
                                       result.scores.data());
    // Finite inputs, yet q.k overflows: the queries (or keys) are too large. PyTorch's weights are NaN there.
    for (std::size_t i = 0; i < result.scores.size(); ++i)
        if (!std::isfinite(result.scores.data()[i]))
            fail("queries", "numbers small enough that the scores q.k / sqrt(d) stay finite",
                 text("a score of ", result.scores.data()[i], " (batch item ", i / (nq * nk), ", query ",
                      i / nk % nq, ", key ", i % nk, ")"));
    if (bad_lengths) std::rethrow_exception(bad_lengths);
    return result;
}

}  // namespace attention
