#pragma once
// What the tests of the layers and of the models built from them share:
// tests/references/layer_references.json (make_layer_references.py), and the
// check of a backward pass against central differences of its forward pass.
// The backward passes are checked on sum(output * dout) for a drawn dout, as
// autograd's are.
#include <cstddef>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "numerics/random.hpp"
#include "reference.hpp"

namespace ref {

using Values = std::vector<double>;

inline const nlohmann::json& layer_references() {
    static const nlohmann::json parsed = [] {
        std::ifstream file(ATTENTION_LAYER_REFERENCES);
        if (!file) throw std::runtime_error("cannot open " ATTENTION_LAYER_REFERENCES);
        return nlohmann::json::parse(file);
    }();
    return parsed;
}

inline Values values(const nlohmann::json& list) { return list.get<Values>(); }
inline std::vector<int> integers(const nlohmann::json& list) {
    std::vector<int> result;
    for (double v : list.get<Values>()) result.push_back(static_cast<int>(v));
    return result;
}

// sum(out * dout): the loss whose gradient a backward pass given dout computes.
inline double weighted_sum(const Values& out, const Values& dout) {
    double total = 0.0;
    for (std::size_t e = 0; e < out.size(); ++e) total += out[e] * dout[e];
    return total;
}

// Central differences of `loss` in each element of `values` (perturbed in
// place and restored) against the backward pass's `analytic` gradient.
inline void check_central_differences(const std::string& name, Values& values, const Values& analytic,
                                      const std::function<double()>& loss) {
    REQUIRE(values.size() == analytic.size());
    constexpr double h = 1e-6;
    Values numeric(values.size());
    for (std::size_t e = 0; e < values.size(); ++e) {
        const double kept = values[e];
        values[e] = kept + h;
        const double up = loss();
        values[e] = kept - h;
        const double down = loss();
        values[e] = kept;
        numeric[e] = (up - down) / (2 * h);
    }
    INFO("central differences of " << name);
    CHECK_NEAR_TOL(analytic, numeric, 1e-6);
}

// `count` draws of N(0, scale^2).
inline Values drawn(attention::Random& random, std::size_t count, double scale = 1.0) {
    Values v(count);
    for (double& e : v) e = scale * random.normal();
    return v;
}

}  // namespace ref
