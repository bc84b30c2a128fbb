#include "reference.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace ref {

const json& references() {
    static const json parsed = [] {
        std::ifstream file(ATTENTION_REFERENCES);
        if (!file) throw std::runtime_error("cannot open " ATTENTION_REFERENCES);
        return json::parse(file);
    }();
    return parsed;
}

std::vector<double> numbers(const json& list) {
    std::vector<double> result;
    result.reserve(list.size());
    for (const json& item : list) {
        if (item.is_null())
            result.push_back(std::numeric_limits<double>::quiet_NaN());
        else if (item.is_string())
            result.push_back(attention::testing::from_hex(item.get<std::string>()));
        else
            result.push_back(item.get<double>());
    }
    return result;
}

xt::xtensor<int, 1> lengths(const json& value) {
    std::vector<int> flat;
    if (!value.is_null())
        for (const json& item : value) {
            if (item.is_array())
                for (const json& inner : item) flat.push_back(inner.get<int>());
            else
                flat.push_back(item.get<int>());
        }
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({flat.size()});
    std::copy(flat.begin(), flat.end(), result.begin());
    return result;
}

namespace {
std::string describe(std::size_t index, double actual, double expected) {
    return "element " + std::to_string(index) + ": got " + attention::testing::to_hex(actual) + " (" +
           std::to_string(actual) + "), expected " + attention::testing::to_hex(expected) + " (" +
           std::to_string(expected) + ")";
}

std::string size_mismatch(std::size_t actual, std::size_t expected) {
    return "got " + std::to_string(actual) + " elements, expected " + std::to_string(expected);
}
}  // namespace

std::string mismatch(const std::vector<double>& actual, const std::vector<double>& expected,
                     double tolerance) {
    if (actual.size() != expected.size()) return size_mismatch(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const double a = actual[i], e = expected[i];
        if (std::isnan(a) || std::isnan(e)) {
            if (std::isnan(a) != std::isnan(e)) return describe(i, a, e);
            continue;
        }
        if (!(std::abs(a - e) <= tolerance * std::max(1.0, std::abs(e)))) return describe(i, a, e);
    }
    return {};
}

std::string bit_mismatch(const std::vector<double>& actual, const std::vector<double>& expected) {
    if (actual.size() != expected.size()) return size_mismatch(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        std::uint64_t a = 0, e = 0;
        std::memcpy(&a, &actual[i], sizeof a);
        std::memcpy(&e, &expected[i], sizeof e);
        if (a != e) return describe(i, actual[i], expected[i]);
    }
    return {};
}

}  // namespace ref
