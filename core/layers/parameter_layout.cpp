#include "layers/parameter_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "contract/errors.hpp"
#include "numerics/random.hpp"

namespace attention {

Init Init::linear(std::size_t fan_in) { return {Kind::uniform, 1.0 / std::sqrt(static_cast<double>(fan_in))}; }

Init Init::xavier(std::size_t fan_in, std::size_t fan_out) {
    return {Kind::uniform, std::sqrt(6.0 / (static_cast<double>(fan_in) + static_cast<double>(fan_out)))};
}

ParameterHandle LayoutBuilder::add(std::string_view name, std::initializer_list<std::size_t> shape, Init init) {
    std::size_t size = 1;
    for (auto s : shape) size *= s;
    const ParameterHandle handle{state_->offset, size};
    if (state_->slots) state_->slots->push_back({prefix_ + std::string(name), shape, handle.offset, size, init});
    state_->offset += size;
    ++state_->count;
    return handle;
}

LayoutBuilder LayoutBuilder::under(std::string_view prefix) const {
    return LayoutBuilder(state_, state_->slots ? prefix_ + std::string(prefix) : std::string());
}

LayoutBuilder LayoutBuilder::under(std::string_view stem, std::size_t index, std::string_view tail) const {
    if (!state_->slots) return LayoutBuilder(state_, std::string());
    return LayoutBuilder(state_, prefix_ + std::string(stem) + std::to_string(index) + std::string(tail));
}

void initialise_parameters(const std::vector<ParameterSlot>& layout, Random& random, double* values) {
    for (const auto& slot : layout) {
        double* p = values + slot.offset;
        const double bound = slot.init.value;
        switch (slot.init.kind) {
            case Init::Kind::normal:
                for (std::size_t e = 0; e < slot.size; ++e) p[e] = random.normal();
                break;
            case Init::Kind::constant: std::fill(p, p + slot.size, slot.init.value); break;
            case Init::Kind::uniform:
                for (std::size_t e = 0; e < slot.size; ++e) p[e] = -bound + 2.0 * bound * random.uniform();
                break;
        }
    }
}

void check_parameter_count(const std::vector<ParameterSlot>& layout, std::size_t given) {
    if (given != layout.size()) fail("params", text(layout.size(), " named parameters for this config"), given);
}

std::vector<std::size_t> match_parameters(const std::vector<ParameterSlot>& layout,
                                          const std::vector<NamedSize>& given) {
    check_parameter_count(layout, given.size());
    std::vector<std::size_t> slots(given.size());
    std::vector<bool> found(layout.size(), false);
    for (std::size_t g = 0; g < given.size(); ++g) {
        const std::string_view name = given[g].name;
        std::size_t k = 0;
        while (k < layout.size() && layout[k].name != name) ++k;
        if (k == layout.size()) fail("params", "only the names of the model's parameters", quoted(name));
        if (found[k]) fail("params", "each name once", quoted(name));
        if (given[g].size != layout[k].size) fail(text("params.", name), text(layout[k].size, " numbers"), given[g].size);
        found[k] = true;
        slots[g] = k;
    }
    return slots;
}

void check_finite_parameters(const std::vector<ParameterSlot>& layout, const double* all) {
    for (const auto& slot : layout) {
        const double* values = all + slot.offset;
        for (std::size_t e = 0; e < slot.size; ++e)
            if (!std::isfinite(values[e])) fail(text("params.", slot.name), "finite numbers", values[e], e);
    }
}

void copy_named_parameters(const std::vector<ParameterSlot>& layout, const std::vector<NamedValues>& params,
                           double* values) {
    std::vector<NamedSize> given;
    for (const auto& p : params) given.push_back({p.name, p.values.size()});
    const std::vector<std::size_t> slots = match_parameters(layout, given);
    for (std::size_t g = 0; g < params.size(); ++g)
        std::copy(params[g].values.begin(), params[g].values.end(), values + layout[slots[g]].offset);
    check_finite_parameters(layout, values);
}

}  // namespace attention
