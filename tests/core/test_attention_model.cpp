// The trainable attention model: layout and seeded initialisation, forward
// pass, loss and hand-written gradients against d2l's encoder in PyTorch
// (autograd) and against central differences, and every refused argument.
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "encoder/attention_model.hpp"
#include "contract/limits.hpp"
#include "model_references.hpp"
#include "reference.hpp"

using attention::AttentionModel;
using attention::BatchOptions;
using attention::EncoderConfig;

namespace {

BatchOptions batch_options(const nlohmann::json& c) {
    BatchOptions options;
    options.batch = c["batch"];
    options.valid_lens = ref::ints(c["validLens"]);
    options.causal = c["causal"];
    if (c.contains("headsOff")) options.heads_off = ref::ints(c["headsOff"]);
    return options;
}

EncoderConfig small_config(std::size_t ffn = 0) {
    EncoderConfig config;
    config.vocab = 5;
    config.length = 4;
    config.hidden = 6;
    config.heads = 2;
    config.blocks = 2;
    config.ffn_hidden = ffn;
    config.seed = 3;
    return config;
}

xt::xtensor<int, 1> tokens_of(std::initializer_list<int> values) {
    xt::xtensor<int, 1> t = xt::xtensor<int, 1>::from_shape({values.size()});
    std::copy(values.begin(), values.end(), t.begin());
    return t;
}

}  // namespace

TEST_CASE("encoder_layout: PyTorch's names and shapes, in order", "[model]") {
    EncoderConfig config = small_config(7);
    const auto layout = attention::encoder_layout(config);
    std::vector<std::string> names;
    for (const auto& s : layout) names.push_back(s.name);
    const std::vector<std::string> expected = {
        "embedding", "b0.Wq", "b0.Wk", "b0.Wv", "b0.Wo", "b0.ln1.gamma", "b0.ln1.beta", "b0.W1", "b0.b1", "b0.W2",
        "b0.b2", "b0.ln2.gamma", "b0.ln2.beta", "b1.Wq", "b1.Wk", "b1.Wv", "b1.Wo", "b1.ln1.gamma", "b1.ln1.beta",
        "b1.W1", "b1.b1", "b1.W2", "b1.b2", "b1.ln2.gamma", "b1.ln2.beta", "readout", "readoutBias"};
    CHECK(names == expected);
    CHECK(layout[0].shape == std::vector<std::size_t>{5, 6});
    CHECK(layout[7].shape == std::vector<std::size_t>{7, 6});   // W1: ffnHidden x hidden
    CHECK(layout[9].shape == std::vector<std::size_t>{6, 7});   // W2: hidden x ffnHidden
    CHECK(layout.back().shape == std::vector<std::size_t>{5});
    std::size_t offset = 0;
    for (const auto& s : layout) {
        CHECK(s.offset == offset);
        offset += s.size;
    }
    CHECK(offset == attention::encoder_parameter_count(config));
    config.ffn_hidden = 0;
    CHECK(attention::encoder_layout(config).size() == 1 + 2 * 4 + 2);
}

TEST_CASE("encoder positions: a learned table after the embedding, or none, and nothing else changes", "[model]") {
    EncoderConfig config = small_config(7);
    const std::size_t sinusoidal = attention::encoder_parameter_count(config);
    config.positional = attention::PositionalKind::learned;
    const auto layout = attention::encoder_layout(config);
    REQUIRE(layout.size() == 28);
    CHECK(layout[1].name == "positional");
    CHECK(layout[1].shape == std::vector<std::size_t>{4, 6});  // length x hidden
    CHECK(layout[2].offset == 5 * 6 + 4 * 6);
    CHECK(attention::encoder_parameter_count(config) == sinusoidal + 4 * 6);
    config.positional = attention::PositionalKind::none;
    CHECK(attention::encoder_layout(config).size() == 27);
    CHECK(attention::encoder_parameter_count(config) == sinusoidal);
    CHECK(attention::positional_kind_names.from_name("learned") == attention::PositionalKind::learned);
    REQUIRE_ARGUMENT_ERROR_WITH(attention::positional_kind_names.from_name("rotary"), "positional",
                                "sinusoidal, learned, none");
}

TEST_CASE("encoder without positions: blind to order, a permuted sequence gives permuted outputs", "[model]") {
    // Self-attention without positions sees a set of tokens: permuting the
    // input permutes every output row, so reversing cannot be learnt.
    const auto tokens = tokens_of({1, 4, 0, 2});
    const auto reversed = tokens_of({2, 0, 4, 1});
    BatchOptions options;
    for (auto positional : {attention::PositionalKind::none, attention::PositionalKind::sinusoidal,
                            attention::PositionalKind::learned}) {
        EncoderConfig config = small_config(7);
        config.positional = positional;
        const AttentionModel model = attention::init_attention_model(config);
        const auto a = attention::attention_model_forward(model, tokens, options).logits;
        const auto b = attention::attention_model_forward(model, reversed, options).logits;
        double largest = 0;
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t k = 0; k < config.vocab; ++k)
                largest = std::max(largest, std::abs(a(0, i, k) - b(0, 3 - i, k)));
        INFO(attention::positional_kind_names.name_of(positional));
        if (positional == attention::PositionalKind::none)
            CHECK(largest < 1e-12);
        else
            CHECK(largest > 1e-3);
    }
}

TEST_CASE("init_attention_model: PyTorch's initialisation, seeded", "[model]") {
    EncoderConfig config = small_config(7);
    const AttentionModel a = attention::init_attention_model(config);
    const AttentionModel b = attention::init_attention_model(config);
    CHECK_SAME_BITS(a.values, b.values);
    config.seed = 4;
    const AttentionModel c = attention::init_attention_model(config);
    CHECK(ref::max_error(a.values, c.values) > 0.1);
    for (const auto& s : a.layout) {
        INFO(s.name);
        const double* p = a.values.data() + s.offset;
        const std::string& n = s.name;
        if (n.find("gamma") != std::string::npos) {
            for (std::size_t e = 0; e < s.size; ++e) CHECK(p[e] == 1.0);
        } else if (n.find("beta") != std::string::npos) {
            for (std::size_t e = 0; e < s.size; ++e) CHECK(p[e] == 0.0);
        } else if (n != "embedding") {
            const double in = (n == "b0.W2" || n == "b1.W2" || n == "b0.b2" || n == "b1.b2") ? 7.0 : 6.0;
            for (std::size_t e = 0; e < s.size; ++e) CHECK(std::abs(p[e]) <= 1.0 / std::sqrt(in));
        }
    }
    // The embedding is N(0, 1): over a large vocabulary its mean and variance show it.
    EncoderConfig big;
    big.vocab = 1000;
    big.hidden = 64;
    const AttentionModel m = attention::init_attention_model(big);
    const double* e = m.data("embedding");
    double sum = 0, squares = 0;
    for (std::size_t i = 0; i < 64000; ++i) sum += e[i], squares += e[i] * e[i];
    CHECK(std::abs(sum / 64000) < 0.02);
    CHECK(std::abs(squares / 64000 - 1.0) < 0.03);
    // Uniform weights fill their range.
    const double* wq = m.data("b0.Wq");
    double lo = 1, hi = -1;
    for (std::size_t i = 0; i < 64 * 64; ++i) lo = std::min(lo, wq[i]), hi = std::max(hi, wq[i]);
    CHECK(lo < -0.12);
    CHECK(hi > 0.12);
}

TEST_CASE("attention_model_forward and _loss match d2l's encoder in PyTorch", "[model]") {
    double worst_logits = 0, worst_weights = 0, worst_loss = 0, worst_gradient = 0;
    for (const auto& c : ref::model_references()["model"]) {
        INFO(c["name"].get<std::string>());
        const auto model = attention::attention_model_from(ref::model_config(c["config"]), ref::named_values(c["params"]));
        const auto tokens = ref::ints(c["tokens"]), targets = ref::ints(c["targets"]);
        const auto options = batch_options(c);
        const auto forward = attention::attention_model_forward(model, tokens, options);
        CHECK_NEAR_TOL(forward.logits, ref::numbers(c["logits"]), 1e-12);
        CHECK_NEAR_TOL(forward.weights, ref::numbers(c["weights"]), 1e-12);
        worst_logits = std::max(worst_logits, ref::max_error(forward.logits, ref::numbers(c["logits"])));
        worst_weights = std::max(worst_weights, ref::max_error(forward.weights, ref::numbers(c["weights"])));

        const auto result = attention::attention_model_loss(model, tokens, targets, options);
        CHECK(result.loss == Approx(c["loss"].get<double>()).epsilon(1e-12));
        worst_loss = std::max(worst_loss, std::abs(result.loss - c["loss"].get<double>()) / c["loss"].get<double>());
        for (const auto& s : model.layout) {
            INFO(s.name);
            const std::vector<double> expected = ref::numbers(c["gradients"][s.name]);
            const std::vector<double> actual(result.gradients.data() + s.offset,
                                             result.gradients.data() + s.offset + s.size);
            // Relative to the tensor's largest gradient.
            double scale = 0;
            for (double g : expected) scale = std::max(scale, std::abs(g));
            double error = 0;
            for (std::size_t e = 0; e < s.size; ++e) error = std::max(error, std::abs(actual[e] - expected[e]));
            if (scale > 0) error /= scale;
            CHECK(error < 1e-9);
            worst_gradient = std::max(worst_gradient, error);
        }
    }
    std::printf("model vs PyTorch: logits %.2g, weights %.2g, loss %.2g, gradients %.2g (largest relative errors)\n",
                worst_logits, worst_weights, worst_loss, worst_gradient);
}

TEST_CASE("attention_model_loss: the gradient agrees with central differences", "[model]") {
    for (std::size_t ffn : {0, 5}) {
        for (bool causal : {false, true}) {
          for (bool head_off : {false, true}) {
            EncoderConfig config = small_config(ffn);
            config.embedding_scale = 1.3;
            AttentionModel model = attention::init_attention_model(config);
            // Move LayerNorm off its initial point so its parameters' gradients are general.
            for (std::size_t e = 0; e < model.values.size(); ++e) model.values(e) += 0.05 * std::sin(3.0 * e);
            BatchOptions options;
            options.batch = 2;
            options.causal = causal;
            options.valid_lens = tokens_of({4, 3});
            if (head_off) options.heads_off = tokens_of({0, 1, 1, 0});  // blocks 2 x heads 2
            const auto tokens = tokens_of({1, 4, 0, 2, 3, 3, 0, 1});
            const auto targets = tokens_of({2, 0, 4, 1, 0, 1, 2, 3});
            const auto analytic = attention::attention_model_loss(model, tokens, targets, options).gradients;
            INFO("ffn=" << ffn << " causal=" << causal << " head off=" << head_off);
            for (std::size_t e = 0; e < model.values.size(); e += 3) {
                AttentionModel moved = model;
                const double h = 1e-6;
                moved.values(e) = model.values(e) + h;
                const double up = attention::attention_model_loss(moved, tokens, targets, options).loss;
                moved.values(e) = model.values(e) - h;
                const double down = attention::attention_model_loss(moved, tokens, targets, options).loss;
                INFO("parameter " << e);
                CHECK(analytic(e) == Approx((up - down) / (2 * h)).epsilon(1e-5).margin(1e-8));
            }
          }
        }
    }
}

TEST_CASE("attention_model: a head switched off adds nothing, its weights still shown", "[model]") {
    const AttentionModel model = attention::init_attention_model(small_config());
    BatchOptions options;
    options.batch = 2;
    const auto tokens = tokens_of({1, 2, 3, 4, 0, 1, 2, 3});
    const auto all = attention::attention_model_forward(model, tokens, options);
    BatchOptions off = options;
    off.heads_off = tokens_of({0, 0, 0, 1});  // block 1's head 1
    const auto without = attention::attention_model_forward(model, tokens, off);
    CHECK_SAME_BITS(without.weights, all.weights);
    CHECK(ref::bit_mismatch(ref::as_vector(without.logits), ref::as_vector(all.logits)) != std::string());
    // Its output rows zeroed by hand before Wo give the same logits: block 1's Wo columns 3..5 set to 0.
    AttentionModel silenced = model;
    const auto& wo = silenced.slot("b1.Wo");
    for (std::size_t o = 0; o < 6; ++o)
        for (std::size_t i = 3; i < 6; ++i) silenced.values(wo.offset + o * 6 + i) = 0.0;
    CHECK_NEAR_TOL(attention::attention_model_forward(silenced, tokens, options).logits, without.logits, 1e-15);
    // No flags and all flags 0 are the same model.
    off.heads_off = tokens_of({0, 0, 0, 0});
    CHECK_SAME_BITS(attention::attention_model_forward(model, tokens, off).logits, all.logits);
}

TEST_CASE("attention_model: masks hide padding keys and the future", "[model]") {
    EncoderConfig config = small_config();
    const AttentionModel model = attention::init_attention_model(config);
    BatchOptions options;
    options.batch = 2;
    options.valid_lens = tokens_of({2, 4});
    options.causal = true;
    auto tokens = tokens_of({1, 2, 3, 4, 0, 1, 2, 3});
    const auto f = attention::attention_model_forward(model, tokens, options);
    for (std::size_t blk = 0; blk < 2; ++blk)
        for (std::size_t b = 0; b < 2; ++b)
            for (std::size_t h = 0; h < 2; ++h)
                for (std::size_t i = 0; i < 4; ++i) {
                    double sum = 0;
                    for (std::size_t j = 0; j < 4; ++j) {
                        const double w = f.weights(blk, b, h, i, j);
                        if (j > i || (b == 0 && j >= 2)) CHECK(w == 0.0);
                        sum += w;
                    }
                    CHECK(sum == Approx(1.0).epsilon(1e-14));
                }
    // Tokens at padding positions change nothing at valid ones, nor the loss.
    auto targets = tokens_of({0, 1, 2, 3, 4, 0, 1, 2});
    const auto loss = attention::attention_model_loss(model, tokens, targets, options);
    tokens(2) = 0, tokens(3) = 0, targets(2) = 4, targets(3) = 4;
    const auto padded = attention::attention_model_loss(model, tokens, targets, options);
    CHECK(loss.loss == padded.loss);
    const auto g = attention::attention_model_forward(model, tokens, options);
    for (std::size_t v = 0; v < 5; ++v) CHECK(g.logits(0, 1, v) == f.logits(0, 1, v));
    // Causal: later tokens do not change earlier logits.
    tokens(7) = 4;
    const auto h = attention::attention_model_forward(model, tokens, options);
    for (std::size_t v = 0; v < 5; ++v) CHECK(h.logits(1, 2, v) == g.logits(1, 2, v));
}

TEST_CASE("attention_model_accuracy counts the valid positions whose top logit is the target", "[model]") {
    const AttentionModel model = attention::init_attention_model(small_config());
    BatchOptions options;
    options.batch = 2;
    options.valid_lens = tokens_of({3, 1});
    const auto tokens = tokens_of({1, 2, 3, 4, 0, 1, 2, 3});
    const auto f = attention::attention_model_forward(model, tokens, options);
    xt::xtensor<int, 1> targets = xt::zeros<int>({8});
    for (std::size_t r = 0; r < 8; ++r) {
        std::size_t best = 0;
        for (std::size_t v = 1; v < 5; ++v)
            if (f.logits(r / 4, r % 4, v) > f.logits(r / 4, r % 4, best)) best = v;
        targets(r) = static_cast<int>(best);
    }
    targets(1) = (targets(1) + 1) % 5;  // one of 4 valid positions wrong
    targets(5) = (targets(5) + 1) % 5;  // padding: not counted
    const auto a = attention::attention_model_accuracy(model, tokens, targets, options);
    CHECK(a.positions == 4);
    CHECK(a.accuracy == 0.75);
}

TEST_CASE("attention_model_from: names, sizes and values checked", "[model][errors]") {
    const auto& c = ref::model_references()["model"][0];
    const EncoderConfig config = ref::model_config(c["config"]);
    auto params = ref::named_values(c["params"]);
    CHECK_NOTHROW(attention::attention_model_from(config, params));
    auto missing = params;
    missing.pop_back();
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_from(config, missing), "params");
    auto renamed = params;
    renamed[1].name = "b0.Wx";
    REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_model_from(config, renamed), "params", "b0.Wx");
    auto twice = params;
    twice[2].name = twice[1].name;
    REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_model_from(config, twice), "params", "each name once");
    auto short_values = params;
    short_values[3].values.pop_back();
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_from(config, short_values), "params." + params[3].name);
    auto nan = params;
    for (auto& p : nan)
        if (p.name == "embedding") p.values[5] = std::numeric_limits<double>::quiet_NaN();
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_from(config, nan), "params.embedding");
    CHECK(ref::argument_error_of([&] { attention::attention_model_from(config, nan); }).index == 5u);
}

TEST_CASE("check_encoder_config: every size within its limit, before any allocation", "[model][errors]") {
    auto with = [](auto change) {
        EncoderConfig config;
        change(config);
        return config;
    };
    using attention::check_encoder_config;
    namespace limits = attention::limits;
    CHECK_NOTHROW(check_encoder_config(EncoderConfig{}));
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.vocab = 1; })), "vocab");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.vocab = limits::max_vocab + 1; })), "vocab");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.length = 0; })), "length");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.length = limits::max_model_length + 1; })), "length");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.hidden = 0; })), "hidden");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.hidden = limits::max_dimension + 1; })), "hidden");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.heads = 0; })), "heads");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.heads = limits::max_heads + 1; })), "heads");
    REQUIRE_ARGUMENT_ERROR_WITH(check_encoder_config(with([](auto& c) { c.heads = 5; })), "heads", "divisor of hidden (32)");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.blocks = 0; })), "blocks");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.blocks = limits::max_blocks + 1; })), "blocks");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.ffn_hidden = limits::max_ffn_hidden + 1; })),
                           "ffnHidden");
    REQUIRE_ARGUMENT_ERROR(check_encoder_config(with([](auto& c) { c.embedding_scale = -1; })), "embeddingScale");
    REQUIRE_ARGUMENT_ERROR(
        check_encoder_config(with([](auto& c) { c.embedding_scale = std::numeric_limits<double>::infinity(); })),
        "embeddingScale");
    REQUIRE_ARGUMENT_ERROR(
        check_encoder_config(with([](auto& c) { c.embedding_scale = std::numeric_limits<double>::quiet_NaN(); })),
        "embeddingScale");
    // Each size within its limit, the whole too big: 8 blocks of 1024 x 1024 matrices.
    REQUIRE_ARGUMENT_ERROR_WITH(check_encoder_config(with([](auto& c) {
                                    c.hidden = 1024, c.blocks = 8, c.ffn_hidden = 4096;
                                })),
                                "hidden", "parameters");
    REQUIRE_ARGUMENT_ERROR(attention::init_attention_model(with([](auto& c) { c.heads = 3; })), "heads");
}

TEST_CASE("attention_model_loss and _forward: refused batches name their argument", "[model][errors]") {
    const AttentionModel model = attention::init_attention_model(small_config());
    BatchOptions options;
    options.batch = 2;
    const auto tokens = tokens_of({1, 2, 3, 4, 0, 1, 2, 3});
    const auto targets = tokens_of({1, 2, 3, 4, 0, 1, 2, 3});
    auto loss = [&](const xt::xtensor<int, 1>& t, const xt::xtensor<int, 1>& y, const BatchOptions& o) {
        return attention::attention_model_loss(model, t, y, o);
    };
    CHECK_NOTHROW(loss(tokens, targets, options));
    BatchOptions zero = options;
    zero.batch = 0;
    REQUIRE_ARGUMENT_ERROR(loss(tokens, targets, zero), "batch");
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_forward(model, tokens, zero), "batch");
    BatchOptions huge = options;
    huge.batch = attention::limits::max_model_batch + 1;
    REQUIRE_ARGUMENT_ERROR(loss(tokens, targets, huge), "batch");
    REQUIRE_ARGUMENT_ERROR_WITH(loss(tokens_of({1, 2, 3}), targets, options), "tokens", "batch * length = 8");
    REQUIRE_ARGUMENT_ERROR(loss(tokens, tokens_of({1}), options), "targets");
    auto bad = tokens;
    bad(6) = 5;
    REQUIRE(ref::argument_error_of([&] { loss(bad, targets, options); }).index == 6u);
    REQUIRE_ARGUMENT_ERROR_WITH(loss(bad, targets, options), "tokens", "[0, 5)");
    bad(6) = -1;
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_forward(model, bad, options), "tokens");
    REQUIRE_ARGUMENT_ERROR(loss(tokens, bad, options), "targets");
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_accuracy(model, tokens, bad, options), "targets");
    BatchOptions lens = options;
    lens.valid_lens = tokens_of({4});
    REQUIRE_ARGUMENT_ERROR(loss(tokens, targets, lens), "validLens");
    lens.valid_lens = tokens_of({4, 0});
    REQUIRE_ARGUMENT_ERROR_WITH(loss(tokens, targets, lens), "validLens", "[1, 4]");
    REQUIRE(ref::argument_error_of([&] { loss(tokens, targets, lens); }).index == 1u);
    lens.valid_lens = tokens_of({5, 1});
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_forward(model, tokens, lens), "validLens");
    BatchOptions heads = options;
    heads.heads_off = tokens_of({0, 1});
    REQUIRE_ARGUMENT_ERROR_WITH(loss(tokens, targets, heads), "headsOff", "blocks * heads = 4");
    heads.heads_off = tokens_of({0, 1, 2, 0});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_model_accuracy(model, tokens, targets, heads), "headsOff", "0 (on) or 1 (off)");
    REQUIRE(ref::argument_error_of([&] { attention::attention_model_forward(model, tokens, heads); }).index == 2u);
    // A model whose parameters do not fit its config.
    AttentionModel broken = model;
    broken.values = xt::zeros<double>({3});
    REQUIRE_ARGUMENT_ERROR(attention::attention_model_forward(broken, tokens, options), "model");
    // The activations of one pass are limited as a whole.
    EncoderConfig wide;
    wide.length = 256, wide.hidden = 512, wide.heads = 64;
    const AttentionModel big = attention::init_attention_model(wide);
    BatchOptions many;
    many.batch = 64;
    xt::xtensor<int, 1> none = xt::zeros<int>({1});
    REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_model_forward(big, none, many), "batch", "numbers");
    // slot() names what it cannot find.
    REQUIRE_ARGUMENT_ERROR(model.slot("b7.Wq"), "name");
}

TEST_CASE("attention_model_loss: the same bits whatever was computed before (buffers are reused)", "[model]") {
    const AttentionModel ffn = attention::init_attention_model(small_config(5));
    EncoderConfig other_config;
    other_config.length = 3;
    other_config.vocab = 4;
    const AttentionModel other = attention::init_attention_model(other_config);
    BatchOptions two;
    two.batch = 2;
    two.valid_lens = tokens_of({3, 4});
    const auto tokens = tokens_of({1, 2, 3, 4, 0, 1, 2, 3});
    const auto first = attention::attention_model_loss(ffn, tokens, tokens, two);
    BatchOptions one;
    one.batch = 1;
    one.causal = true;
    attention::attention_model_loss(other, tokens_of({3, 0, 1}), tokens_of({0, 1, 2}), one);
    attention::attention_model_forward(other, tokens_of({3, 0, 1}), one);
    const auto again = attention::attention_model_loss(ffn, tokens, tokens, two);
    CHECK(first.loss == again.loss);
    CHECK_SAME_BITS(first.gradients, again.gradients);
}
