#include "scoring/checked_multi_head_attention.hpp"

#include <cmath>
#include <string_view>

#include "contract/attention_checks.hpp"
#include "numerics/batch_matrix_product.hpp"
#include "scoring/dot_product_attention.hpp"
#include "contract/errors.hpp"
#include "layers/linear.hpp"
#include "scoring/masking.hpp"
#include "scoring/masked_softmax.hpp"

#include <xtensor/xview.hpp>

namespace attention {

xt::xtensor<double, 3> transpose_qkv(const xt::xtensor<double, 3>& x, std::size_t heads) {
    const std::size_t batch = x.shape(0), n = x.shape(1), head_size = x.shape(2) / heads;
    xt::xtensor<double, 3> result = xt::xtensor<double, 3>::from_shape({batch * heads, n, head_size});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t c = 0; c < head_size; ++c)
                    result(b * heads + h, i, c) = x(b, i, h * head_size + c);
    return result;
}

xt::xtensor<double, 3> transpose_output(const xt::xtensor<double, 3>& x, std::size_t heads) {
    const std::size_t batch = x.shape(0) / heads, n = x.shape(1), head_size = x.shape(2);
    xt::xtensor<double, 3> result = xt::xtensor<double, 3>::from_shape({batch, n, heads * head_size});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t c = 0; c < head_size; ++c)
                    result(b, i, h * head_size + c) = x(b * heads + h, i, c);
    return result;
}

namespace {

// The first number of `result` that is not finite (every input was): an
// overflow, blamed on `argument`.
void require_finite_result(std::string_view argument, const char* expected, const xt::xtensor<double, 3>& result) {
    for (double v : result)
        if (!std::isfinite(v)) fail(argument, expected, text("a result of ", v));
}

// x W^T, refused under x's name when it overflows.
xt::xtensor<double, 3> projection(std::string_view name, const xt::xtensor<double, 3>& x,
                                  const xt::xtensor<double, 2>& weight, std::string_view weight_name) {
    auto projected = layers::linear_forward(x, weight);
    for (double v : projected)
        if (!std::isfinite(v))
            fail(name, text("numbers small enough that their projections by ", weight_name, " stay finite"),
                 text("a projection of ", v));
    return projected;
}

}  // namespace

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
    // valid_lens are per batch item or per row; every head of an item shares them.
    const std::size_t batch = queries.shape(0), nq = queries.shape(1);
    // Checked here, before they are repeated per head (so an error names the caller's index)
    // and before their copy is allocated: at most batch * nq of them, times heads <= max_batch.
    const ValidLengths checked(valid_lens, batch, nq, keys.shape(1));
    xt::xtensor<int, 1> head_lens = xt::xtensor<int, 1>::from_shape({valid_lens.size() * heads});
    const std::size_t per_item = valid_lens.size() / batch;
    for (std::size_t b = 0; b < batch && per_item > 0; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t r = 0; r < per_item; ++r)
                head_lens((b * heads + h) * per_item + r) = valid_lens(b * per_item + r);

    // Every step from finite inputs must stay finite (PyTorch's output would be Infinity or NaN
    // otherwise); an overflow is blamed on the argument that feeds it.
    const auto per_head_q = transpose_qkv(projection("queries", queries, w_q, "Wq"), heads);
    const auto per_head_k = transpose_qkv(projection("keys", keys, w_k, "Wk"), heads);
    const auto per_head_v = transpose_qkv(projection("values", values, w_v, "Wv"), heads);
    xt::xtensor<double, 3> scores;
    if (const auto bad = detail::scaled_dot_scores(per_head_q, per_head_k, scores))
        fail("queries", "numbers small enough that every head's scores q.k / sqrt(d) stay finite",
             text("a score of ", bad->score, " (batch item ", bad->item / heads, ", head ", bad->item % heads,
                  ", query ", bad->query, ", key ", bad->key, ")"));
    AttentionResult result;
    result.weights = masked_softmax(scores, head_lens);
    auto per_head_output = batch_matrix_product_unchecked(result.weights, per_head_v);  // weighted means: finite
    if (!head_mask.empty()) {
        for (std::size_t i = 0; i < per_head_output.shape(0); ++i)
            xt::view(per_head_output, i) *= head_mask[i % heads];
        require_finite_result("headMask", "factors small enough that every head's output stays finite",
                              per_head_output);
    }
    result.output = layers::linear_forward(transpose_output(per_head_output, heads), w_o);
    require_finite_result("Wo", "numbers small enough that the output stays finite", result.output);
    return result;
}

}  // namespace attention
