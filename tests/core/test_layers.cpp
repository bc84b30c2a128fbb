// Every layer of core/layers/ against d2l's PyTorch module (forward and
// autograd's backward, tests/references/layer_references.json) and its
// backward pass against central differences of its own forward pass. The
// backward passes are checked on sum(output * dout) for a drawn dout, as
// autograd's are.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "layer_checks.hpp"
#include "layers/embedding.hpp"
#include "layers/layer_norm.hpp"
#include "layers/linear.hpp"
#include "layers/multi_head_attention.hpp"
#include "layers/parameter_layout.hpp"
#include "layers/position_wise_ffn.hpp"
#include "training/softmax_cross_entropy.hpp"
#include "layers/positional_encoding.hpp"
#include "numerics/random.hpp"
#include "reference.hpp"

using namespace attention::layers;
using namespace ref;

TEST_CASE("linear: forward and backward match nn.Linear's, and central differences", "[layers]") {
    const auto& r = layer_references()["linear"];
    const LinearShape shape{r["rows"], r["in"], r["out"]};
    Values x = ref::values(r["x"]), weight = ref::values(r["weight"]), bias = ref::values(r["bias"]);
    const Values dout = ref::values(r["dout"]);
    std::vector<double> transposed;
    auto forward = [&] {
        Values y(shape.rows * shape.out);
        linear_forward(shape, x.data(), weight.data(), bias.data(), y.data(), transposed);
        return y;
    };
    CHECK_NEAR_REF(forward(), r["y"]);
    Values dweight(weight.size()), dbias(bias.size()), dx(x.size());
    linear_backward(shape, dout.data(), x.data(), weight.data(), dweight.data(), dbias.data(), dx.data());
    CHECK_NEAR_REF(dweight, r["dweight"]);
    CHECK_NEAR_REF(dbias, r["dbias"]);
    CHECK_NEAR_REF(dx, r["dx"]);
    const auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("x", x, dx, loss);
    check_central_differences("weight", weight, dweight, loss);
    check_central_differences("bias", bias, dbias, loss);

    // The backward pass accumulates: a second call adds the same again.
    linear_backward(shape, dout.data(), x.data(), weight.data(), dweight.data(), dbias.data(), dx.data());
    Values twice = ref::values(r["dx"]);
    for (double& v : twice) v *= 2;
    CHECK_NEAR_TOL(dx, twice, 1e-12);
}

TEST_CASE("linear_forward on tensors applies X W^T with W in nn.Linear layout", "[layers]") {
    const xt::xtensor<double, 3> x = {{{1.0, 2.0}, {3.0, 4.0}}, {{-1.0, 0.5}, {0.0, 0.0}}};
    const xt::xtensor<double, 2> w = {{1.0, 0.0}, {0.0, 1.0}, {2.0, -1.0}};  // out 3, in 2
    const auto y = attention::layers::linear_forward(x, w);
    const xt::xtensor<double, 3> expected = {{{1.0, 2.0, 0.0}, {3.0, 4.0, 2.0}},
                                             {{-1.0, 0.5, -2.5}, {0.0, 0.0, 0.0}}};
    CHECK_SAME_BITS(y, expected);
}

TEST_CASE("layer_norm and add_norm: d2l's AddNorm, forward and backward, and central differences", "[layers]") {
    const auto& r = layer_references()["addNorm"];
    const std::size_t rows = r["rows"], size = r["size"];
    Values x = ref::values(r["x"]), y = ref::values(r["y"]), gamma = ref::values(r["gamma"]), beta = ref::values(r["beta"]);
    const Values dout = ref::values(r["dout"]);
    LayerNormCache cache;
    auto forward = [&] {
        Values out(rows * size);
        add_norm_forward(x.data(), y.data(), rows, size, gamma.data(), beta.data(), cache, out.data());
        return out;
    };
    const Values out = forward();
    CHECK_NEAR_REF(out, r["out"]);
    // LayerNorm of the sum, summed first, is the same bits.
    Values sum(rows * size), plain(rows * size);
    for (std::size_t e = 0; e < sum.size(); ++e) sum[e] = x[e] + y[e];
    LayerNormCache plain_cache;
    layer_norm_forward(sum.data(), rows, size, gamma.data(), beta.data(), plain_cache, plain.data());
    CHECK_SAME_BITS(plain, out);

    Values dgamma(size), dbeta(size), dz(rows * size);
    std::vector<double> scratch;
    layer_norm_backward(dout.data(), cache, rows, size, gamma.data(), dgamma.data(), dbeta.data(), dz.data(), scratch);
    CHECK_NEAR_REF(dgamma, r["dgamma"]);
    CHECK_NEAR_REF(dbeta, r["dbeta"]);
    CHECK_NEAR_REF(dz, r["dx"]);  // the residual sum's gradient reaches both x ...
    CHECK_NEAR_REF(dz, r["dy"]);  // ... and y
    const auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("x", x, dz, loss);
    check_central_differences("gamma", gamma, dgamma, loss);
    check_central_differences("beta", beta, dbeta, loss);
}

namespace {

// d2l's MultiHeadAttention on one reference case: the forward pass, autograd's
// gradients, and central differences of the inputs and the weights.
void check_attention_case(const nlohmann::json& r) {
    const AttentionShape shape{r["batch"], r["queries"], r["keys"], r["hidden"], r["heads"]};
    const bool same = r["sameSequence"];
    const std::vector<int> valid_lens = r["validLens"].get<std::vector<int>>();
    std::vector<std::size_t> visible;
    visible_keys(shape, valid_lens.data(), r["causal"], visible);
    Values queries = ref::values(r["queriesIn"]), keys = ref::values(r["keysIn"]), values = ref::values(r["valuesIn"]);
    Values wq = ref::values(r["Wq"]), wk = ref::values(r["Wk"]), wv = ref::values(r["Wv"]), wo = ref::values(r["Wo"]);
    const Values dout = ref::values(r["dout"]);
    AttentionCache cache;
    std::vector<double> transposed;
    // Self-attention reads one array three times; perturbing it perturbs all three.
    auto forward = [&] {
        Values out(shape.batch * shape.queries * shape.hidden);
        const double* k = same ? queries.data() : keys.data();
        const double* v = same ? queries.data() : values.data();
        multi_head_attention_forward(shape, queries.data(), k, v, visible.data(),
                                     {wq.data(), wk.data(), wv.data(), wo.data()}, cache, out.data(), transposed);
        return out;
    };
    CHECK_NEAR_REF(forward(), r["out"]);
    CHECK_NEAR_REF(cache.weights, r["weights"]);

    Values dwq(wq.size()), dwk(wk.size()), dwv(wv.size()), dwo(wo.size());
    Values dqueries(queries.size()), dkeys(keys.size()), dvalues(values.size());
    AttentionScratch scratch;
    multi_head_attention_backward(shape, queries.data(), same ? queries.data() : keys.data(),
                                  same ? queries.data() : values.data(), visible.data(),
                                  {wq.data(), wk.data(), wv.data(), wo.data()}, cache, dout.data(),
                                  {dwq.data(), dwk.data(), dwv.data(), dwo.data()}, dqueries.data(),
                                  same ? dqueries.data() : dkeys.data(), same ? dqueries.data() : dvalues.data(),
                                  scratch);
    CHECK_NEAR_REF(dwq, r["dWq"]);
    CHECK_NEAR_REF(dwk, r["dWk"]);
    CHECK_NEAR_REF(dwv, r["dWv"]);
    CHECK_NEAR_REF(dwo, r["dWo"]);
    CHECK_NEAR_REF(dqueries, r["dqueries"]);
    const auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("queries", queries, dqueries, loss);
    check_central_differences("Wq", wq, dwq, loss);
    check_central_differences("Wk", wk, dwk, loss);
    check_central_differences("Wv", wv, dwv, loss);
    check_central_differences("Wo", wo, dwo, loss);
    if (!same) {
        CHECK_NEAR_REF(dkeys, r["dkeys"]);
        CHECK_NEAR_REF(dvalues, r["dvalues"]);
        check_central_differences("keys", keys, dkeys, loss);
        check_central_differences("values", values, dvalues, loss);
    }
}

}  // namespace

TEST_CASE("multi-head attention between two sequences (3 queries, 5 keys, valid lengths 4 and 2)", "[layers]") {
    check_attention_case(layer_references()["crossAttention"]);
}

TEST_CASE("multi-head causal self-attention with valid lengths (one array as queries, keys and values)",
          "[layers]") {
    check_attention_case(layer_references()["causalSelfAttention"]);
}

TEST_CASE("multi-head attention's extras (the page's) change nothing the models get, and give every score",
          "[layers]") {
    const auto& r = layer_references()["crossAttention"];
    const AttentionShape shape{r["batch"], r["queries"], r["keys"], r["hidden"], r["heads"]};
    const std::vector<int> valid_lens = r["validLens"].get<std::vector<int>>();
    std::vector<std::size_t> visible;
    visible_keys(shape, valid_lens.data(), false, visible);
    const Values queries = ref::values(r["queriesIn"]), keys = ref::values(r["keysIn"]),
                 values = ref::values(r["valuesIn"]);
    const Values wq = ref::values(r["Wq"]), wk = ref::values(r["Wk"]), wv = ref::values(r["Wv"]),
                 wo = ref::values(r["Wo"]);
    std::vector<double> transposed;
    auto forward = [&](AttentionCache& cache, const int* heads_off, const AttentionExtras& extras) {
        Values out(shape.batch * shape.queries * shape.hidden);
        multi_head_attention_forward(shape, queries.data(), keys.data(), values.data(), visible.data(),
                                     {wq.data(), wk.data(), wv.data(), wo.data()}, cache, out.data(), transposed,
                                     heads_off, extras);
        return out;
    };
    AttentionCache plain_cache, cache;
    const Values plain = forward(plain_cache, nullptr, {});
    const std::size_t nq = shape.queries, nk = shape.keys;
    Values scores(shape.batch * shape.heads * nq * nk, -1.0);
    const Values ones(shape.heads, 1.0);
    CHECK_SAME_BITS(forward(cache, nullptr, {ones.data(), scores.data()}), plain);
    CHECK_SAME_BITS(cache.weights, plain_cache.weights);
    // Every score, masked ones too: q.k / sqrt(d), whose softmax over the visible keys is the weights.
    const std::size_t dh = shape.hidden / shape.heads;
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t h = 0; h < shape.heads; ++h)
            for (std::size_t i = 0; i < nq; ++i) {
                const double* s = scores.data() + ((b * shape.heads + h) * nq + i) * nk;
                double top = s[0], sum = 0.0;
                for (std::size_t j = 1; j < visible[b * nq + i]; ++j) top = std::max(top, s[j]);
                for (std::size_t j = 0; j < visible[b * nq + i]; ++j) sum += std::exp(s[j] - top);
                for (std::size_t j = 0; j < nk; ++j) {
                    double dot = 0.0;
                    for (std::size_t c = 0; c < dh; ++c)
                        dot += plain_cache.q[(b * nq + i) * shape.hidden + h * dh + c] *
                               plain_cache.k[(b * nk + j) * shape.hidden + h * dh + c];
                    CHECK(s[j] == Approx(dot / std::sqrt(static_cast<double>(dh))).margin(1e-15));
                    const double weight = j < visible[b * nq + i] ? std::exp(s[j] - top) / sum : 0.0;
                    CHECK(cache.weights[((b * shape.heads + h) * nq + i) * nk + j] == Approx(weight).margin(1e-15));
                }
            }
    // The flags are factors 0 and 1: the same outputs (a factor 0 may leave -0 where a flag leaves 0).
    const std::vector<int> flags{0, 1};
    const Values factors{1.0, 0.0};
    REQUIRE(shape.heads == 2);
    const Values flagged = forward(plain_cache, flags.data(), {}), scaled = forward(cache, nullptr, {factors.data()});
    REQUIRE(flagged.size() == scaled.size());
    for (std::size_t i = 0; i < flagged.size(); ++i) CHECK(flagged[i] == scaled[i]);
    for (std::size_t i = 0; i < cache.concat.size(); ++i) CHECK(cache.concat[i] == plain_cache.concat[i]);
}

TEST_CASE("visible_keys: the valid length, and with causal at most the query's position + 1", "[layers]") {
    const AttentionShape shape{2, 4, 6, 4, 1};
    const std::vector<int> valid_lens{3, 6};
    std::vector<std::size_t> visible;
    visible_keys(shape, valid_lens.data(), false, visible);
    CHECK(visible == std::vector<std::size_t>{3, 3, 3, 3, 6, 6, 6, 6});
    visible_keys(shape, valid_lens.data(), true, visible);
    CHECK(visible == std::vector<std::size_t>{1, 2, 3, 3, 1, 2, 3, 4});
    visible_keys(shape, nullptr, false, visible);
    CHECK(visible == std::vector<std::size_t>(8, 6));
}

TEST_CASE("position-wise FFN: d2l's, forward and backward, and central differences", "[layers]") {
    const auto& r = layer_references()["positionWiseFfn"];
    const FfnShape shape{r["rows"], r["hidden"], r["inner"]};
    Values x = ref::values(r["x"]), w1 = ref::values(r["W1"]), b1 = ref::values(r["b1"]), w2 = ref::values(r["W2"]),
           b2 = ref::values(r["b2"]);
    const Values dout = ref::values(r["dout"]);
    FfnCache cache;
    std::vector<double> transposed;
    auto forward = [&] {
        Values out(shape.rows * shape.hidden);
        position_wise_ffn_forward(shape, x.data(), {w1.data(), b1.data(), w2.data(), b2.data()}, cache, out.data(),
                                  transposed);
        return out;
    };
    CHECK_NEAR_REF(forward(), r["out"]);
    Values dw1(w1.size()), db1(b1.size()), dw2(w2.size()), db2(b2.size()), dx(x.size());
    std::vector<double> dactivation;
    position_wise_ffn_backward(shape, x.data(), {w1.data(), b1.data(), w2.data(), b2.data()}, cache, dout.data(),
                               {dw1.data(), db1.data(), dw2.data(), db2.data()}, dx.data(), dactivation);
    CHECK_NEAR_REF(dw1, r["dW1"]);
    CHECK_NEAR_REF(db1, r["db1"]);
    CHECK_NEAR_REF(dw2, r["dW2"]);
    CHECK_NEAR_REF(db2, r["db2"]);
    CHECK_NEAR_REF(dx, r["dx"]);
    const auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("x", x, dx, loss);
    check_central_differences("W1", w1, dw1, loss);
    check_central_differences("b1", b1, db1, loss);
    check_central_differences("W2", w2, dw2, loss);
    check_central_differences("b2", b2, db2, loss);
}

TEST_CASE("embedding scaled, plus the positional encoding: forward and backward, and central differences",
          "[layers]") {
    const auto& r = layer_references()["embedding"];
    const EmbeddingShape shape{r["rows"], r["length"], r["hidden"]};
    const double scale = r["scale"];
    const std::vector<int> tokens = integers(r["tokens"]);
    Values table = ref::values(r["table"]);
    const Values dout = ref::values(r["dout"]);
    const auto encoding = attention::positional_encoding(shape.length, shape.hidden);
    auto forward = [&] {
        Values x(shape.rows * shape.hidden);
        embedding_forward(shape, tokens.data(), table.data(), scale, encoding.data(), x.data());
        return x;
    };
    CHECK_NEAR_REF(forward(), r["x"]);
    Values dtable(table.size());
    embedding_backward(shape, tokens.data(), scale, dout.data(), dtable.data());
    CHECK_NEAR_REF(dtable, r["dtable"]);
    check_central_differences("table", table, dtable, [&] { return weighted_sum(forward(), dout); });
}

TEST_CASE("softmax cross-entropy per row, with divisors (0: the row takes no part)", "[layers]") {
    const auto& r = layer_references()["crossEntropy"];
    const std::size_t rows = r["rows"], classes = r["classes"];
    Values logits = ref::values(r["logits"]);
    const std::vector<int> targets = integers(r["targets"]);
    const Values divisors = ref::values(r["divisors"]);
    Values losses(rows), dlogits(rows * classes);
    auto loss = [&] {
        Values l(rows), d(rows * classes);
        softmax_cross_entropy(logits.data(), rows, classes, targets.data(), divisors.data(), l.data(), d.data());
        double total = 0.0;
        for (std::size_t k = 0; k < rows; ++k)
            if (divisors[k] != 0.0) total += l[k] / divisors[k];
        return total;
    };
    softmax_cross_entropy(logits.data(), rows, classes, targets.data(), divisors.data(), losses.data(),
                          dlogits.data());
    CHECK_NEAR_REF(losses, r["losses"]);
    CHECK_NEAR_REF(dlogits, r["dlogits"]);
    check_central_differences("logits", logits, dlogits, loss);
}

TEST_CASE("LayoutBuilder: names under prefixes, offsets in order, handles, and counting without names",
          "[layers]") {
    std::vector<attention::ParameterSlot> slots;
    attention::LayoutBuilder layout(&slots);
    const auto embedding = layout.add("embedding", {3, 2}, attention::Init::normal());
    attention::LayoutBuilder decoder = layout.under("decoder.");
    attention::LayoutBuilder block = decoder.under("blks.block", 1, ".");
    const auto gamma = block.add("addnorm1.ln.weight", {2}, attention::Init::constant(1.0));
    const auto dense = decoder.add("dense.weight", {4, 2}, attention::Init::linear(4));
    REQUIRE(slots.size() == 3);
    CHECK(slots[0].name == "embedding");
    CHECK(slots[1].name == "decoder.blks.block1.addnorm1.ln.weight");
    CHECK(slots[2].name == "decoder.dense.weight");
    CHECK(slots[2].shape == std::vector<std::size_t>{4, 2});
    CHECK((embedding.offset == 0 && embedding.size == 6));
    CHECK((gamma.offset == 6 && gamma.size == 2));
    CHECK((dense.offset == 8 && dense.size == 8));
    CHECK(layout.parameters() == 16);
    CHECK(layout.slots() == 3);
    CHECK(slots[2].init.value == 0.5);  // 1 / sqrt(fan_in 4)

    // Counting alone gives the same handles and builds no names.
    attention::LayoutBuilder counter;
    counter.add("embedding", {3, 2}, attention::Init::normal());
    const auto counted = counter.under("decoder.").under("blks.block", 1, ".").add("x", {2}, attention::Init::normal());
    CHECK(counted.offset == gamma.offset);
    CHECK(counter.slots() == 2);

    // Initialisation in layout order: constants take no draw.
    Values values(16);
    attention::Random random(5), replay(5);
    attention::initialise_parameters(slots, random, values.data());
    for (std::size_t e = 0; e < 6; ++e) CHECK(values[e] == replay.normal());
    CHECK((values[6] == 1.0 && values[7] == 1.0));
    for (std::size_t e = 8; e < 16; ++e) CHECK(values[e] == -0.5 + 2.0 * 0.5 * replay.uniform());
}
