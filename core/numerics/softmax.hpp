#pragma once
// Numerically stable softmax (the row maximum is subtracted) and d2l's
// masked softmax over the last axis of (batch, queries, keys) scores.
#include <cstddef>

#include <xtensor/xtensor.hpp>

#include "masking.hpp"

namespace attention {

// Softmax of one contiguous row, in place.
void softmax_in_place(double* row, std::size_t length);

// d2l's recipe: the scores masked (masking.hpp), then an ordinary softmax.
// valid_lens as in ValidLengths. Unlike d2l, a row with valid length 0 is
// all zeros, not uniform: no key is valid, so no key gets any weight.
xt::xtensor<double, 3> masked_softmax(const xt::xtensor<double, 3>& scores,
                                      const xt::xtensor<int, 1>& valid_lens);

}  // namespace attention
