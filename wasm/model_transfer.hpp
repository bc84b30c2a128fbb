#pragma once
// What the bindings of both trainable models (model_bindings.cpp,
// seq2seq_bindings.cpp) share: a model object handed over by the JS API,
// read with every length checked before anything is copied, and a model
// handed back as {config, params, optimizerState}.
//
// The JS API hands a model over as one plain object it made: {config,
// names: [string], arrays: [Float64Array] (params, in the caller's order),
// step: number, m: Float64Array | null, v: Float64Array | null}.
#include <emscripten/val.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "layers/parameter_layout.hpp"
#include "training/optimizers.hpp"
#include "transfer.hpp"

namespace attention::transfer {

// The parameters' names matched to a layout and their lengths checked, the
// optimiser's step read and its moments' lengths checked; nothing copied yet.
struct IncomingParameters {
    val arrays = val::undefined();
    std::vector<std::size_t> slots;  // the layout's slot of each given array
    std::uint64_t step = 0;
    std::optional<Incoming<1>> m, v;  // none: a model not trained with Adam yet
};
IncomingParameters incoming_parameters(const val& model, const std::vector<ParameterSlot>& layout,
                                       std::size_t parameters);

// The given arrays copied straight into the flat vector of `layout`, then
// checked finite (errors name "params.<name>").
xt::xtensor<double, 1> copy_parameters(const IncomingParameters& in, const std::vector<ParameterSlot>& layout,
                                       std::size_t parameters);

// The optimiser's state as given (the call checks it, for the steps it takes).
OptimizerState copy_state(const IncomingParameters& in);

// Named Float64Arrays in layout order, from a flat vector in that layout.
val named_arrays(const std::vector<ParameterSlot>& layout, const xt::xtensor<double, 1>& flat);

// {config, params, optimizerState}.
val model_object(const val& config, const std::vector<ParameterSlot>& layout, const xt::xtensor<double, 1>& values,
                 const OptimizerState& state);

// 'adam' or 'sgd' at lr.
OptimizerOptions optimizer_options(const std::string& optimizer, double lr);

// null for NaN (a figure not taken), else the number.
val number_or_null(double value);
// null for an empty text, else the text.
val text_or_null(const std::string& value);

}  // namespace attention::transfer
