#include "layers/lstm.hpp"

#include <algorithm>

#include "layers/linear.hpp"
#include "layers/workspace.hpp"
#include "numerics/matrix_products.hpp"
#include "numerics/vector_math.hpp"

namespace attention::layers {

void lstm_step_forward(const GruStepShape& shape, const double* input_gates, const double* h, const double* c,
                       const double* hh_transposed, const double* bias_hh, double* h_next, double* c_next,
                       double* gates, double* hidden_gates) {
    const std::size_t batch = shape.batch, hidden = shape.hidden, width = 4 * hidden;
    for (std::size_t b = 0; b < batch; ++b) std::copy(bias_hh, bias_hh + width, hidden_gates + b * width);
    matrix::multiply_add({h, hidden, 1}, hh_transposed, width, hidden_gates, width, batch, width, hidden);
    for (std::size_t b = 0; b < batch; ++b) {
        // Restrict-qualified simple loops, one function each: so they vectorise.
        const double* __restrict gi = input_gates + b * width;
        const double* __restrict gh = hidden_gates + b * width;
        const double* __restrict cb = c + b * hidden;
        double* __restrict i = gates + b * lstm_cached_gates * hidden;  // then f, g, o, tanh(c')
        double* __restrict f = i + hidden;
        double* __restrict g = f + hidden;
        double* __restrict o = g + hidden;
        double* __restrict tanh_c = o + hidden;
        double* __restrict c_out = c_next + b * hidden;
        double* __restrict h_out = h_next + b * hidden;
        // i and f side by side
        for (std::size_t j = 0; j < 2 * hidden; ++j) i[j] = vector_math::sigmoid(gi[j] + gh[j]);
        for (std::size_t j = 0; j < hidden; ++j) g[j] = vector_math::tanh(gi[2 * hidden + j] + gh[2 * hidden + j]);
        for (std::size_t j = 0; j < hidden; ++j) o[j] = vector_math::sigmoid(gi[3 * hidden + j] + gh[3 * hidden + j]);
        for (std::size_t j = 0; j < hidden; ++j) c_out[j] = f[j] * cb[j] + i[j] * g[j];
        for (std::size_t j = 0; j < hidden; ++j) tanh_c[j] = vector_math::tanh(c_out[j]);
        for (std::size_t j = 0; j < hidden; ++j) h_out[j] = o[j] * tanh_c[j];
    }
}

void lstm_step_backward(const GruStepShape& shape, const double* gates, const double* c, const double* dh_next,
                        const double* dc_next, const double* weight_hh, double* d_gates, double* dh, double* dc) {
    const std::size_t batch = shape.batch, hidden = shape.hidden, width = 4 * hidden;
    for (std::size_t b = 0; b < batch; ++b) {
        const double* i = gates + b * lstm_cached_gates * hidden;
        const double *f = i + hidden, *g = f + hidden, *o = g + hidden, *tanh_c = o + hidden;
        const double* cb = c + b * hidden;
        const double* dout = dh_next + b * hidden;
        const double* dcell = dc_next ? dc_next + b * hidden : nullptr;
        double* dgb = d_gates + b * width;
        double* dcb = dc + b * hidden;
        for (std::size_t j = 0; j < hidden; ++j) {
            // h' = o tanh(c'), c' = f c + i g
            const double dc_total = (dcell ? dcell[j] : 0.0) + dout[j] * o[j] * (1.0 - tanh_c[j] * tanh_c[j]);
            dgb[j] = dc_total * g[j] * (i[j] * (1.0 - i[j]));
            dgb[hidden + j] = dc_total * cb[j] * (f[j] * (1.0 - f[j]));
            dgb[2 * hidden + j] = dc_total * i[j] * (1.0 - g[j] * g[j]);
            dgb[3 * hidden + j] = dout[j] * tanh_c[j] * (o[j] * (1.0 - o[j]));
            dcb[j] = dc_total * f[j];
        }
    }
    matrix::multiply_add({d_gates, width, 1}, weight_hh, hidden, dh, hidden, batch, hidden, width);
}

std::size_t LstmLayerCache::doubles() const {
    return capacity_of(input_gates, gates, cells, transposed, d_gates, carry_h, carry_c, dh_next);
}

void lstm_layer_forward(const LstmLayerShape& shape, const double* x, const double* h0, const double* c0,
                        const LstmWeights& w, LstmLayerCache& cache, double* outputs) {
    const std::size_t rows = shape.steps * shape.batch, width = 4 * shape.hidden;
    // Every step's input projection in one product.
    cache.input_gates.resize(rows * width);
    linear_forward({rows, shape.in, width}, x, w.weight_ih, w.bias_ih, cache.input_gates.data(), cache.transposed);
    lstm_layer_forward_from_gates(shape, h0, c0, w, cache, outputs);
}

void lstm_layer_forward_from_gates(const LstmLayerShape& shape, const double* h0, const double* c0,
                                   const LstmWeights& w, LstmLayerCache& cache, double* outputs) {
    const std::size_t steps = shape.steps, batch = shape.batch, hidden = shape.hidden, rows = steps * batch;
    const std::size_t block = batch * hidden;
    cache.gates.resize(rows * lstm_cached_gates * hidden);
    cache.cells.resize(rows * hidden);
    // The steps' hidden gates go where their gradients will go later (scratch until then).
    cache.d_gates.resize(batch * 4 * hidden);
    transpose_weight({0, hidden, 4 * hidden}, w.weight_hh, cache.transposed);
    const double *h = h0, *c = c0;
    for (std::size_t s = 0; s < steps; ++s) {
        const std::size_t t = shape.reverse ? steps - 1 - s : s;
        double* out = outputs + t * block;
        double* cell = cache.cells.data() + t * block;
        lstm_step_forward({batch, hidden}, cache.input_gates.data() + t * batch * 4 * hidden, h, c,
                          cache.transposed.data(), w.bias_hh, out, cell,
                          cache.gates.data() + t * batch * lstm_cached_gates * hidden, cache.d_gates.data());
        h = out;
        c = cell;
    }
}

void lstm_layer_backward(const LstmLayerShape& shape, const double* x, const double* h0, const double* c0,
                         const LstmWeights& w, LstmLayerCache& cache, const double* outputs,
                         const double* doutputs, const double* dh_final, const double* dc_final,
                         const LstmGradients& grads, double* dx, double* dh0, double* dc0) {
    lstm_layer_backward_to_gates(shape, h0, c0, w, cache, outputs, doutputs, dh_final, dc_final, grads, dh0, dc0);
    // The input projection's gradients summed over every step at once.
    linear_backward({shape.steps * shape.batch, shape.in, 4 * shape.hidden}, cache.d_gates.data(), x, w.weight_ih,
                    grads.weight_ih, grads.bias_ih, dx);
}

void lstm_layer_backward_to_gates(const LstmLayerShape& shape, const double* h0, const double* c0,
                                  const LstmWeights& w, LstmLayerCache& cache, const double* outputs,
                                  const double* doutputs, const double* dh_final, const double* dc_final,
                                  const LstmGradients& grads, double* dh0, double* dc0) {
    const std::size_t steps = shape.steps, batch = shape.batch, hidden = shape.hidden, rows = steps * batch;
    const std::size_t width = 4 * hidden, block = batch * hidden;
    cache.d_gates.resize(rows * width);
    cache.dh_next.resize(block);
    if (dh_final)
        cache.carry_h.assign(dh_final, dh_final + block);
    else
        cache.carry_h.assign(block, 0.0);
    if (dc_final)
        cache.carry_c.assign(dc_final, dc_final + block);
    else
        cache.carry_c.assign(block, 0.0);
    for (std::size_t s = steps; s-- > 0;) {
        const std::size_t t = shape.reverse ? steps - 1 - s : s;
        // The cell this step read: c0 first, then the cell of the time read before.
        const std::size_t before = shape.reverse ? t + 1 : t - 1;
        const double* c = s == 0 ? c0 : cache.cells.data() + before * block;
        const double* dout = doutputs + t * block;
        for (std::size_t e = 0; e < block; ++e) cache.dh_next[e] = dout[e] + cache.carry_h[e];
        std::fill(cache.carry_h.begin(), cache.carry_h.end(), 0.0);
        lstm_step_backward({batch, hidden}, cache.gates.data() + t * batch * lstm_cached_gates * hidden, c,
                           cache.dh_next.data(), cache.carry_c.data(), w.weight_hh,
                           cache.d_gates.data() + t * batch * width, cache.carry_h.data(), cache.carry_c.data());
    }
    if (dh0)
        for (std::size_t e = 0; e < block; ++e) dh0[e] += cache.carry_h[e];
    if (dc0)
        for (std::size_t e = 0; e < block; ++e) dc0[e] += cache.carry_c[e];

    // W_hh met h0 at the first time read and the outputs at the others: the
    // outputs shifted by one time step, in one product.
    const std::size_t first = shape.reverse ? steps - 1 : 0;
    linear_backward({batch, hidden, width}, cache.d_gates.data() + first * batch * width, h0, w.weight_hh,
                    grads.weight_hh, grads.bias_hh, nullptr);
    if (steps > 1) {
        const std::size_t later = shape.reverse ? 0 : 1;  // the first time whose state came from an output
        const double* states = outputs + (shape.reverse ? block : 0);
        linear_backward({(steps - 1) * batch, hidden, width}, cache.d_gates.data() + later * batch * width, states,
                        w.weight_hh, grads.weight_hh, grads.bias_hh, nullptr);
    }
}

}  // namespace attention::layers
