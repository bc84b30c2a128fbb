#include "scoring/checked_multi_head_attention.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "contract/attention_checks.hpp"
#include "contract/errors.hpp"
#include "layers/multi_head_attention.hpp"
#include "scoring/masking.hpp"

namespace attention {

namespace {

// The first of `count` numbers that is not finite, blamed on `argument`: finite inputs
// overflowed on the way.
void require_finite(std::string_view argument, const std::string& expected, const char* what, const double* values,
                    std::size_t count) {
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(values[i])) fail(argument, expected, text(what, values[i]));
}

}  // namespace

// The checks, then the models' layer (layers/multi_head_attention.hpp); its
// intermediate results are checked afterwards, in the order they were made,
// so an overflow is blamed on the argument that fed it first.
AttentionResult multi_head_attention(const xt::xtensor<double, 3>& queries,
                                     const xt::xtensor<double, 3>& keys,
                                     const xt::xtensor<double, 3>& values,
                                     const xt::xtensor<double, 2>& w_q, const xt::xtensor<double, 2>& w_k,
                                     const xt::xtensor<double, 2>& w_v, const xt::xtensor<double, 2>& w_o,
                                     std::size_t heads, const xt::xtensor<int, 1>& valid_lens,
                                     const std::vector<double>& head_mask) {
    const std::size_t hidden = queries.shape(2);
    check_multi_head_shape({extents_of(queries, keys), hidden, heads});
    if (keys.shape(2) != hidden || values.shape(2) != hidden)
        fail("keys", text("keys and values with the hidden size ", hidden));
    check_attention_tensors(queries, keys, values);
    const char* names[] = {"Wq", "Wk", "Wv", "Wo"};
    const xt::xtensor<double, 2>* matrices[] = {&w_q, &w_k, &w_v, &w_o};
    for (int m = 0; m < 4; ++m) {
        if (matrices[m]->shape(0) != hidden || matrices[m]->shape(1) != hidden)
            fail(names[m], text("shape (hidden=", hidden, ", hidden=", hidden, ")"));
        require_all_finite(names[m], *matrices[m]);
    }
    if (!head_mask.empty() && head_mask.size() != heads)
        fail("headMask", text("null or ", heads, " factors (one per head)"), head_mask.size());
    require_all_finite("headMask", head_mask);
    // valid_lens are per batch item or per row (checked here, so an error names the caller's index);
    // every head of an item shares them.
    const std::size_t batch = queries.shape(0), nq = queries.shape(1), nk = keys.shape(1);
    const ValidLengths checked(valid_lens, batch, nq, nk);
    std::vector<std::size_t> visible(batch * nq);
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t i = 0; i < nq; ++i) visible[b * nq + i] = checked.of_row(b, i);

    const layers::AttentionShape shape{batch, nq, nk, hidden, heads};
    layers::AttentionCache cache;
    std::vector<double> transposed;
    AttentionResult result;
    result.output = xt::xtensor<double, 3>::from_shape({batch, nq, hidden});
    // The scores go where the weights will be, once the scores are checked (one buffer fewer).
    result.weights = xt::xtensor<double, 3>::from_shape({batch * heads, nq, nk});
    const double* scores = result.weights.data();
    layers::multi_head_attention_forward(shape, queries.data(), keys.data(), values.data(), visible.data(),
                                         {w_q.data(), w_k.data(), w_v.data(), w_o.data()}, cache,
                                         result.output.data(), transposed, nullptr,
                                         {head_mask.empty() ? nullptr : head_mask.data(), result.weights.data()});

    // Every step from finite inputs must stay finite (PyTorch's output would be Infinity or NaN
    // otherwise); an overflow is blamed on the argument that feeds it.
    const auto projections = [](const char* weight) {
        return text("numbers small enough that their projections by ", weight, " stay finite");
    };
    require_finite("queries", projections("Wq"), "a projection of ", cache.q.data(), cache.q.size());
    require_finite("keys", projections("Wk"), "a projection of ", cache.k.data(), cache.k.size());
    require_finite("values", projections("Wv"), "a projection of ", cache.v.data(), cache.v.size());
    for (std::size_t i = 0; i < result.weights.size(); ++i)
        if (!std::isfinite(scores[i])) {
            const std::size_t item = i / (nq * nk), query = i / nk % nq, key = i % nk;
            fail("queries", "numbers small enough that every head's scores q.k / sqrt(d) stay finite",
                 text("a score of ", scores[i], " (batch item ", item / heads, ", head ", item % heads, ", query ",
                      query, ", key ", key, ")"));
        }
    if (!head_mask.empty()) {
        // Head by head, as the heads' outputs are split (d2l's transpose_qkv).
        const std::size_t dh = hidden / heads;
        for (std::size_t b = 0; b < batch; ++b)
            for (std::size_t h = 0; h < heads; ++h)
                for (std::size_t i = 0; i < nq; ++i)
                    require_finite("headMask", "factors small enough that every head's output stays finite",
                                   "a result of ", cache.concat.data() + (b * nq + i) * hidden + h * dh, dh);
    }
    require_finite("Wo", "numbers small enough that the output stays finite", "a result of ", result.output.data(),
                   result.output.size());
    std::copy(cache.weights.begin(), cache.weights.end(), result.weights.begin());
    return result;
}

}  // namespace attention
