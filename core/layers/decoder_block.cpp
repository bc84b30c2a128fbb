#include "layers/decoder_block.hpp"

#include <algorithm>

#include "layers/workspace.hpp"

namespace attention::layers {

DecoderBlockWeights DecoderBlockHandles::weights(const double* p) const {
    return {{wq1.in(p), wk1.in(p), wv1.in(p), wo1.in(p), additive1.weights(p)},
            ln1_gamma.in(p),
            ln1_beta.in(p),
            {wq2.in(p), wk2.in(p), wv2.in(p), wo2.in(p), additive2.weights(p)},
            ln2_gamma.in(p),
            ln2_beta.in(p),
            {w1.in(p), b1.in(p), w2.in(p), b2.in(p)},
            ln3_gamma.in(p),
            ln3_beta.in(p)};
}

DecoderBlockGradients DecoderBlockHandles::gradients(double* g) const {
    return {{wq1.in(g), wk1.in(g), wv1.in(g), wo1.in(g), additive1.gradients(g)},
            ln1_gamma.in(g),
            ln1_beta.in(g),
            {wq2.in(g), wk2.in(g), wv2.in(g), wo2.in(g), additive2.gradients(g)},
            ln2_gamma.in(g),
            ln2_beta.in(g),
            {w1.in(g), b1.in(g), w2.in(g), b2.in(g)},
            ln3_gamma.in(g),
            ln3_beta.in(g)};
}

DecoderBlockHandles describe_decoder_block(LayoutBuilder& block, std::size_t h, std::size_t f,
                                           std::size_t additive_heads) {
    DecoderBlockHandles k;
    const auto additive = [&](const char* attention) {
        if (additive_heads == 0) return AdditiveHeadsHandles{};
        LayoutBuilder scoring = block.under(attention);
        return describe_additive_heads(scoring, h, additive_heads);
    };
    k.additive1 = additive("attention1.attention.");
    k.wq1 = block.add("attention1.W_q.weight", {h, h}, Init::xavier(h, h));
    k.wk1 = block.add("attention1.W_k.weight", {h, h}, Init::xavier(h, h));
    k.wv1 = block.add("attention1.W_v.weight", {h, h}, Init::xavier(h, h));
    k.wo1 = block.add("attention1.W_o.weight", {h, h}, Init::xavier(h, h));
    k.ln1_gamma = block.add("addnorm1.ln.weight", {h}, Init::constant(1.0));
    k.ln1_beta = block.add("addnorm1.ln.bias", {h}, Init::constant(0.0));
    k.additive2 = additive("attention2.attention.");
    k.wq2 = block.add("attention2.W_q.weight", {h, h}, Init::xavier(h, h));
    k.wk2 = block.add("attention2.W_k.weight", {h, h}, Init::xavier(h, h));
    k.wv2 = block.add("attention2.W_v.weight", {h, h}, Init::xavier(h, h));
    k.wo2 = block.add("attention2.W_o.weight", {h, h}, Init::xavier(h, h));
    k.ln2_gamma = block.add("addnorm2.ln.weight", {h}, Init::constant(1.0));
    k.ln2_beta = block.add("addnorm2.ln.bias", {h}, Init::constant(0.0));
    k.w1 = block.add("ffn.dense1.weight", {f, h}, Init::xavier(h, f));
    k.b1 = block.add("ffn.dense1.bias", {f}, Init::linear(h));
    k.w2 = block.add("ffn.dense2.weight", {h, f}, Init::xavier(f, h));
    k.b2 = block.add("ffn.dense2.bias", {h}, Init::linear(f));
    k.ln3_gamma = block.add("addnorm3.ln.weight", {h}, Init::constant(1.0));
    k.ln3_beta = block.add("addnorm3.ln.bias", {h}, Init::constant(0.0));
    return k;
}

std::size_t DecoderBlockScratch::doubles() const {
    return capacity_of(sublayer, transposed, dsublayer, dresidual, dactivation, norm) +
           attention.doubles();
}

std::size_t cache_doubles(const DecoderBlockCache& c) {
    return c.attention1.doubles() + c.attention2.doubles() +
           capacity_of(c.norm1.xhat, c.norm1.rstd, c.y, c.norm2.xhat, c.norm2.rstd, c.z) +
           capacity_of(c.ffn.activation, c.norm3.xhat, c.norm3.rstd);
}

void decoder_block_forward(const DecoderBlockShape& shape, const double* x, const double* enc,
                           const std::size_t* self_visible, const std::size_t* cross_visible,
                           const DecoderBlockWeights& w, DecoderBlockCache& cache, double* out,
                           DecoderBlockScratch& s) {
    const std::size_t rows = shape.rows(), hidden = shape.hidden;
    s.sublayer.resize(rows * hidden);
    cache.y.resize(rows * hidden);
    cache.z.resize(rows * hidden);
    double* sub = s.sublayer.data();
    multi_head_attention_forward(shape.self_attention(), x, x, x, self_visible, w.attention1, cache.attention1, sub,
                                 s.transposed);
    add_norm_forward(x, sub, rows, hidden, w.ln1_gamma, w.ln1_beta, cache.norm1, cache.y.data());
    multi_head_attention_forward(shape.cross_attention(), cache.y.data(), enc, enc, cross_visible, w.attention2,
                                 cache.attention2, sub, s.transposed);
    add_norm_forward(cache.y.data(), sub, rows, hidden, w.ln2_gamma, w.ln2_beta, cache.norm2, cache.z.data());
    position_wise_ffn_forward({rows, hidden, shape.ffn_hidden}, cache.z.data(), w.ffn, cache.ffn, sub, s.transposed);
    add_norm_forward(cache.z.data(), sub, rows, hidden, w.ln3_gamma, w.ln3_beta, cache.norm3, out);
}

// Each AddNorm's gradient (of its sum) reaches both the residual and the
// sublayer: it is copied to dresidual, and the sublayer's backward pass adds
// its input's gradient there.
void decoder_block_backward(const DecoderBlockShape& shape, const double* x, const double* enc,
                            const std::size_t* self_visible, const std::size_t* cross_visible,
                            const DecoderBlockWeights& w, const DecoderBlockCache& cache, const double* dout,
                            const DecoderBlockGradients& grads, double* dx, double* denc, DecoderBlockScratch& s) {
    const std::size_t rows = shape.rows(), hidden = shape.hidden;
    s.dsublayer.resize(rows * hidden);
    double* dsum = s.dsublayer.data();
    // out = addnorm3(Z, ffn(Z))
    layer_norm_backward(dout, cache.norm3, rows, hidden, w.ln3_gamma, grads.ln3_gamma, grads.ln3_beta, dsum, s.norm);
    s.dresidual.assign(s.dsublayer.begin(), s.dsublayer.end());
    position_wise_ffn_backward({rows, hidden, shape.ffn_hidden}, cache.z.data(), w.ffn, cache.ffn, dsum, grads.ffn,
                               s.dresidual.data(), s.dactivation);
    // Z = addnorm2(Y, attention2(Y, enc, enc))
    layer_norm_backward(s.dresidual.data(), cache.norm2, rows, hidden, w.ln2_gamma, grads.ln2_gamma, grads.ln2_beta,
                        dsum, s.norm);
    s.dresidual.assign(s.dsublayer.begin(), s.dsublayer.end());
    multi_head_attention_backward(shape.cross_attention(), cache.y.data(), enc, enc, cross_visible, w.attention2,
                                  cache.attention2, dsum, grads.attention2, s.dresidual.data(), denc, denc,
                                  s.attention);
    // Y = addnorm1(X, attention1(X, X, X))
    layer_norm_backward(s.dresidual.data(), cache.norm1, rows, hidden, w.ln1_gamma, grads.ln1_gamma, grads.ln1_beta,
                        dsum, s.norm);
    std::copy(s.dsublayer.begin(), s.dsublayer.end(), dx);
    multi_head_attention_backward(shape.self_attention(), x, x, x, self_visible, w.attention1, cache.attention1, dsum,
                                  grads.attention1, dx, dx, dx, s.attention);
}

}  // namespace attention::layers
