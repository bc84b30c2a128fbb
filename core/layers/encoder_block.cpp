#include "layers/encoder_block.hpp"

#include <algorithm>

#include "layers/workspace.hpp"

namespace attention::layers {

EncoderBlockWeights EncoderBlockHandles::weights(const double* params) const {
    return {{wq.in(params), wk.in(params), wv.in(params), wo.in(params), additive.weights(params)},
            ln1_gamma.in(params),
            ln1_beta.in(params),
            {w1.in(params), b1.in(params), w2.in(params), b2.in(params)},
            ln2_gamma.in(params),
            ln2_beta.in(params)};
}

EncoderBlockGradients EncoderBlockHandles::gradients(double* grads) const {
    return {{wq.in(grads), wk.in(grads), wv.in(grads), wo.in(grads), additive.gradients(grads)},
            ln1_gamma.in(grads),
            ln1_beta.in(grads),
            {w1.in(grads), b1.in(grads), w2.in(grads), b2.in(grads)},
            ln2_gamma.in(grads),
            ln2_beta.in(grads)};
}

EncoderBlockHandles describe_d2l_encoder_block(LayoutBuilder& block, std::size_t h, std::size_t f,
                                               std::size_t additive_heads) {
    EncoderBlockHandles k;
    if (additive_heads > 0) {
        LayoutBuilder scoring = block.under("attention.attention.");
        k.additive = describe_additive_heads(scoring, h, additive_heads);
    }
    k.wq = block.add("attention.W_q.weight", {h, h}, Init::xavier(h, h));
    k.wk = block.add("attention.W_k.weight", {h, h}, Init::xavier(h, h));
    k.wv = block.add("attention.W_v.weight", {h, h}, Init::xavier(h, h));
    k.wo = block.add("attention.W_o.weight", {h, h}, Init::xavier(h, h));
    k.ln1_gamma = block.add("addnorm1.ln.weight", {h}, Init::constant(1.0));
    k.ln1_beta = block.add("addnorm1.ln.bias", {h}, Init::constant(0.0));
    k.w1 = block.add("ffn.dense1.weight", {f, h}, Init::xavier(h, f));
    k.b1 = block.add("ffn.dense1.bias", {f}, Init::linear(h));
    k.w2 = block.add("ffn.dense2.weight", {h, f}, Init::xavier(f, h));
    k.b2 = block.add("ffn.dense2.bias", {h}, Init::linear(f));
    k.ln2_gamma = block.add("addnorm2.ln.weight", {h}, Init::constant(1.0));
    k.ln2_beta = block.add("addnorm2.ln.bias", {h}, Init::constant(0.0));
    return k;
}

std::size_t EncoderBlockScratch::doubles() const {
    return capacity_of(sublayer, transposed, dsublayer, dy, dactivation, norm) +
           attention.doubles();
}

std::size_t cache_doubles(const EncoderBlockCache& c) {
    return c.attention.doubles() +
           capacity_of(c.norm1.xhat, c.norm1.rstd, c.y, c.ffn.activation, c.norm2.xhat, c.norm2.rstd);
}

void encoder_block_forward(const EncoderBlockShape& shape, const double* x, const std::size_t* visible,
                           const EncoderBlockWeights& w, EncoderBlockCache& cache, double* out,
                           EncoderBlockScratch& s, const int* heads_off) {
    const std::size_t rows = shape.rows(), hidden = shape.hidden, ffn = shape.ffn_hidden;
    if (ffn == 0) {
        multi_head_attention_forward(shape.attention(), x, x, x, visible, w.attention, cache.attention, out,
                                     s.transposed, heads_off);
        return;
    }
    s.sublayer.resize(rows * hidden);
    cache.y.resize(rows * hidden);
    multi_head_attention_forward(shape.attention(), x, x, x, visible, w.attention, cache.attention,
                                 s.sublayer.data(), s.transposed, heads_off);
    add_norm_forward(x, s.sublayer.data(), rows, hidden, w.ln1_gamma, w.ln1_beta, cache.norm1, cache.y.data());
    position_wise_ffn_forward({rows, hidden, ffn}, cache.y.data(), w.ffn, cache.ffn, s.sublayer.data(),
                              s.transposed);
    add_norm_forward(cache.y.data(), s.sublayer.data(), rows, hidden, w.ln2_gamma, w.ln2_beta, cache.norm2, out);
}

void encoder_block_backward(const EncoderBlockShape& shape, const double* x, const std::size_t* visible,
                            const EncoderBlockWeights& w, const EncoderBlockCache& cache, const double* dout,
                            const EncoderBlockGradients& grads, double* dx, EncoderBlockScratch& s,
                            const int* heads_off) {
    const std::size_t rows = shape.rows(), hidden = shape.hidden, ffn = shape.ffn_hidden, count = rows * hidden;
    s.dsublayer.resize(count);
    if (ffn > 0) {
        // out = AddNorm2(Y, FFN(Y)): the sum's gradient dz2 reaches Y by both paths.
        layer_norm_backward(dout, cache.norm2, rows, hidden, w.ln2_gamma, grads.ln2_gamma, grads.ln2_beta,
                            s.dsublayer.data(), s.norm);
        s.dy.assign(s.dsublayer.begin(), s.dsublayer.end());
        position_wise_ffn_backward({rows, hidden, ffn}, cache.y.data(), w.ffn, cache.ffn, s.dsublayer.data(),
                                   grads.ffn, s.dy.data(), s.dactivation);
        // Y = AddNorm1(X, MHA(X)): dz1 flows to the residual (dx) and to the attention.
        layer_norm_backward(s.dy.data(), cache.norm1, rows, hidden, w.ln1_gamma, grads.ln1_gamma, grads.ln1_beta,
                            s.dsublayer.data(), s.norm);
        std::copy(s.dsublayer.begin(), s.dsublayer.end(), dx);
    } else {
        std::copy(dout, dout + count, s.dsublayer.begin());
        std::fill(dx, dx + count, 0.0);
    }
    multi_head_attention_backward(shape.attention(), x, x, x, visible, w.attention, cache.attention,
                                  s.dsublayer.data(), grads.attention, dx, dx, dx, s.attention, heads_off);
}

}  // namespace attention::layers
