// d2l 10.4's Bahdanau translator (core/seq2seq/bahdanau.cpp) through the
// interface it gives the shared model code (seq2seq/architectures.hpp): its
// parameters in d2l's state_dict names, order and shapes; its backward pass
// against central differences of its forward pass (one- and bidirectional
// encoders, padded sources, several layers); the attention weights; greedy
// decoding against the teacher-forced pass fed its own output. (Against d2l's
// modules in PyTorch: test_seq2seq_model.cpp, for every architecture.)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "layers/parameter_layout.hpp"
#include "numerics/random.hpp"
#include "reference.hpp"
#include "seq2seq/architectures.hpp"
#include "seq2seq/training.hpp"

using namespace attention;
using namespace attention::seq2seq_detail;
using Values = std::vector<double>;

namespace {

Seq2SeqConfig small_config(bool bidirectional, std::size_t layers) {
    Seq2SeqConfig c;
    c.architecture = Seq2SeqArchitecture::bahdanau;
    c.source_vocab = 7;
    c.target_vocab = 6;
    c.source_length = 4;
    c.target_length = 3;
    c.hidden = 4;
    c.embed = 3;
    c.layers = layers;
    c.bidirectional = bidirectional;
    return c;
}

// A model laid out by describe_bahdanau, initialised from a seed (d2l's scheme).
Seq2SeqModel make_model(const Seq2SeqConfig& config, std::uint32_t seed) {
    Seq2SeqModel model;
    model.config = config;
    LayoutBuilder builder(&model.layout);
    describe_bahdanau(config, builder);
    model.values = xt::xtensor<double, 1>::from_shape({builder.parameters()});
    Random random(seed);
    initialise_parameters(model.layout, random, model.values.data());
    return model;
}

xt::xtensor<int, 1> ints(std::initializer_list<int> values) {
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({values.size()});
    std::copy(values.begin(), values.end(), result.begin());
    return result;
}

// Two items: the second source padded after 2 tokens, the first target padded after 2.
Seq2SeqBatch small_batch() {
    Seq2SeqBatch b;
    b.batch = 2;
    b.source = ints({3, 6, 4, 2, 5, 2, 0, 0});
    b.source_lens = ints({4, 2});
    b.target_in = ints({1, 4, 2, 1, 3, 5});
    b.target_out = ints({4, 2, 0, 3, 5, 2});
    b.target_lens = ints({2, 3});
    return b;
}

}  // namespace

TEST_CASE("Bahdanau layout: d2l's state_dict names, order and shapes", "[bahdanau]") {
    std::vector<ParameterSlot> layout;
    LayoutBuilder builder(&layout);
    describe_bahdanau(small_config(true, 2), builder);
    const std::vector<std::pair<std::string, std::vector<std::size_t>>> expected = {
        {"encoder.embedding.weight", {7, 3}},
        {"encoder.rnn.weight_ih_l0", {6, 3}},
        {"encoder.rnn.weight_hh_l0", {6, 2}},
        {"encoder.rnn.bias_ih_l0", {6}},
        {"encoder.rnn.bias_hh_l0", {6}},
        {"encoder.rnn.weight_ih_l0_reverse", {6, 3}},
        {"encoder.rnn.weight_hh_l0_reverse", {6, 2}},
        {"encoder.rnn.bias_ih_l0_reverse", {6}},
        {"encoder.rnn.bias_hh_l0_reverse", {6}},
        {"encoder.rnn.weight_ih_l1", {6, 4}},
        {"encoder.rnn.weight_hh_l1", {6, 2}},
        {"encoder.rnn.bias_ih_l1", {6}},
        {"encoder.rnn.bias_hh_l1", {6}},
        {"encoder.rnn.weight_ih_l1_reverse", {6, 4}},
        {"encoder.rnn.weight_hh_l1_reverse", {6, 2}},
        {"encoder.rnn.bias_ih_l1_reverse", {6}},
        {"encoder.rnn.bias_hh_l1_reverse", {6}},
        {"decoder.attention.W_k.weight", {4, 4}},
        {"decoder.attention.W_q.weight", {4, 4}},
        {"decoder.attention.w_v.weight", {1, 4}},
        {"decoder.embedding.weight", {6, 3}},
        {"decoder.rnn.weight_ih_l0", {12, 7}},
        {"decoder.rnn.weight_hh_l0", {12, 4}},
        {"decoder.rnn.bias_ih_l0", {12}},
        {"decoder.rnn.bias_hh_l0", {12}},
        {"decoder.rnn.weight_ih_l1", {12, 4}},
        {"decoder.rnn.weight_hh_l1", {12, 4}},
        {"decoder.rnn.bias_ih_l1", {12}},
        {"decoder.rnn.bias_hh_l1", {12}},
        {"decoder.dense.weight", {6, 4}},
        {"decoder.dense.bias", {6}},
    };
    REQUIRE(layout.size() == expected.size());
    std::size_t offset = 0;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        INFO(expected[k].first);
        CHECK(layout[k].name == expected[k].first);
        CHECK(layout[k].shape == expected[k].second);
        CHECK(layout[k].offset == offset);
        offset += layout[k].size;
    }
    CHECK(builder.parameters() == offset);
    // d2l's initialisation: Xavier on GRU and Linear weights, PyTorch's bias bounds (the GRU's by its units).
    CHECK(layout[0].init.kind == Init::Kind::normal);
    CHECK(layout[1].init.value == std::sqrt(6.0 / (3 + 6)));
    CHECK(layout[3].init.value == 1.0 / std::sqrt(2.0));
    CHECK(layout[19].init.value == std::sqrt(6.0 / 5));
    CHECK(layout[21].init.value == std::sqrt(6.0 / (7 + 12)));
    CHECK(layout[23].init.value == 1.0 / 2.0);
    CHECK(layout[29].init.value == std::sqrt(6.0 / 10));
    CHECK(layout[30].init.value == 1.0 / 2.0);

    // One direction: hidden units, no _reverse.
    std::vector<ParameterSlot> one;
    LayoutBuilder one_builder(&one);
    describe_bahdanau(small_config(false, 1), one_builder);
    REQUIRE(one.size() == 5 + 3 + 1 + 4 + 2);
    CHECK(one[1].name == "encoder.rnn.weight_ih_l0");
    CHECK(one[2].shape == std::vector<std::size_t>{12, 4});
    CHECK(one[5].name == "decoder.attention.W_k.weight");

    // Dot-product scoring: the same layout without the attention's three weights.
    Seq2SeqConfig dot_config = small_config(true, 2);
    dot_config.scoring = Seq2SeqScoring::dot;
    std::vector<ParameterSlot> dot;
    LayoutBuilder dot_builder(&dot);
    describe_bahdanau(dot_config, dot_builder);
    REQUIRE(dot.size() == expected.size() - 3);
    CHECK(dot[16].name == "encoder.rnn.bias_hh_l1_reverse");
    CHECK(dot[17].name == "decoder.embedding.weight");

    // The LSTM cell: nn.LSTM's names, four gates a unit, and PyTorch's own
    // U(+-1/sqrt(units)) on every weight and bias (d2l's initialisation
    // leaves an nn.LSTM alone).
    Seq2SeqConfig lstm_config = small_config(true, 2);
    lstm_config.cell = Seq2SeqCell::lstm;
    std::vector<ParameterSlot> lstm;
    LayoutBuilder lstm_builder(&lstm);
    describe_bahdanau(lstm_config, lstm_builder);
    REQUIRE(lstm.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        INFO(expected[k].first);
        CHECK(lstm[k].name == expected[k].first);
        std::vector<std::size_t> shape = expected[k].second;
        if (expected[k].first.find(".rnn.") != std::string::npos) shape[0] = shape[0] / 3 * 4;
        CHECK(lstm[k].shape == shape);
        if (expected[k].first.find(".rnn.") == std::string::npos) continue;
        const bool encoder = expected[k].first.rfind("encoder.", 0) == 0;
        CHECK(lstm[k].init.kind == Init::Kind::uniform);
        CHECK(lstm[k].init.value == 1.0 / std::sqrt(encoder ? 2.0 : 4.0));
    }
}

namespace {

void check_gradients(const Seq2SeqConfig& config) {
    Seq2SeqModel model = make_model(config, 7);
    const Seq2SeqBatch batch = small_batch();
    const std::size_t count = model.values.size();
    std::vector<double> logits;
    Seq2SeqForward weights;
    bahdanau_forward(model, batch, logits, &weights);
    REQUIRE(logits.size() == batch.batch * config.target_length * config.target_vocab);
    // A drawn dlogits: the objective is sum(logits * dlogits).
    Random random(11);
    Values dlogits(logits.size());
    for (double& v : dlogits) v = random.normal();
    Values gradients(count, 0.0);
    bahdanau_backward(model, batch, dlogits.data(), gradients.data());

    auto objective = [&] {
        std::vector<double> l;
        bahdanau_forward(model, batch, l, nullptr);
        double total = 0.0;
        for (std::size_t e = 0; e < l.size(); ++e) total += l[e] * dlogits[e];
        return total;
    };
    constexpr double h = 1e-6;
    Values numeric(count);
    for (std::size_t e = 0; e < count; ++e) {
        const double kept = model.values(e);
        model.values(e) = kept + h;
        const double up = objective();
        model.values(e) = kept - h;
        const double down = objective();
        model.values(e) = kept;
        numeric[e] = (up - down) / (2 * h);
    }
    for (const auto& slot : model.layout) {
        INFO("central differences of " << slot.name);
        const Values analytic(gradients.begin() + slot.offset, gradients.begin() + slot.offset + slot.size);
        const Values expected(numeric.begin() + slot.offset, numeric.begin() + slot.offset + slot.size);
        CHECK_NEAR_TOL(analytic, expected, 1e-6);
        // Every parameter reaches the objective (the padding tokens' embeddings too: the GRU reads them).
        bool any = false;
        for (double g : analytic) any = any || g != 0.0;
        CHECK(any);
    }
}

}  // namespace

TEST_CASE("Bahdanau backward: central differences, bidirectional encoder of two layers", "[bahdanau]") {
    check_gradients(small_config(true, 2));
}

TEST_CASE("Bahdanau backward: central differences, d2l's one-directional encoder, one layer and three",
          "[bahdanau]") {
    check_gradients(small_config(false, 1));
    check_gradients(small_config(false, 3));
}

TEST_CASE("Bahdanau backward: central differences, dot-product scoring (no attention parameters)", "[bahdanau]") {
    for (const bool bidirectional : {true, false}) {
        Seq2SeqConfig config = small_config(bidirectional, 2);
        config.scoring = Seq2SeqScoring::dot;
        check_gradients(config);
    }
}

TEST_CASE("Bahdanau backward after the workspace was released recomputes the forward pass", "[bahdanau]") {
    const Seq2SeqConfig config = small_config(true, 2);
    const Seq2SeqModel model = make_model(config, 3);
    const Seq2SeqBatch batch = small_batch();
    std::vector<double> logits;
    bahdanau_forward(model, batch, logits, nullptr);
    Values dlogits(logits.size());
    for (std::size_t e = 0; e < dlogits.size(); ++e) dlogits[e] = std::sin(static_cast<double>(e));
    Values kept(model.values.size(), 0.0), fresh(model.values.size(), 0.0);
    bahdanau_backward(model, batch, dlogits.data(), kept.data());
    release_bahdanau_workspace();
    bahdanau_backward(model, batch, dlogits.data(), fresh.data());
    CHECK(fresh == kept);
}

TEST_CASE("Bahdanau attention weights: one row per target step, summing to 1 over the valid source positions",
          "[bahdanau]") {
    const Seq2SeqConfig config = small_config(true, 2);
    const Seq2SeqModel model = make_model(config, 5);
    const Seq2SeqBatch batch = small_batch();
    std::vector<double> logits;
    Seq2SeqForward weights;
    bahdanau_forward(model, batch, logits, &weights);
    const auto& w = weights.cross_weights;
    REQUIRE(w.shape(0) == 1);
    REQUIRE(w.shape(1) == 2);
    REQUIRE(w.shape(2) == 1);
    REQUIRE(w.shape(3) == 3);
    REQUIRE(w.shape(4) == 4);
    CHECK(weights.self_weights.shape(0) == 0);
    CHECK(weights.encoder_weights.shape(0) == 0);
    for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t t = 0; t < 3; ++t) {
            const std::size_t valid = static_cast<std::size_t>(batch.source_lens(b));
            double sum = 0.0;
            for (std::size_t j = 0; j < 4; ++j) {
                if (j < valid)
                    CHECK(w(0, b, 0, t, j) > 0.0);
                else
                    CHECK(w(0, b, 0, t, j) == 0.0);
                sum += w(0, b, 0, t, j);
            }
            CHECK(std::abs(sum - 1.0) < 1e-14);
        }
}

TEST_CASE("Bahdanau greedy decoding is the teacher-forced pass fed its own tokens", "[bahdanau]") {
    Seq2SeqConfig config = small_config(true, 2);
    config.target_length = 6;
    Seq2SeqModel model = make_model(config, 9);
    const xt::xtensor<int, 1> source = ints({3, 6, 4, 2, 5, 2, 0, 0, 6, 6, 6, 2});
    const xt::xtensor<int, 1> lens = ints({4, 2, 4});
    const std::size_t items = 3, steps = 6, max_length = 5;
    // The readout's <eos> bias raised until the items stop at different steps,
    // one of them before max_length: decoding must go on for the others.
    Translation out;
    bool staggered = false;
    for (int raise = 0; raise < 60 && !staggered; ++raise) {
        out = bahdanau_translate(model, source, lens, items, max_length);
        const auto [shortest, longest] = std::minmax_element(out.lengths.begin(), out.lengths.end());
        staggered = *shortest < *longest && *shortest < static_cast<int>(max_length);
        if (!staggered) model.values(model.layout.back().offset + eos_token) += 0.1;
    }
    REQUIRE(staggered);
    REQUIRE(out.tokens.size() == items * max_length);
    REQUIRE(out.cross_weights.shape(3) == max_length);

    Seq2SeqBatch batch;
    batch.batch = items;
    batch.source = source;
    batch.source_lens = lens;
    batch.target_in = xt::xtensor<int, 1>::from_shape({items * steps});
    for (std::size_t b = 0; b < items; ++b) {
        batch.target_in(b * steps) = bos_token;
        for (std::size_t t = 1; t < steps; ++t)
            batch.target_in(b * steps + t) = t - 1 < max_length ? out.tokens(b * max_length + t - 1) : pad_token;
    }
    std::vector<double> logits;
    Seq2SeqForward weights;
    bahdanau_forward(model, batch, logits, &weights);
    const std::size_t vocab = config.target_vocab;
    for (std::size_t b = 0; b < items; ++b) {
        const std::size_t length = static_cast<std::size_t>(out.lengths(b));
        INFO("item " << b);
        REQUIRE(length >= 1);
        REQUIRE(length <= max_length);
        // Stopped at <eos> or at max_length; <pad> after.
        CHECK((out.tokens(b * max_length + length - 1) == eos_token || length == max_length));
        for (std::size_t t = 0; t + 1 < length; ++t) CHECK(out.tokens(b * max_length + t) != eos_token);
        for (std::size_t t = length; t < max_length; ++t) CHECK(out.tokens(b * max_length + t) == pad_token);
        for (std::size_t t = 0; t < max_length; ++t) {
            const double* row = logits.data() + (b * steps + t) * vocab;
            for (std::size_t j = 0; j < config.source_length; ++j) {
                const double decoded = out.cross_weights(0, b, 0, t, j);
                CHECK(decoded == (t < length ? weights.cross_weights(0, b, 0, t, j) : 0.0));
            }
            if (t >= length) continue;
            const int argmax = static_cast<int>(std::max_element(row, row + vocab) - row);
            CHECK(out.tokens(b * max_length + t) == argmax);
        }
    }
}
