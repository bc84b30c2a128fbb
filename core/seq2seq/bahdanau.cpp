// d2l 10.4's Bahdanau translator (model.hpp) composed from core/layers/:
// the encoder's embedding and GRU layers (gru_layer_*, one per layer and
// direction), the decoder's additive attention over the encoder's outputs,
// its GRU stepped one target position at a time (gru_step_*, since each
// step's input holds the attention context the previous step's state asked
// for), and the dense readout. With the LSTM cell (d2l 10.4, exercise 1)
// every GRU is an LSTM (lstm_layer_*, lstm_step_*) and the state carried is
// (h, c); the attention reads h. With dot scoring the attention is the
// models' scaled dot-product head (one head of width hidden, one query per
// item) over the encoder's outputs as keys and values. The embeddings enter
// only through the GRUs' input gates, which are projected once per word of
// each vocabulary and looked up per position (project_table).
//
// Layouts: the GRUs run time-major, row t * batch + b (item b at time t), as
// nn.GRU does; the attention's keys and values, the logits and the weights
// are batch-major, row b * length + t, as d2l's tensors are.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "layers/additive_attention.hpp"
#include "layers/gru.hpp"
#include "layers/lstm.hpp"
#include "layers/linear.hpp"
#include "layers/multi_head_attention.hpp"
#include "layers/workspace.hpp"
#include "numerics/matrix_products.hpp"
#include "seq2seq/architectures.hpp"

namespace attention::seq2seq_detail {

namespace {

using namespace layers;

// One recurrent layer's parameters, a GRU's or an LSTM's (the same four arrays).
struct RnnHandles {
    ParameterHandle weight_ih, weight_hh, bias_ih, bias_hh;
    GruWeights in(const double* params) const {
        return {weight_ih.in(params), weight_hh.in(params), bias_ih.in(params), bias_hh.in(params)};
    }
    GruGradients in(double* grads) const {
        return {weight_ih.in(grads), weight_hh.in(grads), bias_ih.in(grads), bias_hh.in(grads)};
    }
};

struct BahdanauHandles {
    bool additive = true;  // the scoring; dot product has no parameters
    ParameterHandle encoder_embedding;
    std::vector<RnnHandles> encoder_rnn;  // layer * directions + direction
    ParameterHandle w_k, w_q, w_v;        // additive scoring's
    ParameterHandle decoder_embedding;
    std::vector<RnnHandles> decoder_rnn;
    ParameterHandle dense, dense_bias;
};

// The sizes every pass uses.
struct Sizes {
    std::size_t batch, source, target;  // items, source and target positions
    std::size_t hidden, embed, layers;
    std::size_t directions, units;  // the encoder's: units per direction, hidden / directions
    std::size_t source_vocab, target_vocab;
    bool lstm;           // the cell: LSTM, or GRU
    std::size_t gates;   // gates a unit: the GRU's 3 (r, z, n), the LSTM's 4 (i, f, g, o)
    std::size_t cached;  // what a step caches a unit (gru_cached_gates, lstm_cached_gates)

    Sizes(const Seq2SeqConfig& c, std::size_t items)
        : batch(items), source(c.source_length), target(c.target_length), hidden(c.hidden), embed(c.embed),
          layers(c.layers), directions(c.bidirectional ? 2 : 1), units(c.hidden / (c.bidirectional ? 2 : 1)),
          source_vocab(c.source_vocab), target_vocab(c.target_vocab), lstm(c.cell == Seq2SeqCell::lstm),
          gates(lstm ? 4 : 3), cached(lstm ? lstm_cached_gates : gru_cached_gates) {}
    std::size_t encoder_in(std::size_t layer) const { return layer == 0 ? embed : hidden; }
    std::size_t decoder_in(std::size_t layer) const { return layer == 0 ? hidden + embed : hidden; }
};

// One layer of nn.GRU's or nn.LSTM's parameters (weight_ih_l<k><suffix> ...)
// with `units` hidden units over `in` inputs (an LSTM: four gates a unit, a GRU three).
RnnHandles describe_rnn(const LayoutBuilder& rnn, std::size_t layer, const char* suffix, std::size_t in,
                        std::size_t units, bool lstm) {
    // A GRU's weight matrices Xavier (d2l's xavier_init_weights), the rest PyTorch's own U(+-1/sqrt(units)):
    // d2l's initialisation leaves an nn.LSTM as PyTorch made it.
    const std::size_t rows = (lstm ? 4 : 3) * units;
    const auto weight = [&](std::size_t columns) { return lstm ? Init::linear(units) : Init::xavier(columns, rows); };
    RnnHandles g;
    g.weight_ih = rnn.under("weight_ih_l", layer, suffix).add("", {rows, in}, weight(in));
    g.weight_hh = rnn.under("weight_hh_l", layer, suffix).add("", {rows, units}, weight(units));
    g.bias_ih = rnn.under("bias_ih_l", layer, suffix).add("", {rows}, Init::linear(units));
    g.bias_hh = rnn.under("bias_hh_l", layer, suffix).add("", {rows}, Init::linear(units));
    return g;
}

void describe(const Seq2SeqConfig& config, LayoutBuilder& layout, BahdanauHandles& p) {
    const Sizes n(config, 1);
    const std::size_t h = n.hidden;
    p.encoder_rnn.clear();
    p.decoder_rnn.clear();
    LayoutBuilder encoder = layout.under("encoder.");
    p.encoder_embedding = encoder.add("embedding.weight", {n.source_vocab, n.embed}, Init::normal());
    const LayoutBuilder encoder_rnn = encoder.under("rnn.");
    for (std::size_t l = 0; l < n.layers; ++l)
        for (std::size_t d = 0; d < n.directions; ++d)
            p.encoder_rnn.push_back(describe_rnn(encoder_rnn, l, d ? "_reverse" : "", n.encoder_in(l), n.units, n.lstm));
    LayoutBuilder decoder = layout.under("decoder.");
    p.additive = seq2seq_scoring(config) == Seq2SeqScoring::additive;
    if (p.additive) {
        p.w_k = decoder.add("attention.W_k.weight", {h, h}, Init::xavier(h, h));
        p.w_q = decoder.add("attention.W_q.weight", {h, h}, Init::xavier(h, h));
        p.w_v = decoder.add("attention.w_v.weight", {1, h}, Init::xavier(h, 1));
    }
    p.decoder_embedding = decoder.add("embedding.weight", {n.target_vocab, n.embed}, Init::normal());
    const LayoutBuilder decoder_rnn = decoder.under("rnn.");
    for (std::size_t l = 0; l < n.layers; ++l)
        p.decoder_rnn.push_back(describe_rnn(decoder_rnn, l, "", n.decoder_in(l), h, n.lstm));
    p.dense = decoder.add("dense.weight", {n.target_vocab, h}, Init::xavier(h, n.target_vocab));
    p.dense_bias = decoder.add("dense.bias", {n.target_vocab}, Init::linear(h));
}

// The buffers of the passes (layers/workspace.hpp). "tm": time-major rows, "bm": batch-major.
struct BahdanauWorkspace {
    BahdanauHandles handles;
    std::size_t forward_batch = 0;  // the batch the caches below hold the forward pass of (0: none)
    // Encoder
    std::vector<int> source_tm, target_tm;
    std::vector<double> zeros;                  // batch x units: every encoder layer's h0 (and c0)
    std::vector<std::vector<double>> inputs;    // per layer above the first: source * batch rows of its input
    std::vector<std::vector<double>> outputs;   // per layer and direction: source * batch x units
    std::vector<GruLayerCache> encoder_caches;  // per layer and direction (GRU)
    std::vector<LstmLayerCache> lstm_caches;    // per layer and direction (LSTM)
    std::vector<double> memory;                 // batch * source x hidden: the encoder's last outputs, bm
    // Decoder
    std::vector<double> projected_keys;              // batch * source x hidden
    std::vector<std::vector<double>> initial;        // per layer: batch x hidden, the encoder's final states
    std::vector<std::vector<double>> states;         // per layer: target * batch x hidden, after each step (tm)
    std::vector<std::vector<double>> initial_cells;  // the LSTM's c beside initial and states
    std::vector<std::vector<double>> cells;
    std::vector<std::vector<double>> gates;          // per layer: target * batch x cached * hidden
    std::vector<std::vector<double>> ih_transposed;  // per layer: W_ih^T
    std::vector<std::vector<double>> hh_transposed;  // per layer: W_hh^T
    std::vector<double> table_gates, dtable_gates;   // vocab x gates * hidden: an embedding table's input gates
    std::vector<double> input_gates;                 // target * batch x gates * hidden: layer 0's, context included
    std::vector<double> layer_gates;                 // batch x gates * hidden: a higher layer's step
    std::vector<double> hidden_gates;                // batch x gates * hidden, scratch
    std::vector<double> contexts;                    // target * batch x hidden (tm)
    std::vector<AdditiveCache> attention;            // per target step (dot scoring: its weights only)
    std::vector<std::size_t> visible;                // dot scoring: per item, the source positions it sees
    std::vector<double> dot_scratch;                 // dot scoring: a head's K^T, V^T and score gradients
    std::vector<double> top_bm;                      // batch * target x hidden: the last layer's states, bm
    std::vector<double> transposed;
    std::vector<const double*> before, before_c;  // per layer: a step's state (and cell) before, after, and its gates
    std::vector<double*> after, after_c, step_gates;
    // Backward
    std::vector<double> dtop_bm, dcontexts, dquery, dprojected_keys, dmemory, dh_next, dinput,
        dconcat;
    // d_input_gates: the LSTM's gates' gradient (one for both halves), d_hidden_gates the GRU's other half.
    std::vector<std::vector<double>> dstates, carry, carry_c, d_input_gates, d_hidden_gates, dfinal, dfinal_c;
    std::vector<double> doutputs;
    std::vector<double> dkeys_step, dvalues_step;  // dot scoring: one step's share of dmemory
    AdditiveScratch attention_scratch;
    // Greedy decoding
    std::vector<int> tokens, finished;  // each item's last token, and whether it was <eos>
    std::vector<double> step_logits;

    std::size_t doubles() const {
        std::size_t total = capacity_of(zeros, memory, projected_keys, table_gates, dtable_gates, input_gates, layer_gates,
                                        hidden_gates, contexts, top_bm, transposed) +
                            capacity_of(dtop_bm, dcontexts, dquery, dprojected_keys, dmemory, dh_next,
                                        dinput, dconcat, doutputs, step_logits) +
                            capacity_of(dot_scratch, dkeys_step, dvalues_step) +
                            visible.capacity() * sizeof(std::size_t) / sizeof(double) +
                            capacity_of(attention_scratch.dprojected_queries, attention_scratch.dweights);
        for (const auto* group : {&inputs, &outputs, &initial, &states, &initial_cells, &cells, &gates, &ih_transposed,
                                  &hh_transposed, &dstates, &carry, &carry_c, &d_input_gates, &d_hidden_gates, &dfinal,
                                  &dfinal_c})
            for (const auto& v : *group) total += v.capacity();
        for (const auto& c : encoder_caches) total += c.doubles();
        for (const auto& c : lstm_caches) total += c.doubles();
        for (const auto& a : attention) total += capacity_of(a.projected_queries, a.features, a.weights);
        return total;
    }
};
using BahdanauLease = WorkspaceLease<BahdanauWorkspace>;

const BahdanauHandles& handles_of(const Seq2SeqConfig& config, BahdanauWorkspace& w) {
    LayoutBuilder layout;
    describe(config, layout, w.handles);
    return w.handles;
}

// rows x cols batch-major (row b * length + t) <-> time-major (row t * batch + b).
void to_time_major(const double* bm, std::size_t batch, std::size_t length, std::size_t cols, double* tm) {
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t t = 0; t < length; ++t)
            std::copy_n(bm + (b * length + t) * cols, cols, tm + (t * batch + b) * cols);
}
void to_batch_major(const double* tm, std::size_t batch, std::size_t length, std::size_t cols, double* bm) {
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t t = 0; t < length; ++t)
            std::copy_n(tm + (t * batch + b) * cols, cols, bm + (b * length + t) * cols);
}
void tokens_time_major(const int* bm, std::size_t batch, std::size_t length, std::vector<int>& tm) {
    tm.resize(batch * length);
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t t = 0; t < length; ++t) tm[t * batch + b] = bm[b * length + t];
}

// An embedding followed by a projection (a GRU's input gates), computed per
// word of the vocabulary rather than per position: d2l's vocabularies are far
// smaller than a batch's positions (34 source words against 64 x 8
// positions), so this is an eighth of the work or less, and a lookup.
// table_gates (vocab x width) = bias + table projection_t, projection_t the
// transposed weight's block of the embedding's columns (embed x width).
void project_table(std::size_t vocab, std::size_t embed, std::size_t width, const double* table,
                   const double* projection_t, const double* bias, std::vector<double>& table_gates) {
    table_gates.resize(vocab * width);
    for (std::size_t v = 0; v < vocab; ++v) std::copy_n(bias, width, table_gates.data() + v * width);
    matrix::multiply_add({table, embed, 1}, projection_t, width, table_gates.data(), width, vocab, width, embed);
}
void gather_rows(std::size_t rows, const int* tokens, std::size_t width, const std::vector<double>& table_gates,
                 double* gates) {
    for (std::size_t r = 0; r < rows; ++r)
        std::copy_n(table_gates.data() + static_cast<std::size_t>(tokens[r]) * width, width, gates + r * width);
}
// Given dgates (rows x width): the gradients summed per word first, then
// dweight (the embedding's columns of a width x ld weight, from dweight's
// first) += their transpose times the table, dbias += their column sums,
// dtable += them times weight's columns.
void project_table_backward(std::size_t rows, const int* tokens, std::size_t vocab, std::size_t embed,
                            std::size_t width, const double* table, const double* weight, std::size_t ld,
                            const double* dgates, std::vector<double>& dtable_gates, double* dweight,
                            double* dbias, double* dtable) {
    dtable_gates.assign(vocab * width, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        double* sum = dtable_gates.data() + static_cast<std::size_t>(tokens[r]) * width;
        const double* d = dgates + r * width;
        for (std::size_t c = 0; c < width; ++c) sum[c] += d[c];
    }
    for (std::size_t v = 0; v < vocab; ++v)
        for (std::size_t c = 0; c < width; ++c) dbias[c] += dtable_gates[v * width + c];
    matrix::multiply_add({dtable_gates.data(), 1, width}, table, embed, dweight, ld, width, embed, vocab);
    matrix::multiply_add({dtable_gates.data(), width, 1}, weight, ld, dtable, embed, vocab, embed, width);
}

GruLayerShape encoder_shape(const Sizes& n, std::size_t layer, std::size_t direction) {
    return {n.source, n.batch, n.encoder_in(layer), n.units, direction == 1};
}

// The encoder over every source position (padding included, as d2l runs
// it): the memory the attention reads (batch-major) and each decoder layer's
// initial state, [forward final, backward final].
void encoder_forward(const Seq2SeqModel& model, const Sizes& n, const int* source, BahdanauWorkspace& w) {
    const BahdanauHandles& p = w.handles;
    const double* params = model.values.data();
    const std::size_t rows = n.source * n.batch, k_count = n.layers * n.directions;
    tokens_time_major(source, n.batch, n.source, w.source_tm);
    w.zeros.assign(n.batch * n.units, 0.0);
    w.inputs.resize(n.layers + 1);
    w.outputs.resize(k_count);
    w.encoder_caches.resize(n.lstm ? 0 : k_count);
    w.lstm_caches.resize(n.lstm ? k_count : 0);
    w.initial.resize(n.layers);
    w.initial_cells.resize(n.lstm ? n.layers : 0);
    const std::size_t width = n.gates * n.units;
    // A final state's direction d into columns d * units onwards of the decoder's initial state.
    const auto join = [&](const double* final, std::vector<double>& into, std::size_t d) {
        for (std::size_t b = 0; b < n.batch; ++b)
            std::copy_n(final + b * n.units, n.units, into.data() + b * n.hidden + d * n.units);
    };
    for (std::size_t l = 0; l < n.layers; ++l) {
        std::vector<double>& next = w.inputs[l + 1];  // the layer's outputs, [forward, backward] per row
        next.resize(rows * n.hidden);
        w.initial[l].resize(n.batch * n.hidden);
        if (n.lstm) w.initial_cells[l].resize(n.batch * n.hidden);
        for (std::size_t d = 0; d < n.directions; ++d) {
            const std::size_t k = l * n.directions + d;
            const GruLayerShape shape = encoder_shape(n, l, d);
            w.outputs[k].resize(rows * n.units);
            const GruWeights weights = p.encoder_rnn[k].in(params);
            std::vector<double>& input_gates = n.lstm ? w.lstm_caches[k].input_gates : w.encoder_caches[k].input_gates;
            if (l == 0) {
                // The embeddings' input gates, looked up per token.
                transpose_weight({0, n.embed, width}, weights.weight_ih, w.transposed);
                project_table(n.source_vocab, n.embed, width, p.encoder_embedding.in(params), w.transposed.data(),
                              weights.bias_ih, w.table_gates);
                input_gates.resize(rows * width);
                gather_rows(rows, w.source_tm.data(), width, w.table_gates, input_gates.data());
            } else {
                input_gates.resize(rows * width);
                linear_forward({rows, n.hidden, width}, w.inputs[l].data(), weights.weight_ih, weights.bias_ih,
                               input_gates.data(), w.transposed);
            }
            const double* zeros = w.zeros.data();
            if (n.lstm)
                lstm_layer_forward_from_gates(shape, zeros, zeros, weights, w.lstm_caches[k], w.outputs[k].data());
            else
                gru_layer_forward_from_gates(shape, zeros, weights, w.encoder_caches[k], w.outputs[k].data());
            for (std::size_t r = 0; r < rows; ++r)
                std::copy_n(w.outputs[k].data() + r * n.units, n.units, next.data() + r * n.hidden + d * n.units);
            const std::size_t final_rows = gru_final_time(shape) * n.batch * n.units;
            join(w.outputs[k].data() + final_rows, w.initial[l], d);
            if (n.lstm) join(w.lstm_caches[k].cells.data() + final_rows, w.initial_cells[l], d);
        }
    }
    w.memory.resize(rows * n.hidden);
    to_batch_major(w.inputs[n.layers].data(), n.batch, n.source, n.hidden, w.memory.data());
}

AdditiveShape attention_shape(const Sizes& n) {
    return {n.batch, 1, n.source, n.hidden, n.hidden, n.hidden, n.hidden};
}
// Dot scoring: one head as wide as the query, one query per item.
AttentionShape dot_shape(const Sizes& n) { return {n.batch, 1, n.source, n.hidden, 1}; }

// What every decoder pass prepares once: the keys' projection and the GRUs' transposed weights.
void decoder_prepare(const Seq2SeqModel& model, const Sizes& n, const int* source_lens, BahdanauWorkspace& w) {
    const BahdanauHandles& p = w.handles;
    const double* params = model.values.data();
    if (p.additive) {
        w.projected_keys.resize(n.batch * n.source * n.hidden);
        additive_keys_forward(attention_shape(n), w.memory.data(), p.w_k.in(params), w.projected_keys.data(),
                              w.transposed);
    } else {
        visible_keys(dot_shape(n), source_lens, false, w.visible);
    }
    const std::size_t width = n.gates * n.hidden;
    w.ih_transposed.resize(n.layers);
    w.hh_transposed.resize(n.layers);
    for (std::size_t l = 0; l < n.layers; ++l) {
        transpose_weight({0, n.decoder_in(l), width}, p.decoder_rnn[l].weight_ih.in(params), w.ih_transposed[l]);
        transpose_weight({0, n.hidden, width}, p.decoder_rnn[l].weight_hh.in(params), w.hh_transposed[l]);
    }
    w.layer_gates.resize(n.batch * width);
    w.hidden_gates.resize(n.batch * width);
}

// A step's states of every layer: h before and after (and the LSTM's c), and the gates it caches.
struct StepStates {
    const double* const* before;
    double* const* after;
    const double* const* before_c;  // LSTM only
    double* const* after_c;
    double* const* gates;
};

// One decoder step: the context for `query` (the last layer's state before
// the step) into `context`, added to layer 0's input gates (which hold the
// embedding's share), then every layer's update from `before` to `after`.
void decoder_step(const Seq2SeqModel& model, const Sizes& n, const int* source_lens, BahdanauWorkspace& w,
                  const StepStates& states, double* input_gates, double* context, AdditiveCache& attention) {
    const BahdanauHandles& p = w.handles;
    const double* params = model.values.data();
    const std::size_t width = n.gates * n.hidden;
    const double* const* before = states.before;
    double* const* after = states.after;
    if (p.additive) {
        additive_attention_forward(attention_shape(n), before[n.layers - 1], w.projected_keys.data(),
                                   w.memory.data(), source_lens, p.w_q.in(params), p.w_v.in(params), attention,
                                   context, w.transposed);
    } else {
        attention.weights.resize(n.batch * n.source);
        scaled_dot_product_forward(dot_shape(n), before[n.layers - 1], w.memory.data(), w.memory.data(),
                                   w.visible.data(), attention.weights.data(), context, w.dot_scratch);
    }
    // d2l's GRU input is [context, embedding]: the context's rows of W_ih0^T come first.
    matrix::multiply_add({context, n.hidden, 1}, w.ih_transposed[0].data(), width, input_gates, width, n.batch,
                         width, n.hidden);
    for (std::size_t l = 0; l < n.layers; ++l) {
        const double* gi = input_gates;
        if (l > 0) {
            const double* bias = p.decoder_rnn[l].bias_ih.in(params);
            for (std::size_t b = 0; b < n.batch; ++b) std::copy_n(bias, width, w.layer_gates.data() + b * width);
            matrix::multiply_add({after[l - 1], n.hidden, 1}, w.ih_transposed[l].data(), width, w.layer_gates.data(),
                                 width, n.batch, width, n.hidden);
            gi = w.layer_gates.data();
        }
        if (n.lstm)
            lstm_step_forward({n.batch, n.hidden}, gi, before[l], states.before_c[l], w.hh_transposed[l].data(),
                              p.decoder_rnn[l].bias_hh.in(params), after[l], states.after_c[l], states.gates[l],
                              w.hidden_gates.data());
        else
            gru_step_forward({n.batch, n.hidden}, gi, before[l], w.hh_transposed[l].data(),
                             p.decoder_rnn[l].bias_hh.in(params), after[l], states.gates[l], w.hidden_gates.data());
    }
}

// Points `w.before` ... at step t's states: the encoder's final ones at t = 0, then the previous step's.
StepStates step_states(const Sizes& n, BahdanauWorkspace& w, std::size_t t) {
    const std::size_t block = n.batch * n.hidden;
    w.before.resize(n.layers);
    w.after.resize(n.layers);
    w.before_c.resize(n.layers);
    w.after_c.resize(n.layers);
    w.step_gates.resize(n.layers);
    for (std::size_t l = 0; l < n.layers; ++l) {
        w.before[l] = t == 0 ? w.initial[l].data() : w.states[l].data() + (t - 1) * block;
        w.after[l] = w.states[l].data() + t * block;
        if (n.lstm) {
            w.before_c[l] = t == 0 ? w.initial_cells[l].data() : w.cells[l].data() + (t - 1) * block;
            w.after_c[l] = w.cells[l].data() + t * block;
        }
        w.step_gates[l] = w.gates[l].data() + t * n.batch * n.cached * n.hidden;
    }
    return {w.before.data(), w.after.data(), w.before_c.data(), w.after_c.data(), w.step_gates.data()};
}

void forward_pass(const Seq2SeqModel& model, const Seq2SeqBatch& batch, BahdanauWorkspace& w) {
    const Sizes n(model.config, batch.batch);
    handles_of(model.config, w);
    const double* params = model.values.data();
    encoder_forward(model, n, batch.source.data(), w);
    decoder_prepare(model, n, batch.source_lens.data(), w);
    const std::size_t rows = n.target * n.batch, block = n.batch * n.hidden, width = n.gates * n.hidden;
    tokens_time_major(batch.target_in.data(), n.batch, n.target, w.target_tm);
    // Layer 0's input gates: the embeddings' share for every step at once (per token), the contexts' added by the steps.
    project_table(n.target_vocab, n.embed, width, w.handles.decoder_embedding.in(params),
                  w.ih_transposed[0].data() + n.hidden * width, w.handles.decoder_rnn[0].bias_ih.in(params),
                  w.table_gates);
    w.input_gates.resize(rows * width);
    gather_rows(rows, w.target_tm.data(), width, w.table_gates, w.input_gates.data());
    w.states.resize(n.layers);
    w.cells.resize(n.lstm ? n.layers : 0);
    w.gates.resize(n.layers);
    for (std::size_t l = 0; l < n.layers; ++l) {
        w.states[l].resize(rows * n.hidden);
        if (n.lstm) w.cells[l].resize(rows * n.hidden);
        w.gates[l].resize(rows * n.cached * n.hidden);
    }
    w.contexts.resize(rows * n.hidden);
    w.attention.resize(n.target);
    for (std::size_t t = 0; t < n.target; ++t)
        decoder_step(model, n, batch.source_lens.data(), w, step_states(n, w, t),
                     w.input_gates.data() + t * n.batch * width, w.contexts.data() + t * block, w.attention[t]);
    w.top_bm.resize(rows * n.hidden);
    to_batch_major(w.states[n.layers - 1].data(), n.batch, n.target, n.hidden, w.top_bm.data());
    w.forward_batch = n.batch;
}

void backward_pass(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const double* dlogits,
                   BahdanauWorkspace& w, double* grads) {
    const Sizes n(model.config, batch.batch);
    const BahdanauHandles& p = w.handles;
    const double* params = model.values.data();
    const std::size_t rows = n.target * n.batch, block = n.batch * n.hidden, width = n.gates * n.hidden;
    const std::size_t top = n.layers - 1;
    const AdditiveShape shape = attention_shape(n);

    // The readout, over every position at once.
    w.dtop_bm.assign(rows * n.hidden, 0.0);
    linear_backward({rows, n.hidden, n.target_vocab}, dlogits, w.top_bm.data(), p.dense.in(params),
                    p.dense.in(grads), p.dense_bias.in(grads), w.dtop_bm.data());
    w.dstates.resize(n.layers);
    w.carry.resize(n.layers);
    w.carry_c.resize(n.lstm ? n.layers : 0);
    w.d_input_gates.resize(n.layers);
    w.d_hidden_gates.resize(n.lstm ? 0 : n.layers);
    for (std::size_t l = 0; l < n.layers; ++l) {
        w.dstates[l].assign(rows * n.hidden, 0.0);
        w.carry[l].assign(block, 0.0);
        if (n.lstm) w.carry_c[l].assign(block, 0.0);  // c's gradient, carried back from step to step
        w.d_input_gates[l].resize(rows * width);
        if (!n.lstm) w.d_hidden_gates[l].resize(rows * width);
    }
    to_time_major(w.dtop_bm.data(), n.batch, n.target, n.hidden, w.dstates[top].data());
    w.dcontexts.resize(rows * n.hidden);
    w.dquery.resize(block);
    w.dh_next.resize(block);
    if (p.additive) w.dprojected_keys.assign(n.batch * n.source * n.hidden, 0.0);
    w.dmemory.assign(n.batch * n.source * n.hidden, 0.0);
    if (!p.additive) {
        w.dkeys_step.resize(w.dmemory.size());
        w.dvalues_step.resize(w.dmemory.size());
    }

    // Back through the target steps: each step's layers from the top, then its attention.
    for (std::size_t t = n.target; t-- > 0;) {
        for (std::size_t l = n.layers; l-- > 0;) {
            const double* dstate = w.dstates[l].data() + t * block;
            for (std::size_t e = 0; e < block; ++e) w.dh_next[e] = dstate[e] + w.carry[l][e];
            std::fill(w.carry[l].begin(), w.carry[l].end(), 0.0);
            double* dgi = w.d_input_gates[l].data() + t * n.batch * width;
            const double* step_gates = w.gates[l].data() + t * n.batch * n.cached * n.hidden;
            if (n.lstm) {
                const double* before_c = t == 0 ? w.initial_cells[l].data() : w.cells[l].data() + (t - 1) * block;
                lstm_step_backward({n.batch, n.hidden}, step_gates, before_c, w.dh_next.data(), w.carry_c[l].data(),
                                   p.decoder_rnn[l].weight_hh.in(params), dgi, w.carry[l].data(),
                                   w.carry_c[l].data());
            } else {
                const double* before = t == 0 ? w.initial[l].data() : w.states[l].data() + (t - 1) * block;
                gru_step_backward({n.batch, n.hidden}, step_gates, before, w.dh_next.data(),
                                  p.decoder_rnn[l].weight_hh.in(params), dgi,
                                  w.d_hidden_gates[l].data() + t * n.batch * width, w.carry[l].data());
            }
            // The input's gradient: the layer below's state, or for layer 0 the context (its first columns of W_ih).
            const double* weight_ih = p.decoder_rnn[l].weight_ih.in(params);
            double* dinput = l > 0 ? w.dstates[l - 1].data() + t * block : w.dcontexts.data() + t * block;
            if (l == 0) std::fill(dinput, dinput + block, 0.0);
            matrix::multiply_add({dgi, width, 1}, weight_ih, n.decoder_in(l), dinput, n.hidden, n.batch, n.hidden,
                                 width);
        }
        const double* query = t == 0 ? w.initial[top].data() : w.states[top].data() + (t - 1) * block;
        if (p.additive) {
            std::fill(w.dquery.begin(), w.dquery.end(), 0.0);
            additive_attention_backward(shape, query, w.memory.data(), p.w_q.in(params), p.w_v.in(params),
                                        w.attention[t], w.dcontexts.data() + t * block, p.w_q.in(grads),
                                        p.w_v.in(grads), w.dquery.data(), w.dprojected_keys.data(),
                                        w.dmemory.data(), w.attention_scratch);
        } else {
            // The encoder's outputs are the keys and the values: both gradients add to dmemory.
            scaled_dot_product_backward(dot_shape(n), query, w.memory.data(), w.memory.data(), w.visible.data(),
                                        w.attention[t].weights.data(), w.dcontexts.data() + t * block,
                                        w.dquery.data(), w.dkeys_step.data(), w.dvalues_step.data(),
                                        w.dot_scratch);
            for (std::size_t e = 0; e < w.dmemory.size(); ++e) w.dmemory[e] += w.dkeys_step[e] + w.dvalues_step[e];
        }
        double* dbefore = t == 0 ? w.carry[top].data() : w.dstates[top].data() + (t - 1) * block;
        for (std::size_t e = 0; e < block; ++e) dbefore[e] += w.dquery[e];
    }

    // The decoder GRUs' weights, summed over every step at once.
    for (std::size_t l = 0; l < n.layers; ++l) {
        const GruGradients g = p.decoder_rnn[l].in(grads);
        const double* dgi = w.d_input_gates[l].data();
        const double* dgh = n.lstm ? dgi : w.d_hidden_gates[l].data();  // an LSTM's two halves share one
        if (l == 0) {
            // W_ih0's columns: the contexts', then the embeddings'.
            const std::size_t in = n.decoder_in(0);
            matrix::multiply_add({dgi, 1, width}, w.contexts.data(), n.hidden, g.weight_ih, in, width, n.hidden, rows);
            project_table_backward(rows, w.target_tm.data(), n.target_vocab, n.embed, width,
                                   p.decoder_embedding.in(params), p.decoder_rnn[0].weight_ih.in(params) + n.hidden,
                                   in, dgi, w.dtable_gates, g.weight_ih + n.hidden, g.bias_ih,
                                   p.decoder_embedding.in(grads));
        } else {
            linear_backward({rows, n.hidden, width}, dgi, w.states[l - 1].data(), p.decoder_rnn[l].weight_ih.in(params),
                            g.weight_ih, g.bias_ih, nullptr);
        }
        // W_hh met the initial state at step 0 and the states after steps 0 .. target - 2 later.
        linear_backward({n.batch, n.hidden, width}, dgh, w.initial[l].data(), nullptr, g.weight_hh, g.bias_hh,
                        nullptr);
        if (n.target > 1)
            linear_backward({rows - n.batch, n.hidden, width}, dgh + n.batch * width, w.states[l].data(), nullptr,
                            g.weight_hh, g.bias_hh, nullptr);
    }
    // The keys (the encoder's outputs) reach the loss as keys and as values.
    if (p.additive)
        additive_keys_backward(shape, w.memory.data(), p.w_k.in(params), w.dprojected_keys.data(), p.w_k.in(grads),
                               w.dmemory.data());

    // The encoder, from the top layer: its outputs' gradient (time-major), and
    // each layer's final states through the decoder's initial state.
    const std::size_t source_rows = n.source * n.batch;
    w.dconcat.resize(source_rows * n.hidden);
    to_time_major(w.dmemory.data(), n.batch, n.source, n.hidden, w.dconcat.data());
    w.doutputs.resize(source_rows * n.units);
    w.dfinal.resize(n.directions);
    w.dfinal_c.resize(n.lstm ? n.directions : 0);
    const std::size_t width_units = n.gates * n.units;
    // Direction d's columns of a decoder initial state's gradient.
    const auto split = [&](const std::vector<double>& from, std::vector<double>& into, std::size_t d) {
        into.resize(n.batch * n.units);
        for (std::size_t b = 0; b < n.batch; ++b)
            std::copy_n(from.data() + b * n.hidden + d * n.units, n.units, into.data() + b * n.units);
    };
    for (std::size_t l = n.layers; l-- > 0;) {
        if (l > 0) w.dinput.assign(source_rows * n.hidden, 0.0);
        for (std::size_t d = 0; d < n.directions; ++d) {
            const std::size_t k = l * n.directions + d;
            for (std::size_t r = 0; r < source_rows; ++r)
                std::copy_n(w.dconcat.data() + r * n.hidden + d * n.units, n.units, w.doutputs.data() + r * n.units);
            split(w.carry[l], w.dfinal[d], d);
            if (n.lstm) split(w.carry_c[l], w.dfinal_c[d], d);
            const GruWeights weights = p.encoder_rnn[k].in(params);
            const GruGradients g = p.encoder_rnn[k].in(grads);
            const GruLayerShape layer = encoder_shape(n, l, d);
            const double* zeros = w.zeros.data();
            // Back to the layer's input gates, then through W_ih: to the layer below, or the embeddings per token.
            std::vector<double>* d_input_gates = nullptr;
            if (n.lstm) {
                lstm_layer_backward_to_gates(layer, zeros, zeros, weights, w.lstm_caches[k], w.outputs[k].data(),
                                             w.doutputs.data(), w.dfinal[d].data(), w.dfinal_c[d].data(), g, nullptr,
                                             nullptr);
                d_input_gates = &w.lstm_caches[k].d_gates;
            } else {
                gru_layer_backward_to_gates(layer, zeros, weights, w.encoder_caches[k], w.outputs[k].data(),
                                            w.doutputs.data(), w.dfinal[d].data(), g, nullptr);
                d_input_gates = &w.encoder_caches[k].d_input_gates;
            }
            if (l > 0) {
                linear_backward({source_rows, n.hidden, width_units}, d_input_gates->data(), w.inputs[l].data(),
                                weights.weight_ih, g.weight_ih, g.bias_ih, w.dinput.data());
                continue;
            }
            project_table_backward(source_rows, w.source_tm.data(), n.source_vocab, n.embed, width_units,
                                   p.encoder_embedding.in(params), weights.weight_ih, n.embed, d_input_gates->data(),
                                   w.dtable_gates, g.weight_ih, g.bias_ih, p.encoder_embedding.in(grads));
        }
        if (l > 0) w.dconcat.swap(w.dinput);
    }
}

}  // namespace

void describe_bahdanau(const Seq2SeqConfig& config, LayoutBuilder& layout) {
    BahdanauHandles handles;
    describe(config, layout, handles);
}

void bahdanau_forward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::vector<double>& logits,
                      Seq2SeqForward* weights) {
    BahdanauLease lease;
    BahdanauWorkspace& w = *lease;
    forward_pass(model, batch, w);
    const Sizes n(model.config, batch.batch);
    const double* params = model.values.data();
    logits.resize(n.batch * n.target * n.target_vocab);
    linear_forward({n.batch * n.target, n.hidden, n.target_vocab}, w.top_bm.data(), w.handles.dense.in(params),
                   w.handles.dense_bias.in(params), logits.data(), w.transposed);
    if (!weights) return;
    weights->cross_weights = xt::xtensor<double, 5>::from_shape({1, n.batch, 1, n.target, n.source});
    for (std::size_t t = 0; t < n.target; ++t)
        for (std::size_t b = 0; b < n.batch; ++b)
            std::copy_n(w.attention[t].weights.data() + b * n.source, n.source,
                        weights->cross_weights.data() + (b * n.target + t) * n.source);
    weights->self_weights = xt::xtensor<double, 5>::from_shape({0, n.batch, 1, n.target, n.target});
    weights->encoder_weights = xt::xtensor<double, 5>::from_shape({0, n.batch, 1, n.source, n.source});
}

ItemInputs bahdanau_attention_inputs(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::size_t item) {
    BahdanauLease lease;
    BahdanauWorkspace& w = *lease;
    forward_pass(model, batch, w);
    const Sizes n(model.config, batch.batch);
    const double* params = model.values.data();
    const std::size_t h = n.hidden, top = n.layers - 1;
    // Step t's query: the last layer's state before it (the encoder's final state at t = 0); time-major.
    std::vector<double> queries(n.target * h), outputs(n.target * h), weights(n.target * n.source);
    for (std::size_t t = 0; t < n.target; ++t) {
        const double* state = t == 0 ? w.initial[top].data() : w.states[top].data() + (t - 1) * n.batch * h;
        std::copy_n(state + item * h, h, queries.data() + t * h);
        std::copy_n(w.contexts.data() + (t * n.batch + item) * h, h, outputs.data() + t * h);
        std::copy_n(w.attention[t].weights.data() + item * n.source, n.source, weights.data() + t * n.source);
    }
    std::vector<double> keys(w.memory.begin() + static_cast<std::ptrdiff_t>(item * n.source * h),
                             w.memory.begin() + static_cast<std::ptrdiff_t>((item + 1) * n.source * h));
    const auto valid_length = static_cast<std::size_t>(batch.source_lens(item));
    if (!w.handles.additive) {
        DotProductItemInputs in;
        in.queries = n.target;
        in.keys = n.source;
        in.hidden = h;
        in.q = std::move(queries);
        in.v = keys;
        in.k = std::move(keys);
        in.visible.assign(n.target, valid_length);
        in.valid_length = valid_length;
        in.weights = std::move(weights);
        in.outputs = std::move(outputs);
        return in;
    }
    AdditiveItemInputs in;
    in.queries = n.target;
    in.keys = n.source;
    in.query_size = in.key_size = in.hidden = h;
    in.query_rows = std::move(queries);
    in.key_rows = std::move(keys);
    in.outputs = std::move(outputs);
    in.weights = std::move(weights);
    const auto copy = [](const double* from, std::size_t count) { return std::vector<double>(from, from + count); };
    in.w_q = copy(w.handles.w_q.in(params), h * h);
    in.w_k = copy(w.handles.w_k.in(params), h * h);
    in.w_v = copy(w.handles.w_v.in(params), h);
    in.valid_length = valid_length;
    return in;
}

void bahdanau_backward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const double* dlogits,
                       double* gradients) {
    BahdanauLease lease;
    BahdanauWorkspace& w = *lease;
    // A workspace released between the calls (a large one is, after each) holds no forward pass: redo it.
    if (w.forward_batch != batch.batch) forward_pass(model, batch, w);
    backward_pass(model, batch, dlogits, w, gradients);
}

Translation bahdanau_translate(const Seq2SeqModel& model, const xt::xtensor<int, 1>& source,
                               const xt::xtensor<int, 1>& source_lens, std::size_t batch, std::size_t max_length) {
    BahdanauLease lease;
    BahdanauWorkspace& w = *lease;
    w.forward_batch = 0;  // the caches below will not hold a teacher-forced pass
    const Sizes n(model.config, batch);
    const BahdanauHandles& p = handles_of(model.config, w);
    const double* params = model.values.data();
    encoder_forward(model, n, source.data(), w);
    decoder_prepare(model, n, source_lens.data(), w);
    const std::size_t block = n.batch * n.hidden, width = n.gates * n.hidden, vocab = n.target_vocab;

    Translation result;
    result.tokens = xt::xtensor<int, 1>::from_shape({batch * max_length});
    std::fill(result.tokens.begin(), result.tokens.end(), pad_token);
    result.lengths = xt::xtensor<int, 1>::from_shape({batch});
    std::fill(result.lengths.begin(), result.lengths.end(), 0);
    result.cross_weights = xt::xtensor<double, 5>::from_shape({1, batch, 1, max_length, n.source});
    std::fill(result.cross_weights.begin(), result.cross_weights.end(), 0.0);

    // Two states (and cells) per layer, the step's `before` and `after`, swapped each step.
    w.states.resize(n.layers);
    w.cells.resize(n.lstm ? n.layers : 0);
    w.gates.resize(n.layers);
    for (std::size_t l = 0; l < n.layers; ++l) {
        w.states[l].resize(2 * block);
        std::copy_n(w.initial[l].data(), block, w.states[l].data());
        if (n.lstm) {
            w.cells[l].resize(2 * block);
            std::copy_n(w.initial_cells[l].data(), block, w.cells[l].data());
        }
        w.gates[l].resize(n.batch * n.cached * n.hidden);
    }
    w.tokens.assign(n.batch, bos_token);
    w.finished.assign(n.batch, 0);
    project_table(n.target_vocab, n.embed, width, p.decoder_embedding.in(params),
                  w.ih_transposed[0].data() + n.hidden * width, p.decoder_rnn[0].bias_ih.in(params), w.table_gates);
    w.input_gates.resize(n.batch * width);
    w.contexts.resize(block);
    w.attention.resize(1);
    w.step_logits.resize(n.batch * vocab);
    w.before.resize(n.layers);
    w.after.resize(n.layers);
    w.before_c.resize(n.layers);
    w.after_c.resize(n.layers);
    w.step_gates.resize(n.layers);
    const StepStates states{w.before.data(), w.after.data(), w.before_c.data(), w.after_c.data(), w.step_gates.data()};
    std::size_t finished = 0;
    for (std::size_t t = 0; t < max_length && finished < batch; ++t) {
        const std::size_t now = t % 2;
        for (std::size_t l = 0; l < n.layers; ++l) {
            w.before[l] = w.states[l].data() + now * block;
            w.after[l] = w.states[l].data() + (1 - now) * block;
            if (n.lstm) {
                w.before_c[l] = w.cells[l].data() + now * block;
                w.after_c[l] = w.cells[l].data() + (1 - now) * block;
            }
            w.step_gates[l] = w.gates[l].data();
        }
        gather_rows(n.batch, w.tokens.data(), width, w.table_gates, w.input_gates.data());
        decoder_step(model, n, source_lens.data(), w, states, w.input_gates.data(), w.contexts.data(),
                     w.attention[0]);
        linear_forward({n.batch, n.hidden, vocab}, w.after[n.layers - 1], p.dense.in(params), p.dense_bias.in(params),
                       w.step_logits.data(), w.transposed);
        for (std::size_t b = 0; b < batch; ++b) {
            if (w.finished[b]) continue;
            const double* row = w.step_logits.data() + b * vocab;
            const int token = static_cast<int>(std::max_element(row, row + vocab) - row);  // ties: the first
            result.tokens(b * max_length + t) = token;
            result.lengths(b) = static_cast<int>(t + 1);
            std::copy_n(w.attention[0].weights.data() + b * n.source, n.source,
                        result.cross_weights.data() + (b * max_length + t) * n.source);
            w.tokens[b] = token;
            if (token == eos_token) {
                w.finished[b] = 1;
                ++finished;
            }
        }
    }
    return result;
}

// The GRUs and the decoder's attention run one position at a time on
// `batch` rows. With fewer rows than this a product streams its weights
// from memory for each position at matrix-vector speed, not faster for
// the rows it lacks: a smaller batch is counted as this many rows (a
// 512-unit GRU at batch 1 ran 5-7 times slower than its multiply-adds said;
// tests/benchmarks/translator-work-bound.bench.mjs).
constexpr std::uint64_t least_counted_rows = 8;

std::uint64_t bahdanau_forward_work(const Seq2SeqConfig& config, std::uint64_t items) {
    const std::uint64_t batch = std::max(items, least_counted_rows);
    const Sizes n(config, 1);
    const std::uint64_t h = n.hidden, e = n.embed, s = n.source, t = n.target, u = n.units;
    // The embeddings' input gates per word of each vocabulary (project_table), for each encoder direction and the decoder.
    const bool additive = seq2seq_scoring(config) == Seq2SeqScoring::additive;
    const std::uint64_t g = n.gates;  // a GRU's 3 gates a unit, an LSTM's 4
    std::uint64_t work = n.directions * n.source_vocab * e * g * u + n.target_vocab * e * g * h;
    for (std::size_t l = 0; l < n.layers; ++l)
        work += n.directions * s * batch * ((l == 0 ? 0 : h) * g * u + u * g * u + 8 * u);
    if (additive) work += batch * s * h * h;  // the keys' projection
    // Per step: additive scoring's query projection, features, scores and weighted sum (dot scoring: the
    // scores and the weighted sum); the recurrent layers (layer 0's context share, the others' inputs, the
    // recurrences, the gates) and the readout.
    std::uint64_t step = batch * (additive ? h * h + 3 * s * h : 2 * s * h) + batch * h * n.target_vocab;
    for (std::size_t l = 0; l < n.layers; ++l) step += batch * (h * g * h + h * g * h + 8 * h);
    return work + t * step;
}

void release_bahdanau_workspace() { BahdanauLease::release(); }
void hold_bahdanau_workspace() { BahdanauLease::hold(); }
void let_go_bahdanau_workspace() { BahdanauLease::let_go(); }

}  // namespace attention::seq2seq_detail
