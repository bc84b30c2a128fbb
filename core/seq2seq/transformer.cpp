// d2l 10.7's Transformer encoder-decoder in float64 with dropout 0, composed
// from core/layers/: embeddings times embedding_scale plus the positional
// encoding on both sides, `blocks` encoder blocks (self-attention masked by
// the source's valid lengths), `blocks` decoder blocks (causal
// self-attention, attention over the encoder's output masked by the source's
// valid lengths), then the dense readout. Rows are b * length + i of hidden
// numbers, d2l's (batch, steps, hidden).
#include <algorithm>
#include <cstdint>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "layers/decoder_block.hpp"
#include "layers/embedding.hpp"
#include "layers/encoder_block.hpp"
#include "layers/linear.hpp"
#include "layers/multi_head_attention.hpp"
#include "layers/workspace.hpp"
#include "layers/positional_encoding.hpp"
#include "seq2seq/architectures.hpp"

namespace attention::seq2seq_detail {

namespace {

using namespace layers;

struct TransformerHandles {
    ParameterHandle encoder_embedding;
    std::vector<EncoderBlockHandles> encoder_blocks;
    ParameterHandle decoder_embedding;
    std::vector<DecoderBlockHandles> decoder_blocks;
    ParameterHandle dense, dense_bias;
};

// d2l's state_dict order: encoder.embedding, encoder.blks.block<i>.*,
// decoder.embedding, decoder.blks.block<i>.*, decoder.dense.
TransformerHandles describe_parameters(const Seq2SeqConfig& config, LayoutBuilder& layout) {
    const std::size_t h = config.hidden, f = config.ffn_hidden;
    // Additive scoring (d2l 10.7's exercise): one AdditiveAttention shared by a layer's heads.
    const std::size_t additive_heads = seq2seq_scoring(config) == Seq2SeqScoring::additive ? config.heads : 0;
    TransformerHandles p;
    p.encoder_embedding = layout.add("encoder.embedding.weight", {config.source_vocab, h}, Init::normal());
    for (std::size_t b = 0; b < config.blocks; ++b) {
        LayoutBuilder block = layout.under("encoder.blks.block", b, ".");
        p.encoder_blocks.push_back(describe_d2l_encoder_block(block, h, f, additive_heads));
    }
    p.decoder_embedding = layout.add("decoder.embedding.weight", {config.target_vocab, h}, Init::normal());
    for (std::size_t b = 0; b < config.blocks; ++b) {
        LayoutBuilder block = layout.under("decoder.blks.block", b, ".");
        p.decoder_blocks.push_back(describe_decoder_block(block, h, f, additive_heads));
    }
    p.dense = layout.add("decoder.dense.weight", {config.target_vocab, h}, Init::xavier(h, config.target_vocab));
    p.dense_bias = layout.add("decoder.dense.bias", {config.target_vocab}, Init::linear(h));
    return p;
}

TransformerHandles parameter_handles(const Seq2SeqConfig& config) {
    LayoutBuilder counter;
    return describe_parameters(config, counter);
}

// The buffers of the forward and backward passes and of translation (layers/workspace.hpp).
struct TransformerWorkspace {
    std::vector<std::vector<double>> encoder_inputs, decoder_inputs;  // per block, its input rows
    std::vector<EncoderBlockCache> encoder_blocks;
    std::vector<DecoderBlockCache> decoder_blocks;
    EncoderBlockScratch encoder_scratch;
    DecoderBlockScratch decoder_scratch;
    std::vector<double> encoded, decoded;  // the encoder's and the decoder's outputs
    xt::xtensor<double, 2> encoding;       // P, as many rows as the longer side
    std::size_t encoding_length = 0, encoding_hidden = 0;
    std::vector<std::size_t> encoder_visible, self_visible, cross_visible;
    std::vector<double> dx, denc, logits;
    // Translation, one position at a time: per decoder block the keys and
    // values of the positions decoded so far (batch x max_length rows) and of
    // the encoder's output (batch x source_length rows, projected once).
    std::vector<std::vector<double>> step_keys, step_values, source_keys, source_values;
    std::vector<double> row, query, projected, concat, sublayer, step_weights;  // batch rows each (weights: x heads x keys)
    LayerNormCache step_norm;
    FfnCache step_ffn;
    AdditiveHeadsCache step_additive;
    std::vector<std::size_t> step_visible;
    std::vector<int> step_tokens;

    std::size_t doubles() const {
        std::size_t total = capacity_of(encoded, decoded, dx, denc, logits) + encoder_scratch.doubles() +
                            decoder_scratch.doubles();
        total += capacity_of(row, query, projected, concat, sublayer, step_weights) +
                 capacity_of(step_norm.xhat, step_norm.rstd, step_ffn.activation) + step_additive.doubles();
        for (const auto* set : {&step_keys, &step_values, &source_keys, &source_values})
            for (const auto& x : *set) total += capacity_of(x);
        for (const auto& x : encoder_inputs) total += capacity_of(x);
        for (const auto& x : decoder_inputs) total += capacity_of(x);
        for (const auto& c : encoder_blocks) total += cache_doubles(c);
        for (const auto& c : decoder_blocks) total += cache_doubles(c);
        return total;
    }
};
using TransformerLease = WorkspaceLease<TransformerWorkspace>;

const double* positional_rows(const Seq2SeqConfig& config, TransformerWorkspace& w) {
    const std::size_t length = std::max(config.source_length, config.target_length);
    if (w.encoding_length != length || w.encoding_hidden != config.hidden) {
        w.encoding = positional_encoding(length, config.hidden);
        w.encoding_length = length, w.encoding_hidden = config.hidden;
    }
    return w.encoding.data();
}

EncoderBlockShape encoder_shape(const Seq2SeqConfig& config, std::size_t batch) {
    return {batch, config.source_length, config.hidden, config.heads, config.ffn_hidden};
}
DecoderBlockShape decoder_shape(const Seq2SeqConfig& config, std::size_t batch, std::size_t steps) {
    return {batch, steps, config.source_length, config.hidden, config.heads, config.ffn_hidden};
}

// The encoder over the source: w.encoded.
void encode(const Seq2SeqModel& model, const TransformerHandles& p, const int* source, const int* source_lens,
            std::size_t batch, TransformerWorkspace& w) {
    const Seq2SeqConfig& config = model.config;
    const double* params = model.values.data();
    const EncoderBlockShape shape = encoder_shape(config, batch);
    const std::size_t count = shape.rows() * config.hidden;
    visible_keys(shape.attention(), source_lens, false, w.encoder_visible);
    w.encoder_inputs.resize(config.blocks);
    w.encoder_blocks.resize(config.blocks);
    for (auto& x : w.encoder_inputs) x.resize(count);
    w.encoded.resize(count);
    embedding_forward({shape.rows(), config.source_length, config.hidden}, source, p.encoder_embedding.in(params),
                      config.embedding_scale, positional_rows(config, w), w.encoder_inputs[0].data());
    for (std::size_t b = 0; b < config.blocks; ++b) {
        double* out = b + 1 < config.blocks ? w.encoder_inputs[b + 1].data() : w.encoded.data();
        encoder_block_forward(shape, w.encoder_inputs[b].data(), w.encoder_visible.data(),
                              p.encoder_blocks[b].weights(params), w.encoder_blocks[b], out, w.encoder_scratch);
    }
}

// The decoder over `steps` target tokens a row (after encode): logits (batch * steps rows of target_vocab).
void decode(const Seq2SeqModel& model, const TransformerHandles& p, const int* target_in, const int* source_lens,
            std::size_t batch, std::size_t steps, TransformerWorkspace& w, std::vector<double>& logits) {
    const Seq2SeqConfig& config = model.config;
    const double* params = model.values.data();
    const DecoderBlockShape shape = decoder_shape(config, batch, steps);
    const std::size_t count = shape.rows() * config.hidden;
    visible_keys(shape.self_attention(), nullptr, true, w.self_visible);
    visible_keys(shape.cross_attention(), source_lens, false, w.cross_visible);
    w.decoder_inputs.resize(config.blocks);
    w.decoder_blocks.resize(config.blocks);
    for (auto& x : w.decoder_inputs) x.resize(count);
    w.decoded.resize(count);
    embedding_forward({shape.rows(), steps, config.hidden}, target_in, p.decoder_embedding.in(params),
                      config.embedding_scale, positional_rows(config, w), w.decoder_inputs[0].data());
    for (std::size_t b = 0; b < config.blocks; ++b) {
        double* out = b + 1 < config.blocks ? w.decoder_inputs[b + 1].data() : w.decoded.data();
        decoder_block_forward(shape, w.decoder_inputs[b].data(), w.encoded.data(), w.self_visible.data(),
                              w.cross_visible.data(), p.decoder_blocks[b].weights(params), w.decoder_blocks[b], out,
                              w.decoder_scratch);
    }
    logits.resize(shape.rows() * config.target_vocab);
    linear_forward({shape.rows(), config.hidden, config.target_vocab}, w.decoded.data(), p.dense.in(params),
                   p.dense_bias.in(params), logits.data(), w.decoder_scratch.transposed);
}

}  // namespace

void describe_transformer(const Seq2SeqConfig& config, LayoutBuilder& layout) { describe_parameters(config, layout); }

void transformer_forward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::vector<double>& logits,
                         Seq2SeqForward* weights) {
    const Seq2SeqConfig& config = model.config;
    const TransformerHandles p = parameter_handles(config);
    TransformerLease lease;
    TransformerWorkspace& w = *lease;
    encode(model, p, batch.source.data(), batch.source_lens.data(), batch.batch, w);
    decode(model, p, batch.target_in.data(), batch.source_lens.data(), batch.batch, config.target_length, w, logits);
    if (!weights) return;
    const std::size_t blocks = config.blocks, n = batch.batch, heads = config.heads;
    const std::size_t s = config.source_length, t = config.target_length;
    weights->cross_weights = xt::xtensor<double, 5>::from_shape({blocks, n, heads, t, s});
    weights->self_weights = xt::xtensor<double, 5>::from_shape({blocks, n, heads, t, t});
    weights->encoder_weights = xt::xtensor<double, 5>::from_shape({blocks, n, heads, s, s});
    double* cross = weights->cross_weights.data();
    double* self = weights->self_weights.data();
    double* encoder = weights->encoder_weights.data();
    for (std::size_t b = 0; b < blocks; ++b) {
        const DecoderBlockCache& c = w.decoder_blocks[b];
        cross = std::copy(c.attention2.weights.begin(), c.attention2.weights.end(), cross);
        self = std::copy(c.attention1.weights.begin(), c.attention1.weights.end(), self);
        const auto& e = w.encoder_blocks[b].attention.weights;
        encoder = std::copy(e.begin(), e.end(), encoder);
    }
}

ItemInputs transformer_attention_inputs(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::size_t block,
                                        std::size_t item, std::size_t head, bool self) {
    const Seq2SeqConfig& config = model.config;
    const TransformerHandles p = parameter_handles(config);
    TransformerLease lease;
    TransformerWorkspace& w = *lease;
    std::vector<double> logits;
    encode(model, p, batch.source.data(), batch.source_lens.data(), batch.batch, w);
    decode(model, p, batch.target_in.data(), batch.source_lens.data(), batch.batch, config.target_length, w, logits);
    const std::size_t t = config.target_length, keys = self ? t : config.source_length, hidden = config.hidden;
    const AttentionCache& cache = self ? w.decoder_blocks[block].attention1 : w.decoder_blocks[block].attention2;
    const std::vector<std::size_t>& visible = self ? w.self_visible : w.cross_visible;
    const auto slice = [](const std::vector<double>& all, std::size_t from, std::size_t count) {
        return std::vector<double>(all.begin() + static_cast<std::ptrdiff_t>(from),
                                   all.begin() + static_cast<std::ptrdiff_t>(from + count));
    };
    const std::vector<std::size_t> item_visible(visible.begin() + static_cast<std::ptrdiff_t>(item * t),
                                                visible.begin() + static_cast<std::ptrdiff_t>((item + 1) * t));
    const std::size_t valid_length = self ? t : static_cast<std::size_t>(batch.source_lens(item));
    const DecoderBlockWeights bw = p.decoder_blocks[block].weights(model.values.data());
    const AdditiveHeadsWeights& scoring = self ? bw.attention1.additive : bw.attention2.additive;
    if (scoring.present()) {
        // The heads' additive attention ran on item b * heads + h (layers/additive_heads).
        const std::size_t d = hidden / config.heads, head_item = item * config.heads + head;
        const AdditiveHeadsCache& heads = cache.additive;
        AdditiveItemInputs in;
        in.queries = t;
        in.keys = keys;
        in.query_size = in.key_size = in.hidden = d;
        in.query_rows = slice(heads.q, head_item * t * d, t * d);
        in.key_rows = slice(heads.k, head_item * keys * d, keys * d);
        in.value_rows = slice(heads.v, head_item * keys * d, keys * d);
        in.w_q.assign(scoring.w_q, scoring.w_q + d * d);
        in.w_k.assign(scoring.w_k, scoring.w_k + d * d);
        in.w_v.assign(scoring.w_v, scoring.w_v + d);
        in.valid_length = valid_length;
        in.visible = item_visible;
        in.causal = self;
        in.weights = slice(cache.weights, head_item * t * keys, t * keys);
        in.outputs = slice(heads.out, head_item * t * d, t * d);
        return in;
    }
    DotProductItemInputs in;
    in.queries = t;
    in.keys = keys;
    in.hidden = hidden;
    in.heads = config.heads;
    in.q = slice(cache.q, item * t * hidden, t * hidden);
    in.k = slice(cache.k, item * keys * hidden, keys * hidden);
    in.v = slice(cache.v, item * keys * hidden, keys * hidden);
    in.outputs = slice(cache.concat, item * t * hidden, t * hidden);
    in.visible = item_visible;
    in.valid_length = valid_length;
    in.causal = self;
    const std::size_t maps = config.heads * t * keys;
    in.weights = slice(cache.weights, item * maps, maps);
    return in;
}

void transformer_backward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const double* dlogits,
                          double* gradients) {
    const Seq2SeqConfig& config = model.config;
    const TransformerHandles p = parameter_handles(config);
    const double* params = model.values.data();
    TransformerLease lease;
    TransformerWorkspace& w = *lease;
    const DecoderBlockShape dshape = decoder_shape(config, batch.batch, config.target_length);
    const EncoderBlockShape eshape = encoder_shape(config, batch.batch);
    // dx: the gradient of the decoder's rows, from the readout back to its embedding.
    w.dx.assign(dshape.rows() * config.hidden, 0.0);
    linear_backward({dshape.rows(), config.hidden, config.target_vocab}, dlogits, w.decoded.data(), p.dense.in(params),
                    p.dense.in(gradients), p.dense_bias.in(gradients), w.dx.data());
    // denc: the encoder's output feeds every decoder block; their gradients add up.
    w.denc.assign(eshape.rows() * config.hidden, 0.0);
    for (std::size_t b = config.blocks; b-- > 0;)
        decoder_block_backward(dshape, w.decoder_inputs[b].data(), w.encoded.data(), w.self_visible.data(),
                               w.cross_visible.data(), p.decoder_blocks[b].weights(params), w.decoder_blocks[b],
                               w.dx.data(), p.decoder_blocks[b].gradients(gradients), w.dx.data(), w.denc.data(),
                               w.decoder_scratch);
    embedding_backward({dshape.rows(), config.target_length, config.hidden}, batch.target_in.data(),
                       config.embedding_scale, w.dx.data(), p.decoder_embedding.in(gradients));
    for (std::size_t b = config.blocks; b-- > 0;)
        encoder_block_backward(eshape, w.encoder_inputs[b].data(), w.encoder_visible.data(),
                               p.encoder_blocks[b].weights(params), w.encoder_blocks[b], w.denc.data(),
                               p.encoder_blocks[b].gradients(gradients), w.denc.data(), w.encoder_scratch);
    embedding_backward({eshape.rows(), config.source_length, config.hidden}, batch.source.data(),
                       config.embedding_scale, w.denc.data(), p.encoder_embedding.in(gradients));
}

namespace {

// One decoder position for every item (after encode and prepare_translation):
// position i's row through every block, reading the keys and values of the
// earlier positions from w.step_keys / w.step_values and adding its own; the
// logits of that position into w.logits (batch rows), the encoder-decoder
// weights of each block into `cross` (blocks x batch x heads x source_length).
// Row for row the products and sums are those of the whole-prefix pass
// (decode): every element is summed in the same order, and the keys past the
// position get weight 0, adding exact zeros; so the same tokens and weights.
void decode_position(const Seq2SeqModel& model, const TransformerHandles& p, std::size_t i, std::size_t batch,
                     std::size_t max_length, TransformerWorkspace& w, const std::size_t* cross_visible,
                     double* cross) {
    const Seq2SeqConfig& config = model.config;
    const double* params = model.values.data();
    const std::size_t h = config.hidden, heads = config.heads, s = config.source_length;
    std::vector<double>& transposed = w.decoder_scratch.transposed;
    embedding_forward({batch, 1, h}, w.step_tokens.data(), p.decoder_embedding.in(params), config.embedding_scale,
                      positional_rows(config, w) + i * h, w.row.data());
    const AttentionShape self{batch, 1, max_length, h, heads}, source{batch, 1, s, h, heads};
    for (std::size_t blk = 0; blk < config.blocks; ++blk) {
        const DecoderBlockWeights bw = p.decoder_blocks[blk].weights(params);
        // Masked self-attention: this position's key and value join the cache; the query sees keys 0..i.
        double* keys = w.step_keys[blk].data();
        double* values = w.step_values[blk].data();
        linear_forward({batch, h, h}, w.row.data(), bw.attention1.wk, nullptr, w.projected.data(), transposed);
        for (std::size_t b = 0; b < batch; ++b)
            std::copy_n(w.projected.data() + b * h, h, keys + (b * max_length + i) * h);
        linear_forward({batch, h, h}, w.row.data(), bw.attention1.wv, nullptr, w.projected.data(), transposed);
        for (std::size_t b = 0; b < batch; ++b)
            std::copy_n(w.projected.data() + b * h, h, values + (b * max_length + i) * h);
        linear_forward({batch, h, h}, w.row.data(), bw.attention1.wq, nullptr, w.query.data(), transposed);
        attention_heads_forward(self, w.query.data(), keys, values, w.step_visible.data(), bw.attention1.additive,
                                w.step_weights.data(), w.concat.data(), transposed, w.step_additive);
        linear_forward({batch, h, h}, w.concat.data(), bw.attention1.wo, nullptr, w.sublayer.data(), transposed);
        add_norm_forward(w.row.data(), w.sublayer.data(), batch, h, bw.ln1_gamma, bw.ln1_beta, w.step_norm,
                         w.row.data());
        // Encoder-decoder attention over the source's keys and values, projected once.
        linear_forward({batch, h, h}, w.row.data(), bw.attention2.wq, nullptr, w.query.data(), transposed);
        attention_heads_forward(source, w.query.data(), w.source_keys[blk].data(), w.source_values[blk].data(),
                                cross_visible, bw.attention2.additive, w.step_weights.data(), w.concat.data(),
                                transposed, w.step_additive);
        std::copy_n(w.step_weights.data(), batch * heads * s, cross + blk * batch * heads * s);
        linear_forward({batch, h, h}, w.concat.data(), bw.attention2.wo, nullptr, w.sublayer.data(), transposed);
        add_norm_forward(w.row.data(), w.sublayer.data(), batch, h, bw.ln2_gamma, bw.ln2_beta, w.step_norm,
                         w.row.data());
        position_wise_ffn_forward({batch, h, config.ffn_hidden}, w.row.data(), bw.ffn, w.step_ffn, w.sublayer.data(),
                                  transposed);
        add_norm_forward(w.row.data(), w.sublayer.data(), batch, h, bw.ln3_gamma, bw.ln3_beta, w.step_norm,
                         w.row.data());
    }
    w.logits.resize(batch * config.target_vocab);
    linear_forward({batch, h, config.target_vocab}, w.row.data(), p.dense.in(params), p.dense_bias.in(params),
                   w.logits.data(), transposed);
}

// The buffers of translation, and the encoder-decoder attention's keys and values of the source.
void prepare_translation(const Seq2SeqModel& model, const TransformerHandles& p, std::size_t batch,
                         std::size_t max_length, TransformerWorkspace& w) {
    const Seq2SeqConfig& config = model.config;
    const double* params = model.values.data();
    const std::size_t h = config.hidden, blocks = config.blocks;
    const std::size_t source_rows = batch * config.source_length;
    for (auto* set : {&w.step_keys, &w.step_values, &w.source_keys, &w.source_values}) set->resize(blocks);
    for (std::size_t blk = 0; blk < blocks; ++blk) {
        // Zeros past the positions decoded so far: finite, so their zero weights add exact zeros.
        w.step_keys[blk].assign(batch * max_length * h, 0.0);
        w.step_values[blk].assign(batch * max_length * h, 0.0);
        w.source_keys[blk].resize(source_rows * h);
        w.source_values[blk].resize(source_rows * h);
        const DecoderBlockWeights bw = p.decoder_blocks[blk].weights(params);
        linear_forward({source_rows, h, h}, w.encoded.data(), bw.attention2.wk, nullptr, w.source_keys[blk].data(),
                       w.decoder_scratch.transposed);
        linear_forward({source_rows, h, h}, w.encoded.data(), bw.attention2.wv, nullptr, w.source_values[blk].data(),
                       w.decoder_scratch.transposed);
    }
    for (auto* rows : {&w.row, &w.query, &w.projected, &w.concat, &w.sublayer}) rows->resize(batch * h);
    w.step_weights.resize(batch * config.heads * std::max(max_length, config.source_length));
    w.step_tokens.resize(batch);
    w.step_visible.resize(batch);
}

}  // namespace

// Greedy decoding one position at a time with the keys and values of the
// earlier positions kept (a key/value cache) and the source's projected once:
// with causal self-attention the earlier positions' rows do not change, so
// this gives what rerunning the decoder on the whole prefix would (teacher
// forcing on the emitted prefix), for about steps / (steps (steps + 1) / 2)
// of its work.
Translation transformer_translate(const Seq2SeqModel& model, const xt::xtensor<int, 1>& source,
                                  const xt::xtensor<int, 1>& source_lens, std::size_t batch,
                                  std::size_t max_length) {
    const Seq2SeqConfig& config = model.config;
    const TransformerHandles p = parameter_handles(config);
    TransformerLease lease;
    TransformerWorkspace& w = *lease;
    const std::size_t vocab = config.target_vocab, s = config.source_length, heads = config.heads;
    const std::size_t blocks = config.blocks;
    encode(model, p, source.data(), source_lens.data(), batch, w);
    prepare_translation(model, p, batch, max_length, w);
    visible_keys({batch, 1, s, config.hidden, heads}, source_lens.data(), false, w.cross_visible);

    Translation result;
    result.tokens = xt::xtensor<int, 1>::from_shape({batch * max_length});
    std::fill(result.tokens.begin(), result.tokens.end(), pad_token);
    result.lengths = xt::zeros<int>({batch});
    result.cross_weights = xt::zeros<double>({blocks, batch, heads, max_length, s});
    std::vector<double> cross(blocks * batch * heads * s);
    std::vector<bool> done(batch, false);
    std::size_t running = batch;
    for (std::size_t i = 0; i < max_length && running > 0; ++i) {
        // Each item's last token: <bos>, then what it emitted (<pad> after its <eos>).
        for (std::size_t b = 0; b < batch; ++b) {
            w.step_tokens[b] = i == 0 ? bos_token : result.tokens(b * max_length + i - 1);
            w.step_visible[b] = i + 1;
        }
        decode_position(model, p, i, batch, max_length, w, w.cross_visible.data(), cross.data());
        for (std::size_t b = 0; b < batch; ++b) {
            if (done[b]) continue;
            const double* row = w.logits.data() + b * vocab;
            const int token = static_cast<int>(std::max_element(row, row + vocab) - row);
            result.tokens(b * max_length + i) = token;
            result.lengths(b) = static_cast<int>(i + 1);
            for (std::size_t blk = 0; blk < blocks; ++blk)
                for (std::size_t hd = 0; hd < heads; ++hd)
                    std::copy_n(cross.data() + ((blk * batch + b) * heads + hd) * s, s,
                                &result.cross_weights(blk, b, hd, i, 0));
            if (token == eos_token) done[b] = true, --running;
        }
    }
    return result;
}

std::uint64_t transformer_forward_work(const Seq2SeqConfig& config, std::uint64_t batch) {
    const std::uint64_t s = batch * config.source_length, t = batch * config.target_length, h = config.hidden;
    const std::uint64_t f = config.ffn_hidden;
    std::uint64_t encoder = 4 * s * h * h + 2 * s * config.source_length * h + 2 * s * h * f + 10 * s * h;
    std::uint64_t decoder = 6 * t * h * h + 2 * s * h * h + 2 * t * config.target_length * h +
                            2 * t * config.source_length * h + 2 * t * h * f + 15 * t * h;
    if (seq2seq_scoring(config) == Seq2SeqScoring::additive) {
        // Each query-key pair's features (h a pair over the heads) on top of its
        // score and weighted sum, and the shared W_q and W_k over every row's heads.
        const std::uint64_t d = h / config.heads;
        encoder += s * config.source_length * h + 2 * s * h * d;
        decoder += t * (config.target_length + config.source_length) * h + 3 * t * h * d + s * h * d;
    }
    return (s + t) * h + config.blocks * (encoder + decoder) + t * h * config.target_vocab;
}

void release_transformer_workspace() { TransformerLease::release(); }
void hold_transformer_workspace() { TransformerLease::hold(); }
void let_go_transformer_workspace() { TransformerLease::let_go(); }

}  // namespace attention::seq2seq_detail
