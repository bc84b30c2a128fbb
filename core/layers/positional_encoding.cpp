#include "layers/positional_encoding.hpp"

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/portable_math.hpp"

namespace attention {

xt::xtensor<double, 2> positional_encoding(std::size_t max_len, std::size_t dim) {
    require_count("maxLen", max_len, 1, limits::max_sequence);
    require_count("dim", dim, 1, limits::max_dimension);
    if (max_len * dim > limits::max_matrix_elements)
        fail("maxLen", text("maxLen * dim <= ", limits::max_matrix_elements));
    // The portable routines: the same bits in every build (the trainable model adds this to its
    // embeddings, and native and wasm training must agree).
    xt::xtensor<double, 2> encoding = xt::xtensor<double, 2>::from_shape({max_len, dim});
    for (std::size_t j = 0; 2 * j < dim; ++j) {
        const double divisor = portable::pow(10000.0, static_cast<double>(2 * j) / static_cast<double>(dim));
        for (std::size_t i = 0; i < max_len; ++i) {
            const double angle = static_cast<double>(i) / divisor;
            encoding(i, 2 * j) = portable::sin(angle);
            if (2 * j + 1 < dim) encoding(i, 2 * j + 1) = portable::cos(angle);
        }
    }
    return encoding;
}

}  // namespace attention
