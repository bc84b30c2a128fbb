#pragma once
// A kind's names (an optimiser, a task, an architecture), in one table
// beside its enum: the JS API reads and writes a kind by these names only,
// refuses any other naming the argument and the names it takes, and the
// contract hands the names to the page (kinds in modelContract()), so no
// copy can fall back to a default in silence.
#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "contract/errors.hpp"

namespace attention {

template <class Kind, std::size_t Count>
struct KindNames {
    std::string_view argument;  // the argument a refusal names
    std::array<std::pair<Kind, std::string_view>, Count> entries;

    Kind from_name(std::string_view name) const {
        for (const auto& [kind, spelled] : entries)
            if (name == spelled) return kind;
        fail(argument, text("one of ", joined()), quoted(name));
    }

    // Names are literals: their data ends in '\0'. A value outside the
    // table (a cast) is the core's own bug, never input.
    const char* name_of(Kind kind) const {
        for (const auto& [known, spelled] : entries)
            if (known == kind) return spelled.data();
        throw std::logic_error(text("no name for this ", argument));
    }

    std::vector<std::string> names() const {
        std::vector<std::string> result;
        for (const auto& entry : entries) result.emplace_back(entry.second);
        return result;
    }

    std::string joined() const {
        std::string result;
        for (const auto& entry : entries) result += (result.empty() ? "" : ", ") + std::string(entry.second);
        return result;
    }
};

}  // namespace attention
