// The recurrent model's layers (core/layers/gru, core/layers/additive_attention)
// against PyTorch (tests/references/layer_references.json: nn.GRUCell; nn.GRU
// one-directional, bidirectional, and two layers bidirectional, composed
// from the layer functions as the Bahdanau encoder composes them; d2l's
// AdditiveAttention), forward and backward (autograd's of sum(out * dout)),
// and the backward passes against central differences of the forward passes.
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "layer_checks.hpp"
#include "layers/additive_attention.hpp"
#include "layers/gru.hpp"
#include "layers/parameter_layout.hpp"
#include "reference.hpp"
#include "numerics/vector_math.hpp"

using namespace attention::layers;
using namespace ref;

// tanh within 1e-15 absolute; sigmoid relative, its error growing with |x| as
// exp's does (the exponent's own rounding): about 3e-15 at |x| = 29.
TEST_CASE("vector_math tanh and sigmoid: close to the standard library's", "[recurrent]") {
    double worst_tanh = 0.0, worst_sigmoid = 0.0;
    for (int i = -4000; i <= 4000; ++i) {
        const double x = i * 0.00731;
        worst_tanh = std::max(worst_tanh, std::abs(attention::vector_math::tanh(x) - std::tanh(x)));
        const double sigmoid = 1.0 / (1.0 + std::exp(-x));
        worst_sigmoid = std::max(worst_sigmoid, std::abs(attention::vector_math::sigmoid(x) - sigmoid) / sigmoid);
    }
    CHECK(worst_tanh < 1e-15);
    CHECK(worst_sigmoid < 1e-14);
    CHECK(attention::vector_math::tanh(1e300) == 1.0);
    CHECK(attention::vector_math::tanh(-1e300) == -1.0);
    CHECK(attention::vector_math::sigmoid(-1e300) == 0.0);
    CHECK(attention::vector_math::sigmoid(1e300) == 1.0);
    CHECK(std::isnan(attention::vector_math::tanh(std::nan(""))));
    CHECK(std::isnan(attention::vector_math::sigmoid(std::nan(""))));
}

TEST_CASE("Init::xavier: U(-b, b) with b = sqrt(6 / (fan_in + fan_out))", "[recurrent]") {
    const attention::Init init = attention::Init::xavier(32, 96);
    CHECK(init.kind == attention::Init::Kind::uniform);
    CHECK(init.value == std::sqrt(6.0 / 128.0));
}

TEST_CASE("GRU cell: nn.GRUCell's forward and backward, and central differences", "[recurrent]") {
    const auto& r = layer_references()["gruCell"];
    const GruCellShape shape{r["batch"], r["in"], r["hidden"]};
    Values x = ref::values(r["x"]), h = ref::values(r["h"]);
    Values wih = ref::values(r["weight_ih"]), whh = ref::values(r["weight_hh"]), bih = ref::values(r["bias_ih"]),
           bhh = ref::values(r["bias_hh"]);
    const Values dout = ref::values(r["dout"]);
    GruCellCache cache;
    auto forward = [&] {
        Values out(shape.batch * shape.hidden);
        gru_cell_forward(shape, x.data(), h.data(), {wih.data(), whh.data(), bih.data(), bhh.data()}, out.data(),
                         cache);
        return out;
    };
    CHECK_NEAR_REF(forward(), r["out"]);
    Values dwih(wih.size(), 0.0), dwhh(whh.size(), 0.0), dbih(bih.size(), 0.0), dbhh(bhh.size(), 0.0);
    Values dx(x.size(), 0.0), dh(h.size(), 0.0);
    gru_cell_backward(shape, x.data(), h.data(), {wih.data(), whh.data(), bih.data(), bhh.data()}, cache,
                      dout.data(), {dwih.data(), dwhh.data(), dbih.data(), dbhh.data()}, dx.data(), dh.data());
    CHECK_NEAR_REF(dwih, r["dweight_ih"]);
    CHECK_NEAR_REF(dwhh, r["dweight_hh"]);
    CHECK_NEAR_REF(dbih, r["dbias_ih"]);
    CHECK_NEAR_REF(dbhh, r["dbias_hh"]);
    CHECK_NEAR_REF(dx, r["dx"]);
    CHECK_NEAR_REF(dh, r["dh"]);
    auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("x", x, dx, loss);
    check_central_differences("h", h, dh, loss);
    check_central_differences("weight_ih", wih, dwih, loss);
    check_central_differences("weight_hh", whh, dwhh, loss);
    check_central_differences("bias_ih", bih, dbih, loss);
    check_central_differences("bias_hh", bhh, dbhh, loss);
}

namespace {

// nn.GRU of `layers` layers, one or two directions, composed from
// gru_layer_forward/backward as the Bahdanau encoder composes them: a
// bidirectional layer's output is [forward, backward] per row, the next
// layer's input; the final states are ordered layer by layer, forward first.
struct GruStack {
    std::size_t steps, batch, in, hidden, layers, directions;
    std::map<std::string, Values> params;  // by nn.GRU's names
    Values x, h0;

    explicit GruStack(const nlohmann::json& r)
        : steps(r["steps"]), batch(r["batch"]), in(r["in"]), hidden(r["hidden"]), layers(r["layers"]),
          directions(r["bidirectional"].get<bool>() ? 2 : 1), x(ref::values(r["x"])), h0(ref::values(r["h0"])) {
        for (const auto& name : r["names"]) params[name.get<std::string>()] = ref::values(r[name.get<std::string>()]);
    }

    static std::string suffix(std::size_t layer, std::size_t direction) {
        return "_l" + std::to_string(layer) + (direction ? "_reverse" : "");
    }
    GruWeights weights(std::size_t layer, std::size_t direction) const {
        const std::string s = suffix(layer, direction);
        return {params.at("weight_ih" + s).data(), params.at("weight_hh" + s).data(),
                params.at("bias_ih" + s).data(), params.at("bias_hh" + s).data()};
    }
    GruLayerShape shape(std::size_t layer, std::size_t direction) const {
        return {steps, batch, layer == 0 ? in : directions * hidden, hidden, direction == 1};
    }

    // Each layer's input (the layer below's concatenated outputs), each direction's outputs, the caches.
    std::vector<Values> inputs, outputs;
    std::vector<GruLayerCache> caches;

    // out: steps * batch x directions * hidden; hn: layers * directions x batch x hidden.
    void forward(Values& out, Values& hn) {
        const std::size_t rows = steps * batch, width = directions * hidden;
        inputs.assign(layers, Values());
        outputs.assign(layers * directions, Values(rows * hidden));
        caches.resize(layers * directions);
        hn.assign(layers * directions * batch * hidden, 0.0);
        inputs[0] = x;
        for (std::size_t l = 0; l < layers; ++l) {
            Values& next = l + 1 < layers ? inputs[l + 1] : out;
            next.assign(rows * width, 0.0);
            for (std::size_t d = 0; d < directions; ++d) {
                const std::size_t k = l * directions + d;
                gru_layer_forward(shape(l, d), inputs[l].data(), h0.data() + k * batch * hidden, weights(l, d),
                                  caches[k], outputs[k].data());
                for (std::size_t row = 0; row < rows; ++row)
                    for (std::size_t c = 0; c < hidden; ++c)
                        next[row * width + d * hidden + c] = outputs[k][row * hidden + c];
                const double* final = outputs[k].data() + gru_final_time(shape(l, d)) * batch * hidden;
                std::copy(final, final + batch * hidden, hn.data() + k * batch * hidden);
            }
        }
    }

    // After forward: gradients by parameter name, of x and of h0.
    void backward(const Values& dout, const Values& dhn, std::map<std::string, Values>& grads, Values& dx,
                  Values& dh0) {
        const std::size_t rows = steps * batch, width = directions * hidden;
        for (const auto& [name, values] : params) grads[name].assign(values.size(), 0.0);
        dh0.assign(h0.size(), 0.0);
        Values dnext = dout;  // the gradient of the layer's concatenated outputs
        for (std::size_t l = layers; l-- > 0;) {
            Values dinput(rows * (l == 0 ? in : width), 0.0);
            for (std::size_t d = 0; d < directions; ++d) {
                const std::size_t k = l * directions + d;
                Values doutputs(rows * hidden);
                for (std::size_t row = 0; row < rows; ++row)
                    for (std::size_t c = 0; c < hidden; ++c)
                        doutputs[row * hidden + c] = dnext[row * width + d * hidden + c];
                const std::string s = suffix(l, d);
                gru_layer_backward(shape(l, d), inputs[l].data(), h0.data() + k * batch * hidden, weights(l, d),
                                   caches[k], outputs[k].data(), doutputs.data(), dhn.data() + k * batch * hidden,
                                   {grads["weight_ih" + s].data(), grads["weight_hh" + s].data(),
                                    grads["bias_ih" + s].data(), grads["bias_hh" + s].data()},
                                   dinput.data(), dh0.data() + k * batch * hidden);
            }
            dnext = std::move(dinput);
        }
        dx = std::move(dnext);
    }
};

void check_gru_stack(const nlohmann::json& r) {
    GruStack stack(r);
    const Values dout = ref::values(r["dout"]), dhn = ref::values(r["dhn"]);
    Values out, hn;
    stack.forward(out, hn);
    CHECK_NEAR_REF(out, r["out"]);
    CHECK_NEAR_REF(hn, r["hn"]);
    std::map<std::string, Values> grads;
    Values dx, dh0;
    stack.backward(dout, dhn, grads, dx, dh0);
    for (const auto& [name, values] : grads) {
        INFO(name);
        CHECK_NEAR_REF(values, r["d" + name]);
    }
    CHECK_NEAR_REF(dx, r["dx"]);
    CHECK_NEAR_REF(dh0, r["dh0"]);

    auto loss = [&] {
        Values o, h;
        stack.forward(o, h);
        return weighted_sum(o, dout) + weighted_sum(h, dhn);
    };
    check_central_differences("x", stack.x, dx, loss);
    check_central_differences("h0", stack.h0, dh0, loss);
    for (auto& [name, values] : stack.params) check_central_differences(name, values, grads[name], loss);
}

}  // namespace

TEST_CASE("GRU layer over time: nn.GRU (one layer, one direction) from a given h0", "[recurrent]") {
    check_gru_stack(layer_references()["gru"]);
}

TEST_CASE("GRU layer over time in reverse: nn.GRU bidirectional, one layer", "[recurrent]") {
    check_gru_stack(layer_references()["gruBidirectional"]);
}

TEST_CASE("GRU layers composed: nn.GRU of two bidirectional layers", "[recurrent]") {
    check_gru_stack(layer_references()["gruDeepBidirectional"]);
}

TEST_CASE("GRU layer over one time step is the cell", "[recurrent]") {
    const auto& r = layer_references()["gruCell"];
    const std::size_t batch = r["batch"], in = r["in"], hidden = r["hidden"];
    const Values x = ref::values(r["x"]), h = ref::values(r["h"]), wih = ref::values(r["weight_ih"]),
                 whh = ref::values(r["weight_hh"]), bih = ref::values(r["bias_ih"]), bhh = ref::values(r["bias_hh"]);
    const GruWeights w{wih.data(), whh.data(), bih.data(), bhh.data()};
    GruLayerCache cache;
    Values out(batch * hidden);
    for (bool reverse : {false, true}) {
        gru_layer_forward({1, batch, in, hidden, reverse}, x.data(), h.data(), w, cache, out.data());
        CHECK_NEAR_REF(out, r["out"]);
    }
}

TEST_CASE("additive attention: d2l's AdditiveAttention with valid lengths (1 among them), and central differences",
          "[recurrent]") {
    const auto& r = layer_references()["additiveAttention"];
    const AdditiveShape shape{r["batch"],   r["queries"],   r["keys"],  r["querySize"],
                              r["keySize"], r["valueSize"], r["hidden"]};
    Values queries = ref::values(r["queriesIn"]), keys = ref::values(r["keysIn"]), values = ref::values(r["valuesIn"]);
    Values wq = ref::values(r["Wq"]), wk = ref::values(r["Wk"]), wv = ref::values(r["wv"]);
    const Values dout = ref::values(r["dout"]);
    std::vector<int> valid_lens;
    for (const auto& v : r["validLens"]) valid_lens.push_back(v.get<int>());
    AdditiveCache cache;
    std::vector<double> transposed;
    Values projected(shape.batch * shape.keys * shape.hidden);
    auto forward = [&] {
        Values out(shape.batch * shape.queries * shape.value_size);
        additive_keys_forward(shape, keys.data(), wk.data(), projected.data(), transposed);
        additive_attention_forward(shape, queries.data(), projected.data(), values.data(), valid_lens.data(),
                                   wq.data(), wv.data(), cache, out.data(), transposed);
        return out;
    };
    CHECK_NEAR_REF(forward(), r["out"]);
    CHECK_NEAR_REF(cache.weights, r["weights"]);
    Values dwq(wq.size(), 0.0), dwk(wk.size(), 0.0), dwv(wv.size(), 0.0), dqueries(queries.size(), 0.0),
        dkeys(keys.size(), 0.0), dvalues(values.size(), 0.0), dprojected(projected.size(), 0.0);
    AdditiveScratch scratch;
    additive_attention_backward(shape, queries.data(), values.data(), wq.data(), wv.data(), cache, dout.data(), dwq.data(), dwv.data(), dqueries.data(),
                                dprojected.data(), dvalues.data(), scratch);
    additive_keys_backward(shape, keys.data(), wk.data(), dprojected.data(), dwk.data(), dkeys.data());
    CHECK_NEAR_REF(dwq, r["dWq"]);
    CHECK_NEAR_REF(dwk, r["dWk"]);
    CHECK_NEAR_REF(dwv, r["dwv"]);
    CHECK_NEAR_REF(dqueries, r["dqueries"]);
    CHECK_NEAR_REF(dkeys, r["dkeys"]);
    CHECK_NEAR_REF(dvalues, r["dvalues"]);
    auto loss = [&] { return weighted_sum(forward(), dout); };
    check_central_differences("queries", queries, dqueries, loss);
    check_central_differences("keys", keys, dkeys, loss);
    check_central_differences("values", values, dvalues, loss);
    check_central_differences("Wq", wq, dwq, loss);
    check_central_differences("Wk", wk, dwk, loss);
    check_central_differences("wv", wv, dwv, loss);
}

TEST_CASE("additive attention's extras (the page's) change nothing the models get, and give every score",
          "[recurrent]") {
    const auto& r = layer_references()["additiveAttention"];
    const AdditiveShape shape{r["batch"],   r["queries"],   r["keys"],  r["querySize"],
                              r["keySize"], r["valueSize"], r["hidden"]};
    const Values queries = ref::values(r["queriesIn"]), keys = ref::values(r["keysIn"]),
                 values = ref::values(r["valuesIn"]);
    const Values wq = ref::values(r["Wq"]), wk = ref::values(r["Wk"]), wv = ref::values(r["wv"]);
    std::vector<int> valid_lens;
    for (const auto& v : r["validLens"]) valid_lens.push_back(v.get<int>());
    std::vector<double> transposed;
    Values projected(shape.batch * shape.keys * shape.hidden);
    additive_keys_forward(shape, keys.data(), wk.data(), projected.data(), transposed);
    auto forward = [&](AdditiveCache& cache, const int* lens, const AdditiveExtras& extras) {
        Values out(shape.batch * shape.queries * shape.value_size);
        additive_attention_forward(shape, queries.data(), projected.data(), values.data(), lens, wq.data(),
                                   wv.data(), cache, out.data(), transposed, extras);
        return out;
    };
    AdditiveCache plain_cache, cache;
    const Values plain = forward(plain_cache, valid_lens.data(), {});
    // The items' lengths given per query row, every score asked, the features not kept: the same bits.
    const std::size_t nq = shape.queries, nk = shape.keys;
    std::vector<std::size_t> visible(shape.batch * nq);
    for (std::size_t row = 0; row < visible.size(); ++row) visible[row] = valid_lens[row / nq];
    Values scores(shape.batch * nq * nk, 0.0), weights(scores.size(), -1.0);
    CHECK_SAME_BITS(forward(cache, nullptr, {visible.data(), scores.data(), weights.data()}), plain);
    CHECK_SAME_BITS(weights, plain_cache.weights);
    CHECK(cache.features.size() == shape.hidden);
    CHECK(cache.weights.empty());
    // Every score, masked ones too: w_v . tanh(Wq q + Wk k).
    for (std::size_t b = 0; b < shape.batch; ++b)
        for (std::size_t i = 0; i < nq; ++i)
            for (std::size_t j = 0; j < nk; ++j) {
                double score = 0.0;
                for (std::size_t c = 0; c < shape.hidden; ++c)
                    score += wv[c] * std::tanh(plain_cache.projected_queries[(b * nq + i) * shape.hidden + c] +
                                               projected[(b * nk + j) * shape.hidden + c]);
                CHECK(scores[(b * nq + i) * nk + j] == Approx(score).margin(1e-14));
            }
    // A length per query row: each row sees its own keys.
    for (std::size_t row = 0; row < visible.size(); ++row) visible[row] = 1 + row % nk;
    const Values per_row = forward(cache, nullptr, {visible.data()});
    for (std::size_t row = 0; row < visible.size(); ++row)
        for (std::size_t j = 0; j < nk; ++j) CHECK((cache.weights[row * nk + j] > 0.0) == (j < visible[row]));
    CHECK(per_row.size() == plain.size());
}

TEST_CASE("additive attention one query at a time over shared projected keys sums the keys' gradient",
          "[recurrent]") {
    // The Bahdanau decoder's use: each query row alone (as its steps ask
    // them), their dprojected_keys summed, then one backward pass through W_k.
    const auto& r = layer_references()["additiveAttention"];
    const std::size_t batch = r["batch"], nq = r["queries"], nk = r["keys"], dq = r["querySize"],
                      dk = r["keySize"], dv = r["valueSize"], hidden = r["hidden"];
    const Values queries = ref::values(r["queriesIn"]), keys = ref::values(r["keysIn"]), values = ref::values(r["valuesIn"]);
    const Values wq = ref::values(r["Wq"]), wk = ref::values(r["Wk"]), wv = ref::values(r["wv"]), dout = ref::values(r["dout"]);
    std::vector<int> valid_lens;
    for (const auto& v : r["validLens"]) valid_lens.push_back(v.get<int>());
    const AdditiveShape one{batch, 1, nk, dq, dk, dv, hidden};
    std::vector<double> transposed;
    Values projected(batch * nk * hidden), dprojected(projected.size(), 0.0);
    additive_keys_forward(one, keys.data(), wk.data(), projected.data(), transposed);
    Values out(batch * nq * dv), dwq(wq.size(), 0.0), dwk(wk.size(), 0.0), dwv(wv.size(), 0.0);
    AdditiveCache cache;
    AdditiveScratch scratch;
    for (std::size_t i = 0; i < nq; ++i) {
        Values q(batch * dq), o(batch * dv), d(batch * dv);
        for (std::size_t b = 0; b < batch; ++b) {
            std::copy_n(queries.data() + (b * nq + i) * dq, dq, q.data() + b * dq);
            std::copy_n(dout.data() + (b * nq + i) * dv, dv, d.data() + b * dv);
        }
        additive_attention_forward(one, q.data(), projected.data(), values.data(), valid_lens.data(), wq.data(),
                                   wv.data(), cache, o.data(), transposed);
        for (std::size_t b = 0; b < batch; ++b) std::copy_n(o.data() + b * dv, dv, out.data() + (b * nq + i) * dv);
        additive_attention_backward(one, q.data(), values.data(), wq.data(), wv.data(), cache, d.data(), dwq.data(), dwv.data(), nullptr, dprojected.data(),
                                    nullptr, scratch);
    }
    additive_keys_backward(one, keys.data(), wk.data(), dprojected.data(), dwk.data(), nullptr);
    CHECK_NEAR_REF(out, r["out"]);
    CHECK_NEAR_REF(dwq, r["dWq"]);
    CHECK_NEAR_REF(dwk, r["dWk"]);
    CHECK_NEAR_REF(dwv, r["dwv"]);
}
