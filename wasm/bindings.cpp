// Embind bindings: copy typed arrays in and out in bulk, call the core, and
// turn any core error into a message the JS API throws as an Error.
// Every function returns either its result or a string (the error message).
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <array>
#include <cmath>
#include <exception>
#include <string>

#include "additive_attention.hpp"
#include "dataset.hpp"
#include "dot_product_attention.hpp"
#include "errors.hpp"
#include "kernel_width_training.hpp"
#include "limits.hpp"
#include "multi_head_attention.hpp"
#include "pooling.hpp"
#include "positional_encoding.hpp"
#include "random_tensor.hpp"
#include "scaling_study.hpp"
#include "softmax.hpp"

using emscripten::val;

// Bulk transfers, one call into JS each. (Embind's own route - val
// property reads, typed_memory_view, val method calls - takes five to seven
// crossings per array, each decoding its names from UTF-8; with the invoke_*
// trampolines below, about 8 us of fixed cost per call of the API, as much
// as a 50 x 50 pooling; see tests/benchmarks/README.md.) HEAPF64 and HEAP32
// are read at each call, so they are the views of the current memory even
// after it grew.
//
// Declared noexcept: with Emscripten's JS exception handling every call that
// may throw inside a try block (all of guarded() below) goes through an
// invoke_* trampoline in JS, about 0.2 us each. These cannot throw (the JS
// API hands them Float64Arrays and Int32Arrays only), so they are imported
// under a second, noexcept declaration: EM_JS's own has no exception
// specification, and the unused `_js` name is never imported.
#define ATTENTION_JS(ret, name, params, ...)                                  \
    _EM_JS(ret, name##_js, name, params, #__VA_ARGS__)                        \
    extern "C" ret name params noexcept __attribute__((import_module("env"), import_name(#name)));

ATTENTION_JS(double, attention_js_length, (emscripten::EM_VAL array), { return Emval.toValue(array).length; })
ATTENTION_JS(void, attention_js_copy_f64, (emscripten::EM_VAL array, double* out), {
  HEAPF64.set(Emval.toValue(array), out >> 3);
})
ATTENTION_JS(void, attention_js_copy_i32, (emscripten::EM_VAL array, int* out), {
  HEAP32.set(Emval.toValue(array), out >> 2);
})
ATTENTION_JS(emscripten::EM_VAL, attention_js_float64_copy, (const double* data, double size), {
  return Emval.toHandle(new Float64Array(HEAPF64.subarray(data >> 3, (data >> 3) + size)));
})
ATTENTION_JS(void, attention_js_copy_into, (const double* data, double size, emscripten::EM_VAL out), {
  Emval.toValue(out).set(HEAPF64.subarray(data >> 3, (data >> 3) + size));
})

namespace lim = attention::limits;

namespace {

// Integers arrive as JS numbers; anything that is not a whole number in
// [0, 2^31) is refused here, before it can wrap around in a size_t.
std::size_t count(double value, const char* name) {
    if (!std::isfinite(value) || value != std::floor(value) || value < 0 || value > 2147483647.0)
        attention::fail(name, "expected a whole number >= 0, got ", value);
    return static_cast<std::size_t>(value);
}

// A shape extent: a count in [1, high].
std::size_t extent(double value, const char* name, std::size_t high) {
    const std::size_t result = count(value, name);
    attention::require_count(name, result, 1, high);
    return result;
}

// Seeds arrive as JS numbers: whole numbers in [0, 2^32).
std::uint32_t seed_of(double seed) {
    if (!std::isfinite(seed) || seed != std::floor(seed) || seed < 0 || seed > 4294967295.0)
        attention::fail("seed", "expected a whole number in [0, 4294967295], got ", seed);
    return static_cast<std::uint32_t>(seed);
}

std::size_t js_length(const val& array) {
    return static_cast<std::size_t>(attention_js_length(array.as_handle()));
}

// Copies a Float64Array (the JS API guarantees the type) into a tensor of the
// given shape, checking its length first so nothing is allocated for a bad size.
template <std::size_t N>
xt::xtensor<double, N> tensor(const val& array, const std::array<std::size_t, N>& shape,
                              const char* name) {
    constexpr std::size_t largest = 4 * lim::max_matrix_elements;
    std::size_t expected = 1;
    for (std::size_t extent : shape) {
        if (extent != 0 && expected > largest / extent)  // also keeps the product from overflowing
            attention::fail(name, "its shape asks for more than ", largest, " numbers (the documented limit)");
        expected *= extent;
    }
    const std::size_t length = js_length(array);
    if (length != expected) attention::fail(name, "expected ", expected, " numbers for its shape, got ", length);
    xt::xtensor<double, N> result = xt::xtensor<double, N>::from_shape(shape);
    if (length > 0) attention_js_copy_f64(array.as_handle(), result.data());
    return result;
}

xt::xtensor<double, 1> vector(const val& array, const char* name) {
    const std::size_t length = js_length(array);
    if (length > lim::max_points)
        attention::fail(name, "expected at most ", lim::max_points, " numbers, got ", length);
    return tensor<1>(array, {length}, name);
}

xt::xtensor<int, 1> valid_lengths(const val& array) {
    const std::size_t length = js_length(array);
    if (length > lim::max_batch * lim::max_points)
        attention::fail("validLens", "expected at most ", lim::max_batch * lim::max_points, " lengths");
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({length});
    if (length > 0) attention_js_copy_i32(array.as_handle(), result.data());
    return result;
}

// A JS Float64Array that owns a copy of the data.
template <class Tensor>
val to_js(const Tensor& tensor) {
    return val::take_ownership(attention_js_float64_copy(tensor.data(), static_cast<double>(tensor.size())));
}

// The data copied into the caller's Float64Array `out` (its length checked
// beforehand), which is returned: no new array per call.
template <class Tensor>
val copy_into(const Tensor& tensor, const val& out) {
    attention_js_copy_into(tensor.data(), static_cast<double>(tensor.size()), out.as_handle());
    return out;
}

val attention_result(const attention::AttentionResult& result) {
    val object = val::object();
    object.set("output", to_js(result.output));
    object.set("weights", to_js(result.weights));
    if (result.scores.size() > 0) object.set("scores", to_js(result.scores));
    return object;
}

template <class Body>
val guarded(Body&& body) {
    try {
        return body();
    } catch (const std::exception& error) {
        return val(std::string(error.what()));
    }
}

val make_dataset(double n, double seed, double noise, double x_max) {
    return guarded([&] {
        attention::DatasetOptions options;
        options.n = count(n, "n");
        options.seed = seed_of(seed);
        options.noise = noise;
        options.x_max = x_max;
        const attention::Dataset data = attention::make_dataset(options);
        val object = val::object();
        object.set("x", to_js(data.x));
        object.set("y", to_js(data.y));
        return object;
    });
}

val truth(val x) { return guarded([&] { return to_js(attention::truth(vector(x, "x"))); }); }

val average_pool(val values, double n_queries) {
    return guarded([&] {
        return to_js(attention::average_pool(vector(values, "values"), count(n_queries, "nQueries")));
    });
}

attention::KernelSpec kernel_spec(const std::string& kernel, double w) {
    return {attention::parse_kernel(kernel), w};
}

// `out`: null, or a Float64Array of nq * nk numbers to write the weights into
// (a page redrawing a heatmap reuses one array instead of allocating n^2
// doubles each time; see tests/benchmarks/README.md).
val attention_weights(val queries, val keys, std::string kernel, double w, val out) {
    return guarded([&] {
        const auto q = vector(queries, "queries");
        const auto k = vector(keys, "keys");
        if (out.isNull()) return to_js(attention::attention_weights(q, k, kernel_spec(kernel, w)));
        const std::size_t length = js_length(out);
        if (length != q.size() * k.size())
            attention::fail("out", "expected ", q.size() * k.size(), " numbers (queries x keys), got ", length);
        return copy_into(attention::attention_weights(q, k, kernel_spec(kernel, w)), out);
    });
}

val nadaraya_watson(val queries, val keys, val values, std::string kernel, double w) {
    return guarded([&] {
        return to_js(attention::nadaraya_watson(vector(queries, "queries"), vector(keys, "keys"),
                                                vector(values, "values"), kernel_spec(kernel, w)));
    });
}

val train_kernel_width(val x, val y, double w0, double lr, double epochs, bool leave_one_out) {
    return guarded([&] {
        attention::TrainingOptions options;
        options.w0 = w0;
        options.lr = lr;
        options.epochs = count(epochs, "epochs");
        options.leave_one_out = leave_one_out;
        const auto result = attention::train_kernel_width(vector(x, "x"), vector(y, "y"), options);
        val object = val::object();
        object.set("w", to_js(result.w));
        object.set("loss", to_js(result.loss));
        object.set("stopReason", result.stop_reason.empty() ? val::null() : val(result.stop_reason));
        return object;
    });
}

val leave_one_out_loss(val x, val y, val ws, bool leave_one_out) {
    return guarded([&] {
        return to_js(attention::kernel_width_loss_landscape(vector(x, "x"), vector(y, "y"),
                                                            vector(ws, "ws"), leave_one_out));
    });
}

val kernel_width_loss(val x, val y, double w, bool leave_one_out) {
    return guarded([&] {
        const auto result = attention::kernel_width_loss(vector(x, "x"), vector(y, "y"), w, leave_one_out);
        val object = val::object();
        object.set("loss", result.loss);
        object.set("gradient", result.gradient);
        return object;
    });
}

val masked_softmax(val scores, double batch, double nq, double nk, val lens) {
    return guarded([&] {
        const std::array<std::size_t, 3> shape{extent(batch, "shape[0] (batch)", lim::max_batch),
                                               extent(nq, "shape[1] (nq)", lim::max_points),
                                               extent(nk, "shape[2] (nk)", lim::max_points)};
        return to_js(attention::masked_softmax(tensor<3>(scores, shape, "scores"), valid_lengths(lens)));
    });
}

// Shapes arrive as one object of whole numbers, read by name. Each extent is
// checked against its documented limit here, under the name the caller
// used, before any array is copied (the core checks them again).
std::size_t dim(const val& shape, const char* key, const char* name, std::size_t high) {
    return extent(shape[key].as<double>(), name, high);
}

// shape.batch, shape.nq and shape.nk of an attention call, each within its
// limit and their product (the weights) within the matrix limit.
struct AttentionExtents {
    std::size_t batch, nq, nk;
};
AttentionExtents attention_extents(const val& shape) {
    const AttentionExtents e{dim(shape, "batch", "shape.batch", lim::max_batch),
                             dim(shape, "nq", "shape.nq", lim::max_points), dim(shape, "nk", "shape.nk", lim::max_points)};
    if (e.batch * e.nq * e.nk > lim::max_matrix_elements)
        attention::fail("shape.nk", "expected batch * nq * nk <= ", lim::max_matrix_elements, ", got ",
                        e.batch * e.nq * e.nk);
    return e;
}

val additive_attention(val queries, val keys, val values, val shape, val w_q, val w_k, val w_v, val lens) {
    return guarded([&] {
        const auto [b, nq, nk] = attention_extents(shape);
        const std::size_t dq = dim(shape, "dq", "shape.dq", lim::max_dimension),
                          dk = dim(shape, "dk", "shape.dk", lim::max_dimension),
                          dv = dim(shape, "dv", "shape.dv", lim::max_dimension),
                          h = dim(shape, "h", "shape.h", lim::max_dimension);
        if (b * nq * nk * h > 4 * lim::max_matrix_elements)
            attention::fail("shape.h", "expected batch * nq * nk * h <= ", 4 * lim::max_matrix_elements, ", got ",
                            b * nq * nk * h);
        return attention_result(attention::additive_attention(
            tensor<3>(queries, {b, nq, dq}, "queries"), tensor<3>(keys, {b, nk, dk}, "keys"),
            tensor<3>(values, {b, nk, dv}, "values"), tensor<2>(w_q, {h, dq}, "Wq"),
            tensor<2>(w_k, {h, dk}, "Wk"), tensor<1>(w_v, {h}, "wv"), valid_lengths(lens)));
    });
}

val dot_product_attention(val queries, val keys, val values, val shape, val lens) {
    return guarded([&] {
        const auto [b, nq, nk] = attention_extents(shape);
        const std::size_t d = dim(shape, "d", "shape.d", lim::max_dimension),
                          dv = dim(shape, "dv", "shape.dv", lim::max_dimension);
        return attention_result(attention::dot_product_attention(
            tensor<3>(queries, {b, nq, d}, "queries"), tensor<3>(keys, {b, nk, d}, "keys"),
            tensor<3>(values, {b, nk, dv}, "values"), valid_lengths(lens)));
    });
}

val multi_head_attention(val queries, val keys, val values, val shape, val w_q, val w_k, val w_v,
                         val w_o, val lens, val head_mask) {
    return guarded([&] {
        const auto [b, nq, nk] = attention_extents(shape);
        const std::size_t hidden = dim(shape, "hidden", "shape.hidden", lim::max_dimension),
                          heads = dim(shape, "heads", "shape.heads", lim::max_dimension);
        if (hidden % heads != 0)
            attention::fail("shape.heads", "expected a divisor of the hidden size ", hidden, ", got ", heads);
        // The heads run as one batch of batch * heads items, under the batch limit.
        if (b * heads > lim::max_batch)
            attention::fail("shape.heads", "expected batch * heads <= ", lim::max_batch, ", got ", b * heads);
        const auto mask = tensor<1>(head_mask, {std::min<std::size_t>(js_length(head_mask), lim::max_dimension)},
                                    "headMask");
        return attention_result(attention::multi_head_attention(
            tensor<3>(queries, {b, nq, hidden}, "queries"), tensor<3>(keys, {b, nk, hidden}, "keys"),
            tensor<3>(values, {b, nk, hidden}, "values"), tensor<2>(w_q, {hidden, hidden}, "Wq"),
            tensor<2>(w_k, {hidden, hidden}, "Wk"), tensor<2>(w_v, {hidden, hidden}, "Wv"),
            tensor<2>(w_o, {hidden, hidden}, "Wo"), heads, valid_lengths(lens),
            std::vector<double>(mask.begin(), mask.end())));
    });
}

val positional_encoding(double max_len, double dim_) {
    return guarded([&] {
        return to_js(attention::positional_encoding(count(max_len, "maxLen"), count(dim_, "dim")));
    });
}

val random_normal(double count_, double seed, double std) {
    return guarded([&] { return to_js(attention::random_normal(count(count_, "count"), seed_of(seed), std)); });
}

val random_uniform(double count_, double seed, double low, double high) {
    return guarded([&] {
        return to_js(attention::random_uniform(count(count_, "count"), seed_of(seed), low, high));
    });
}

val scaling_study(val dims, double samples, double keys, double seed) {
    return guarded([&] {
        const auto dims_tensor = vector(dims, "dims");
        std::vector<std::size_t> sizes;
        for (double d : dims_tensor) sizes.push_back(count(d, "dims"));
        const auto rows = attention::scaling_study(sizes, count(samples, "samples"), count(keys, "keys"),
                                                   seed_of(seed));
        val result = val::array();
        for (const auto& row : rows) {
            val item = val::object();
            item.set("d", static_cast<double>(row.d));
            item.set("variance", row.variance);
            item.set("scaledVariance", row.scaled_variance);
            item.set("maxWeight", row.max_weight);
            item.set("scaledMaxWeight", row.scaled_max_weight);
            result.call<void>("push", item);
        }
        return result;
    });
}

// For leak checks: bytes malloc holds for live allocations, and the size of
// the wasm heap. The API hands no Embind class instances to JS, so nothing
// else can be left alive; after every call allocatedBytes returns to its level.
val memory_stats() {
    const struct mallinfo info = mallinfo();
    val stats = val::object();
    stats.set("allocatedBytes", static_cast<double>(info.uordblks));
    stats.set("heapBytes", val::module_property("HEAP8")["length"]);
    return stats;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("makeDataset", &make_dataset);
    emscripten::function("truth", &truth);
    emscripten::function("averagePool", &average_pool);
    emscripten::function("attentionWeights", &attention_weights);
    emscripten::function("nadarayaWatson", &nadaraya_watson);
    emscripten::function("trainKernelWidth", &train_kernel_width);
    emscripten::function("leaveOneOutLoss", &leave_one_out_loss);
    emscripten::function("kernelWidthLoss", &kernel_width_loss);
    emscripten::function("maskedSoftmax", &masked_softmax);
    emscripten::function("additiveAttention", &additive_attention);
    emscripten::function("dotProductAttention", &dot_product_attention);
    emscripten::function("multiHeadAttention", &multi_head_attention);
    emscripten::function("positionalEncoding", &positional_encoding);
    emscripten::function("randomNormal", &random_normal);
    emscripten::function("randomUniform", &random_uniform);
    emscripten::function("scalingStudy", &scaling_study);
    emscripten::function("memoryStats", &memory_stats);
}
