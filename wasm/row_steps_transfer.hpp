#pragma once
// What the bindings of both trainable models share for a row of their
// attention taken apart (core/inspection/attention_row_steps.hpp): the choice of row
// read from JS, and the steps handed back as one plain object.
#include <emscripten/val.h>

#include "inspection/attention_row_steps.hpp"

namespace attention::transfer {

using emscripten::val;

// {block, item, head, query}: whole numbers (checked in JS for type), each named when refused.
RowChoice row_choice(const val& choice);

// {scoring, keyCount, queryDim, valueDim, hidden, query, keys, values,
//  projectedQuery, projectedKeys, features, wV, scale, scores, visible,
//  validLength, causal, maskedScores, weights, output}; see docs/js-api.md.
val row_steps_to_js(const AttentionRowSteps& steps);

}  // namespace attention::transfer
