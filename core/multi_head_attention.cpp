#include "multi_head_attention.hpp"

#include "attention_checks.hpp"
#include "dot_product_attention.hpp"
#include "errors.hpp"
#include "linear.hpp"
#include "masking.hpp"

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
    xt::xtensor<int, 1> head_lens = xt::xtensor<int, 1>::from_shape({valid_lens.size() * heads});
    const std::size_t per_item = valid_lens.size() / batch;
    // Checked here, before they are repeated per head, so an error names the caller's index.
    const ValidLengths checked(valid_lens, batch, nq, keys.shape(1));
    for (std::size_t b = 0; b < batch && per_item > 0; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t r = 0; r < per_item; ++r)
                head_lens((b * heads + h) * per_item + r) = valid_lens(b * per_item + r);

    AttentionResult per_head = dot_product_attention(transpose_qkv(linear(queries, w_q), heads),
                                                     transpose_qkv(linear(keys, w_k), heads),
                                                     transpose_qkv(linear(values, w_v), heads), head_lens);
    if (!head_mask.empty())
        for (std::size_t i = 0; i < per_head.output.shape(0); ++i)
            xt::view(per_head.output, i) *= head_mask[i % heads];
    AttentionResult result;
    result.output = linear(transpose_output(per_head.output, heads), w_o);
    result.weights = std::move(per_head.weights);
    return result;
}

}  // namespace attention
