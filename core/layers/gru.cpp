#include "layers/gru.hpp"

#include <algorithm>

#include "layers/linear.hpp"
#include "layers/workspace.hpp"
#include "numerics/matrix_products.hpp"
#include "numerics/vector_math.hpp"

namespace attention::layers {

void gru_step_forward(const GruStepShape& shape, const double* input_gates, const double* h,
                      const double* hh_transposed, const double* bias_hh, double* h_next, double* gates,
                      double* hidden_gates) {
    const std::size_t batch = shape.batch, hidden = shape.hidden, width = 3 * hidden;
    for (std::size_t b = 0; b < batch; ++b) std::copy(bias_hh, bias_hh + width, hidden_gates + b * width);
    matrix::multiply_add({h, hidden, 1}, hh_transposed, width, hidden_gates, width, batch, width, hidden);
    for (std::size_t b = 0; b < batch; ++b) {
        // Restrict-qualified simple loops, one function each: so they vectorise.
        const double* __restrict gi = input_gates + b * width;
        const double* __restrict gh = hidden_gates + b * width;
        const double* __restrict hb = h + b * hidden;
        double* __restrict out = h_next + b * hidden;
        double* __restrict r = gates + b * gru_cached_gates * hidden;  // then z, n, hn
        // r and z side by side
        for (std::size_t j = 0; j < 2 * hidden; ++j) r[j] = vector_math::sigmoid(gi[j] + gh[j]);
        double* __restrict n = r + 2 * hidden;
        double* __restrict hn = r + 3 * hidden;
        for (std::size_t j = 0; j < hidden; ++j) hn[j] = gh[2 * hidden + j];
        for (std::size_t j = 0; j < hidden; ++j) n[j] = vector_math::tanh(gi[2 * hidden + j] + r[j] * hn[j]);
        // PyTorch's form of (1 - z) n + z h.
        const double* __restrict z = r + hidden;
        for (std::size_t j = 0; j < hidden; ++j) out[j] = (hb[j] - n[j]) * z[j] + n[j];
    }
}

void gru_step_backward(const GruStepShape& shape, const double* gates, const double* h, const double* dh_next,
                       const double* weight_hh, double* d_input_gates, double* d_hidden_gates, double* dh) {
    const std::size_t batch = shape.batch, hidden = shape.hidden, width = 3 * hidden;
    for (std::size_t b = 0; b < batch; ++b) {
        const double* r = gates + b * gru_cached_gates * hidden;
        const double *z = r + hidden, *n = z + hidden, *hn = n + hidden;
        const double* hb = h + b * hidden;
        const double* dout = dh_next + b * hidden;
        double* dgi = d_input_gates + b * width;
        double* dgh = d_hidden_gates + b * width;
        double* dhb = dh + b * hidden;
        for (std::size_t j = 0; j < hidden; ++j) {
            // h' = n + z (h - n)
            const double dn = dout[j] * (1.0 - z[j]);
            const double dz = dout[j] * (hb[j] - n[j]);
            dhb[j] += dout[j] * z[j];
            // n = tanh(gi_n + r hn), z = sigmoid(gi_z + gh_z), r = sigmoid(gi_r + gh_r)
            const double dn_pre = dn * (1.0 - n[j] * n[j]);
            const double dz_pre = dz * (z[j] * (1.0 - z[j]));
            const double dr_pre = (dn_pre * hn[j]) * (r[j] * (1.0 - r[j]));
            dgi[j] = dr_pre;
            dgh[j] = dr_pre;
            dgi[hidden + j] = dz_pre;
            dgh[hidden + j] = dz_pre;
            dgi[2 * hidden + j] = dn_pre;
            dgh[2 * hidden + j] = dn_pre * r[j];
        }
    }
    matrix::multiply_add({d_hidden_gates, width, 1}, weight_hh, hidden, dh, hidden, batch, hidden, width);
}

void gru_cell_forward(const GruCellShape& shape, const double* x, const double* h, const GruWeights& w,
                      double* h_next, GruCellCache& cache) {
    const std::size_t batch = shape.batch, hidden = shape.hidden;
    cache.input_gates.resize(batch * 3 * hidden);
    cache.hidden_gates.resize(batch * 3 * hidden);
    cache.gates.resize(batch * gru_cached_gates * hidden);
    linear_forward({batch, shape.in, 3 * hidden}, x, w.weight_ih, w.bias_ih, cache.input_gates.data(),
                   cache.transposed);
    transpose_weight({0, hidden, 3 * hidden}, w.weight_hh, cache.transposed);
    gru_step_forward({batch, hidden}, cache.input_gates.data(), h, cache.transposed.data(), w.bias_hh, h_next,
                     cache.gates.data(), cache.hidden_gates.data());
}

void gru_cell_backward(const GruCellShape& shape, const double* x, const double* h, const GruWeights& w,
                       GruCellCache& cache, const double* dh_next, const GruGradients& grads, double* dx,
                       double* dh) {
    const std::size_t batch = shape.batch, hidden = shape.hidden;
    // Where dh is not wanted, its gradient lands in scratch.
    std::vector<double> unused;
    if (!dh) {
        unused.assign(batch * hidden, 0.0);
        dh = unused.data();
    }
    // The forward pass's projections are spent: their buffers take the gradients.
    gru_step_backward({batch, hidden}, cache.gates.data(), h, dh_next, w.weight_hh, cache.input_gates.data(),
                      cache.hidden_gates.data(), dh);
    linear_backward({batch, shape.in, 3 * hidden}, cache.input_gates.data(), x, w.weight_ih, grads.weight_ih,
                    grads.bias_ih, dx);
    linear_backward({batch, hidden, 3 * hidden}, cache.hidden_gates.data(), h, w.weight_hh, grads.weight_hh,
                    grads.bias_hh, nullptr);
}

std::size_t GruLayerCache::doubles() const {
    return capacity_of(input_gates, gates, transposed, d_input_gates, d_hidden_gates, carry, dh_next);
}

void gru_layer_forward(const GruLayerShape& shape, const double* x, const double* h0, const GruWeights& w,
                       GruLayerCache& cache, double* outputs) {
    const std::size_t rows = shape.steps * shape.batch, width = 3 * shape.hidden;
    // Every step's input projection in one product.
    cache.input_gates.resize(rows * width);
    linear_forward({rows, shape.in, width}, x, w.weight_ih, w.bias_ih, cache.input_gates.data(), cache.transposed);
    gru_layer_forward_from_gates(shape, h0, w, cache, outputs);
}

void gru_layer_forward_from_gates(const GruLayerShape& shape, const double* h0, const GruWeights& w,
                                  GruLayerCache& cache, double* outputs) {
    const std::size_t steps = shape.steps, batch = shape.batch, hidden = shape.hidden, rows = steps * batch;
    cache.gates.resize(rows * gru_cached_gates * hidden);
    // The steps' hidden gates go where their gradients will go later (scratch until then).
    cache.d_hidden_gates.resize(batch * 3 * hidden);
    transpose_weight({0, hidden, 3 * hidden}, w.weight_hh, cache.transposed);
    const double* h = h0;
    for (std::size_t s = 0; s < steps; ++s) {
        const std::size_t t = shape.reverse ? steps - 1 - s : s;
        double* out = outputs + t * batch * hidden;
        gru_step_forward({batch, hidden}, cache.input_gates.data() + t * batch * 3 * hidden, h,
                         cache.transposed.data(), w.bias_hh, out,
                         cache.gates.data() + t * batch * gru_cached_gates * hidden, cache.d_hidden_gates.data());
        h = out;
    }
}

void gru_layer_backward(const GruLayerShape& shape, const double* x, const double* h0, const GruWeights& w,
                        GruLayerCache& cache, const double* outputs, const double* doutputs,
                        const double* dh_final, const GruGradients& grads, double* dx, double* dh0) {
    gru_layer_backward_to_gates(shape, h0, w, cache, outputs, doutputs, dh_final, grads, dh0);
    // The input projection's gradients summed over every step at once.
    linear_backward({shape.steps * shape.batch, shape.in, 3 * shape.hidden}, cache.d_input_gates.data(), x,
                    w.weight_ih, grads.weight_ih, grads.bias_ih, dx);
}

void gru_layer_backward_to_gates(const GruLayerShape& shape, const double* h0, const GruWeights& w,
                                 GruLayerCache& cache, const double* outputs, const double* doutputs,
                                 const double* dh_final, const GruGradients& grads, double* dh0) {
    const std::size_t steps = shape.steps, batch = shape.batch, hidden = shape.hidden, rows = steps * batch;
    const std::size_t width = 3 * hidden, block = batch * hidden;
    cache.d_input_gates.resize(rows * width);
    cache.d_hidden_gates.resize(rows * width);
    cache.dh_next.resize(block);
    if (dh_final)
        cache.carry.assign(dh_final, dh_final + block);
    else
        cache.carry.assign(block, 0.0);
    for (std::size_t s = steps; s-- > 0;) {
        const std::size_t t = shape.reverse ? steps - 1 - s : s;
        // The state this step read: h0 first, then the output of the time read before.
        const double* h = s == 0 ? h0 : outputs + (shape.reverse ? t + 1 : t - 1) * block;
        const double* dout = doutputs + t * block;
        for (std::size_t e = 0; e < block; ++e) cache.dh_next[e] = dout[e] + cache.carry[e];
        std::fill(cache.carry.begin(), cache.carry.end(), 0.0);
        gru_step_backward({batch, hidden}, cache.gates.data() + t * batch * gru_cached_gates * hidden, h,
                          cache.dh_next.data(), w.weight_hh, cache.d_input_gates.data() + t * batch * width,
                          cache.d_hidden_gates.data() + t * batch * width, cache.carry.data());
    }
    if (dh0)
        for (std::size_t e = 0; e < block; ++e) dh0[e] += cache.carry[e];

    // W_hh met h0 at the first time read and the outputs at the others: the
    // outputs shifted by one time step, in one product.
    const std::size_t first = shape.reverse ? steps - 1 : 0;
    linear_backward({batch, hidden, width}, cache.d_hidden_gates.data() + first * batch * width, h0, w.weight_hh,
                    grads.weight_hh, grads.bias_hh, nullptr);
    if (steps > 1) {
        const std::size_t later = shape.reverse ? 0 : 1;  // the first time whose state came from an output
        const double* states = outputs + (shape.reverse ? block : 0);
        linear_backward({(steps - 1) * batch, hidden, width}, cache.d_hidden_gates.data() + later * batch * width,
                        states, w.weight_hh, grads.weight_hh, grads.bias_hh, nullptr);
    }
}

}  // namespace attention::layers
