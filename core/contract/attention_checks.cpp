#include "contract/attention_checks.hpp"

#include <cstdint>

#include "contract/errors.hpp"
#include "contract/limits.hpp"

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
    const std::uint64_t batch = shape.extents.batch, nq = shape.extents.nq, nk = shape.extents.nk;
    const std::uint64_t tanh_terms = batch * nq * nk * shape.h;
    if (tanh_terms > limits::max_tanh_evaluations)
        fail(names.h, text("batch * nq * nk * h <= ", limits::max_tanh_evaluations), tanh_terms);
    // Multiply-adds: the projections W_q q and W_k k, then the weights times the values.
    const std::uint64_t projections = batch * (nq * shape.dq + nk * shape.dk) * shape.h;
    const std::uint64_t weighted_sums = batch * nq * nk * shape.dv;
    if (projections + weighted_sums > limits::max_work)
        fail(projections >= weighted_sums ? names.h : names.dv,
             text("batch * ((nq * dq + nk * dk) * h + nq * nk * dv) <= ", limits::max_work),
             projections + weighted_sums);
}

void check_dot_product_shape(const DotProductShape& shape, const DotProductNames& names) {
    check_attention_extents(shape.extents, names.extents);
    require_count(names.d, shape.d, 1, limits::max_dimension);
    require_count(names.dv, shape.dv, 1, limits::max_dimension);
    // Multiply-adds: the scores q.k (d each), then the weights times the values (dv each).
    const std::uint64_t pairs = std::uint64_t{shape.extents.batch} * shape.extents.nq * shape.extents.nk;
    const std::uint64_t work = pairs * (std::uint64_t{shape.d} + shape.dv);
    if (work > limits::max_work)
        fail(shape.d >= shape.dv ? names.d : names.dv, text("batch * nq * nk * (d + dv) <= ", limits::max_work),
             work);
}

void check_multi_head_shape(const MultiHeadShape& shape, const MultiHeadNames& names) {
    check_attention_extents(shape.extents, names.extents);
    require_count(names.hidden, shape.hidden, 1, limits::max_dimension);
    if (shape.heads < 1 || shape.heads > shape.hidden || shape.hidden % shape.heads != 0)
        fail(names.heads, text("a divisor of the hidden size ", shape.hidden), shape.heads);
    if (shape.extents.batch * shape.heads > limits::max_batch)
        fail(names.heads, text("batch * heads <= ", limits::max_batch), shape.extents.batch * shape.heads);
    // The weights, one matrix per head, are the result matrix here.
    const std::uint64_t batch = shape.extents.batch, nq = shape.extents.nq, nk = shape.extents.nk;
    const std::uint64_t weights = batch * shape.heads * nq * nk;
    if (weights > limits::max_matrix_elements)
        fail(names.heads, text("batch * heads * nq * nk <= ", limits::max_matrix_elements), weights);
    // Multiply-adds: the projections of the queries, keys and values and of the output (H x H
    // each), and every head's scores and weighted sums (H / heads each, over all heads: H).
    const std::uint64_t hidden = shape.hidden;
    const std::uint64_t work = batch * (2 * nq + 2 * nk) * hidden * hidden + 2 * batch * nq * nk * hidden;
    if (work > limits::max_work)
        fail(names.hidden, text("batch * ((2 nq + 2 nk) * hidden^2 + 2 nq * nk * hidden) <= ", limits::max_work),
             work);
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

void check_model_heads(std::size_t hidden, std::size_t heads) {
    require_count("heads", heads, model_heads_range);
    if (hidden % heads != 0) fail("heads", text("a divisor of hidden (", hidden, ")"), heads);
}

}  // namespace attention
