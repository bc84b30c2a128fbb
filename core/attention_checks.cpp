#include "attention_checks.hpp"

#include <cstdint>

#include "errors.hpp"
#include "limits.hpp"

namespace attention {

void check_attention_extents(const AttentionExtents& extents, const ExtentNames& names) {
    require_count(names.batch, extents.batch, 1, limits::max_batch);
    require_count(names.nq, extents.nq, 1, limits::max_points);
    require_count(names.nk, extents.nk, 1, limits::max_points);
    // In 64 bits: in wasm32 a size_t product of allowed extents can wrap around
    // (64 * 8192 * 8192 = 2^32 would pass as 0).
    const std::uint64_t weights = std::uint64_t{extents.batch} * extents.nq * extents.nk;
    if (weights > limits::max_matrix_elements)
        fail(names.nk, text("batch * nq * nk <= ", limits::max_matrix_elements), weights);
}

void check_additive_shape(const AdditiveShape& shape, const AdditiveNames& names) {
    check_attention_extents(shape.extents, names.extents);
    require_count(names.dq, shape.dq, 1, limits::max_dimension);
    require_count(names.dk, shape.dk, 1, limits::max_dimension);
    require_count(names.dv, shape.dv, 1, limits::max_dimension);
    require_count(names.h, shape.h, 1, limits::max_dimension);
    // Each score is a sum of h tanh terms: bounded work, whatever the sizes.
    const std::uint64_t work = std::uint64_t{shape.extents.batch} * shape.extents.nq * shape.extents.nk * shape.h;
    if (work > 4 * limits::max_matrix_elements)
        fail(names.h, text("batch * nq * nk * h <= ", 4 * limits::max_matrix_elements), work);
}

void check_dot_product_shape(const DotProductShape& shape, const DotProductNames& names) {
    check_attention_extents(shape.extents, names.extents);
    require_count(names.d, shape.d, 1, limits::max_dimension);
    require_count(names.dv, shape.dv, 1, limits::max_dimension);
}

void check_multi_head_shape(const MultiHeadShape& shape, const MultiHeadNames& names) {
    check_attention_extents(shape.extents, names.extents);
    require_count(names.hidden, shape.hidden, 1, limits::max_dimension);
    if (shape.heads < 1 || shape.heads > shape.hidden || shape.hidden % shape.heads != 0)
        fail(names.heads, text("a divisor of the hidden size ", shape.hidden), shape.heads);
    if (shape.extents.batch * shape.heads > limits::max_batch)
        fail(names.heads, text("batch * heads <= ", limits::max_batch), shape.extents.batch * shape.heads);
}

void check_attention_tensors(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys,
                             const xt::xtensor<double, 3>& values) {
    if (keys.shape(0) != queries.shape(0) || values.shape(0) != queries.shape(0))
        fail("keys", text("the same batch size as the queries (", queries.shape(0), ")"));
    if (values.shape(1) != keys.shape(1))
        fail("values", text("one value per key (", keys.shape(1), ")"), values.shape(1));
    require_all_finite("queries", queries);
    require_all_finite("keys", keys);
    require_all_finite("values", values);
}

}  // namespace attention
