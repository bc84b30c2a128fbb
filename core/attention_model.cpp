#include "attention_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>

#include "errors.hpp"
#include "limits.hpp"
#include "matrix_products.hpp"
#include "portable_math.hpp"
#include "positional_encoding.hpp"
#include "random.hpp"
#include "vector_math.hpp"

// Layout of the work: rows r = b * length + i (item b, position i) of
// `hidden` numbers each, row-major, the layout of d2l's (batch, length,
// hidden) tensors. Head h owns columns h * headSize .. (h + 1) * headSize - 1
// of the Q, K, V and concatenated-output rows (d2l's transpose_qkv without
// the copy). Every matrix product is one of two contiguous inner loops:
// a dot product of two rows (x W^T with W out x in) or an axpy of a row
// (the gradients), which compilers vectorise.

namespace attention {

namespace {

constexpr double layer_norm_eps = 1e-5;
constexpr double log2e = 1.4426950408889634074;

// exp(x) for x <= 0 through the portable, inlined exp2 of vector_math.hpp.
inline double exp_nonpositive(double x) { return vector_math::exp2_nonpositive(x * log2e); }

// The cross-entropy of one row of logits for its target, log(sum exp l) - l[target]
// computed from the largest logit; exp(l - top) of each logit is left in
// `shifted` and their sum in `sum` (the loss's gradient is made of them).
inline double cross_entropy(const double* logits, std::size_t vocab, std::size_t target, double* shifted,
                            double& sum) {
    const double top = *std::max_element(logits, logits + vocab);
    sum = 0.0;
    for (std::size_t v = 0; v < vocab; ++v) {
        shifted[v] = exp_nonpositive(logits[v] - top);
        sum += shifted[v];
    }
    return (top + portable::log(sum)) - logits[target];
}

// y[i] += a * x[i]
inline void axpy(double* y, double a, const double* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

// out (rows x out_size) = x (rows x in) W^T (+ bias), W (out_size x in) as nn.Linear stores it.
// The product runs on W^T (in x out_size, made in `transposed`), whose rows the kernel streams.
void linear_forward(const double* x, std::size_t rows, std::size_t in, const double* w, const double* bias,
                    std::size_t out_size, double* out, std::vector<double>& transposed) {
    transposed.resize(in * out_size);
    for (std::size_t o = 0; o < out_size; ++o)
        for (std::size_t i = 0; i < in; ++i) transposed[i * out_size + o] = w[o * in + i];
    for (std::size_t r = 0; r < rows; ++r) {
        double* yr = out + r * out_size;
        if (bias)
            std::copy(bias, bias + out_size, yr);
        else
            std::fill(yr, yr + out_size, 0.0);
    }
    matrix::multiply_add({x, in, 1}, transposed.data(), out_size, out, out_size, rows, out_size, in);
}

// The gradients of out = x W^T + bias given dout: dW += dout^T x, dbias += column sums of dout,
// dx (when not null) += dout W.
void linear_backward(const double* dout, const double* x, std::size_t rows, std::size_t in, const double* w,
                     std::size_t out_size, double* dw, double* dbias, double* dx) {
    matrix::multiply_add({dout, 1, out_size}, x, in, dw, in, out_size, in, rows);
    if (dbias)
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t o = 0; o < out_size; ++o) dbias[o] += dout[r * out_size + o];
    if (dx) matrix::multiply_add({dout, out_size, 1}, w, in, dx, in, rows, in, out_size);
}

// LayerNorm over each row of `size` numbers: xhat = (z - mean) / sqrt(var + eps) with the biased
// variance, out = xhat * gamma + beta. Keeps xhat and 1 / sqrt(var + eps) for the backward pass.
void layer_norm_forward(const double* z, std::size_t rows, std::size_t size, const double* gamma,
                        const double* beta, double* xhat, double* rstd, double* out) {
    const double n = static_cast<double>(size);
    for (std::size_t r = 0; r < rows; ++r) {
        const double* zr = z + r * size;
        const double mean = vector_math::sum(zr, size) / n;
        double* xr = xhat + r * size;
        for (std::size_t c = 0; c < size; ++c) xr[c] = zr[c] - mean;
        const double var = vector_math::dot(xr, xr, size) / n;
        const double s = 1.0 / std::sqrt(var + layer_norm_eps);
        rstd[r] = s;
        double* yr = out + r * size;
        for (std::size_t c = 0; c < size; ++c) {
            xr[c] *= s;
            yr[c] = xr[c] * gamma[c] + beta[c];
        }
    }
}

// dz = rstd * (g - mean(g) - xhat * mean(g * xhat)) with g = dout * gamma;
// dgamma += dout * xhat, dbeta += dout. dz may alias dout.
void layer_norm_backward(const double* dout, const double* xhat, const double* rstd, std::size_t rows,
                         std::size_t size, const double* gamma, double* dgamma, double* dbeta, double* dz,
                         std::vector<double>& scratch) {
    const double n = static_cast<double>(size);
    scratch.resize(size);
    double* g = scratch.data();
    for (std::size_t r = 0; r < rows; ++r) {
        const double* dr = dout + r * size;
        const double* xr = xhat + r * size;
        for (std::size_t c = 0; c < size; ++c) {
            dgamma[c] += dr[c] * xr[c];
            dbeta[c] += dr[c];
            g[c] = dr[c] * gamma[c];
        }
        const double mean_g = vector_math::sum(g, size) / n;
        const double mean_gx = vector_math::dot(g, xr, size) / n;
        double* zr = dz + r * size;
        for (std::size_t c = 0; c < size; ++c) zr[c] = rstd[r] * ((g[c] - mean_g) - xr[c] * mean_gx);
    }
}

// Pointers to one block's parameters (or gradients) in the flat layout.
struct BlockParameters {
    const double *wq, *wk, *wv, *wo;
    const double *ln1_gamma, *ln1_beta, *w1, *b1, *w2, *b2, *ln2_gamma, *ln2_beta;
};
struct BlockGradients {
    double *wq, *wk, *wv, *wo;
    double *ln1_gamma, *ln1_beta, *w1, *b1, *w2, *b2, *ln2_gamma, *ln2_beta;
};

std::size_t slots_per_block(const ModelConfig& config) { return config.ffn_hidden > 0 ? 12 : 4; }

// The number of named parameters (model_layout's size, without building it): embedding, blocks, readout and bias.
std::size_t slot_count(const ModelConfig& config) { return 1 + config.blocks * slots_per_block(config) + 2; }

// The offsets of block `block`'s slots, in layout order.
template <class Pointer, class Result>
Result block_pointers(const std::vector<ParameterSlot>& layout, const ModelConfig& config, std::size_t block,
                      Pointer base) {
    const std::size_t first = 1 + block * slots_per_block(config);
    auto at = [&](std::size_t k) { return base + layout[first + k].offset; };
    Result p{};
    p.wq = at(0), p.wk = at(1), p.wv = at(2), p.wo = at(3);
    if (config.ffn_hidden > 0) {
        p.ln1_gamma = at(4), p.ln1_beta = at(5), p.w1 = at(6), p.b1 = at(7);
        p.w2 = at(8), p.b2 = at(9), p.ln2_gamma = at(10), p.ln2_beta = at(11);
    }
    return p;
}

// What the backward pass needs of one block's forward pass.
struct BlockCache {
    std::vector<double> input;            // rows x hidden: X entering the block
    std::vector<double> q, k, v;          // rows x hidden
    std::vector<double> weights;          // batch x heads x length x length
    std::vector<double> concat;           // rows x hidden: the heads' outputs, before Wo
    std::vector<double> xhat1, rstd1, y1;  // FFN blocks: LN1's normalised rows and output
    std::vector<double> activation;       // rows x ffnHidden, after the ReLU
    std::vector<double> xhat2, rstd2;
};

struct ForwardCache {
    std::vector<BlockCache> blocks;
    std::vector<double> output;  // rows x hidden: X after the last block
    std::vector<double> logits;  // rows x vocab
    std::vector<double> attended, residual;  // scratch of FFN blocks
    std::vector<double> transposed;          // W^T of the product being computed
    xt::xtensor<double, 2> encoding;         // P, kept while length and hidden stay the same
    std::size_t encoding_length = 0, encoding_hidden = 0;
};

// Every buffer of one forward and backward pass, kept from call to call: a training step allocates
// nothing, and the buffers stay warm in the cache. (Allocating them afresh each step cost more than
// the arithmetic: page faults and zeroing of freshly mapped memory.) One for the process: the core
// runs on one thread (a thread_local one would register its destructor with an allocation on first
// use, which the wasm leak checks would see). A workspace that grew past large_workspace doubles is
// released after the call.
struct Workspace {
    ForwardCache cache;
    std::vector<std::size_t> visible;
    std::vector<double> dlogits, dx, dq, dk, dv, dconcat, dattended, dy1, dact, scratch;
};
constexpr std::size_t large_workspace = std::size_t{1} << 22;

class WorkspaceLease {
public:
    WorkspaceLease() : workspace_(storage()) {}
    ~WorkspaceLease() {
        if (size() > large_workspace) storage() = Workspace{};
    }
    WorkspaceLease(const WorkspaceLease&) = delete;
    WorkspaceLease& operator=(const WorkspaceLease&) = delete;
    Workspace& operator*() { return workspace_; }
    static void release() { storage() = Workspace{}; }

private:
    static Workspace& storage() {
        static Workspace workspace;
        return workspace;
    }
    std::size_t size() const {
        const Workspace& w = workspace_;
        std::size_t total = w.cache.output.capacity() + w.cache.logits.capacity() + w.dlogits.capacity() +
                            7 * w.dx.capacity() + w.dact.capacity();
        for (const auto& b : w.cache.blocks)
            total += 8 * b.q.capacity() + b.weights.capacity() + b.activation.capacity();
        return total;
    }
    Workspace& workspace_;
};

// The number of keys query (b, i) sees: the item's valid length, and with causal at most i + 1.
void visible_keys(const ModelConfig& config, const BatchOptions& options, std::vector<std::size_t>& visible) {
    const std::size_t n = config.length;
    visible.resize(options.batch * n);
    for (std::size_t b = 0; b < options.batch; ++b) {
        const std::size_t valid = options.valid_lens.size() ? static_cast<std::size_t>(options.valid_lens(b)) : n;
        for (std::size_t i = 0; i < n; ++i) visible[b * n + i] = options.causal ? std::min(valid, i + 1) : valid;
    }
}

void attention_forward(const ModelConfig& config, std::size_t batch, const std::vector<std::size_t>& visible,
                       BlockCache& c) {
    const std::size_t n = config.length, hidden = config.hidden, heads = config.heads;
    const std::size_t dh = hidden / heads;
    const double sqrt_d = std::sqrt(static_cast<double>(dh));
    std::fill(c.concat.begin(), c.concat.end(), 0.0);
    std::fill(c.weights.begin(), c.weights.end(), 0.0);
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t keys = visible[b * n + i];
                double* w = c.weights.data() + ((b * heads + h) * n + i) * n;
                const double* q = c.q.data() + (b * n + i) * hidden + h * dh;
                double top = -std::numeric_limits<double>::infinity();
                for (std::size_t j = 0; j < keys; ++j) {
                    w[j] = vector_math::dot(q, c.k.data() + (b * n + j) * hidden + h * dh, dh) / sqrt_d;
                    top = std::max(top, w[j]);
                }
                // Masked keys get weight 0: exp(-1e6 - top) underflows to 0 in d2l's masked softmax too.
                double total = 0.0;
                for (std::size_t j = 0; j < keys; ++j) {
                    w[j] = exp_nonpositive(w[j] - top);
                    total += w[j];
                }
                double* out = c.concat.data() + (b * n + i) * hidden + h * dh;
                for (std::size_t j = 0; j < keys; ++j) {
                    w[j] /= total;
                    axpy(out, w[j], c.v.data() + (b * n + j) * hidden + h * dh, dh);
                }
            }
}

// dconcat -> dq, dk, dv (all rows x hidden, overwritten).
void attention_backward(const ModelConfig& config, std::size_t batch, const std::vector<std::size_t>& visible,
                        const BlockCache& c, const double* dconcat, double* dq, double* dk, double* dv,
                        std::vector<double>& scratch) {
    const std::size_t n = config.length, hidden = config.hidden, heads = config.heads;
    const std::size_t dh = hidden / heads, rows = batch * n;
    const double sqrt_d = std::sqrt(static_cast<double>(dh));
    std::fill(dq, dq + rows * hidden, 0.0);
    std::fill(dk, dk + rows * hidden, 0.0);
    std::fill(dv, dv + rows * hidden, 0.0);
    scratch.resize(n);
    double* dw = scratch.data();
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t keys = visible[b * n + i];
                const double* w = c.weights.data() + ((b * heads + h) * n + i) * n;
                const std::size_t qi = (b * n + i) * hidden + h * dh;
                const double* g = dconcat + qi;
                double weighted = 0.0;
                for (std::size_t j = 0; j < keys; ++j) {
                    const std::size_t kj = (b * n + j) * hidden + h * dh;
                    dw[j] = vector_math::dot(g, c.v.data() + kj, dh);
                    weighted += w[j] * dw[j];
                    axpy(dv + kj, w[j], g, dh);
                }
                for (std::size_t j = 0; j < keys; ++j) {
                    const std::size_t kj = (b * n + j) * hidden + h * dh;
                    const double ds = w[j] * (dw[j] - weighted) / sqrt_d;
                    axpy(dq + qi, ds, c.k.data() + kj, dh);
                    axpy(dk + kj, ds, c.q.data() + qi, dh);
                }
            }
}

void forward_pass(const AttentionModel& model, const int* tokens, std::size_t batch,
                  const std::vector<std::size_t>& visible, ForwardCache& cache) {
    const ModelConfig& config = model.config;
    const std::size_t n = config.length, hidden = config.hidden, rows = batch * n;
    const std::size_t ffn = config.ffn_hidden;
    const double* params = model.values.data();

    cache.blocks.resize(config.blocks);
    for (auto& c : cache.blocks) c.input.resize(rows * hidden);
    cache.output.resize(rows * hidden);

    // X = embedding[tokens] * scale + P
    if (cache.encoding_length != n || cache.encoding_hidden != hidden) {
        cache.encoding = positional_encoding(n, hidden);
        cache.encoding_length = n, cache.encoding_hidden = hidden;
    }
    const double* embedding = params + model.layout[0].offset;
    double* x = cache.blocks[0].input.data();
    for (std::size_t r = 0; r < rows; ++r) {
        const double* e = embedding + static_cast<std::size_t>(tokens[r]) * hidden;
        const double* p = cache.encoding.data() + (r % n) * hidden;
        for (std::size_t c = 0; c < hidden; ++c) x[r * hidden + c] = e[c] * config.embedding_scale + p[c];
    }

    std::vector<double>& attended = cache.attended;
    std::vector<double>& residual = cache.residual;
    attended.resize(rows * hidden), residual.resize(ffn > 0 ? rows * hidden : 0);
    for (std::size_t blk = 0; blk < config.blocks; ++blk) {
        BlockCache& c = cache.blocks[blk];
        const auto p = block_pointers<const double*, BlockParameters>(model.layout, config, blk, params);
        // The block's output: the next block's input, or the model's.
        x = blk + 1 < config.blocks ? cache.blocks[blk + 1].input.data() : cache.output.data();
        c.q.resize(rows * hidden), c.k.resize(rows * hidden), c.v.resize(rows * hidden);
        c.concat.resize(rows * hidden);
        c.weights.resize(batch * config.heads * n * n);
        linear_forward(c.input.data(), rows, hidden, p.wq, nullptr, hidden, c.q.data(), cache.transposed);
        linear_forward(c.input.data(), rows, hidden, p.wk, nullptr, hidden, c.k.data(), cache.transposed);
        linear_forward(c.input.data(), rows, hidden, p.wv, nullptr, hidden, c.v.data(), cache.transposed);
        attention_forward(config, batch, visible, c);
        if (ffn == 0) {
            linear_forward(c.concat.data(), rows, hidden, p.wo, nullptr, hidden, x, cache.transposed);
            continue;
        }
        // Y = LN1(X + MHA(X)); out = LN2(Y + FFN(Y))
        linear_forward(c.concat.data(), rows, hidden, p.wo, nullptr, hidden, attended.data(), cache.transposed);
        for (std::size_t e = 0; e < rows * hidden; ++e) residual[e] = attended[e] + c.input[e];
        c.xhat1.resize(rows * hidden), c.rstd1.resize(rows), c.y1.resize(rows * hidden);
        layer_norm_forward(residual.data(), rows, hidden, p.ln1_gamma, p.ln1_beta, c.xhat1.data(), c.rstd1.data(),
                           c.y1.data());
        c.activation.resize(rows * ffn);
        linear_forward(c.y1.data(), rows, hidden, p.w1, p.b1, ffn, c.activation.data(), cache.transposed);
        for (double& a : c.activation) a = a > 0.0 ? a : 0.0;
        linear_forward(c.activation.data(), rows, ffn, p.w2, p.b2, hidden, attended.data(), cache.transposed);
        for (std::size_t e = 0; e < rows * hidden; ++e) residual[e] = attended[e] + c.y1[e];
        c.xhat2.resize(rows * hidden), c.rstd2.resize(rows);
        layer_norm_forward(residual.data(), rows, hidden, p.ln2_gamma, p.ln2_beta, c.xhat2.data(), c.rstd2.data(), x);
    }

    const std::size_t readout_slot = model.layout.size() - 2;
    cache.logits.resize(rows * config.vocab);
    linear_forward(cache.output.data(), rows, hidden, params + model.layout[readout_slot].offset,
                   params + model.layout[readout_slot + 1].offset, config.vocab, cache.logits.data(), cache.transposed);
}

// 64-bit products: every factor is already within its own limit (<= 2^13), so no product of up to
// four factors can wrap.
std::uint64_t product(std::initializer_list<std::uint64_t> factors) {
    std::uint64_t p = 1;
    for (auto f : factors) p *= f;
    return p;
}

// The doubles one forward and backward pass keeps alive (an upper bound).
std::uint64_t activation_count(const ModelConfig& config, std::uint64_t batch) {
    const std::uint64_t rows = batch * config.length;
    const std::uint64_t per_block = rows * (8 * config.hidden + 2 * config.ffn_hidden + 2) +
                                    product({batch, config.heads, config.length, config.length});
    return rows * (4 * config.hidden + 2 * config.vocab) + config.blocks * per_block;
}

}  // namespace

std::uint64_t model_forward_work(const ModelConfig& config, std::uint64_t batch) {
    const std::uint64_t rows = batch * config.length, h = config.hidden;
    const std::uint64_t per_block = 4 * rows * h * h + 2 * product({batch, config.length, config.length, h}) +
                                    2 * rows * h * config.ffn_hidden + 10 * rows * h;
    return rows * h + config.blocks * per_block + rows * config.vocab * h;
}

std::uint64_t model_pass_work(const ModelConfig& config, std::uint64_t batch) {
    return 3 * model_forward_work(config, batch);
}

void release_model_workspace() { WorkspaceLease::release(); }

namespace {

void check_batch(const AttentionModel& model, const xt::xtensor<int, 1>& tokens, const xt::xtensor<int, 1>* targets,
                 const BatchOptions& options) {
    const ModelConfig& config = model.config;
    check_model_config(config);
    if (model.values.size() != parameter_count(config) || model.layout.size() != slot_count(config))
        fail("model", text("parameters laid out for its config (", parameter_count(config), " numbers)"),
             model.values.size());
    check_batch_sizes(config, {options.batch, tokens.size(),
                               targets ? std::optional<std::size_t>(targets->size()) : std::nullopt,
                               options.valid_lens.size()});
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
}

}  // namespace

const ParameterSlot& AttentionModel::slot(std::string_view name) const {
    for (const auto& s : layout)
        if (s.name == name) return s;
    fail("name", "the name of one of the model's parameters", name);
}

void check_model_config(const ModelConfig& config) {
    require_count("vocab", config.vocab, 2, limits::max_vocab);
    require_count("length", config.length, 1, limits::max_model_length);
    require_count("hidden", config.hidden, 1, limits::max_dimension);
    require_count("heads", config.heads, 1, limits::max_heads);
    if (config.hidden % config.heads != 0)
        fail("heads", text("a divisor of hidden (", config.hidden, ")"), config.heads);
    require_count("blocks", config.blocks, 1, limits::max_blocks);
    require_count("ffnHidden", config.ffn_hidden, 0, limits::max_ffn_hidden);
    require_range("embeddingScale", config.embedding_scale, 0.0, limits::max_embedding_scale);
    const std::uint64_t count = parameter_count(config);
    if (count > limits::max_model_parameters)
        fail("hidden", text("a model of at most ", limits::max_model_parameters, " parameters (this one: ", count, ")"),
             config.hidden);
}

std::size_t parameter_count(const ModelConfig& config) {
    // Within the individual limits this fits 64 bits easily (< 2^40).
    const std::uint64_t h = config.hidden, f = config.ffn_hidden, v = config.vocab;
    const std::uint64_t block = 4 * h * h + (f > 0 ? 2 * h * f + f + 5 * h : 0);
    const std::uint64_t total = 2 * v * h + v + config.blocks * block;
    return static_cast<std::size_t>(std::min<std::uint64_t>(total, SIZE_MAX));
}

std::vector<ParameterSlot> model_layout(const ModelConfig& config) {
    std::vector<ParameterSlot> layout;
    std::size_t offset = 0;
    auto add = [&](std::string name, std::vector<std::size_t> shape) {
        std::size_t size = 1;
        for (auto s : shape) size *= s;
        layout.push_back({std::move(name), std::move(shape), offset, size});
        offset += size;
    };
    const std::size_t h = config.hidden, f = config.ffn_hidden;
    add("embedding", {config.vocab, h});
    for (std::size_t b = 0; b < config.blocks; ++b) {
        const std::string prefix = "b" + std::to_string(b) + ".";
        for (const char* w : {"Wq", "Wk", "Wv", "Wo"}) add(prefix + w, {h, h});
        if (f > 0) {
            add(prefix + "ln1.gamma", {h});
            add(prefix + "ln1.beta", {h});
            add(prefix + "W1", {f, h});
            add(prefix + "b1", {f});
            add(prefix + "W2", {h, f});
            add(prefix + "b2", {h});
            add(prefix + "ln2.gamma", {h});
            add(prefix + "ln2.beta", {h});
        }
    }
    add("readout", {config.vocab, h});
    add("readoutBias", {config.vocab});
    return layout;
}

AttentionModel init_attention_model(const ModelConfig& config) {
    check_model_config(config);
    AttentionModel model;
    model.config = config;
    model.layout = model_layout(config);
    model.values = xt::xtensor<double, 1>::from_shape({parameter_count(config)});
    Random random(config.seed);
    for (const auto& s : model.layout) {
        double* p = model.values.data() + s.offset;
        const std::string_view name = s.name;
        auto ends_with = [&](std::string_view tail) {
            return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
        };
        if (name == "embedding") {
            for (std::size_t e = 0; e < s.size; ++e) p[e] = random.normal();
        } else if (ends_with(".gamma")) {
            std::fill(p, p + s.size, 1.0);
        } else if (ends_with(".beta")) {
            std::fill(p, p + s.size, 0.0);
        } else {
            // nn.Linear: weight and bias U(-1/sqrt(in), 1/sqrt(in)), in = the weight's columns.
            const std::size_t in = ends_with("W2") || ends_with("b2") ? config.ffn_hidden : config.hidden;
            const double bound = 1.0 / std::sqrt(static_cast<double>(in));
            for (std::size_t e = 0; e < s.size; ++e) p[e] = -bound + 2.0 * bound * random.uniform();
        }
    }
    return model;
}

void check_batch_sizes(const ModelConfig& config, const BatchSizes& sizes) {
    require_count("batch", sizes.batch, 1, limits::max_model_batch);
    const std::uint64_t activations = activation_count(config, sizes.batch);
    if (activations > limits::max_model_activations)
        fail("batch", text("a batch whose forward and backward pass keep at most ", limits::max_model_activations,
                           " numbers (this one: ", activations, ")"),
             sizes.batch);
    if (const std::uint64_t work = model_pass_work(config, sizes.batch); work > limits::max_model_work)
        fail("batch", text("a batch whose forward and backward pass take at most ", limits::max_model_work,
                           " multiply-adds (this one: ", work, ")"),
             sizes.batch);
    const std::size_t count = sizes.batch * config.length;
    if (sizes.tokens != count) fail("tokens", text("batch * length = ", count, " tokens"), sizes.tokens);
    if (sizes.targets && *sizes.targets != count)
        fail("targets", text("batch * length = ", count, " tokens"), *sizes.targets);
    if (sizes.valid_lens != 0 && sizes.valid_lens != sizes.batch)
        fail("validLens", text("none or one length per item (batch = ", sizes.batch, ")"), sizes.valid_lens);
}

void check_parameter_count(const std::vector<ParameterSlot>& layout, std::size_t given) {
    if (given != layout.size()) fail("params", text(layout.size(), " named parameters for this config"), given);
}

std::vector<std::size_t> match_parameters(const std::vector<ParameterSlot>& layout,
                                          const std::vector<NamedSize>& given) {
    check_parameter_count(layout, given.size());
    std::vector<std::size_t> slots(given.size());
    std::vector<bool> found(layout.size(), false);
    for (std::size_t g = 0; g < given.size(); ++g) {
        const std::string_view name = given[g].name;
        std::size_t k = 0;
        while (k < layout.size() && layout[k].name != name) ++k;
        if (k == layout.size()) fail("params", "only the names of the model's parameters", quoted(name));
        if (found[k]) fail("params", "each name once", quoted(name));
        if (given[g].size != layout[k].size) fail(text("params.", name), text(layout[k].size, " numbers"), given[g].size);
        found[k] = true;
        slots[g] = k;
    }
    return slots;
}

void check_parameter_values(const AttentionModel& model) {
    for (const auto& slot : model.layout) {
        const double* values = model.values.data() + slot.offset;
        for (std::size_t e = 0; e < slot.size; ++e)
            if (!std::isfinite(values[e])) fail(text("params.", slot.name), "finite numbers", values[e], e);
    }
}

AttentionModel attention_model_from(const ModelConfig& config, const std::vector<NamedValues>& params) {
    check_model_config(config);
    AttentionModel model;
    model.config = config;
    model.layout = model_layout(config);
    std::vector<NamedSize> given;
    for (const auto& p : params) given.push_back({p.name, p.values.size()});
    const std::vector<std::size_t> slots = match_parameters(model.layout, given);
    model.values = xt::xtensor<double, 1>::from_shape({parameter_count(config)});
    for (std::size_t g = 0; g < params.size(); ++g)
        std::copy(params[g].values.begin(), params[g].values.end(), model.values.data() + model.layout[slots[g]].offset);
    check_parameter_values(model);
    return model;
}

ForwardResult attention_model_forward(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                      const BatchOptions& options) {
    check_batch(model, tokens, nullptr, options);
    const ModelConfig& config = model.config;
    const std::size_t batch = options.batch, n = config.length;
    WorkspaceLease lease;
    Workspace& w = *lease;
    visible_keys(config, options, w.visible);
    forward_pass(model, tokens.data(), batch, w.visible, w.cache);
    const ForwardCache& cache = w.cache;
    ForwardResult result;
    result.logits = xt::xtensor<double, 3>::from_shape({batch, n, config.vocab});
    std::copy(cache.logits.begin(), cache.logits.end(), result.logits.begin());
    result.weights = xt::xtensor<double, 5>::from_shape({config.blocks, batch, config.heads, n, n});
    double* out = result.weights.data();
    for (const auto& c : cache.blocks) out = std::copy(c.weights.begin(), c.weights.end(), out);
    return result;
}

LossResult attention_model_loss(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                const xt::xtensor<int, 1>& targets, const BatchOptions& options) {
    check_batch(model, tokens, &targets, options);
    const ModelConfig& config = model.config;
    const std::size_t batch = options.batch, n = config.length, rows = batch * n;
    const std::size_t hidden = config.hidden, vocab = config.vocab, ffn = config.ffn_hidden;
    WorkspaceLease lease;
    Workspace& w = *lease;
    visible_keys(config, options, w.visible);
    const std::vector<std::size_t>& visible = w.visible;
    forward_pass(model, tokens.data(), batch, visible, w.cache);
    const ForwardCache& cache = w.cache;

    LossResult result;
    result.gradients = xt::zeros<double>({model.values.size()});
    double* grads = result.gradients.data();
    const double* params = model.values.data();

    // Cross-entropy over the valid positions; dlogits = (softmax - onehot) / count.
    std::size_t count = 0;
    for (std::size_t b = 0; b < batch; ++b)
        count += options.valid_lens.size() ? static_cast<std::size_t>(options.valid_lens(b)) : n;
    std::vector<double>& dlogits = w.dlogits;
    dlogits.assign(rows * vocab, 0.0);
    double total = 0.0;
    for (std::size_t r = 0; r < rows; ++r) {
        const std::size_t valid = options.valid_lens.size() ? static_cast<std::size_t>(options.valid_lens(r / n)) : n;
        if (r % n >= valid) continue;
        double* d = dlogits.data() + r * vocab;
        const auto target = static_cast<std::size_t>(targets(r));
        double sum = 0.0;
        total += cross_entropy(cache.logits.data() + r * vocab, vocab, target, d, sum);
        for (std::size_t v = 0; v < vocab; ++v) d[v] = d[v] / sum / static_cast<double>(count);
        d[target] -= 1.0 / static_cast<double>(count);
    }
    result.loss = total / static_cast<double>(count);

    // Readout.
    const std::size_t readout_slot = model.layout.size() - 2;
    std::vector<double>& dx = w.dx;
    dx.assign(rows * hidden, 0.0);
    linear_backward(dlogits.data(), cache.output.data(), rows, hidden, params + model.layout[readout_slot].offset,
                    vocab, grads + model.layout[readout_slot].offset, grads + model.layout[readout_slot + 1].offset,
                    dx.data());

    // Blocks, last to first. dx holds the gradient of the block's output on the way in, of its input on
    // the way out.
    std::vector<double>&dq = w.dq, &dk = w.dk, &dv = w.dv, &dconcat = w.dconcat, &dattended = w.dattended;
    std::vector<double>&dy1 = w.dy1, &dact = w.dact, &scratch = w.scratch;
    for (auto* buffer : {&dq, &dk, &dv, &dconcat, &dattended}) buffer->resize(rows * hidden);
    dy1.resize(ffn > 0 ? rows * hidden : 0);
    dact.resize(rows * ffn);
    for (std::size_t blk = config.blocks; blk-- > 0;) {
        const BlockCache& c = cache.blocks[blk];
        const auto p = block_pointers<const double*, BlockParameters>(model.layout, config, blk, params);
        const auto g = block_pointers<double*, BlockGradients>(model.layout, config, blk, grads);
        if (ffn > 0) {
            // out = LN2(y1 + FFN(y1)): dz2 (in dx), then through both paths to dy1.
            layer_norm_backward(dx.data(), c.xhat2.data(), c.rstd2.data(), rows, hidden, p.ln2_gamma, g.ln2_gamma,
                                g.ln2_beta, dx.data(), scratch);
            dy1 = dx;
            std::fill(dact.begin(), dact.end(), 0.0);
            linear_backward(dx.data(), c.activation.data(), rows, ffn, p.w2, hidden, g.w2, g.b2, dact.data());
            for (std::size_t e = 0; e < rows * ffn; ++e)
                if (!(c.activation[e] > 0.0)) dact[e] = 0.0;
            linear_backward(dact.data(), c.y1.data(), rows, hidden, p.w1, ffn, g.w1, g.b1, dy1.data());
            // y1 = LN1(x + MHA(x)): dz1 flows to the residual (dx) and to the attention (dattended).
            layer_norm_backward(dy1.data(), c.xhat1.data(), c.rstd1.data(), rows, hidden, p.ln1_gamma, g.ln1_gamma,
                                g.ln1_beta, dx.data(), scratch);
            dattended = dx;
        } else {
            dattended.swap(dx);
            std::fill(dx.begin(), dx.end(), 0.0);
        }
        std::fill(dconcat.begin(), dconcat.end(), 0.0);
        linear_backward(dattended.data(), c.concat.data(), rows, hidden, p.wo, hidden, g.wo, nullptr, dconcat.data());
        attention_backward(config, batch, visible, c, dconcat.data(), dq.data(), dk.data(), dv.data(), scratch);
        linear_backward(dq.data(), c.input.data(), rows, hidden, p.wq, hidden, g.wq, nullptr, dx.data());
        linear_backward(dk.data(), c.input.data(), rows, hidden, p.wk, hidden, g.wk, nullptr, dx.data());
        linear_backward(dv.data(), c.input.data(), rows, hidden, p.wv, hidden, g.wv, nullptr, dx.data());
    }

    // Embedding: d embedding[token] += dx * scale.
    double* dembedding = grads + model.layout[0].offset;
    for (std::size_t r = 0; r < rows; ++r) {
        double* row = dembedding + static_cast<std::size_t>(tokens(r)) * hidden;
        axpy(row, config.embedding_scale, dx.data() + r * hidden, hidden);
    }
    return result;
}

Accuracy attention_model_accuracy(const AttentionModel& model, const xt::xtensor<int, 1>& tokens,
                                  const xt::xtensor<int, 1>& targets, const BatchOptions& options) {
    check_batch(model, tokens, &targets, options);
    const ModelConfig& config = model.config;
    const std::size_t n = config.length, vocab = config.vocab;
    WorkspaceLease lease;
    Workspace& w = *lease;
    visible_keys(config, options, w.visible);
    forward_pass(model, tokens.data(), options.batch, w.visible, w.cache);
    const ForwardCache& cache = w.cache;
    Accuracy result;
    std::size_t correct = 0;
    double total = 0.0, sum = 0.0;
    w.dlogits.resize(vocab);
    for (std::size_t r = 0; r < options.batch * n; ++r) {
        const std::size_t valid = options.valid_lens.size() ? static_cast<std::size_t>(options.valid_lens(r / n)) : n;
        if (r % n >= valid) continue;
        const double* l = cache.logits.data() + r * vocab;
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
