#pragma once
// d2l's masked softmax over the last axis of (batch, queries, keys) scores,
// each row by the one softmax row kernel (softmax_row.hpp).
#include <cstddef>

#include <xtensor/xtensor.hpp>

#include "numerics/softmax_row.hpp"
#include "scoring/masking.hpp"

namespace attention {

// d2l's recipe: the scores masked (masking.hpp), then an ordinary softmax.
// valid_lens as in ValidLengths. Unlike d2l, a row with valid length 0 is
// all zeros, not uniform: no key is valid, so no key gets any weight.
xt::xtensor<double, 3> masked_softmax(const xt::xtensor<double, 3>& scores,
                                      const xt::xtensor<int, 1>& valid_lens);

}  // namespace attention
