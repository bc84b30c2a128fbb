// Bindings of the scoring functions: d2l's masking, additive, dot-product
// and multi-head attention, and the positional encoding. (Masked softmax and
// the batch matrix product: cues_bindings.cpp.)
#include <emscripten/bind.h>

#include <string_view>
#include <vector>

#include "scoring/checked_additive_attention.hpp"
#include "contract/attention_checks.hpp"
#include "scoring/dot_product_attention.hpp"
#include "scoring/masking.hpp"
#include "scoring/checked_multi_head_attention.hpp"
#include "layers/positional_encoding.hpp"
#include "transfer.hpp"

using namespace attention::transfer;

namespace {

val mask_scores(val scores, double batch, double nq, double nk, val lens) {
    return guarded([&] {
        const auto a = scores_arguments(scores, batch, nq, nk, lens);
        const auto masked = attention::mask_scores(a.scores, a.lens);
        val object = val::object();
        object.set("maskedScores", to_js(masked.scores));
        object.set("masked", to_js_uint8(masked.masked));
        object.set("rowLengths", to_js_int32(masked.row_lengths));
        return object;
    });
}

// Shapes arrive as one object of whole numbers, read by name. The core checks
// them (attention_checks.hpp) under the names the caller used, before any
// array is copied.
std::size_t dim(const val& shape, const char* key, std::string_view name) {
    return count(shape[key].as<double>(), name);
}

// The names of the JS API's shape object, for the core's messages.
constexpr attention::ExtentNames shape_names{"shape.batch", "shape.nq", "shape.nk"};
constexpr attention::AdditiveNames additive_names{shape_names, "shape.dq", "shape.dk", "shape.dv", "shape.h"};
constexpr attention::DotProductNames dot_product_names{shape_names, "shape.d", "shape.dv"};
constexpr attention::MultiHeadNames multi_head_names{shape_names, "shape.hidden", "shape.heads"};

attention::AttentionExtents attention_extents(const val& shape) {
    return {dim(shape, "batch", shape_names.batch), dim(shape, "nq", shape_names.nq), dim(shape, "nk", shape_names.nk)};
}

val additive_attention(val queries, val keys, val values, val shape, val w_q, val w_k, val w_v, val lens) {
    return guarded([&] {
        const auto& names = additive_names;
        const attention::AdditiveShape s{attention_extents(shape), dim(shape, "dq", names.dq),
                                         dim(shape, "dk", names.dk), dim(shape, "dv", names.dv),
                                         dim(shape, "h", names.h)};
        attention::check_additive_shape(s, names);
        const auto [b, nq, nk] = s.extents;
        const std::size_t dq = s.dq, dk = s.dk, dv = s.dv, h = s.h;
        const auto q = incoming<3>(queries, {b, nq, dq}, "queries");
        const auto k = incoming<3>(keys, {b, nk, dk}, "keys");
        const auto v = incoming<3>(values, {b, nk, dv}, "values");
        const auto wq = incoming<2>(w_q, {h, dq}, "Wq");
        const auto wk = incoming<2>(w_k, {h, dk}, "Wk");
        const auto wv = incoming<1>(w_v, {h}, "wv");
        const auto checked_lens = valid_lengths(lens, s.extents);
        return attention_result(attention::additive_attention(q.copy(), k.copy(), v.copy(), wq.copy(), wk.copy(),
                                                              wv.copy(), checked_lens));
    });
}

val dot_product_attention(val queries, val keys, val values, val shape, val lens) {
    return guarded([&] {
        const auto& names = dot_product_names;
        const attention::DotProductShape s{attention_extents(shape), dim(shape, "d", names.d),
                                           dim(shape, "dv", names.dv)};
        attention::check_dot_product_shape(s, names);
        const auto [b, nq, nk] = s.extents;
        const std::size_t d = s.d, dv = s.dv;
        const auto q = incoming<3>(queries, {b, nq, d}, "queries");
        const auto k = incoming<3>(keys, {b, nk, d}, "keys");
        const auto v = incoming<3>(values, {b, nk, dv}, "values");
        const auto checked_lens = valid_lengths(lens, s.extents);
        return attention_result(attention::dot_product_attention(q.copy(), k.copy(), v.copy(), checked_lens));
    });
}

val multi_head_attention(val queries, val keys, val values, val shape, val w_q, val w_k, val w_v,
                         val w_o, val lens, val head_mask) {
    return guarded([&] {
        const auto& names = multi_head_names;
        const attention::MultiHeadShape s{attention_extents(shape), dim(shape, "hidden", names.hidden),
                                          dim(shape, "heads", names.heads)};
        attention::check_multi_head_shape(s, names);
        const auto [b, nq, nk] = s.extents;
        const std::size_t hidden = s.hidden, heads = s.heads;
        const auto q = incoming<3>(queries, {b, nq, hidden}, "queries");
        const auto k = incoming<3>(keys, {b, nk, hidden}, "keys");
        const auto v = incoming<3>(values, {b, nk, hidden}, "values");
        const auto wq = incoming<2>(w_q, {hidden, hidden}, "Wq");
        const auto wk = incoming<2>(w_k, {hidden, hidden}, "Wk");
        const auto wv = incoming<2>(w_v, {hidden, hidden}, "Wv");
        const auto wo = incoming<2>(w_o, {hidden, hidden}, "Wo");
        // null: every head; otherwise one factor per head.
        std::vector<double> mask;
        if (!head_mask.isNull()) {
            if (const std::size_t length = js_length(head_mask); length != heads)
                attention::fail("headMask", attention::text("null or ", heads, " factors (one per head)"), length);
            const auto factors = tensor<1>(head_mask, {heads}, "headMask");
            mask.assign(factors.begin(), factors.end());
        }
        const auto checked_lens = valid_lengths(lens, s.extents);
        return attention_result(attention::multi_head_attention(q.copy(), k.copy(), v.copy(), wq.copy(), wk.copy(),
                                                                wv.copy(), wo.copy(), heads, checked_lens, mask));
    });
}

val positional_encoding(double max_len, double dim_) {
    return guarded([&] {
        return to_js(attention::positional_encoding(count(max_len, "maxLen"), count(dim_, "dim")));
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_scoring) {
    emscripten::function("maskScores", &mask_scores);
    emscripten::function("additiveAttention", &additive_attention);
    emscripten::function("dotProductAttention", &dot_product_attention);
    emscripten::function("multiHeadAttention", &multi_head_attention);
    emscripten::function("positionalEncoding", &positional_encoding);
}
