#include "attention_result.hpp"

#include "errors.hpp"
#include "limits.hpp"

namespace attention {

xt::xtensor<double, 3> batch_matmul(const xt::xtensor<double, 3>& weights,
                                    const xt::xtensor<double, 3>& values) {
    const std::size_t batch = weights.shape(0), nq = weights.shape(1), nk = weights.shape(2);
    const std::size_t dv = values.shape(2);
    xt::xtensor<double, 3> output = xt::zeros<double>({batch, nq, dv});
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t q = 0; q < nq; ++q) {
            double* out = &output(b, q, 0);
            for (std::size_t k = 0; k < nk; ++k) {
                const double a = weights(b, q, k);
                const double* v = &values(b, k, 0);
                for (std::size_t c = 0; c < dv; ++c) out[c] += a * v[c];
            }
        }
    return output;
}

void check_attention_inputs(const xt::xtensor<double, 3>& queries, const xt::xtensor<double, 3>& keys,
                            const xt::xtensor<double, 3>& values) {
    require_count("batch", queries.shape(0), 1, limits::max_batch);
    require_count("nq", queries.shape(1), 1, limits::max_points);
    require_count("nk", keys.shape(1), 1, limits::max_points);
    if (keys.shape(0) != queries.shape(0) || values.shape(0) != queries.shape(0))
        fail("keys", "expected the same batch size as the queries (", queries.shape(0), ")");
    if (values.shape(1) != keys.shape(1))
        fail("values", "expected one value per key (", keys.shape(1), "), got ", values.shape(1));
    for (auto size : {queries.shape(2), keys.shape(2), values.shape(2)})
        require_count("feature size", size, 1, limits::max_dimension);
    if (queries.shape(0) * queries.shape(1) * keys.shape(1) > limits::max_matrix_elements)
        fail("nk", "expected batch * nq * nk <= ", limits::max_matrix_elements);
    require_all_finite("queries", queries);
    require_all_finite("keys", keys);
    require_all_finite("values", values);
}

}  // namespace attention
