#pragma once
// nn.Embedding scaled and summed with a positional encoding, as d2l's
// Transformer encoder and decoder begin: x = table[token] * scale + P[position],
// as a forward/backward pair over raw row-major arrays.
#include <cstddef>

namespace attention::layers {

struct EmbeddingShape {
    std::size_t rows = 0;    // batch * length; row r is position r % length
    std::size_t length = 1;  // positions per item: the encoding's rows
    std::size_t hidden = 0;  // the table's and the encoding's width
};

// tokens must lie in [0, the table's rows); `encoding` is length x hidden (null: none).
void embedding_forward(const EmbeddingShape& shape, const int* tokens, const double* table, double scale,
                       const double* encoding, double* x);

// dtable[token] += dx * scale, row by row in order.
void embedding_backward(const EmbeddingShape& shape, const int* tokens, double scale, const double* dx,
                        double* dtable);

}  // namespace attention::layers
