#pragma once
// tests/references/task_references.json (make_task_references.py): every
// number's English words and Chinese numerals, the count of task dates, and
// d2l's BLEU on fixed and seeded cases.
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ref {

inline const nlohmann::json& task_references() {
    static const nlohmann::json parsed = [] {
        std::ifstream file(ATTENTION_TASK_REFERENCES);
        if (!file) throw std::runtime_error("cannot open " ATTENTION_TASK_REFERENCES);
        return nlohmann::json::parse(file);
    }();
    return parsed;
}

}  // namespace ref
