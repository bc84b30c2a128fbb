#include "model_transfer.hpp"

#include <cmath>


namespace attention::transfer {

IncomingParameters incoming_parameters(const val& model, const std::vector<ParameterSlot>& layout,
                                       std::size_t parameters) {
    IncomingParameters in;
    const val names = model["names"];
    in.arrays = model["arrays"];
    const std::size_t given = count(names["length"].as<double>(), "params");
    check_parameter_count(layout, given);
    std::vector<std::string> name_texts(given);
    std::vector<NamedSize> sizes(given);
    for (std::size_t k = 0; k < given; ++k) {
        name_texts[k] = names[k].as<std::string>();
        sizes[k] = {name_texts[k], js_length(in.arrays[k])};
    }
    in.slots = match_parameters(layout, sizes);

    const double step = model["step"].as<double>();
    if (!std::isfinite(step) || step != std::floor(step) || step < 0 || step >= 9007199254740992.0)
        fail("optimizerState.step", "a whole number in [0, 2^53)", step);
    in.step = static_cast<std::uint64_t>(step);
    const val m = model["m"], v = model["v"];
    if (m.isNull() != v.isNull()) fail("optimizerState", "m and v both null or both arrays");
    if (!m.isNull()) {
        in.m = incoming<1>(m, {parameters}, "optimizerState.m");
        in.v = incoming<1>(v, {parameters}, "optimizerState.v");
    }
    return in;
}

xt::xtensor<double, 1> copy_parameters(const IncomingParameters& in, const std::vector<ParameterSlot>& layout,
                                       std::size_t parameters) {
    xt::xtensor<double, 1> values = xt::xtensor<double, 1>::from_shape({parameters});
    for (std::size_t k = 0; k < in.slots.size(); ++k) {
        const auto& slot = layout[in.slots[k]];
        if (slot.size > 0) attention_js_copy_f64(in.arrays[k].as_handle(), values.data() + slot.offset);
    }
    check_finite_parameters(layout, values.data());
    return values;
}

OptimizerState copy_state(const IncomingParameters& in) {
    OptimizerState state;
    state.step = in.step;
    if (in.m) {
        state.m = in.m->copy();
        state.v = in.v->copy();
    }
    return state;
}

val named_arrays(const std::vector<ParameterSlot>& layout, const xt::xtensor<double, 1>& flat) {
    val object = val::object();
    for (const auto& slot : layout)
        object.set(slot.name, val::take_ownership(attention_js_float64_copy(flat.data() + slot.offset,
                                                                             static_cast<double>(slot.size))));
    return object;
}

val model_object(const val& config, const std::vector<ParameterSlot>& layout, const xt::xtensor<double, 1>& values,
                 const OptimizerState& state) {
    val result = val::object();
    result.set("config", config);
    result.set("params", named_arrays(layout, values));
    val optimizer = val::object();
    optimizer.set("step", static_cast<double>(state.step));
    optimizer.set("m", state.m.size() ? to_js(state.m) : val::null());
    optimizer.set("v", state.v.size() ? to_js(state.v) : val::null());
    result.set("optimizerState", optimizer);
    return result;
}

OptimizerOptions optimizer_options(const std::string& optimizer, double lr) {
    OptimizerOptions o;
    o.kind = optimizer_names.from_name(optimizer);
    o.lr = lr;
    return o;
}

val number_or_null(double value) { return std::isnan(value) ? val::null() : val(value); }
val text_or_null(const std::string& value) { return value.empty() ? val::null() : val(value); }

OptimizerOptions optimizer_options(const val& options) {
    return optimizer_options(options["optimizer"].as<std::string>(), options["lr"].as<double>());
}

val step_object(const val& model, double loss) {
    val object = val::object();
    object.set("model", model);
    object.set("loss", loss);
    return object;
}

}  // namespace attention::transfer
