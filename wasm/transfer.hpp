#pragma once
// What every binding file shares: bulk copies between JS and the wasm heap,
// the checked reading of counts, seeds and arrays, and the error record.
// Every bound function returns either its result or an error record: an
// object {message, argument, expected, got, index} marked with
// Symbol.for('attention-core.error'), a key no result has.
#include <emscripten/val.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include <xtensor/xtensor.hpp>

#include "contract/attention_result.hpp"
#include "contract/errors.hpp"
#include "contract/limits.hpp"

namespace attention {
struct AttentionExtents;
struct EncoderConfig;
struct Seq2SeqConfig;
}  // namespace attention

// Bulk transfers, one call into JS each, defined with their JS text in
// transfer.cpp. (Embind's own route - val property reads,
// typed_memory_view, val method calls - takes five to seven crossings per
// array, each decoding its names from UTF-8; with the invoke_* trampolines
// below, about 8 us of fixed cost per call of the API, as much as a 50 x 50
// pooling; see tests/benchmarks/README.md.)
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
// destructors.) EM_JS's own declaration has no exception specification, so
// these are imported under this second one.
#define ATTENTION_JS_IMPORT(name) noexcept __attribute__((import_module("env"), import_name(#name)))

extern "C" {
double attention_js_length(emscripten::EM_VAL array) ATTENTION_JS_IMPORT(attention_js_length);
void attention_js_copy_f64(emscripten::EM_VAL array, double* out) ATTENTION_JS_IMPORT(attention_js_copy_f64);
void attention_js_copy_i32(emscripten::EM_VAL array, int* out) ATTENTION_JS_IMPORT(attention_js_copy_i32);
emscripten::EM_VAL attention_js_float64_copy(const double* data, double size)
    ATTENTION_JS_IMPORT(attention_js_float64_copy);
void attention_js_copy_into(const double* data, double size, emscripten::EM_VAL out)
    ATTENTION_JS_IMPORT(attention_js_copy_into);
emscripten::EM_VAL attention_js_int32_copy(const int* data, double size) ATTENTION_JS_IMPORT(attention_js_int32_copy);
emscripten::EM_VAL attention_js_uint8_copy(const unsigned char* data, double size)
    ATTENTION_JS_IMPORT(attention_js_uint8_copy);
void attention_js_mark_error(emscripten::EM_VAL record) ATTENTION_JS_IMPORT(attention_js_mark_error);
}

namespace attention::transfer {

using emscripten::val;

// Integers arrive as JS numbers; anything that is not a whole number in
// `range` is refused here, with that range, before it can wrap around in a
// size_t: by default [0, 2^31 - 1], what any count holds; a config's size
// fields pass their own (the core's checks of the config say the same range).
std::size_t count(double value, std::string_view name,
                  attention::CountRange range = {0, attention::largest_count});

// Seeds arrive as JS numbers: whole numbers in [0, 2^32).
std::uint32_t seed_of(double seed);

inline std::size_t js_length(const val& array) {
    return static_cast<std::size_t>(attention_js_length(array.as_handle()));
}

// The longest array copied in: the core's largest tensor.
inline constexpr std::size_t max_array_length = 4 * limits::max_matrix_elements;

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
            ArgumentFields fields{name, text("at most ", largest, " numbers for its shape"),
                                  text("more than ", largest), std::nullopt};
            const std::string message = text(name, ": its shape asks for more than ", largest, " numbers (the documented limit)");
            throw ArgumentError(std::move(fields), message);
        }
        expected *= extent;
    }
    const std::size_t length = js_length(array);
    if (length != expected) fail(name, text(expected, " numbers for its shape"), length);
    return {array, shape};
}

template <std::size_t N>
xt::xtensor<double, N> tensor(const val& array, const std::array<std::size_t, N>& shape, const char* name) {
    return incoming<N>(array, shape, name).copy();
}

// A Float64Array of at most limits::max_points numbers.
xt::xtensor<double, 1> vector(const val& array, const char* name);

// The length of an array of at most `largest` elements, named `what`.
std::size_t limited_length(const val& array, std::size_t largest, const char* name, const char* what);

// An Int32Array (the JS API guarantees the type) of at most `largest` elements, named `what`.
xt::xtensor<int, 1> integers(const val& array, std::size_t largest, const char* name, const char* what);

// The valid lengths of a (batch, nq, nk) attention, checked (their count
// before they are copied, then each) before the call copies its big arrays.
xt::xtensor<int, 1> valid_lengths(const val& array, const AttentionExtents& e);

// The scores of maskedSoftmax and maskScores, of shape [batch, nq, nk]
// (given as its three extents), with their valid lengths: the core's checks
// of the shape under the caller's names, then the copies.
struct ScoresArguments {
    xt::xtensor<double, 3> scores;
    xt::xtensor<int, 1> lens;
};
ScoresArguments scores_arguments(const val& scores, double batch, double nq, double nk, const val& lens);

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
val to_js_uint8(const xt::xtensor<std::uint8_t, 3>& tensor);

// The data copied into the caller's Float64Array `out` (its length checked
// beforehand), which is returned: no new array per call.
template <class Tensor>
val copy_into(const Tensor& tensor, const val& out) {
    attention_js_copy_into(tensor.data(), static_cast<double>(tensor.size()), out.as_handle());
    return out;
}

// {output, weights, scores} of an attention call (scores only when it has them).
val attention_result(const AttentionResult& result);

// An error record: the message, and an argument error's fields (index only
// when there is one). Anything else (std::bad_alloc, ...) has only a message.
val error_record(const std::exception& error);

template <class Body>
val guarded(Body&& body) {
    try {
        return body();
    } catch (const std::exception& error) {
        return error_record(error);
    }
}

// One property of a result object, one call each: inlined, the val::set
// temporaries and their exception cleanups made contract() 12 KB of wasm.
void put(val& object, const char* key, const val& value);
void put(val& object, const char* key, double value);

// A model's config as JS sees it: written by the model's calls and by the
// contract's defaults (model_bindings.cpp).
val config_to_js(const EncoderConfig& config);
// A translator's config (seq2seq_bindings.cpp): `task` its task's name, or null.
val config_to_js(const Seq2SeqConfig& config, const val& task);

}  // namespace attention::transfer
