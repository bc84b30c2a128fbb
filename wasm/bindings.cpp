// Embind bindings: copy typed arrays in and out in bulk, call the core, and
// turn any core error into an error record the JS API throws as an Error.
// Every function returns either its result or an error record: an object
// {message, argument, expected, got, index} marked with
// Symbol.for('attention-core.error'), a key no result has.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "additive_attention.hpp"
#include "attention_checks.hpp"
#include "attention_model.hpp"
#include "attention_tasks.hpp"
#include "attention_training.hpp"
#include "batch_matrix_product.hpp"
#include "consistency_study.hpp"
#include "dataset.hpp"
#include "dot_product_attention.hpp"
#include "errors.hpp"
#include "kernel_width_training.hpp"
#include "kernels.hpp"
#include "limits.hpp"
#include "masking.hpp"
#include "multi_head_attention.hpp"
#include "optimizers.hpp"
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
// invoke_* trampoline in JS, about 0.2 us each. These cannot throw, nor run
// any code of the caller: the JS API (arguments.mjs) hands them only genuine
// Float64Arrays and Int32Arrays on buffers that are not detached, and they
// read lengths and write with the intrinsic accessors
// (typed-array-intrinsics.pre.js), which an own `length` or a subclass
// cannot change; HEAPF64.set reads a typed array source by its internal
// slots. (A JS exception thrown through C++ frames would skip their
// destructors.) So they are imported
// under a second, noexcept declaration: EM_JS's own has no exception
// specification, and the unused `_js` name is never imported.
#define ATTENTION_JS(ret, name, params, ...)                                  \
    _EM_JS(ret, name##_js, name, params, #__VA_ARGS__)                        \
    extern "C" ret name params noexcept __attribute__((import_module("env"), import_name(#name)));

ATTENTION_JS(double, attention_js_length, (emscripten::EM_VAL array), {
  return attentionTypedArray.length(Emval.toValue(array));
})
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
  attentionTypedArray.set(Emval.toValue(out), HEAPF64.subarray(data >> 3, (data >> 3) + size));
})
ATTENTION_JS(emscripten::EM_VAL, attention_js_int32_copy, (const int* data, double size), {
  return Emval.toHandle(new Int32Array(HEAP32.subarray(data >> 2, (data >> 2) + size)));
})
ATTENTION_JS(emscripten::EM_VAL, attention_js_uint8_copy, (const unsigned char* data, double size), {
  return Emval.toHandle(new Uint8Array(HEAPU8.subarray(data, data + size)));
})
// The mark of an error record (see guarded() below).
ATTENTION_JS(void, attention_js_mark_error, (emscripten::EM_VAL record), {
  Emval.toValue(record)[Symbol.for('attention-core.error')] = true;
})

namespace lim = attention::limits;

namespace {

// Integers arrive as JS numbers; anything that is not a whole number in
// [0, 2^31) is refused here, before it can wrap around in a size_t.
std::size_t count(double value, std::string_view name) {
    if (!std::isfinite(value) || value != std::floor(value) || value < 0 || value > 2147483647.0)
        attention::fail(name, "a whole number >= 0", value);
    return static_cast<std::size_t>(value);
}

// Seeds arrive as JS numbers: whole numbers in [0, 2^32).
std::uint32_t seed_of(double seed) {
    if (!std::isfinite(seed) || seed != std::floor(seed) || seed < 0 || seed > lim::max_seed)
        attention::fail("seed", attention::text("a whole number in [0, ", lim::max_seed, "]"), seed);
    return static_cast<std::uint32_t>(seed);
}

std::size_t js_length(const val& array) {
    return static_cast<std::size_t>(attention_js_length(array.as_handle()));
}

// The longest array copied in: the core's largest tensor.
constexpr std::size_t max_array_length = 4 * lim::max_matrix_elements;

// A Float64Array (the JS API guarantees the type) that a call will copy into
// a tensor of the given shape, its length checked against the shape when it
// is made. A call makes every one of its arrays' Incoming first and copies
// after, so a refused call has allocated nothing (the wasm heap never
// shrinks: a copy made before a refusal would keep it grown for good).
template <std::size_t N>
struct Incoming {
    val array;
    std::array<std::size_t, N> shape;

    xt::xtensor<double, N> copy() const {
        xt::xtensor<double, N> result = xt::xtensor<double, N>::from_shape(shape);
        if (result.size() > 0) attention_js_copy_f64(array.as_handle(), result.data());
        return result;
    }
};

template <std::size_t N>
Incoming<N> incoming(const val& array, const std::array<std::size_t, N>& shape, const char* name) {
    constexpr std::size_t largest = max_array_length;
    std::size_t expected = 1;
    for (std::size_t extent : shape) {
        if (extent != 0 && expected > largest / extent) {  // also keeps the product from overflowing
            attention::ArgumentFields fields{name, attention::text("at most ", largest, " numbers for its shape"),
                                             attention::text("more than ", largest), std::nullopt};
            const std::string message =
                attention::text(name, ": its shape asks for more than ", largest, " numbers (the documented limit)");
            throw attention::ArgumentError(std::move(fields), message);
        }
        expected *= extent;
    }
    const std::size_t length = js_length(array);
    if (length != expected) attention::fail(name, attention::text(expected, " numbers for its shape"), length);
    return {array, shape};
}

template <std::size_t N>
xt::xtensor<double, N> tensor(const val& array, const std::array<std::size_t, N>& shape, const char* name) {
    return incoming<N>(array, shape, name).copy();
}

xt::xtensor<double, 1> vector(const val& array, const char* name) {
    const std::size_t length = js_length(array);
    if (length > lim::max_points)
        attention::fail(name, attention::text("at most ", lim::max_points, " numbers"), length);
    return tensor<1>(array, {length}, name);
}

// The length of an array of at most `largest` elements, named `what`.
std::size_t limited_length(const val& array, std::size_t largest, const char* name, const char* what) {
    const std::size_t length = js_length(array);
    if (length > largest) attention::fail(name, attention::text("at most ", largest, " ", what));
    return length;
}

// An Int32Array (the JS API guarantees the type) of at most `largest` elements, named `what`.
xt::xtensor<int, 1> integers(const val& array, std::size_t largest, const char* name, const char* what) {
    const std::size_t length = limited_length(array, largest, name, what);
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({length});
    if (length > 0) attention_js_copy_i32(array.as_handle(), result.data());
    return result;
}

// The valid lengths of a (batch, nq, nk) attention, checked (their count
// before they are copied, then each) before the call copies its big arrays.
xt::xtensor<int, 1> valid_lengths(const val& array, const attention::AttentionExtents& e) {
    constexpr std::size_t largest = lim::max_batch * lim::max_points;
    attention::ValidLengths::check_count(limited_length(array, largest, "validLens", "lengths"), e.batch, e.nq);
    xt::xtensor<int, 1> lens = integers(array, largest, "validLens", "lengths");
    attention::ValidLengths(lens, e.batch, e.nq, e.nk);
    return lens;
}

// A JS Float64Array that owns a copy of the data.
template <class Tensor>
val to_js(const Tensor& tensor) {
    return val::take_ownership(attention_js_float64_copy(tensor.data(), static_cast<double>(tensor.size())));
}
// The same for an Int32Array and a Uint8Array.
template <class Tensor>
val to_js_int32(const Tensor& tensor) {
    return val::take_ownership(attention_js_int32_copy(tensor.data(), static_cast<double>(tensor.size())));
}
val to_js_uint8(const xt::xtensor<std::uint8_t, 3>& tensor) {
    return val::take_ownership(attention_js_uint8_copy(tensor.data(), static_cast<double>(tensor.size())));
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

// An error record: the message, and an argument error's fields (index only
// when there is one). Anything else (std::bad_alloc, ...) has only a message.
// Not inlined: every binding's catch handler calls this one copy.
__attribute__((noinline)) val error_record(const std::exception& error) {
    val record = val::object();
    record.set("message", std::string(error.what()));
    if (const auto* argument_error = dynamic_cast<const attention::ArgumentError*>(&error)) {
        record.set("argument", argument_error->argument());
        record.set("expected", argument_error->expected());
        record.set("got", argument_error->got());
        if (argument_error->index()) record.set("index", static_cast<double>(*argument_error->index()));
    }
    attention_js_mark_error(record.as_handle());
    return record;
}

template <class Body>
val guarded(Body&& body) {
    try {
        return body();
    } catch (const std::exception& error) {
        return error_record(error);
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
            attention::fail("out", attention::text(q.size() * k.size(), " numbers (queries x keys)"), length);
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

val loss_landscape(val x, val y, val ws, bool leave_one_out) {
    return guarded([&] {
        return to_js(attention::loss_landscape(vector(x, "x"), vector(y, "y"), vector(ws, "ws"), leave_one_out));
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

// The scores of maskedSoftmax and maskScores, of shape [batch, nq, nk]: the
// core's checks of the shape under the caller's names, then the copy.
struct ScoresArguments {
    xt::xtensor<double, 3> scores;
    xt::xtensor<int, 1> lens;
};

ScoresArguments scores_arguments(const val& scores, double batch, double nq, double nk, const val& lens) {
    constexpr attention::ExtentNames names{"shape[0] (batch)", "shape[1] (nq)", "shape[2] (nk)"};
    const attention::AttentionExtents e{count(batch, names.batch), count(nq, names.nq), count(nk, names.nk)};
    attention::check_attention_extents(e, names);
    const auto incoming_scores = incoming<3>(scores, {e.batch, e.nq, e.nk}, "scores");
    auto checked_lens = valid_lengths(lens, e);
    return {incoming_scores.copy(), std::move(checked_lens)};
}

val masked_softmax(val scores, double batch, double nq, double nk, val lens) {
    return guarded([&] {
        const auto a = scores_arguments(scores, batch, nq, nk, lens);
        return to_js(attention::masked_softmax(a.scores, a.lens));
    });
}

val mask_scores(val scores, double batch, double nq, double nk, val lens) {
    return guarded([&] {
        const auto a = scores_arguments(scores, batch, nq, nk, lens);
        const auto masked = attention::mask_scores(a.scores, a.lens);
        val object = val::object();
        object.set("maskedScores", to_js(masked.scores));
        object.set("masked", to_js_uint8(masked.masked));
        object.set("rowLengths", to_js_int32(masked.row_lengths));
        return object;
    });
}

// Shapes arrive as one object of whole numbers, read by name. The core checks
// them (attention_checks.hpp) under the names the caller used, before any
// array is copied.
std::size_t dim(const val& shape, const char* key, std::string_view name) {
    return count(shape[key].as<double>(), name);
}

// The names of the JS API's shape object, for the core's messages.
constexpr attention::ExtentNames shape_names{"shape.batch", "shape.nq", "shape.nk"};
constexpr attention::AdditiveNames additive_names{shape_names, "shape.dq", "shape.dk", "shape.dv", "shape.h"};
constexpr attention::DotProductNames dot_product_names{shape_names, "shape.d", "shape.dv"};
constexpr attention::MultiHeadNames multi_head_names{shape_names, "shape.hidden", "shape.heads"};

attention::AttentionExtents attention_extents(const val& shape) {
    return {dim(shape, "batch", shape_names.batch), dim(shape, "nq", shape_names.nq), dim(shape, "nk", shape_names.nk)};
}

val additive_attention(val queries, val keys, val values, val shape, val w_q, val w_k, val w_v, val lens) {
    return guarded([&] {
        const auto& names = additive_names;
        const attention::AdditiveShape s{attention_extents(shape), dim(shape, "dq", names.dq),
                                         dim(shape, "dk", names.dk), dim(shape, "dv", names.dv),
                                         dim(shape, "h", names.h)};
        attention::check_additive_shape(s, names);
        const auto [b, nq, nk] = s.extents;
        const std::size_t dq = s.dq, dk = s.dk, dv = s.dv, h = s.h;
        const auto q = incoming<3>(queries, {b, nq, dq}, "queries");
        const auto k = incoming<3>(keys, {b, nk, dk}, "keys");
        const auto v = incoming<3>(values, {b, nk, dv}, "values");
        const auto wq = incoming<2>(w_q, {h, dq}, "Wq");
        const auto wk = incoming<2>(w_k, {h, dk}, "Wk");
        const auto wv = incoming<1>(w_v, {h}, "wv");
        const auto checked_lens = valid_lengths(lens, s.extents);
        return attention_result(attention::additive_attention(q.copy(), k.copy(), v.copy(), wq.copy(), wk.copy(),
                                                              wv.copy(), checked_lens));
    });
}

val dot_product_attention(val queries, val keys, val values, val shape, val lens) {
    return guarded([&] {
        const auto& names = dot_product_names;
        const attention::DotProductShape s{attention_extents(shape), dim(shape, "d", names.d),
                                           dim(shape, "dv", names.dv)};
        attention::check_dot_product_shape(s, names);
        const auto [b, nq, nk] = s.extents;
        const std::size_t d = s.d, dv = s.dv;
        const auto q = incoming<3>(queries, {b, nq, d}, "queries");
        const auto k = incoming<3>(keys, {b, nk, d}, "keys");
        const auto v = incoming<3>(values, {b, nk, dv}, "values");
        const auto checked_lens = valid_lengths(lens, s.extents);
        return attention_result(attention::dot_product_attention(q.copy(), k.copy(), v.copy(), checked_lens));
    });
}

// torch.bmm: X (n, a, b) times Y (n, b, c). The shapes arrive as arrays of
// three whole numbers (checked in JS for type); the core checks them, and
// that they match, before either array is copied.
constexpr attention::BatchShapeNames batch_shape_names{"shapeX[0] (n)", "shapeX[1] (a)", "shapeX[2] (b)",
                                                       "shapeY[0] (n)", "shapeY[1] (b)", "shapeY[2] (c)"};

val batch_matrix_product(val x, val y, val shape_x, val shape_y) {
    return guarded([&] {
        const auto& names = batch_shape_names;
        const attention::BatchShape sx{count(shape_x[0].as<double>(), names.x_n),
                                       count(shape_x[1].as<double>(), names.x_rows),
                                       count(shape_x[2].as<double>(), names.x_columns)};
        const attention::BatchShape sy{count(shape_y[0].as<double>(), names.y_n),
                                       count(shape_y[1].as<double>(), names.y_rows),
                                       count(shape_y[2].as<double>(), names.y_columns)};
        attention::check_batch_matrix_product(sx, sy, names);
        const auto incoming_x = incoming<3>(x, {sx.n, sx.rows, sx.columns}, "X");
        const auto incoming_y = incoming<3>(y, {sy.n, sy.rows, sy.columns}, "Y");
        const auto product = attention::batch_matrix_product(incoming_x.copy(), incoming_y.copy());
        val shape = val::array();
        for (std::size_t extent : product.shape()) shape.call<void>("push", static_cast<double>(extent));
        val result = val::object();
        result.set("values", to_js(product));
        result.set("shape", shape);
        return result;
    });
}

val multi_head_attention(val queries, val keys, val values, val shape, val w_q, val w_k, val w_v,
                         val w_o, val lens, val head_mask) {
    return guarded([&] {
        const auto& names = multi_head_names;
        const attention::MultiHeadShape s{attention_extents(shape), dim(shape, "hidden", names.hidden),
                                          dim(shape, "heads", names.heads)};
        attention::check_multi_head_shape(s, names);
        const auto [b, nq, nk] = s.extents;
        const std::size_t hidden = s.hidden, heads = s.heads;
        const auto q = incoming<3>(queries, {b, nq, hidden}, "queries");
        const auto k = incoming<3>(keys, {b, nk, hidden}, "keys");
        const auto v = incoming<3>(values, {b, nk, hidden}, "values");
        const auto wq = incoming<2>(w_q, {hidden, hidden}, "Wq");
        const auto wk = incoming<2>(w_k, {hidden, hidden}, "Wk");
        const auto wv = incoming<2>(w_v, {hidden, hidden}, "Wv");
        const auto wo = incoming<2>(w_o, {hidden, hidden}, "Wo");
        // null: every head; otherwise one factor per head.
        std::vector<double> mask;
        if (!head_mask.isNull()) {
            if (const std::size_t length = js_length(head_mask); length != heads)
                attention::fail("headMask", attention::text("null or ", heads, " factors (one per head)"), length);
            const auto factors = tensor<1>(head_mask, {heads}, "headMask");
            mask.assign(factors.begin(), factors.end());
        }
        const auto checked_lens = valid_lengths(lens, s.extents);
        return attention_result(attention::multi_head_attention(q.copy(), k.copy(), v.copy(), wq.copy(), wk.copy(),
                                                                wv.copy(), wo.copy(), heads, checked_lens, mask));
    });
}

val positional_encoding(double max_len, double dim_) {
    return guarded([&] {
        return to_js(attention::positional_encoding(count(max_len, "maxLen"), count(dim_, "dim")));
    });
}

val random_normal(double count_, double seed, double std) {
    return guarded([&] { return to_js(attention::random_normal(count(count_, "count"), {seed_of(seed), std})); });
}

val random_uniform(double count_, double seed, double low, double high) {
    return guarded([&] {
        return to_js(attention::random_uniform(count(count_, "count"), {seed_of(seed), low, high}));
    });
}

// {sizes, repeats, queries, w, noise, xMax, seed}, checked in JS for type.
val consistency_study(val options) {
    return guarded([&] {
        const auto sizes = vector(options["sizes"], "sizes");
        attention::ConsistencyStudyOptions o;
        o.sizes.clear();
        for (double n : sizes) o.sizes.push_back(count(n, "sizes"));
        o.repeats = count(options["repeats"].as<double>(), "repeats");
        o.queries = count(options["queries"].as<double>(), "queries");
        o.w = options["w"].as<double>();
        o.noise = options["noise"].as<double>();
        o.x_max = options["xMax"].as<double>();
        o.seed = seed_of(options["seed"].as<double>());
        const auto rows = attention::consistency_study(o);
        val result = val::array();
        for (const auto& row : rows) {
            val item = val::object();
            item.set("n", static_cast<double>(row.n));
            item.set("fixedError", row.fixed_error);
            item.set("growingW", row.growing_w);
            item.set("growingError", row.growing_error);
            result.call<void>("push", item);
        }
        return result;
    });
}

val scaling_study(val dims, double samples, double keys, double seed) {
    return guarded([&] {
        const auto dims_tensor = vector(dims, "dims");
        attention::ScalingStudyOptions options;
        options.dims.clear();
        for (double d : dims_tensor) options.dims.push_back(count(d, "dims"));
        options.samples = count(samples, "samples");
        options.keys = count(keys, "keys");
        options.seed = seed_of(seed);
        const auto rows = attention::scaling_study(options);
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

// One property of a result object, one call each: inlined, the val::set
// temporaries and their exception cleanups made contract() 12 KB of wasm.
__attribute__((noinline)) void put(val& object, const char* key, const val& value) { object.set(key, value); }
__attribute__((noinline)) void put(val& object, const char* key, double value) { object.set(key, value); }

// The trainable attention model. The JS API hands a model over as one plain
// object it made: {config: {vocab, ...} of numbers, names: [string],
// arrays: [Float64Array] (params, in the caller's order), step: number,
// m: Float64Array | null, v: Float64Array | null}. Every call releases the
// core's pass buffers at its end, so memory returns to its level between calls.
struct ModelCall {
    ~ModelCall() { attention::release_model_workspace(); }
};

attention::ModelConfig model_config(const val& config) {
    attention::ModelConfig c;
    c.vocab = count(config["vocab"].as<double>(), "vocab");
    c.length = count(config["length"].as<double>(), "length");
    c.hidden = count(config["hidden"].as<double>(), "hidden");
    c.heads = count(config["heads"].as<double>(), "heads");
    c.blocks = count(config["blocks"].as<double>(), "blocks");
    c.ffn_hidden = count(config["ffnHidden"].as<double>(), "ffnHidden");
    c.embedding_scale = config["embeddingScale"].as<double>();
    c.seed = seed_of(config["seed"].as<double>());
    attention::check_model_config(c);
    return c;
}

val config_to_js(const attention::ModelConfig& c) {
    val config = val::object();
    put(config, "vocab", c.vocab);
    put(config, "length", c.length);
    put(config, "hidden", c.hidden);
    put(config, "heads", c.heads);
    put(config, "blocks", c.blocks);
    put(config, "ffnHidden", c.ffn_hidden);
    put(config, "embeddingScale", c.embedding_scale);
    put(config, "seed", c.seed);
    return config;
}

// A model object as the JS API hands it over, every length checked against
// its config and nothing copied yet: the parameters' names matched to the
// layout and their lengths, the optimiser's step and its moments' lengths.
struct IncomingModel {
    attention::ModelConfig config;
    std::vector<attention::ParameterSlot> layout;
    val arrays = val::undefined();
    std::vector<std::size_t> slots;  // of each given array
    std::uint64_t step = 0;
    std::optional<Incoming<1>> m, v;  // none: a model not trained with Adam yet
};

IncomingModel incoming_model(const val& model) {
    IncomingModel in;
    in.config = model_config(model["config"]);
    in.layout = attention::model_layout(in.config);
    const val names = model["names"];
    in.arrays = model["arrays"];
    const std::size_t given = count(names["length"].as<double>(), "params");
    attention::check_parameter_count(in.layout, given);
    std::vector<std::string> name_texts(given);
    std::vector<attention::NamedSize> sizes(given);
    for (std::size_t k = 0; k < given; ++k) {
        name_texts[k] = names[k].as<std::string>();
        sizes[k] = {name_texts[k], js_length(in.arrays[k])};
    }
    in.slots = attention::match_parameters(in.layout, sizes);

    const double step = model["step"].as<double>();
    if (!std::isfinite(step) || step != std::floor(step) || step < 0 || step >= 9007199254740992.0)
        attention::fail("optimizerState.step", "a whole number in [0, 2^53)", step);
    in.step = static_cast<std::uint64_t>(step);
    const val m = model["m"], v = model["v"];
    if (m.isNull() != v.isNull()) attention::fail("optimizerState", "m and v both null or both arrays");
    if (!m.isNull()) {
        const std::size_t parameters = attention::parameter_count(in.config);
        in.m = incoming<1>(m, {parameters}, "optimizerState.m");
        in.v = incoming<1>(v, {parameters}, "optimizerState.v");
    }
    return in;
}

// The model's values copied straight into its one flat vector, then checked.
attention::AttentionModel copy_model(const IncomingModel& in) {
    attention::AttentionModel model;
    model.config = in.config;
    model.layout = in.layout;
    model.values = xt::xtensor<double, 1>::from_shape({attention::parameter_count(in.config)});
    for (std::size_t k = 0; k < in.slots.size(); ++k) {
        const auto& slot = in.layout[in.slots[k]];
        if (slot.size > 0) attention_js_copy_f64(in.arrays[k].as_handle(), model.values.data() + slot.offset);
    }
    attention::check_parameter_values(model);
    return model;
}

// The optimiser's state as given (checked by the call, for the steps it takes).
attention::OptimizerState copy_state(const IncomingModel& in) {
    attention::OptimizerState state;
    state.step = in.step;
    if (in.m) {
        state.m = in.m->copy();
        state.v = in.v->copy();
    }
    return state;
}

// Named Float64Arrays in layout order, from a flat vector in that layout.
val named_arrays(const attention::AttentionModel& model, const xt::xtensor<double, 1>& flat) {
    val object = val::object();
    for (const auto& slot : model.layout)
        object.set(slot.name, val::take_ownership(attention_js_float64_copy(flat.data() + slot.offset,
                                                                             static_cast<double>(slot.size))));
    return object;
}

val model_to_js(const attention::AttentionModel& model, const attention::OptimizerState& state) {
    val result = val::object();
    result.set("config", config_to_js(model.config));
    result.set("params", named_arrays(model, model.values));
    val optimizer = val::object();
    optimizer.set("step", static_cast<double>(state.step));
    optimizer.set("m", state.m.size() ? to_js(state.m) : val::null());
    optimizer.set("v", state.v.size() ? to_js(state.v) : val::null());
    result.set("optimizerState", optimizer);
    return result;
}

constexpr std::size_t max_tokens = lim::max_model_batch * lim::max_model_length;

// A batch of sequences ({batch, validLens, causal} and the tokens, and the
// targets of a call that has them), the lengths checked against the model's
// config before anything is copied.
struct IncomingBatch {
    const val& tokens;
    const val* targets;
    val lens;
    attention::BatchOptions options;
};

IncomingBatch incoming_batch(const attention::ModelConfig& config, const val& tokens, const val* targets,
                             const val& options) {
    IncomingBatch in{tokens, targets, options["validLens"], {}};
    const std::size_t token_count = limited_length(tokens, max_tokens, "tokens", "tokens");
    const std::optional<std::size_t> target_count =
        targets ? std::optional<std::size_t>(limited_length(*targets, max_tokens, "targets", "tokens")) : std::nullopt;
    in.options.batch = count(options["batch"].as<double>(), "batch");
    in.options.causal = options["causal"].as<bool>();
    attention::check_batch_sizes(config, {in.options.batch, token_count, target_count,
                                          limited_length(in.lens, lim::max_model_batch, "validLens", "lengths")});
    return in;
}

xt::xtensor<int, 1> token_ids(const val& array, const char* name) { return integers(array, max_tokens, name, "tokens"); }

attention::OptimizerOptions optimizer_options(const std::string& optimizer, double lr) {
    attention::OptimizerOptions o;
    if (optimizer == "adam") o.kind = attention::OptimizerKind::adam;
    else if (optimizer == "sgd") o.kind = attention::OptimizerKind::sgd;
    else attention::fail("optimizer", "'adam' or 'sgd'", attention::quoted(optimizer));
    o.lr = lr;
    return o;
}

val attention_model_init(val config) {
    return guarded([&] {
        ModelCall call;
        return model_to_js(attention::init_attention_model(model_config(config)), {});
    });
}

val attention_model_forward(val model, val tokens, val options) {
    return guarded([&] {
        ModelCall call;
        const auto in = incoming_model(model);
        auto batch = incoming_batch(in.config, tokens, nullptr, options);
        const auto m = copy_model(in);
        batch.options.valid_lens = integers(batch.lens, lim::max_model_batch, "validLens", "lengths");
        const auto result = attention::attention_model_forward(m, token_ids(tokens, "tokens"), batch.options);
        val object = val::object();
        object.set("logits", to_js(result.logits));
        object.set("weights", to_js(result.weights));
        return object;
    });
}

val attention_model_loss(val model, val tokens, val targets, val options) {
    return guarded([&] {
        ModelCall call;
        const auto in = incoming_model(model);
        auto batch = incoming_batch(in.config, tokens, &targets, options);
        const auto m = copy_model(in);
        batch.options.valid_lens = integers(batch.lens, lim::max_model_batch, "validLens", "lengths");
        const auto result = attention::attention_model_loss(m, token_ids(tokens, "tokens"),
                                                            token_ids(targets, "targets"), batch.options);
        val object = val::object();
        object.set("loss", result.loss);
        object.set("gradients", named_arrays(m, result.gradients));
        return object;
    });
}

val attention_model_step(val model, val tokens, val targets, val options) {
    return guarded([&] {
        ModelCall call;
        const auto in = incoming_model(model);
        auto batch = incoming_batch(in.config, tokens, &targets, options);
        const auto optimizer =
            optimizer_options(options["optimizer"].as<std::string>(), options["lr"].as<double>());
        auto state = copy_state(in);
        attention::check_optimizer_state(state, 1);
        auto m = copy_model(in);
        attention::check_optimizer(optimizer, m.values.size(), m.values.size(), state);
        batch.options.valid_lens = integers(batch.lens, lim::max_model_batch, "validLens", "lengths");
        const auto loss = attention::attention_model_loss(m, token_ids(tokens, "tokens"),
                                                          token_ids(targets, "targets"), batch.options);
        attention::optimizer_step(m.values, loss.gradients, state, optimizer);
        val object = val::object();
        object.set("model", model_to_js(m, state));
        object.set("loss", loss.loss);
        return object;
    });
}

// {task, batch, length, vocab, seed, lag, variableLengths}, checked in JS for type.
attention::TaskOptions task_options(const val& options) {
    attention::TaskOptions t;
    t.task = attention::attention_task_from_name(options["task"].as<std::string>());
    t.batch = count(options["batch"].as<double>(), "batch");
    t.length = count(options["length"].as<double>(), "length");
    t.vocab = count(options["vocab"].as<double>(), "vocab");
    t.seed = seed_of(options["seed"].as<double>());
    t.lag = count(options["lag"].as<double>(), "lag");
    t.variable_lengths = options["variableLengths"].as<bool>();
    attention::check_task_options(t);
    return t;
}

val attention_task_batch(val options) {
    return guarded([&] {
        const auto batch = attention::attention_task_batch(task_options(options));
        val object = val::object();
        object.set("tokens", to_js_int32(batch.tokens));
        object.set("targets", to_js_int32(batch.targets));
        object.set("validLens", to_js_int32(batch.valid_lens));
        return object;
    });
}

val attention_task_ideal(val options, double item) {
    return guarded([&] {
        const auto t = task_options(options);
        const std::size_t i = count(item, "item");
        attention::require_count("item", i, 0, t.batch - 1);
        return to_js(attention::ideal_attention(t, attention::attention_task_batch(t), i));
    });
}

val attention_model_train(val model, val options) {
    return guarded([&] {
        ModelCall call;
        const auto in = incoming_model(model);
        attention::ModelTrainingOptions o;
        o.task = attention::attention_task_from_name(options["task"].as<std::string>());
        o.lag = count(options["lag"].as<double>(), "lag");
        o.variable_lengths = options["variableLengths"].as<bool>();
        o.causal = options["causal"].as<bool>();
        o.steps = count(options["steps"].as<double>(), "steps");
        o.batch = count(options["batch"].as<double>(), "batch");
        o.optimizer = optimizer_options(options["optimizer"].as<std::string>(), options["lr"].as<double>());
        o.seed = seed_of(options["seed"].as<double>());
        o.eval_every = count(options["evalEvery"].as<double>(), "evalEvery");
        o.held_out = count(options["heldOut"].as<double>(), "heldOut");
        o.evaluate_at_end = options["evaluateAtEnd"].as<bool>();
        // The state is checked in the core, against the steps to take, as the caller gave it.
        auto state = copy_state(in);
        auto m = copy_model(in);
        const auto result = attention::train_attention_model(m, state, o);
        val object = val::object();
        object.set("model", model_to_js(m, state));
        object.set("loss", to_js(result.loss));
        object.set("accuracy", to_js(result.accuracy));
        object.set("evaluatedAt", to_js(result.evaluated_at));
        object.set("heldOutAccuracy",
                   std::isnan(result.held_out_accuracy) ? val::null() : val(result.held_out_accuracy));
        object.set("stopReason", result.stop_reason.empty() ? val::null() : val(result.stop_reason));
        return object;
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


// The core's contract, read once by the JS API: the documented limits
// (limits.hpp) and the defaults of its options (the option structs), so the
// JS side holds no number of its own.
val contract() {
    val limits = val::object();
    put(limits, "maxPoints", lim::max_points);
    put(limits, "maxMatrixElements", lim::max_matrix_elements);
    put(limits, "maxDimension", lim::max_dimension);
    put(limits, "maxBatch", lim::max_batch);
    put(limits, "maxEpochs", lim::max_epochs);
    put(limits, "maxSequence", lim::max_sequence);
    put(limits, "maxX", lim::max_x);
    put(limits, "maxNoise", lim::max_noise);
    put(limits, "maxSeed", lim::max_seed);
    put(limits, "maxRandomMagnitude", lim::max_random_magnitude);
    put(limits, "maxStudyDims", lim::max_study_dims);
    put(limits, "maxStudySamples", lim::max_study_samples);
    put(limits, "maxStudyKeys", lim::max_study_keys);
    put(limits, "maxStudySizes", lim::max_study_sizes);
    put(limits, "maxStudyRepeats", lim::max_study_repeats);
    put(limits, "maxStudyWidth", lim::max_study_width);
    put(limits, "maxVocab", lim::max_vocab);
    put(limits, "maxModelLength", lim::max_model_length);
    put(limits, "maxHeads", lim::max_heads);
    put(limits, "maxBlocks", lim::max_blocks);
    put(limits, "maxFfnHidden", lim::max_ffn_hidden);
    put(limits, "maxModelBatch", lim::max_model_batch);
    put(limits, "maxEmbeddingScale", lim::max_embedding_scale);
    put(limits, "maxLearningRate", lim::max_learning_rate);
    put(limits, "maxTrainingSteps", lim::max_training_steps);

    const attention::DatasetOptions data;
    val dataset = val::object();
    put(dataset, "n", data.n);
    put(dataset, "seed", data.seed);
    put(dataset, "noise", data.noise);
    put(dataset, "xMax", data.x_max);

    const attention::KernelSpec spec;
    val kernel = val::object();
    put(kernel, "kernel", val(std::string(attention::kernel_name(spec.kernel))));
    put(kernel, "w", spec.w);

    const attention::TrainingOptions train;
    val training = val::object();
    put(training, "w0", train.w0);
    put(training, "lr", train.lr);
    put(training, "epochs", train.epochs);
    put(training, "leaveOneOut", val(train.leave_one_out));

    const attention::ScalingStudyOptions study;
    val dims = val::array();
    for (std::size_t d : study.dims) dims.call<void>("push", static_cast<double>(d));
    val scaling = val::object();
    put(scaling, "dims", dims);
    put(scaling, "samples", study.samples);
    put(scaling, "keys", study.keys);
    put(scaling, "seed", study.seed);

    const attention::ConsistencyStudyOptions consistency_options;
    val sizes = val::array();
    for (std::size_t n : consistency_options.sizes) sizes.call<void>("push", static_cast<double>(n));
    val consistency = val::object();
    put(consistency, "sizes", sizes);
    put(consistency, "repeats", consistency_options.repeats);
    put(consistency, "queries", consistency_options.queries);
    put(consistency, "w", consistency_options.w);
    put(consistency, "noise", consistency_options.noise);
    put(consistency, "xMax", consistency_options.x_max);
    put(consistency, "seed", consistency_options.seed);

    const attention::NormalOptions normal_options;
    val normal = val::object();
    put(normal, "seed", normal_options.seed);
    put(normal, "std", normal_options.std);

    const attention::UniformOptions uniform_options;
    val uniform = val::object();
    put(uniform, "seed", uniform_options.seed);
    put(uniform, "low", uniform_options.low);
    put(uniform, "high", uniform_options.high);

    const attention::ModelTrainingOptions train_model;
    val task = val::object();
    const attention::TaskOptions task_options;
    put(task, "task", val(std::string(attention::attention_task_name(task_options.task))));
    put(task, "batch", task_options.batch);
    put(task, "length", task_options.length);
    put(task, "vocab", task_options.vocab);
    put(task, "seed", task_options.seed);
    put(task, "lag", task_options.lag);
    put(task, "variableLengths", val(task_options.variable_lengths));
    val model_training = val::object();
    put(model_training, "task", val(std::string(attention::attention_task_name(train_model.task))));
    put(model_training, "lag", train_model.lag);
    put(model_training, "variableLengths", val(train_model.variable_lengths));
    put(model_training, "causal", val(train_model.causal));
    put(model_training, "steps", train_model.steps);
    put(model_training, "batch", train_model.batch);
    put(model_training, "optimizer", val(std::string(train_model.optimizer.kind == attention::OptimizerKind::adam ? "adam" : "sgd")));
    put(model_training, "lr", train_model.optimizer.lr);
    put(model_training, "seed", train_model.seed);
    put(model_training, "evalEvery", train_model.eval_every);
    put(model_training, "heldOut", train_model.held_out);
    put(model_training, "evaluateAtEnd", val(train_model.evaluate_at_end));

    val defaults = val::object();
    put(defaults, "attentionModel", config_to_js(attention::ModelConfig{}));
    put(defaults, "attentionTask", task);
    put(defaults, "attentionTraining", model_training);
    put(defaults, "dataset", dataset);
    put(defaults, "kernel", kernel);
    put(defaults, "training", training);
    put(defaults, "scalingStudy", scaling);
    put(defaults, "consistencyStudy", consistency);
    put(defaults, "randomNormal", normal);
    put(defaults, "randomUniform", uniform);
    put(defaults, "maskedScore", attention::masked_score);

    val result = val::object();
    put(result, "limits", limits);
    put(result, "defaults", defaults);
    return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("makeDataset", &make_dataset);
    emscripten::function("truth", &truth);
    emscripten::function("averagePool", &average_pool);
    emscripten::function("attentionWeights", &attention_weights);
    emscripten::function("nadarayaWatson", &nadaraya_watson);
    emscripten::function("trainKernelWidth", &train_kernel_width);
    emscripten::function("lossLandscape", &loss_landscape);
    emscripten::function("kernelWidthLoss", &kernel_width_loss);
    emscripten::function("maskedSoftmax", &masked_softmax);
    emscripten::function("maskScores", &mask_scores);
    emscripten::function("additiveAttention", &additive_attention);
    emscripten::function("dotProductAttention", &dot_product_attention);
    emscripten::function("multiHeadAttention", &multi_head_attention);
    emscripten::function("positionalEncoding", &positional_encoding);
    emscripten::function("randomNormal", &random_normal);
    emscripten::function("randomUniform", &random_uniform);
    emscripten::function("scalingStudy", &scaling_study);
    emscripten::function("consistencyStudy", &consistency_study);
    emscripten::function("batchMatrixProduct", &batch_matrix_product);
    emscripten::function("attentionModelInit", &attention_model_init);
    emscripten::function("attentionModelForward", &attention_model_forward);
    emscripten::function("attentionModelLoss", &attention_model_loss);
    emscripten::function("attentionModelStep", &attention_model_step);
    emscripten::function("attentionTaskBatch", &attention_task_batch);
    emscripten::function("attentionTaskIdeal", &attention_task_ideal);
    emscripten::function("attentionModelTrain", &attention_model_train);
    emscripten::function("memoryStats", &memory_stats);
    emscripten::function("contract", &contract);
}
