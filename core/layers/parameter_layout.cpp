#include "layers/parameter_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "random.hpp"

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

}  // namespace attention
