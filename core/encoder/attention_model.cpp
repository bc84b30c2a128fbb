#include "encoder/attention_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>

#include "contract/attention_checks.hpp"
#include "contract/errors.hpp"
#include "contract/pass_bound.hpp"
#include "layers/embedding.hpp"
#include "layers/encoder_block.hpp"
#include "layers/linear.hpp"
#include "training/softmax_cross_entropy.hpp"
#include "layers/workspace.hpp"
#include "contract/limits.hpp"
#include "layers/positional_encoding.hpp"

// The encoder only composes the layers of core/layers/, each a forward and
// backward pair: embedding and positional encoding, multi-head attention,
// AddNorm, the position-wise FFN, the readout (linear) and the softmax
// cross-entropy. Rows r = b * length + i (item b, position i) of `hidden`
// numbers each, row-major: the layout of d2l's (batch, length, hidden) tensors.

namespace attention {

namespace {

using namespace layers;

struct EncoderHandles {
    ParameterHandle embedding;
    std::optional<ParameterHandle> positional;  // learned positions only
    std::vector<EncoderBlockHandles> blocks;
    ParameterHandle readout, readout_bias;
};

// The encoder's parameters, in layout order: names, shapes and initialisation once.
EncoderHandles describe_parameters(const EncoderConfig& config, LayoutBuilder& layout) {
    const std::size_t h = config.hidden, f = config.ffn_hidden, v = config.vocab;
    EncoderHandles p;
    p.embedding = layout.add("embedding", {v, h}, Init::normal());
    if (config.positional == PositionalKind::learned)
        p.positional = layout.add("positional", {config.length, h}, Init::normal());
    for (std::size_t b = 0; b < config.blocks; ++b) {
        LayoutBuilder block = layout.under("b", b, ".");
        EncoderBlockHandles& k = p.blocks.emplace_back();
        k.wq = block.add("Wq", {h, h}, Init::linear(h));
        k.wk = block.add("Wk", {h, h}, Init::linear(h));
        k.wv = block.add("Wv", {h, h}, Init::linear(h));
        k.wo = block.add("Wo", {h, h}, Init::linear(h));
        if (f == 0) continue;
        k.ln1_gamma = block.add("ln1.gamma", {h}, Init::constant(1.0));
        k.ln1_beta = block.add("ln1.beta", {h}, Init::constant(0.0));
        k.w1 = block.add("W1", {f, h}, Init::linear(h));
        k.b1 = block.add("b1", {f}, Init::linear(h));
        k.w2 = block.add("W2", {h, f}, Init::linear(f));
        k.b2 = block.add("b2", {h}, Init::linear(f));
        k.ln2_gamma = block.add("ln2.gamma", {h}, Init::constant(1.0));
        k.ln2_beta = block.add("ln2.beta", {h}, Init::constant(0.0));
    }
    p.readout = layout.add("readout", {v, h}, Init::linear(h));
    p.readout_bias = layout.add("readoutBias", {v}, Init::linear(h));
    return p;
}

// The handles alone (no name is built), and how many named parameters there are.
EncoderHandles parameter_handles(const EncoderConfig& config, std::size_t* slots = nullptr) {
    LayoutBuilder layout;
    EncoderHandles handles = describe_parameters(config, layout);
    if (slots) *slots = layout.slots();
    return handles;
}

// The encoder's buffers (layers/workspace.hpp).
struct EncoderWorkspace {
    std::vector<std::vector<double>> inputs;  // per block, rows x hidden: X entering it
    std::vector<EncoderBlockCache> blocks;
    EncoderBlockScratch scratch;
    std::vector<double> output;  // rows x hidden: X after the last block
    std::vector<double> logits;  // rows x vocab
    xt::xtensor<double, 2> encoding;  // P, kept while length and hidden stay the same
    std::size_t encoding_length = 0, encoding_hidden = 0;
    std::vector<std::size_t> visible;
    std::vector<double> divisors, losses, dlogits, dx;

    std::size_t doubles() const {
        std::size_t total = capacity_of(output, logits, divisors, losses, dlogits, dx) + scratch.doubles();
        for (const auto& x : inputs) total += capacity_of(x);
        for (const auto& c : blocks) total += cache_doubles(c);
        return total;
    }
};
using EncoderLease = WorkspaceLease<EncoderWorkspace>;

// The flags of block `block`'s heads (null: every head on).
const int* heads_off(const BatchOptions& options, std::size_t block, std::size_t heads) {
    return options.heads_off.size() ? options.heads_off.data() + block * heads : nullptr;
}

std::size_t valid_length(const BatchOptions& options, std::size_t item, std::size_t length) {
    return options.valid_lens.size() ? static_cast<std::size_t>(options.valid_lens(item)) : length;
}

EncoderBlockShape block_shape(const EncoderConfig& config, std::size_t batch) {
    return {batch, config.length, config.hidden, config.heads, config.ffn_hidden};
}

void forward_pass(const AttentionModel& model, const EncoderHandles& p, const int* tokens, const BatchOptions& options,
                  EncoderWorkspace& w) {
    const EncoderConfig& config = model.config;
    const std::size_t batch = options.batch, n = config.length, hidden = config.hidden, rows = batch * n;
    const double* params = model.values.data();
    const EncoderBlockShape shape = block_shape(config, batch);
    visible_keys(shape.attention(), options.valid_lens.size() ? options.valid_lens.data() : nullptr, options.causal,
                 w.visible);

    w.blocks.resize(config.blocks);
    w.inputs.resize(config.blocks);
    for (auto& x : w.inputs) x.resize(rows * hidden);
    w.output.resize(rows * hidden);

    // X = embedding[tokens] * scale + P (P: sinusoidal, learned, or none)
    const double* encoding = nullptr;
    if (config.positional == PositionalKind::sinusoidal) {
        if (w.encoding_length != n || w.encoding_hidden != hidden) {
            w.encoding = positional_encoding(n, hidden);
            w.encoding_length = n, w.encoding_hidden = hidden;
        }
        encoding = w.encoding.data();
    } else if (p.positional) {
        encoding = p.positional->in(params);
    }
    embedding_forward({rows, n, hidden}, tokens, p.embedding.in(params), config.embedding_scale, encoding,
                      w.inputs[0].data());

    for (std::size_t blk = 0; blk < config.blocks; ++blk) {
        // The block's output: the next block's input, or the model's.
        double* out = blk + 1 < config.blocks ? w.inputs[blk + 1].data() : w.output.data();
        encoder_block_forward(shape, w.inputs[blk].data(), w.visible.data(), p.blocks[blk].weights(params),
                              w.blocks[blk], out, w.scratch, heads_off(options, blk, config.heads));
    }

    w.logits.resize(rows * config.vocab);
    linear_forward({rows, hidden, config.vocab}, w.output.data(), p.readout.in(params), p.readout_bias.in(params),
                   w.logits.data(), w.scratch.transposed);
}

// dx: the gradient of the encoder's output on the way in, of the embedded input on the way out.
void backward_pass(const AttentionModel& model, const EncoderHandles& p, const int* tokens, const BatchOptions& options,
                   EncoderWorkspace& w, double* grads) {
    const EncoderConfig& config = model.config;
    const std::size_t batch = options.batch, n = config.length, hidden = config.hidden, rows = batch * n;
    const double* params = model.values.data();
    const EncoderBlockShape shape = block_shape(config, batch);
    std::vector<double>& dx = w.dx;
    dx.assign(rows * hidden, 0.0);
    linear_backward({rows, hidden, config.vocab}, w.dlogits.data(), w.output.data(), p.readout.in(params),
                    p.readout.in(grads), p.readout_bias.in(grads), dx.data());

    for (std::size_t blk = config.blocks; blk-- > 0;)
        encoder_block_backward(shape, w.inputs[blk].data(), w.visible.data(), p.blocks[blk].weights(params),
                               w.blocks[blk], dx.data(), p.blocks[blk].gradients(grads), dx.data(), w.scratch,
                               heads_off(options, blk, config.heads));

    embedding_backward({rows, n, hidden}, tokens, config.embedding_scale, dx.data(), p.embedding.in(grads));
    // Learned positions: P[i] is added at position i of every item.
    if (p.positional) {
        double* dp = p.positional->in(grads);
        for (std::size_t r = 0; r < rows; ++r) {
            const double* from = dx.data() + r * hidden;
            double* to = dp + (r % n) * hidden;
            for (std::size_t j = 0; j < hidden; ++j) to[j] += from[j];
        }
    }
}

// 64-bit products: every factor is already within its own limit (<= 2^13), so no product of up to
// four factors can wrap.
std::uint64_t product(std::initializer_list<std::uint64_t> factors) {
    std::uint64_t p = 1;
    for (auto f : factors) p *= f;
    return p;
}

// The doubles one forward and backward pass keeps alive (an upper bound).
std::uint64_t activation_count(const EncoderConfig& config, std::uint64_t batch) {
    const std::uint64_t rows = batch * config.length;
    const std::uint64_t per_block = rows * (8 * config.hidden + 2 * config.ffn_hidden + 2) +
                                    product({batch, config.heads, config.length, config.length});
    return rows * (4 * config.hidden + 2 * config.vocab) + config.blocks * per_block;
}

}  // namespace

std::uint64_t model_forward_work(const EncoderConfig& config, std::uint64_t batch) {
    const std::uint64_t rows = batch * config.length, h = config.hidden;
    const std::uint64_t per_block = 4 * rows * h * h + 2 * product({batch, config.length, config.length, h}) +
                                    2 * rows * h * config.ffn_hidden + 10 * rows * h;
    return rows * h + config.blocks * per_block + rows * config.vocab * h;
}

std::uint64_t model_pass_work(const EncoderConfig& config, std::uint64_t batch) {
    return 3 * model_forward_work(config, batch);
}

void check_encoder_pass(const EncoderConfig& config, std::size_t items, std::string_view argument, std::size_t given,
                        std::string_view noun) {
    check_pass_bound(items, argument, given, noun, [&](std::uint64_t n) { return activation_count(config, n); },
                     [&](std::uint64_t n) { return model_pass_work(config, n); });
}

void release_encoder_workspace() { EncoderLease::release(); }

namespace {

void check_batch(const AttentionModel& model, const xt::xtensor<int, 1>& tokens, const xt::xtensor<int, 1>* targets,
                 const BatchOptions& options) {
    const EncoderConfig& config = model.config;
    check_encoder_config(config);
    std::size_t slots = 0;
    parameter_handles(config, &slots);
    if (model.values.size() != encoder_parameter_count(config) || model.layout.size() != slots)
        fail("model", text("parameters laid out for its config (", encoder_parameter_count(config), " numbers)"),
             model.values.size());
    check_batch_sizes(config, {options.batch, tokens.size(),
                               targets ? std::optional<std::size_t>(targets->size()) : std::nullopt,
                               options.valid_lens.size(), options.heads_off.size()});
    const std::size_t n = config.length, count = options.batch * n;
    auto check_tokens = [&](std::string_view name, const xt::xtensor<int, 1>& values) {
        for (std::size_t e = 0; e < count; ++e)
            if (values(e) < 0 || static_cast<std::size_t>(values(e)) >= config.vocab)
                fail(name, text("tokens in [0, ", config.vocab, ") (vocab)"), values(e), e);
    };
    check_tokens("tokens", tokens);
    if (targets) check_tokens("targets", *targets);
    if (options.valid_lens.size() != 0) {
        for (std::size_t b = 0; b < options.batch; ++b)
            if (options.valid_lens(b) < 1 || static_cast<std::size_t>(options.valid_lens(b)) > n)
                fail("validLens", text("lengths in [1, ", n, "] (length)"), options.valid_lens(b), b);
    }
    for (std::size_t h = 0; h < options.heads_off.size(); ++h)
        if (options.heads_off(h) != 0 && options.heads_off(h) != 1)
            fail("headsOff", "flags 0 (on) or 1 (off)", options.heads_off(h), h);
}

}  // namespace

template <>
const ParameterSlot& AttentionModel::slot(std::string_view name) const {
    for (const auto& s : layout)
        if (s.name == name) return s;
    fail("name", "the name of one of the model's parameters", name);
}

CountRange encoder_config_range(std::string_view field) {
    if (field == "vocab") return {2, limits::max_vocab};
    if (field == "length") return {1, limits::max_model_length};
    if (field == "hidden") return {1, limits::max_dimension};
    if (field == "heads") return model_heads_range;
    if (field == "blocks") return {1, limits::max_blocks};
    if (field == "ffnHidden") return {0, limits::max_ffn_hidden};
    return {0, largest_count};
}

void check_encoder_config(const EncoderConfig& config) {
    require_count("vocab", config.vocab, encoder_config_range("vocab"));
    require_count("length", config.length, encoder_config_range("length"));
    require_count("hidden", config.hidden, encoder_config_range("hidden"));
    check_model_heads(config.hidden, config.heads);
    require_count("blocks", config.blocks, encoder_config_range("blocks"));
    require_count("ffnHidden", config.ffn_hidden, encoder_config_range("ffnHidden"));
    require_range("embeddingScale", config.embedding_scale, 0.0, limits::max_embedding_scale);
    const std::uint64_t count = encoder_parameter_count(config);
    if (count > limits::max_model_parameters)
        fail("hidden", text("a model of at most ", limits::max_model_parameters, " parameters (this one: ", count, ")"),
             config.hidden);
}

std::size_t encoder_parameter_count(const EncoderConfig& config) {
    // Within the individual limits this fits 64 bits easily (< 2^40).
    const std::uint64_t h = config.hidden, f = config.ffn_hidden, v = config.vocab;
    const std::uint64_t block = 4 * h * h + (f > 0 ? 2 * h * f + f + 5 * h : 0);
    const std::uint64_t positions = config.positional == PositionalKind::learned ? config.length * h : 0;
    const std::uint64_t total = 2 * v * h + v + positions + config.blocks * block;
    return static_cast<std::size_t>(std::min<std::uint64_t>(total, SIZE_MAX));
}

std::vector<ParameterSlot> encoder_layout(const EncoderConfig& config) {
    std::vector<ParameterSlot> layout;
    LayoutBuilder builder(&layout);
    describe_parameters(config, builder);
    return layout;
}

AttentionModel init_attention_model(const EncoderConfig& config) {
    check_encoder_config(config);
    return initialised_model<AttentionModel>(config, encoder_layout(config), encoder_parameter_count(config));
}

void check_batch_sizes(const EncoderConfig& config, const BatchSizes& sizes) {
    require_count("batch", sizes.batch, 1, limits::max_model_batch);
    check_encoder_pass(config, sizes.batch, "batch", sizes.batch, "sequences");
    const std::size_t count = sizes.batch * config.length;
    if (sizes.tokens != count) fail("tokens", text("batch * length = ", count, " tokens"), sizes.tokens);
    if (sizes.targets && *sizes.targets != count)
        fail("targets", text("batch * length = ", count, " tokens"), *sizes.targets);
    if (sizes.valid_lens != 0 && sizes.valid_lens != sizes.batch)
        fail("validLens", text("none or one length per item (batch = ", sizes.batch, ")"), sizes.valid_lens);
    const std::size_t heads = config.blocks * config.heads;
    if (sizes.heads_off != 0 && sizes.heads_off != heads)
        fail("headsOff", text("none or one flag per head of every block (blocks * heads = ", heads, ")"),
             sizes.heads_off);
}

AttentionModel attention_model_from(const EncoderConfig& config, const std::vector<NamedValues>& params) {
    check_encoder_config(config);
    return model_from_named<AttentionModel>(config, encoder_layout(config), encoder_parameter_count(config), params);
}

ForwardResult attention_model_forward(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                      const BatchOptions& options) {
    check_batch(model, tokens, nullptr, options);
    const EncoderConfig& config = model.config;
    const std::size_t batch = options.batch, n = config.length;
    EncoderLease lease;
    EncoderWorkspace& w = *lease;
    forward_pass(model, parameter_handles(config), tokens.data(), options, w);
    ForwardResult result;
    result.logits = xt::xtensor<double, 3>::from_shape({batch, n, config.vocab});
    std::copy(w.logits.begin(), w.logits.end(), result.logits.begin());
    result.weights = xt::xtensor<double, 5>::from_shape({config.blocks, batch, config.heads, n, n});
    double* out = result.weights.data();
    for (const auto& c : w.blocks) out = std::copy(c.attention.weights.begin(), c.attention.weights.end(), out);
    return result;
}

DotProductItemInputs attention_model_attention_inputs(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                                      const BatchOptions& options, std::size_t block,
                                                      std::size_t item) {
    check_batch(model, tokens, nullptr, options);
    const EncoderConfig& config = model.config;
    require_count("block", block, 0, config.blocks - 1);
    require_count("item", item, 0, options.batch - 1);
    EncoderLease lease;
    EncoderWorkspace& w = *lease;
    forward_pass(model, parameter_handles(config), tokens.data(), options, w);
    const std::size_t n = config.length, hidden = config.hidden, rows = n * hidden;
    const AttentionCache& cache = w.blocks[block].attention;
    DotProductItemInputs in;
    in.queries = in.keys = n;
    in.hidden = hidden;
    in.heads = config.heads;
    const auto rows_of = [&](const std::vector<double>& all) {
        return std::vector<double>(all.begin() + static_cast<std::ptrdiff_t>(item * rows),
                                   all.begin() + static_cast<std::ptrdiff_t>((item + 1) * rows));
    };
    in.q = rows_of(cache.q);
    in.k = rows_of(cache.k);
    in.v = rows_of(cache.v);
    in.outputs = rows_of(cache.concat);
    in.visible.assign(w.visible.begin() + static_cast<std::ptrdiff_t>(item * n),
                      w.visible.begin() + static_cast<std::ptrdiff_t>((item + 1) * n));
    in.valid_length = valid_length(options, item, n);
    in.causal = options.causal;
    const std::size_t maps = config.heads * n * n;
    in.weights.assign(cache.weights.begin() + static_cast<std::ptrdiff_t>(item * maps),
                      cache.weights.begin() + static_cast<std::ptrdiff_t>((item + 1) * maps));
    return in;
}

LossResult attention_model_loss(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                const xt::xtensor<int, 1>& targets, const BatchOptions& options) {
    check_batch(model, tokens, &targets, options);
    const EncoderConfig& config = model.config;
    const std::size_t n = config.length, rows = options.batch * n, vocab = config.vocab;
    EncoderLease lease;
    EncoderWorkspace& w = *lease;
    const EncoderHandles p = parameter_handles(config);
    forward_pass(model, p, tokens.data(), options, w);

    // The mean cross-entropy over the valid positions: each divided by their count.
    std::size_t count = 0;
    for (std::size_t b = 0; b < options.batch; ++b) count += valid_length(options, b, n);
    w.divisors.resize(rows);
    for (std::size_t r = 0; r < rows; ++r)
        w.divisors[r] = r % n < valid_length(options, r / n, n) ? static_cast<double>(count) : 0.0;
    w.losses.resize(rows);
    w.dlogits.resize(rows * vocab);
    softmax_cross_entropy(w.logits.data(), rows, vocab, targets.data(), w.divisors.data(), w.losses.data(),
                          w.dlogits.data());
    double total = 0.0;
    for (std::size_t r = 0; r < rows; ++r)
        if (w.divisors[r] != 0.0) total += w.losses[r];

    LossResult result;
    result.loss = total / static_cast<double>(count);
    result.gradients = xt::zeros<double>({model.values.size()});
    backward_pass(model, p, tokens.data(), options, w, result.gradients.data());
    return result;
}

Accuracy attention_model_accuracy(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                  const xt::xtensor<int, 1>& targets, const BatchOptions& options) {
    check_batch(model, tokens, &targets, options);
    const EncoderConfig& config = model.config;
    const std::size_t n = config.length, vocab = config.vocab;
    EncoderLease lease;
    EncoderWorkspace& w = *lease;
    forward_pass(model, parameter_handles(config), tokens.data(), options, w);
    Accuracy result;
    std::size_t correct = 0;
    double total = 0.0, sum = 0.0;
    w.dlogits.resize(vocab);
    for (std::size_t r = 0; r < options.batch * n; ++r) {
        if (r % n >= valid_length(options, r / n, n)) continue;
        const double* l = w.logits.data() + r * vocab;
        const auto target = static_cast<std::size_t>(targets(r));
        const auto best = static_cast<std::size_t>(std::max_element(l, l + vocab) - l);
        correct += best == target;
        total += cross_entropy(l, vocab, target, w.dlogits.data(), sum);
        ++result.positions;
    }
    result.accuracy = static_cast<double>(correct) / static_cast<double>(result.positions);
    result.loss = total / static_cast<double>(result.positions);
    return result;
}

}  // namespace attention
