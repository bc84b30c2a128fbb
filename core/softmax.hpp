#pragma once
// Numerically stable softmax (the row maximum is subtracted) and d2l's
// masked softmax over the last axis of (batch, queries, keys) scores.
#include <cstddef>

#include <xtensor/xtensor.hpp>

namespace attention {

// Softmax of one contiguous row, in place.
void softmax_in_place(double* row, std::size_t length);

// The value d2l writes over masked scores before the softmax.
inline constexpr double masked_score = -1e6;

// valid_lens is empty (no mask), of length batch (one length per batch item)
// or batch * queries (one per row); each in [0, keys].
// Unlike d2l, a row with valid length 0 is all zeros, not uniform: no key is
// valid, so no key gets any weight.
xt::xtensor<double, 3> masked_softmax(const xt::xtensor<double, 3>& scores,
                                      const xt::xtensor<int, 1>& valid_lens);

// Validates valid_lens against a (batch, queries, keys) shape and returns
// the valid length of row (b, q).
class ValidLengths {
public:
    ValidLengths(const xt::xtensor<int, 1>& valid_lens, std::size_t batch, std::size_t queries,
                 std::size_t keys);
    std::size_t of_row(std::size_t b, std::size_t q) const;

private:
    const xt::xtensor<int, 1>& lens_;
    std::size_t queries_;
    std::size_t keys_;
    bool per_row_;
};

}  // namespace attention
