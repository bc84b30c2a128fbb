#pragma once
// What the batched attention layers accept, each rule written once: their
// shapes (sizes within the documented limits, heads dividing the hidden size,
// bounded work) and their input tensors (consistent and finite). The layers
// call these, and so do the bindings, before copying any array, under the
// names the JS caller used (shape.nk, shape[2] (nk), ...): the names are
// arguments, the core's own are the defaults.
#include <cstddef>
#include <string_view>

#include <xtensor/xtensor.hpp>

#include "contract/errors.hpp"
#include "contract/limits.hpp"

namespace attention {

// batch, queries and keys of one attention computation.
struct AttentionExtents {
    std::size_t batch = 0, nq = 0, nk = 0;
};
struct ExtentNames {
    std::string_view batch = "batch", nq = "nq", nk = "nk";
};
// Each extent within its limit, and the weights (batch * nq * nk) within the matrix limit.
void check_attention_extents(const AttentionExtents& extents, const ExtentNames& names = {});

// Additive attention: feature sizes dq, dk, dv and hidden size h, each within
// the dimension limit, its batch * nq * nk * h tanh evaluations and its
// multiply-adds (projections, weighted sums) within the work limits.
struct AdditiveShape {
    AttentionExtents extents;
    std::size_t dq = 0, dk = 0, dv = 0, h = 0;
};
struct AdditiveNames {
    ExtentNames extents;
    std::string_view dq = "feature size", dk = "feature size", dv = "feature size", h = "h";
};
void check_additive_shape(const AdditiveShape& shape, const AdditiveNames& names = {});

// Scaled dot-product attention: feature size d (queries and keys) and value
// size dv, and its batch * nq * nk * (d + dv) multiply-adds within the work limit.
struct DotProductShape {
    AttentionExtents extents;
    std::size_t d = 0, dv = 0;
};
struct DotProductNames {
    ExtentNames extents;
    std::string_view d = "feature size", dv = "feature size";
};
void check_dot_product_shape(const DotProductShape& shape, const DotProductNames& names = {});

// Multi-head attention: the hidden size, heads dividing it, batch * heads
// within the batch limit (the heads run as one batch), the weights (batch *
// heads * nq * nk) within the matrix limit and the multiply-adds within the
// work limit.
struct MultiHeadShape {
    AttentionExtents extents;
    std::size_t hidden = 0, heads = 0;
};
struct MultiHeadNames {
    ExtentNames extents;
    std::string_view hidden = "feature size", heads = "heads";
};
void check_multi_head_shape(const MultiHeadShape& shape, const MultiHeadNames& names = {});

// The extents of (batch, nq, d) queries and (batch, nk, d) keys.
inline AttentionExtents extents_of(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys) {
    return {queries.shape(0), queries.shape(1), keys.shape(1)};
}

// A computed score that is not finite although every input was (an overflow):
// its batch item, query and key. The layers name the argument to change.
struct BadScore {
    std::size_t item = 0, query = 0, key = 0;
    double score = 0.0;
};

// The tensors agree (keys and values of the queries' batch, one value per
// key) and hold finite numbers. Their sizes are the shape checks' business.
void check_attention_tensors(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys,
                             const xt::xtensor<double, 3>& values);

// A trainable model's heads (both models' configs): a count within
// limits::max_heads that divides the model's hidden size; errors name "heads".
void check_model_heads(std::size_t hidden, std::size_t heads);
inline constexpr CountRange model_heads_range{1, limits::max_heads};

}  // namespace attention
