// The transfer helpers of transfer.hpp, and the JS text of its imports
// (EM_JS: defined here only, once for the whole module).
#include "transfer.hpp"

#include <emscripten/em_js.h>
#include <emscripten/emscripten.h>

#include <cmath>
#include <string>

#include "contract/attention_checks.hpp"
#include "scoring/masking.hpp"

// Each import's JS body, under the name transfer.hpp imports it by (the
// `_js` name EM_JS also declares is never called, so never imported).
// HEAPF64 and HEAP32 are read at each call, so they are the views of the
// current memory even after it grew.
#define ATTENTION_JS(ret, name, params, ...) _EM_JS(ret, name##_js, name, params, #__VA_ARGS__)

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
// The mark of an error record (see error_record below).
ATTENTION_JS(void, attention_js_mark_error, (emscripten::EM_VAL record), {
  Emval.toValue(record)[Symbol.for('attention-core.error')] = true;
})

namespace attention::transfer {

std::size_t count(double value, std::string_view name, attention::CountRange range) {
    return attention::count_of_number(name, value, range);
}

std::uint32_t seed_of(double seed) {
    if (!std::isfinite(seed) || seed != std::floor(seed) || seed < 0 || seed > limits::max_seed)
        fail("seed", text("a whole number in [0, ", limits::max_seed, "]"), seed);
    return static_cast<std::uint32_t>(seed);
}

xt::xtensor<double, 1> vector(const val& array, const char* name) {
    const std::size_t length = js_length(array);
    if (length > limits::max_points) fail(name, text("at most ", limits::max_points, " numbers"), length);
    return tensor<1>(array, {length}, name);
}

std::size_t limited_length(const val& array, std::size_t largest, const char* name, const char* what) {
    const std::size_t length = js_length(array);
    if (length > largest) fail(name, text("at most ", largest, " ", what));
    return length;
}

xt::xtensor<int, 1> integers(const val& array, std::size_t largest, const char* name, const char* what) {
    const std::size_t length = limited_length(array, largest, name, what);
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({length});
    if (length > 0) attention_js_copy_i32(array.as_handle(), result.data());
    return result;
}

xt::xtensor<int, 1> valid_lengths(const val& array, const AttentionExtents& e) {
    constexpr std::size_t largest = limits::max_batch * limits::max_points;
    ValidLengths::check_count(limited_length(array, largest, "validLens", "lengths"), e.batch, e.nq);
    xt::xtensor<int, 1> lens = integers(array, largest, "validLens", "lengths");
    ValidLengths(lens, e.batch, e.nq, e.nk);
    return lens;
}

ScoresArguments scores_arguments(const val& scores, double batch, double nq, double nk, const val& lens) {
    constexpr ExtentNames names{"shape[0] (batch)", "shape[1] (nq)", "shape[2] (nk)"};
    const AttentionExtents e{count(batch, names.batch), count(nq, names.nq), count(nk, names.nk)};
    check_attention_extents(e, names);
    const auto incoming_scores = incoming<3>(scores, {e.batch, e.nq, e.nk}, "scores");
    auto checked_lens = valid_lengths(lens, e);
    return {incoming_scores.copy(), std::move(checked_lens)};
}

val to_js_uint8(const xt::xtensor<std::uint8_t, 3>& tensor) {
    return val::take_ownership(attention_js_uint8_copy(tensor.data(), static_cast<double>(tensor.size())));
}

val attention_result(const AttentionResult& result) {
    val object = val::object();
    object.set("output", to_js(result.output));
    object.set("weights", to_js(result.weights));
    if (result.scores.size() > 0) object.set("scores", to_js(result.scores));
    return object;
}

// Not inlined: every binding's catch handler calls this one copy.
__attribute__((noinline)) val error_record(const std::exception& error) {
    val record = val::object();
    record.set("message", std::string(error.what()));
    if (const auto* argument_error = dynamic_cast<const ArgumentError*>(&error)) {
        record.set("argument", argument_error->argument());
        record.set("expected", argument_error->expected());
        record.set("got", argument_error->got());
        if (argument_error->index()) record.set("index", static_cast<double>(*argument_error->index()));
    }
    attention_js_mark_error(record.as_handle());
    return record;
}

__attribute__((noinline)) void put(val& object, const char* key, const val& value) { object.set(key, value); }
__attribute__((noinline)) void put(val& object, const char* key, double value) { object.set(key, value); }

}  // namespace attention::transfer
