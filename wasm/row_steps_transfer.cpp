#include "row_steps_transfer.hpp"

#include "transfer.hpp"

namespace attention::transfer {

RowChoice row_choice(const val& choice) {
    RowChoice c;
    c.block = count(choice["block"].as<double>(), "block");
    c.item = count(choice["item"].as<double>(), "item");
    c.head = count(choice["head"].as<double>(), "head");
    c.query = count(choice["query"].as<double>(), "query");
    return c;
}

val row_steps_to_js(const AttentionRowSteps& steps) {
    val object = val::object();
    object.set("scoring", steps.scoring);
    object.set("keyCount", static_cast<double>(steps.scores.size()));
    object.set("queryDim", static_cast<double>(steps.query.size()));
    object.set("valueDim", static_cast<double>(steps.output.size()));
    object.set("hidden", static_cast<double>(steps.w_v.size()));
    object.set("query", to_js(steps.query));
    object.set("keys", to_js(steps.keys));
    object.set("values", to_js(steps.values));
    object.set("projectedQuery", to_js(steps.projected_query));
    object.set("projectedKeys", to_js(steps.projected_keys));
    object.set("features", to_js(steps.features));
    object.set("wV", to_js(steps.w_v));
    object.set("scale", steps.scale);
    object.set("scores", to_js(steps.scores));
    object.set("visible", to_js_int32(steps.visible));
    object.set("validLength", static_cast<double>(steps.valid_length));
    object.set("causal", steps.causal);
    object.set("maskedScores", to_js(steps.masked_scores));
    object.set("weights", to_js(steps.weights));
    object.set("output", to_js(steps.output));
    return object;
}

}  // namespace attention::transfer
