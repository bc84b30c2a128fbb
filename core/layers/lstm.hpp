#pragma once
// nn.LSTM as forward/backward pairs over raw row-major arrays, dropout 0:
//   i = sigmoid(x W_ii^T + b_ii + h W_hi^T + b_hi)
//   f = sigmoid(x W_if^T + b_if + h W_hf^T + b_hf)
//   g = tanh(x W_ig^T + b_ig + h W_hg^T + b_hg)
//   o = sigmoid(x W_io^T + b_io + h W_ho^T + b_ho)
//   c' = f * c + i * g,   h' = o * tanh(c')
// with PyTorch's layout: weight_ih (4 hidden x in) and weight_hh (4 hidden x
// hidden) stack the rows of the i, f, g and o gates in that order, and so do
// bias_ih and bias_hh (4 hidden each). The state is the pair (h, c).
//
// Two levels, as layers/gru.hpp's (whose weight structs it shares):
//  - a step (lstm_step_*): the recurrent half of one update for a batch of
//    rows, on input gates x W_ih^T + b_ih the caller projected (the Bahdanau
//    decoder adds each step's context to them). The weights' gradients are
//    the caller's: both halves of the gates share one gradient, the
//    pre-activations';
//  - a layer over time (lstm_layer_*): one layer in one direction of
//    nn.LSTM over a time-major sequence (row t * batch + b), outputs (h) of
//    every step and its cells (c), backward through time.
#include <cstddef>
#include <vector>

#include "layers/gru.hpp"

namespace attention::layers {

using LstmWeights = GruWeights;
using LstmGradients = GruGradients;

// A step's cache per row: i, f, g, o and tanh(c'), hidden each.
inline constexpr std::size_t lstm_cached_gates = 5;

// h_next and c_next (batch x hidden) from h, c and input_gates (batch x 4
// hidden: x W_ih^T + b_ih); hh_transposed is W_hh^T (hidden x 4 hidden).
// gates (batch x 5 hidden) keeps what the backward pass needs;
// hidden_gates (batch x 4 hidden) is scratch. h_next and c_next must not
// overlap h and c.
void lstm_step_forward(const GruStepShape& shape, const double* input_gates, const double* h, const double* c,
                       const double* hh_transposed, const double* bias_hh, double* h_next, double* c_next,
                       double* gates, double* hidden_gates);

// Given dh_next and dc_next (the gradients of h' and c'; dc_next may be
// null: none but through h'): d_gates (batch x 4 hidden, overwritten) is the
// gradient of the gates' pre-activations (x W_ih^T + b_ih and h W_hh^T +
// b_hh alike), dh += d_gates W_hh, and dc (overwritten) is c's gradient.
// dc may be dc_next.
void lstm_step_backward(const GruStepShape& shape, const double* gates, const double* c, const double* dh_next,
                        const double* dc_next, const double* weight_hh, double* d_gates, double* dh, double* dc);

// One layer in one direction over `steps` time steps, as gru_layer_*'s.
using LstmLayerShape = GruLayerShape;
inline std::size_t lstm_final_time(const LstmLayerShape& shape) { return gru_final_time(shape); }

struct LstmLayerCache {
    std::vector<double> input_gates;  // steps * batch x 4 hidden: every step's x W_ih^T + b_ih
    std::vector<double> gates;        // steps * batch x 5 hidden
    std::vector<double> cells;        // steps * batch x hidden: c after each time read
    std::vector<double> transposed;   // W_hh^T while the steps run
    // The backward pass's: every step's gate gradients, the gradients of the
    // state being carried back, and the next step's total.
    std::vector<double> d_gates, carry_h, carry_c, dh_next;
    std::size_t doubles() const;
};

// x: steps * batch rows of `in`; h0, c0: batch x hidden; outputs: steps * batch x hidden (h).
void lstm_layer_forward(const LstmLayerShape& shape, const double* x, const double* h0, const double* c0,
                        const LstmWeights& w, LstmLayerCache& cache, double* outputs);
// The recurrence alone, from cache.input_gates (the caller's).
void lstm_layer_forward_from_gates(const LstmLayerShape& shape, const double* h0, const double* c0,
                                   const LstmWeights& w, LstmLayerCache& cache, double* outputs);

// After the forward pass of the same inputs (outputs as it left them):
// given doutputs (steps * batch x hidden) and the final state's gradients
// from outside (dh_final, dc_final: batch x hidden each; null: none), the
// weights' gradients accumulate, and so do dx (steps * batch x in), dh0 and
// dc0 (any may be null).
void lstm_layer_backward(const LstmLayerShape& shape, const double* x, const double* h0, const double* c0,
                         const LstmWeights& w, LstmLayerCache& cache, const double* outputs,
                         const double* doutputs, const double* dh_final, const double* dc_final,
                         const LstmGradients& grads, double* dx, double* dh0, double* dc0);
// Back to cache.d_gates (the input gates' gradient, for the caller's dW_ih,
// db_ih and dx); W_hh's and b_hh's gradients accumulate in grads.
void lstm_layer_backward_to_gates(const LstmLayerShape& shape, const double* h0, const double* c0,
                                  const LstmWeights& w, LstmLayerCache& cache, const double* outputs,
                                  const double* doutputs, const double* dh_final, const double* dc_final,
                                  const LstmGradients& grads, double* dh0, double* dc0);

}  // namespace attention::layers
