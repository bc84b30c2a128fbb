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
#include <utility>
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

// A model object as the JS API hands it over, read against a config the
// binding has read and checked: every length checked, nothing copied yet.
template <class Model>
struct IncomingModel {
    decltype(Model::config) config;
    std::vector<ParameterSlot> layout;
    std::size_t parameter_count = 0;
    IncomingParameters parameters;

    // The model's values copied straight into its one flat vector, then checked.
    Model copy() const {
        Model model;
        model.config = config;
        model.layout = layout;
        model.values = copy_parameters(parameters, layout, parameter_count);
        return model;
    }

    // The model and its optimiser's state, each checked for one step of `optimizer`.
    struct ForStep {
        Model model;
        OptimizerState state;
    };
    ForStep for_step(const OptimizerOptions& optimizer) const {
        ForStep in;
        in.state = copy_state(parameters);
        check_optimizer_state(in.state, 1);
        in.model = copy();
        check_optimizer(optimizer, in.model.values.size(), in.model.values.size(), in.state);
        return in;
    }
};

template <class Model>
IncomingModel<Model> incoming_model(const val& model, const decltype(Model::config)& config,
                                    std::vector<ParameterSlot> layout, std::size_t parameter_count) {
    IncomingModel<Model> in{config, std::move(layout), parameter_count, {}};
    in.parameters = incoming_parameters(model, in.layout, parameter_count);
    return in;
}

// The one wrapper of every call of a model's bindings: a thrown error comes
// back as an error record (guarded), and the core's pass buffers are
// released at the call's end however it ends, so memory returns to its
// level between calls.
template <class Body>
val model_call(void (*release_workspace)(), Body&& body) {
    return guarded([&] {
        struct Release {
            void (*release)();
            ~Release() { release(); }
        } release{release_workspace};
        return body();
    });
}

// 'adam' or 'sgd' at lr.
OptimizerOptions optimizer_options(const std::string& optimizer, double lr);
// The same from a call's options {optimizer, lr}.
OptimizerOptions optimizer_options(const val& options);

// What both models' training options share, read in this order (the first
// wrong one is named): steps, batch, optimizer and lr, seed, evalEvery, heldOut, evaluateAtEnd.
template <class TrainingOptions>
void read_training_options(const val& options, TrainingOptions& o) {
    o.steps = count(options["steps"].as<double>(), "steps");
    o.batch = count(options["batch"].as<double>(), "batch");
    o.optimizer = optimizer_options(options);
    o.seed = seed_of(options["seed"].as<double>());
    o.eval_every = count(options["evalEvery"].as<double>(), "evalEvery");
    o.held_out = count(options["heldOut"].as<double>(), "heldOut");
    o.evaluate_at_end = options["evaluateAtEnd"].as<bool>();
}

// null for NaN (a figure not taken), else the number.
val number_or_null(double value);
// null for an empty text, else the text.
val text_or_null(const std::string& value);

// What both models' step calls return: {model, loss}.
val step_object(const val& model, double loss);

// What both models' training calls return: {model, loss, accuracy,
// evaluatedAt, heldOutAccuracy, stopReason}; a model's own figures are set after.
template <class TrainingResult>
val training_object(const val& model, const TrainingResult& result) {
    val object = val::object();
    object.set("model", model);
    object.set("loss", to_js(result.loss));
    object.set("accuracy", to_js(result.accuracy));
    object.set("evaluatedAt", to_js(result.evaluated_at));
    object.set("heldOutAccuracy", number_or_null(result.held_out_accuracy));
    object.set("stopReason", text_or_null(result.stop_reason));
    return object;
}

}  // namespace attention::transfer
