#include "layers/embedding.hpp"

#include "numerics/vector_math.hpp"

namespace attention::layers {

void embedding_forward(const EmbeddingShape& shape, const int* tokens, const double* table, double scale,
                       const double* encoding, double* x) {
    const std::size_t hidden = shape.hidden;
    for (std::size_t r = 0; r < shape.rows; ++r) {
        const double* e = table + static_cast<std::size_t>(tokens[r]) * hidden;
        double* xr = x + r * hidden;
        if (encoding) {
            const double* p = encoding + (r % shape.length) * hidden;
            for (std::size_t c = 0; c < hidden; ++c) xr[c] = e[c] * scale + p[c];
        } else {
            for (std::size_t c = 0; c < hidden; ++c) xr[c] = e[c] * scale;
        }
    }
}

void embedding_backward(const EmbeddingShape& shape, const int* tokens, double scale, const double* dx,
                        double* dtable) {
    const std::size_t hidden = shape.hidden;
    for (std::size_t r = 0; r < shape.rows; ++r) {
        double* row = dtable + static_cast<std::size_t>(tokens[r]) * hidden;
        vector_math::axpy(row, scale, dx + r * hidden, hidden);
    }
}

}  // namespace attention::layers
