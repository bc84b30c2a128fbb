#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "contract/attention_checks.hpp"
#include "contract/errors.hpp"
#include "contract/pass_bound.hpp"
#include "training/softmax_cross_entropy.hpp"
#include "layers/workspace.hpp"
#include "contract/limits.hpp"
#include "architectures.hpp"

// What both architectures share: names, checks, the layout's dispatch, and
// d2l's masked softmax cross-entropy on top of either decoder's logits.

namespace attention {

using namespace seq2seq_detail;

namespace {

bool is_bahdanau(const Seq2SeqConfig& config) { return config.architecture == Seq2SeqArchitecture::bahdanau; }

void describe(const Seq2SeqConfig& config, LayoutBuilder& layout) {
    if (is_bahdanau(config))
        describe_bahdanau(config, layout);
    else
        describe_transformer(config, layout);
}

std::uint64_t forward_work(const Seq2SeqConfig& config, std::uint64_t batch) {
    return is_bahdanau(config) ? bahdanau_forward_work(config, batch) : transformer_forward_work(config, batch);
}

// The doubles one forward and backward pass keeps, an upper bound: per
// position of either side and layer a dozen rows of hidden (gates, states,
// their gradients) and the FFN's, the logits and their gradients, and the
// attention weights.
std::uint64_t activation_count(const Seq2SeqConfig& config, std::uint64_t batch) {
    const std::uint64_t s = config.source_length, t = config.target_length;
    const bool bahdanau = is_bahdanau(config);
    const std::uint64_t depth = bahdanau ? config.layers : config.blocks;
    const std::uint64_t heads = bahdanau ? 1 : config.heads;
    const std::uint64_t width = 12 * config.hidden + 2 * config.embed + (bahdanau ? 0 : 2 * config.ffn_hidden);
    return batch * ((s + t) * depth * width + 2 * t * config.target_vocab + depth * heads * (s * s + t * t + t * s));
}

}  // namespace

void check_seq2seq_pass(const Seq2SeqConfig& config, std::size_t items, std::string_view argument, std::size_t given,
                        std::string_view noun) {
    check_pass_bound(items, argument, given, noun, [&](std::uint64_t n) { return activation_count(config, n); },
                     [&](std::uint64_t n) { return 3 * forward_work(config, n); });
}

namespace {

void check_tokens(std::string_view name, const xt::xtensor<int, 1>& tokens, std::size_t vocab) {
    for (std::size_t e = 0; e < tokens.size(); ++e)
        if (tokens(e) < 0 || static_cast<std::size_t>(tokens(e)) >= vocab)
            fail(name, text("tokens in [0, ", vocab, ") (its vocabulary)"), tokens(e), e);
}

void check_lengths(std::string_view name, const xt::xtensor<int, 1>& lengths, std::size_t length,
                   std::string_view bound) {
    for (std::size_t b = 0; b < lengths.size(); ++b)
        if (lengths(b) < 1 || static_cast<std::size_t>(lengths(b)) > length)
            fail(name, text("lengths in [1, ", length, "] (", bound, ")"), lengths(b), b);
}

void check_model(const Seq2SeqModel& model) {
    check_seq2seq_config(model.config);
    LayoutBuilder counter;
    describe(model.config, counter);
    if (model.values.size() != counter.parameters() || model.layout.size() != counter.slots())
        fail("model", text("parameters laid out for its config (", counter.parameters(), " numbers)"),
             model.values.size());
}

// The sizes of a batch's arrays and the work and memory they ask, before any value is read.
void check_batch_sizes(const Seq2SeqConfig& config, std::size_t batch, std::size_t source, std::size_t source_lens) {
    require_count("batch", batch, 1, limits::max_model_batch);
    check_seq2seq_pass(config, batch, "batch", batch, "items");
    const std::size_t count = batch * config.source_length;
    if (source != count) fail("source", text("batch * sourceLength = ", count, " tokens"), source);
    if (source_lens != batch) fail("sourceLens", text("one length per item (batch = ", batch, ")"), source_lens);
}

void check_source(const Seq2SeqConfig& config, const xt::xtensor<int, 1>& source, const xt::xtensor<int, 1>& lens) {
    check_tokens("source", source, config.source_vocab);
    check_lengths("sourceLens", lens, config.source_length, "sourceLength");
}

}  // namespace

Seq2SeqArchitecture seq2seq_architecture_from_name(std::string_view name) {
    return seq2seq_architecture_names.from_name(name);
}

const char* seq2seq_architecture_name(Seq2SeqArchitecture architecture) {
    return seq2seq_architecture_names.name_of(architecture);
}

Seq2SeqScoring seq2seq_scoring(const Seq2SeqConfig& config) {
    if (config.scoring) return *config.scoring;
    return is_bahdanau(config) ? Seq2SeqScoring::additive : Seq2SeqScoring::dot;
}

template <>
const ParameterSlot& Seq2SeqModel::slot(std::string_view name) const {
    for (const auto& s : layout)
        if (s.name == name) return s;
    fail("name", "the name of one of the model's parameters", quoted(name));
}

CountRange seq2seq_config_range(Seq2SeqArchitecture architecture, std::string_view field) {
    // Three reserved tokens (<pad>, <bos>, <eos>) and at least one word.
    if (field == "sourceVocab" || field == "targetVocab") return {4, limits::max_vocab};
    if (field == "sourceLength" || field == "targetLength") return {1, limits::max_model_length};
    if (field == "hidden") return {1, limits::max_dimension};
    if (architecture == Seq2SeqArchitecture::bahdanau) {
        if (field == "embed") return {1, limits::max_dimension};
        if (field == "layers") return {1, limits::max_blocks};
    } else {
        if (field == "heads") return model_heads_range;
        if (field == "ffnHidden") return {1, limits::max_ffn_hidden};
        if (field == "blocks") return {1, limits::max_blocks};
    }
    return {0, largest_count};  // a field the architecture does not read
}

void check_seq2seq_config(const Seq2SeqConfig& config) {
    // Three reserved tokens (<pad>, <bos>, <eos>) and at least one word.
    const auto range = [&](std::string_view field) { return seq2seq_config_range(config.architecture, field); };
    require_count("sourceVocab", config.source_vocab, range("sourceVocab"));
    require_count("targetVocab", config.target_vocab, range("targetVocab"));
    require_count("sourceLength", config.source_length, range("sourceLength"));
    require_count("targetLength", config.target_length, range("targetLength"));
    require_count("hidden", config.hidden, range("hidden"));
    if (is_bahdanau(config)) {
        require_count("embed", config.embed, range("embed"));
        require_count("layers", config.layers, range("layers"));
        if (config.bidirectional && config.hidden % 2 != 0)
            fail("hidden", "an even size (a bidirectional encoder runs hidden / 2 units each way)", config.hidden);
    } else {
        check_model_heads(config.hidden, config.heads);
        if (config.cell != Seq2SeqCell::gru)
            fail("cell", "\"gru\" (the Transformer has no recurrent cell)", quoted(seq2seq_cell_names.name_of(config.cell)));
        require_count("ffnHidden", config.ffn_hidden, range("ffnHidden"));
        require_count("blocks", config.blocks, range("blocks"));
    }
    // Checked for both: a Bahdanau config keeps it, and a NaN there would make
    // a model that JSON cannot carry back in.
    require_range("embeddingScale", config.embedding_scale, 0.0, limits::max_embedding_scale);
    // Within the limits above the count fits 32 bits (at most a few hundred million).
    LayoutBuilder counter;
    describe(config, counter);
    if (counter.parameters() > limits::max_model_parameters)
        fail("hidden", text("a model of at most ", limits::max_model_parameters, " parameters (this one: ",
                            counter.parameters(), ")"),
             config.hidden);
}

std::vector<ParameterSlot> seq2seq_layout(const Seq2SeqConfig& config) {
    std::vector<ParameterSlot> layout;
    LayoutBuilder builder(&layout);
    describe(config, builder);
    return layout;
}

std::size_t seq2seq_parameter_count(const Seq2SeqConfig& config) {
    LayoutBuilder counter;
    describe(config, counter);
    return counter.parameters();
}

Seq2SeqModel init_seq2seq_model(const Seq2SeqConfig& config) {
    check_seq2seq_config(config);
    return initialised_model<Seq2SeqModel>(config, seq2seq_layout(config), seq2seq_parameter_count(config));
}

Seq2SeqModel seq2seq_model_from(const Seq2SeqConfig& config, const std::vector<NamedValues>& params) {
    check_seq2seq_config(config);
    return model_from_named<Seq2SeqModel>(config, seq2seq_layout(config), seq2seq_parameter_count(config), params);
}

void check_seq2seq_batch(const Seq2SeqModel& model, const Seq2SeqBatch& batch, bool with_targets) {
    check_model(model);
    const Seq2SeqConfig& config = model.config;
    check_batch_sizes(config, batch.batch, batch.source.size(), batch.source_lens.size());
    if (with_targets) {
        const std::size_t count = batch.batch * config.target_length;
        if (batch.target_in.size() != count)
            fail("targetIn", text("batch * targetLength = ", count, " tokens"), batch.target_in.size());
        if (batch.target_out.size() != count)
            fail("targetOut", text("batch * targetLength = ", count, " tokens"), batch.target_out.size());
        if (batch.target_lens.size() != batch.batch)
            fail("targetLens", text("one length per item (batch = ", batch.batch, ")"), batch.target_lens.size());
    }
    check_source(config, batch.source, batch.source_lens);
    if (with_targets) {
        check_tokens("targetIn", batch.target_in, config.target_vocab);
        check_tokens("targetOut", batch.target_out, config.target_vocab);
        check_lengths("targetLens", batch.target_lens, config.target_length, "targetLength");
    }
}

Seq2SeqForward seq2seq_forward(const Seq2SeqModel& model, const Seq2SeqBatch& batch) {
    check_seq2seq_batch(model, batch);
    const Seq2SeqConfig& config = model.config;
    std::vector<double> logits;
    Seq2SeqForward result;
    if (is_bahdanau(config))
        bahdanau_forward(model, batch, logits, &result);
    else
        transformer_forward(model, batch, logits, &result);
    result.logits = xt::xtensor<double, 3>::from_shape({batch.batch, config.target_length, config.target_vocab});
    std::copy(logits.begin(), logits.end(), result.logits.begin());
    return result;
}

namespace {

// The loss's buffers, kept between calls as the models keep theirs.
struct LossWorkspace {
    std::vector<double> logits, divisors, losses, dlogits;
    std::size_t doubles() const { return layers::capacity_of(logits, divisors, losses, dlogits); }
};
using LossLease = layers::WorkspaceLease<LossWorkspace>;

// The architecture's buffers kept from the forward pass to the backward pass that reads them.
class PassesHold {
public:
    explicit PassesHold(bool bahdanau) : bahdanau_(bahdanau) {
        bahdanau_ ? hold_bahdanau_workspace() : hold_transformer_workspace();
    }
    ~PassesHold() { bahdanau_ ? let_go_bahdanau_workspace() : let_go_transformer_workspace(); }
    PassesHold(const PassesHold&) = delete;
    PassesHold& operator=(const PassesHold&) = delete;

private:
    bool bahdanau_;
};

}  // namespace

namespace {

// The forward pass and d2l's MaskedSoftmaxCELoss summed over the batch: each
// valid token's cross-entropy divided by the number of steps (padding counts
// as 0 in the mean); the logits' gradient left in w.dlogits. Returns the sum
// and counts the valid tokens.
double forward_losses(const Seq2SeqModel& model, const Seq2SeqBatch& batch, LossWorkspace& w, std::size_t& valid) {
    const Seq2SeqConfig& config = model.config;
    const std::size_t steps = config.target_length, rows = batch.batch * steps, vocab = config.target_vocab;
    if (is_bahdanau(config))
        bahdanau_forward(model, batch, w.logits, nullptr);
    else
        transformer_forward(model, batch, w.logits, nullptr);
    valid = 0;
    w.divisors.resize(rows);
    for (std::size_t r = 0; r < rows; ++r) {
        const bool inside = r % steps < static_cast<std::size_t>(batch.target_lens(r / steps));
        w.divisors[r] = inside ? static_cast<double>(steps) : 0.0;
        valid += inside;
    }
    w.losses.resize(rows);
    w.dlogits.resize(rows * vocab);
    layers::softmax_cross_entropy(w.logits.data(), rows, vocab, batch.target_out.data(), w.divisors.data(),
                                  w.losses.data(), w.dlogits.data());
    double total = 0.0;
    for (std::size_t r = 0; r < rows; ++r)
        if (w.divisors[r] != 0.0) total += w.losses[r];
    return total;
}

}  // namespace

Seq2SeqLoss seq2seq_loss(const Seq2SeqModel& model, const Seq2SeqBatch& batch) {
    check_seq2seq_batch(model, batch);
    const Seq2SeqConfig& config = model.config;
    LossLease lease;
    LossWorkspace& w = *lease;
    const bool bahdanau = is_bahdanau(config);
    const PassesHold passes(bahdanau);
    std::size_t valid = 0;
    const double total = forward_losses(model, batch, w, valid);

    Seq2SeqLoss result;
    result.loss = total / static_cast<double>(config.target_length);
    result.token_loss = total / static_cast<double>(valid);
    result.gradients = xt::zeros<double>({model.values.size()});
    if (bahdanau)
        bahdanau_backward(model, batch, w.dlogits.data(), result.gradients.data());
    else
        transformer_backward(model, batch, w.dlogits.data(), result.gradients.data());
    return result;
}

double seq2seq_token_loss(const Seq2SeqModel& model, const Seq2SeqBatch& batch) {
    check_seq2seq_batch(model, batch);
    LossLease lease;
    std::size_t valid = 0;
    const double total = forward_losses(model, batch, *lease, valid);
    return total / static_cast<double>(valid);
}

Translation seq2seq_translate(const Seq2SeqModel& model, const xt::xtensor<int, 1>& source,
                              const xt::xtensor<int, 1>& source_lens, std::size_t batch, std::size_t max_length) {
    check_model(model);
    const Seq2SeqConfig& config = model.config;
    check_batch_sizes(config, batch, source.size(), source_lens.size());
    require_count("maxLength", max_length, 1, config.target_length);
    check_source(config, source, source_lens);
    return is_bahdanau(config) ? bahdanau_translate(model, source, source_lens, batch, max_length)
                               : transformer_translate(model, source, source_lens, batch, max_length);
}

void release_seq2seq_workspace() {
    LossLease::release();
    release_bahdanau_workspace();
    release_transformer_workspace();
}

}  // namespace attention
