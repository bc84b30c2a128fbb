#pragma once
// What both trainable models (encoder/attention_model.hpp, seq2seq/model.hpp)
// are built from: a checked configuration and every parameter in one flat
// vector that a layout describes (layers/parameter_layout.hpp), drawn by
// the seeded initialisation or copied from named values. A third model
// takes the same two steps.
#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include <xtensor/xtensor.hpp>

#include "layers/parameter_layout.hpp"
#include "numerics/random.hpp"

namespace attention {

// A trainable model: its configuration and its parameters (and gradients,
// which have the same layout), one after the other, each row-major.
template <class Config>
struct TrainableModel {
    Config config;
    std::vector<ParameterSlot> layout;
    xt::xtensor<double, 1> values;

    // Throws ArgumentError("name") if absent; each model words what it got.
    const ParameterSlot& slot(std::string_view name) const;
    const double* data(std::string_view name) const { return values.data() + slot(name).offset; }
    double* data(std::string_view name) { return values.data() + slot(name).offset; }
};

// A Model (config, layout, values) of `config`, its `count` parameters laid
// out by `layout` and not set yet.
template <class Model, class Config>
Model laid_out_model(const Config& config, std::vector<ParameterSlot> layout, std::size_t count) {
    Model model;
    model.config = config;
    model.layout = std::move(layout);
    model.values = xt::xtensor<double, 1>::from_shape({count});
    return model;
}

// Its parameters drawn in layout order from the generator seeded by config.seed.
template <class Model, class Config>
Model initialised_model(const Config& config, std::vector<ParameterSlot> layout, std::size_t count) {
    Model model = laid_out_model<Model>(config, std::move(layout), count);
    Random random(config.seed);
    initialise_parameters(model.layout, random, model.values.data());
    return model;
}

// Its parameters copied from `params` (every name of the layout once, sizes
// as the layout says, finite values; errors name "params.<name>").
template <class Model, class Config>
Model model_from_named(const Config& config, std::vector<ParameterSlot> layout, std::size_t count,
                       const std::vector<NamedValues>& params) {
    Model model = laid_out_model<Model>(config, std::move(layout), count);
    copy_named_parameters(model.layout, params, model.values.data());
    return model;
}

}  // namespace attention
