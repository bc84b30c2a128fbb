#pragma once
// One item's attention as a model's forward pass computed it: what the
// models hand to attention_row_steps.hpp, which takes one row of it apart.
// The layer's own results (its weights and outputs) come along, so that the
// steps can be checked against them.
#include <cstddef>
#include <vector>

namespace attention {

// Scaled dot-product attention of `heads` heads (d2l's MultiHeadAttention):
// the projected rows Q = X W_q^T, K, V of one item, row-major, head h owning
// columns h * hidden / heads onwards.
struct DotProductItemInputs {
    std::size_t queries = 0, keys = 0, hidden = 0, heads = 1;
    std::vector<double> q;                // queries x hidden
    std::vector<double> k, v;             // keys x hidden each
    std::vector<std::size_t> visible;     // per query: the keys it sees, the first ones
    std::size_t valid_length = 0;         // the keys the valid length lets through
    bool causal = false;                  // query i sees keys j <= i
    std::vector<double> weights;          // heads x queries x keys: the layer's
    std::vector<double> outputs;          // queries x hidden: the layer's heads' outputs, before W_o
};

// d2l's AdditiveAttention: queries (Bahdanau's decoder states, or one
// Transformer head's part of W_q x_i), keys (the encoder's outputs, or the
// head's part of W_k x_j), values (the keys themselves for Bahdanau's decoder),
// W_q (hidden x query_size), W_k (hidden x key_size) and w_v (hidden).
struct AdditiveItemInputs {
    std::size_t queries = 0, keys = 0, query_size = 0, key_size = 0, hidden = 0;
    std::vector<double> query_rows;       // queries x query_size
    std::vector<double> key_rows;         // keys x key_size
    std::vector<double> value_rows;       // keys x key_size; empty: the keys are the values
    std::vector<double> w_q, w_k, w_v;
    std::size_t valid_length = 0;
    std::vector<std::size_t> visible;     // per query: the keys it sees; empty: valid_length each
    bool causal = false;                  // query i sees keys j <= i
    std::vector<double> weights;          // queries x keys: the layer's
    std::vector<double> outputs;          // queries x key_size: the layer's outputs
};

}  // namespace attention
