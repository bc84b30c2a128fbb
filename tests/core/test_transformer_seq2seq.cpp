// d2l 10.7's Transformer encoder-decoder (core/seq2seq/transformer.cpp),
// called through seq2seq/architectures.hpp: its layout in d2l's state_dict
// names and order, its backward pass against central differences, masking,
// causality, and greedy translation against teacher forcing on the emitted prefix.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "layers/parameter_layout.hpp"
#include "numerics/random.hpp"
#include "reference.hpp"
#include "seq2seq/architectures.hpp"

using namespace attention;
using namespace attention::seq2seq_detail;
using Values = std::vector<double>;

namespace {

Seq2SeqConfig small_config() {
    Seq2SeqConfig c;
    c.architecture = Seq2SeqArchitecture::transformer;
    c.source_vocab = 7, c.target_vocab = 6, c.source_length = 5, c.target_length = 4;
    c.hidden = 6, c.heads = 2, c.ffn_hidden = 5, c.blocks = 2, c.embedding_scale = 1.5, c.seed = 3;
    return c;
}

Seq2SeqModel make_model(const Seq2SeqConfig& config) {
    Seq2SeqModel model;
    model.config = config;
    LayoutBuilder builder(&model.layout);
    describe_transformer(config, builder);
    model.values = xt::xtensor<double, 1>::from_shape({builder.parameters()});
    Random random(config.seed);
    initialise_parameters(model.layout, random, model.values.data());
    // LayerNorm's gammas and betas away from 1 and 0, so that their gradients are exercised.
    for (const auto& slot : model.layout)
        if (slot.name.find(".ln.") != std::string::npos)
            for (std::size_t e = 0; e < slot.size; ++e) model.values(slot.offset + e) += 0.2 * random.normal();
    return model;
}

xt::xtensor<int, 1> ints(std::vector<int> values) {
    xt::xtensor<int, 1> t = xt::xtensor<int, 1>::from_shape({values.size()});
    std::copy(values.begin(), values.end(), t.begin());
    return t;
}

// Three items: sources of lengths 5, 2 and 3 (<eos> last, <pad> after), targets of lengths 4, 1, 3.
Seq2SeqBatch small_batch() {
    Seq2SeqBatch b;
    b.batch = 3;
    b.source = ints({3, 4, 5, 6, 2, 6, 2, 0, 0, 0, 5, 3, 2, 0, 0});
    b.source_lens = ints({5, 2, 3});
    b.target_in = ints({1, 3, 4, 5, 1, 0, 0, 0, 1, 5, 4, 0});
    b.target_out = ints({3, 4, 5, 2, 2, 0, 0, 0, 5, 4, 2, 0});
    b.target_lens = ints({4, 1, 3});
    return b;
}

}  // namespace

TEST_CASE("transformer: d2l's state_dict names, order and shapes, Xavier-uniform Linear weights",
          "[transformer-seq2seq]") {
    const Seq2SeqConfig c = small_config();
    const Seq2SeqModel model = make_model(c);
    std::vector<std::string> names;
    for (const auto& s : model.layout) names.push_back(s.name);
    const std::vector<std::string> encoder_block = {
        "attention.W_q.weight", "attention.W_k.weight", "attention.W_v.weight", "attention.W_o.weight",
        "addnorm1.ln.weight", "addnorm1.ln.bias", "ffn.dense1.weight", "ffn.dense1.bias", "ffn.dense2.weight",
        "ffn.dense2.bias", "addnorm2.ln.weight", "addnorm2.ln.bias"};
    const std::vector<std::string> decoder_block = {
        "attention1.W_q.weight", "attention1.W_k.weight", "attention1.W_v.weight", "attention1.W_o.weight",
        "addnorm1.ln.weight", "addnorm1.ln.bias", "attention2.W_q.weight", "attention2.W_k.weight",
        "attention2.W_v.weight", "attention2.W_o.weight", "addnorm2.ln.weight", "addnorm2.ln.bias",
        "ffn.dense1.weight", "ffn.dense1.bias", "ffn.dense2.weight", "ffn.dense2.bias", "addnorm3.ln.weight",
        "addnorm3.ln.bias"};
    std::vector<std::string> expected = {"encoder.embedding.weight"};
    for (int b = 0; b < 2; ++b)
        for (const auto& n : encoder_block) expected.push_back("encoder.blks.block" + std::to_string(b) + "." + n);
    expected.push_back("decoder.embedding.weight");
    for (int b = 0; b < 2; ++b)
        for (const auto& n : decoder_block) expected.push_back("decoder.blks.block" + std::to_string(b) + "." + n);
    expected.push_back("decoder.dense.weight");
    expected.push_back("decoder.dense.bias");
    CHECK(names == expected);

    const auto& first = model.layout.front();
    CHECK(first.shape == std::vector<std::size_t>{7, 6});
    CHECK(first.init.kind == Init::Kind::normal);
    for (const auto& s : model.layout) {
        INFO(s.name);
        if (s.name.find("dense1.weight") != std::string::npos) CHECK(s.shape == std::vector<std::size_t>{5, 6});
        if (s.name.find("dense2.weight") != std::string::npos) CHECK(s.shape == std::vector<std::size_t>{6, 5});
        if (s.name.find("W_q.weight") != std::string::npos)
            CHECK(s.init.value == Approx(std::sqrt(6.0 / 12.0)).epsilon(1e-15));
    }
    const auto& dense = model.layout[model.layout.size() - 2];
    CHECK(dense.shape == std::vector<std::size_t>{6, 6});
    CHECK(dense.init.value == Approx(std::sqrt(6.0 / 12.0)).epsilon(1e-15));
    CHECK(model.layout.back().init.value == Approx(1.0 / std::sqrt(6.0)).epsilon(1e-15));
}

TEST_CASE("transformer: the backward pass agrees with central differences", "[transformer-seq2seq]") {
    Seq2SeqModel model = make_model(small_config());
    const Seq2SeqBatch batch = small_batch();
    std::vector<double> logits;
    transformer_forward(model, batch, logits, nullptr);
    REQUIRE(logits.size() == 3 * 4 * 6);
    Random random(11);
    Values dlogits(logits.size());
    for (double& d : dlogits) d = random.normal();
    const auto loss = [&] {
        std::vector<double> out;
        transformer_forward(model, batch, out, nullptr);
        double total = 0.0;
        for (std::size_t e = 0; e < out.size(); ++e) total += out[e] * dlogits[e];
        return total;
    };
    loss();
    Values analytic(model.values.size(), 0.0);
    transformer_backward(model, batch, dlogits.data(), analytic.data());
    constexpr double h = 1e-6;
    Values numeric(model.values.size());
    for (std::size_t e = 0; e < numeric.size(); ++e) {
        const double kept = model.values(e);
        model.values(e) = kept + h;
        const double up = loss();
        model.values(e) = kept - h;
        const double down = loss();
        model.values(e) = kept;
        numeric[e] = (up - down) / (2 * h);
    }
    CHECK_NEAR_TOL(analytic, numeric, 1e-6);
    // A token in no source has no gradient: <bos> (1).
    const auto& source_table = model.layout.front();
    for (std::size_t c = 0; c < 6; ++c) CHECK(analytic[source_table.offset + 1 * 6 + c] == 0.0);
}

TEST_CASE("transformer: source padding is masked, the decoder is causal, the weights are shaped",
          "[transformer-seq2seq]") {
    const Seq2SeqModel model = make_model(small_config());
    const Seq2SeqBatch batch = small_batch();
    std::vector<double> logits;
    Seq2SeqForward weights;
    transformer_forward(model, batch, logits, &weights);
    CHECK(weights.cross_weights.shape() == std::array<std::size_t, 5>{2, 3, 2, 4, 5});
    CHECK(weights.self_weights.shape() == std::array<std::size_t, 5>{2, 3, 2, 4, 4});
    CHECK(weights.encoder_weights.shape() == std::array<std::size_t, 5>{2, 3, 2, 5, 5});
    for (std::size_t blk = 0; blk < 2; ++blk)
        for (std::size_t hd = 0; hd < 2; ++hd)
            for (std::size_t i = 0; i < 4; ++i) {
                CHECK(weights.cross_weights(blk, 1, hd, i, 2) == 0.0);  // item 1: source length 2
                CHECK(weights.cross_weights(blk, 2, hd, i, 3) == 0.0);  // item 2: source length 3
                for (std::size_t j = i + 1; j < 4; ++j) CHECK(weights.self_weights(blk, 0, hd, i, j) == 0.0);
            }

    // Other tokens in the source's padding and in the target's later positions change nothing before them.
    Seq2SeqBatch changed = batch;
    changed.source(2 * 5 + 4) = 6;
    changed.target_in(0 * 4 + 3) = 2;
    std::vector<double> again;
    transformer_forward(model, changed, again, nullptr);
    for (std::size_t r = 0; r < 12; ++r) {
        const bool affected = r == 3;  // item 0's last position reads its changed token
        for (std::size_t v = 0; v < 6; ++v) {
            INFO("row " << r);
            if (affected)
                CHECK(again[r * 6 + v] != logits[r * 6 + v]);
            else
                CHECK(again[r * 6 + v] == logits[r * 6 + v]);
        }
    }
}

TEST_CASE("transformer_translate: greedy, each step as teacher forcing on the emitted prefix",
          "[transformer-seq2seq]") {
    Seq2SeqConfig config = small_config();
    const Seq2SeqBatch batch = small_batch();
    for (std::uint32_t seed : {3u, 4u, 5u, 6u}) {
        config.seed = seed;
        const Seq2SeqModel model = make_model(config);
        const std::size_t max_length = 4;
        const Translation t = transformer_translate(model, batch.source, batch.source_lens, 3, max_length);
        // Teacher forcing on <bos> + the emitted tokens gives each step's argmax and the same weights.
        Seq2SeqBatch forced = batch;
        for (std::size_t b = 0; b < 3; ++b) {
            forced.target_in(b * 4) = bos_token;
            for (std::size_t i = 1; i < 4; ++i) forced.target_in(b * 4 + i) = t.tokens(b * max_length + i - 1);
        }
        std::vector<double> logits;
        Seq2SeqForward weights;
        transformer_forward(model, forced, logits, &weights);
        for (std::size_t b = 0; b < 3; ++b) {
            const auto length = static_cast<std::size_t>(t.lengths(b));
            INFO("seed " << seed << " item " << b << " length " << length);
            REQUIRE(length >= 1);
            REQUIRE(length <= max_length);
            for (std::size_t i = 0; i < max_length; ++i) {
                if (i >= length) {
                    CHECK(t.tokens(b * max_length + i) == pad_token);
                    for (std::size_t j = 0; j < 5; ++j) CHECK(t.cross_weights(1, b, 0, i, j) == 0.0);
                    continue;
                }
                const double* row = logits.data() + (b * 4 + i) * 6;
                CHECK(t.tokens(b * max_length + i) == std::max_element(row, row + 6) - row);
                for (std::size_t blk = 0; blk < 2; ++blk)
                    for (std::size_t hd = 0; hd < 2; ++hd)
                        for (std::size_t j = 0; j < 5; ++j)
                            CHECK(t.cross_weights(blk, b, hd, i, j) == weights.cross_weights(blk, b, hd, i, j));
            }
            // It stops at <eos>, or at max_length.
            CHECK((t.tokens(b * max_length + length - 1) == eos_token || length == max_length));
            for (std::size_t i = 0; i + 1 < length; ++i) CHECK(t.tokens(b * max_length + i) != eos_token);
        }
    }
}
