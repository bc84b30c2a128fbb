#pragma once
// nn.GRU as forward/backward pairs over raw row-major arrays, dropout 0:
//   r = sigmoid(x W_ir^T + b_ir + h W_hr^T + b_hr)
//   z = sigmoid(x W_iz^T + b_iz + h W_hz^T + b_hz)
//   n = tanh(x W_in^T + b_in + r * (h W_hn^T + b_hn))
//   h' = (1 - z) * n + z * h
// with PyTorch's layout: weight_ih (3 hidden x in) and weight_hh (3 hidden x
// hidden) stack the rows of the r, z and n gates in that order, and so do
// bias_ih and bias_hh (3 hidden each).
//
// Three levels, because the callers know different things in advance:
//  - a step (gru_step_*): the recurrent half of one update for a batch of
//    rows, on input gates x W_ih^T + b_ih the caller projected. A layer over
//    time projects the inputs of every step at once; the Bahdanau decoder
//    projects its embeddings at once and adds each step's attention context.
//    The weights' gradients are left to the caller, who can sum them over
//    all steps in one product;
//  - the cell (gru_cell_*): nn.GRUCell, a whole update from x and h;
//  - a layer over time (gru_layer_*): one layer in one direction of nn.GRU
//    over a time-major sequence (row t * batch + b is item b at time t),
//    outputs of every step, backward through time.
// Every projection runs on the register-tiled kernel of matrix_products.hpp
// (through linear.hpp where the weight is used once); the gates' tanh and
// sigmoid are vector_math's (the same bits natively and in wasm).
#include <cstddef>
#include <vector>

namespace attention::layers {

struct GruWeights {
    const double *weight_ih, *weight_hh, *bias_ih, *bias_hh;
};
struct GruGradients {
    double *weight_ih, *weight_hh, *bias_ih, *bias_hh;
};

// A step's cache per row: r, z, n and h W_hn^T + b_hn (what the backward pass of n needs), hidden each.
inline constexpr std::size_t gru_cached_gates = 4;

struct GruStepShape {
    std::size_t batch = 1;
    std::size_t hidden = 0;
};

// h_next (batch x hidden) from h and input_gates (batch x 3 hidden: x W_ih^T
// + b_ih, the caller's projection); hh_transposed is W_hh^T (hidden x 3
// hidden). gates (batch x 4 hidden) keeps what the backward pass needs;
// hidden_gates (batch x 3 hidden) is scratch. h_next must not overlap h.
void gru_step_forward(const GruStepShape& shape, const double* input_gates, const double* h,
                      const double* hh_transposed, const double* bias_hh, double* h_next, double* gates,
                      double* hidden_gates);

// Given dh_next = d objective / d h_next: d_input_gates and d_hidden_gates
// (batch x 3 hidden each, overwritten) are the gradients of x W_ih^T + b_ih
// and of h W_hh^T + b_hh, and dh += dh_next * z + d_hidden_gates W_hh (the
// gradient of h, through the update and through the recurrent projection).
// The weights' gradients are the caller's: dW_ih += d_input_gates^T x,
// dW_hh += d_hidden_gates^T h, the biases' the column sums.
void gru_step_backward(const GruStepShape& shape, const double* gates, const double* h, const double* dh_next,
                       const double* weight_hh, double* d_input_gates, double* d_hidden_gates, double* dh);

// nn.GRUCell: h_next (batch x hidden) from x (batch x in) and h (batch x hidden).
struct GruCellShape {
    std::size_t batch = 1;
    std::size_t in = 0, hidden = 0;
};
struct GruCellCache {
    std::vector<double> input_gates, hidden_gates, gates, transposed;
};
void gru_cell_forward(const GruCellShape& shape, const double* x, const double* h, const GruWeights& w,
                      double* h_next, GruCellCache& cache);
// After the forward pass of the same x and h: the weights' gradients
// accumulate, and so do dx and dh (either may be null).
void gru_cell_backward(const GruCellShape& shape, const double* x, const double* h, const GruWeights& w,
                       GruCellCache& cache, const double* dh_next, const GruGradients& grads, double* dx, double* dh);

// One layer in one direction over `steps` time steps of `batch` rows each.
// A reverse layer reads time steps from the last to the first, as nn.GRU's
// `_reverse` weights do; either way outputs[t] is the state after reading
// time t, and the layer's final state is the output of the time it reads
// last (gru_final_time).
struct GruLayerShape {
    std::size_t steps = 1, batch = 1;
    std::size_t in = 0, hidden = 0;
    bool reverse = false;
};
inline std::size_t gru_final_time(const GruLayerShape& shape) { return shape.reverse ? 0 : shape.steps - 1; }

struct GruLayerCache {
    std::vector<double> input_gates;  // steps * batch x 3 hidden: every step's x W_ih^T + b_ih
    std::vector<double> gates;        // steps * batch x 4 hidden
    std::vector<double> transposed;   // W_hh^T while the steps run
    // The backward pass's: every step's gate gradients, the gradient of the
    // state being carried back, and the next step's total.
    std::vector<double> d_input_gates, d_hidden_gates, carry, dh_next;
    std::size_t doubles() const;
};

// x: steps * batch rows of `in`; h0: batch x hidden; outputs: steps * batch x hidden.
void gru_layer_forward(const GruLayerShape& shape, const double* x, const double* h0, const GruWeights& w,
                       GruLayerCache& cache, double* outputs);

// After the forward pass of the same x and h0 (outputs as it left them):
// given doutputs (steps * batch x hidden: the gradient of every output from
// above) and dh_final (batch x hidden: the final state's gradient from
// outside, added to its output's; null: none), the weights' gradients
// accumulate, and so do dx (steps * batch x in) and dh0 (either may be null).
void gru_layer_backward(const GruLayerShape& shape, const double* x, const double* h0, const GruWeights& w,
                        GruLayerCache& cache, const double* outputs, const double* doutputs,
                        const double* dh_final, const GruGradients& grads, double* dx, double* dh0);

// The same in two halves, for a caller that makes the input gates its own
// way (the Bahdanau encoder looks them up per token): the recurrence from
// cache.input_gates (steps * batch x 3 hidden, x W_ih^T + b_ih, the caller's),
// and back to cache.d_input_gates (their gradient, for the caller's dW_ih,
// db_ih and dx); W_hh's and b_hh's gradients accumulate in grads (its
// weight_ih and bias_ih are not touched).
void gru_layer_forward_from_gates(const GruLayerShape& shape, const double* h0, const GruWeights& w,
                                  GruLayerCache& cache, double* outputs);
void gru_layer_backward_to_gates(const GruLayerShape& shape, const double* h0, const GruWeights& w,
                                 GruLayerCache& cache, const double* outputs, const double* doutputs,
                                 const double* dh_final, const GruGradients& grads, double* dh0);

}  // namespace attention::layers
