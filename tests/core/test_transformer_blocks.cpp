// The Transformer's blocks (core/layers/encoder_block, decoder_block): d2l's
// DecoderBlock against PyTorch (tests/references/layer_references.json, made
// by make_layer_references.py), and both blocks' backward passes against
// central differences of their own forward passes, on sum(output * dout).
#include <cstddef>
#include <string>
#include <vector>

#include "layer_checks.hpp"
#include "layers/decoder_block.hpp"
#include "layers/encoder_block.hpp"
#include "layers/parameter_layout.hpp"
#include "numerics/random.hpp"
#include "reference.hpp"

using namespace attention;
using namespace attention::layers;
using namespace ref;

TEST_CASE("decoder_block: d2l's DecoderBlock in PyTorch, forward and backward, and central differences",
          "[transformer-blocks]") {
    const auto& r = layer_references()["decoderBlock"];
    const DecoderBlockShape shape{r["batch"], r["queries"], r["keys"], r["hidden"], r["heads"], r["ffnHidden"]};
    std::vector<ParameterSlot> layout;
    LayoutBuilder builder(&layout);
    const DecoderBlockHandles k = describe_decoder_block(builder, shape.hidden, shape.ffn_hidden);
    // d2l's names, each given once by the reference.
    REQUIRE(layout.size() == r["params"].size());
    Values params(builder.parameters());
    for (const auto& slot : layout) {
        INFO(slot.name);
        REQUIRE(r["params"].contains(slot.name));
        const Values given = ref::values(r["params"][slot.name]);
        REQUIRE(given.size() == slot.size);
        std::copy(given.begin(), given.end(), params.begin() + slot.offset);
    }
    Values x = ref::values(r["x"]), enc = ref::values(r["enc"]);
    const Values dout = ref::values(r["dout"]);
    std::vector<int> enc_lens;
    for (double v : ref::values(r["encValidLens"])) enc_lens.push_back(static_cast<int>(v));
    std::vector<std::size_t> self_visible, cross_visible;
    visible_keys(shape.self_attention(), nullptr, true, self_visible);
    visible_keys(shape.cross_attention(), enc_lens.data(), false, cross_visible);

    DecoderBlockCache cache;
    DecoderBlockScratch scratch;
    auto forward = [&] {
        Values out(shape.rows() * shape.hidden);
        decoder_block_forward(shape, x.data(), enc.data(), self_visible.data(), cross_visible.data(),
                              k.weights(params.data()), cache, out.data(), scratch);
        return out;
    };
    const Values out = forward();
    CHECK_NEAR_REF(out, r["out"]);
    CHECK_NEAR_REF(cache.attention1.weights, r["selfWeights"]);
    CHECK_NEAR_REF(cache.attention2.weights, r["crossWeights"]);

    Values grads(params.size(), 0.0), dx(x.size()), denc(enc.size(), 0.0);
    decoder_block_backward(shape, x.data(), enc.data(), self_visible.data(), cross_visible.data(),
                           k.weights(params.data()), cache, dout.data(), k.gradients(grads.data()), dx.data(),
                           denc.data(), scratch);
    CHECK_NEAR_REF(dx, r["dx"]);
    CHECK_NEAR_REF(denc, r["denc"]);
    for (const auto& slot : layout) {
        INFO(slot.name);
        CHECK_NEAR_REF(Values(grads.begin() + slot.offset, grads.begin() + slot.offset + slot.size),
                       r["grads"][slot.name]);
    }

    const auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("x", x, dx, loss);
    check_central_differences("enc", enc, denc, loss);
    check_central_differences("parameters", params, grads, loss);

    // dx may be dout's own array; denc accumulates (a second pass adds the same again).
    forward();
    Values in_place = dout, grads2(params.size(), 0.0), denc2 = denc;
    decoder_block_backward(shape, x.data(), enc.data(), self_visible.data(), cross_visible.data(),
                           k.weights(params.data()), cache, in_place.data(), k.gradients(grads2.data()),
                           in_place.data(), denc2.data(), scratch);
    CHECK_SAME_BITS(in_place, dx);
    CHECK_SAME_BITS(grads2, grads);
    for (std::size_t e = 0; e < denc.size(); ++e) denc[e] *= 2;
    CHECK_NEAR_TOL(denc2, denc, 1e-12);
}

TEST_CASE("encoder_block: both kinds' backward passes agree with central differences", "[transformer-blocks]") {
    for (const std::size_t ffn : {std::size_t{0}, std::size_t{5}}) {
        INFO("ffn_hidden " << ffn);
        const EncoderBlockShape shape{2, 4, 6, 3, ffn};
        std::vector<ParameterSlot> layout;
        LayoutBuilder builder(&layout);
        EncoderBlockHandles k;
        if (ffn > 0) {
            k = describe_d2l_encoder_block(builder, shape.hidden, ffn);
            CHECK(layout.front().name == "attention.W_q.weight");
            CHECK(layout.back().name == "addnorm2.ln.bias");
        } else {
            k.wq = builder.add("Wq", {6, 6}, Init::linear(6));
            k.wk = builder.add("Wk", {6, 6}, Init::linear(6));
            k.wv = builder.add("Wv", {6, 6}, Init::linear(6));
            k.wo = builder.add("Wo", {6, 6}, Init::linear(6));
        }
        Random random(5 + static_cast<std::uint32_t>(ffn));
        Values params(builder.parameters());
        initialise_parameters(layout, random, params.data());
        // LayerNorm's gammas and betas away from 1 and 0, so that their gradients are exercised.
        for (const auto& slot : layout)
            if (slot.name.find(".ln.") != std::string::npos)
                for (std::size_t e = 0; e < slot.size; ++e) params[slot.offset + e] += 0.1 * random.normal();
        Values x = drawn(random, shape.rows() * shape.hidden);
        const Values dout = drawn(random, x.size());
        const int valid_lens[] = {3, 4};
        std::vector<std::size_t> visible;
        visible_keys(shape.attention(), valid_lens, ffn == 0, visible);
        EncoderBlockCache cache;
        EncoderBlockScratch scratch;
        auto forward = [&] {
            Values out(x.size());
            encoder_block_forward(shape, x.data(), visible.data(), k.weights(params.data()), cache, out.data(),
                                  scratch);
            return out;
        };
        forward();
        Values grads(params.size(), 0.0), dx(x.size());
        encoder_block_backward(shape, x.data(), visible.data(), k.weights(params.data()), cache, dout.data(),
                               k.gradients(grads.data()), dx.data(), scratch);
        const auto loss = [&] { return weighted_sum(forward(), dout); };
        check_central_differences("x", x, dx, loss);
        check_central_differences("parameters", params, grads, loss);
    }
}
