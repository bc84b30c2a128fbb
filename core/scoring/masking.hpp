#pragma once
// d2l's masking of attention scores (d2l 10.3.1): a valid length per batch
// item or per query row; the scores of keys at or past it are masked, that
// is replaced by -1e6 before the softmax. masked_softmax (masked_softmax.hpp) and
// mask_scores, which shows the masking itself, share these.
#include <cstddef>
#include <cstdint>

#include <xtensor/xtensor.hpp>

namespace attention {

// The value d2l writes over masked scores.
inline constexpr double masked_score = -1e6;

// Validates valid_lens against a (batch, queries, keys) shape and returns
// the valid length of row (b, q). valid_lens is empty (no mask: every row has
// length keys), of length batch (one length per batch item) or batch * queries
// (one per row); each in [0, keys]. Keeps a reference to valid_lens.
class ValidLengths {
public:
    ValidLengths(const xt::xtensor<int, 1>& valid_lens, std::size_t batch, std::size_t queries,
                 std::size_t keys);
    // The count alone (none, batch or batch * queries), checked before the lengths are read.
    static void check_count(std::size_t count, std::size_t batch, std::size_t queries);
    std::size_t of_row(std::size_t b, std::size_t q) const;

private:
    const xt::xtensor<int, 1>& lens_;
    std::size_t queries_;
    std::size_t keys_;
    bool per_row_;
};

// The checks of masked scores: (batch, queries, keys) within the limits,
// finite scores, valid lengths that fit. Returns the lengths, read per row.
ValidLengths check_masking(const xt::xtensor<double, 3>& scores, const xt::xtensor<int, 1>& valid_lens);

// d2l's masking of one row of `keys` scores in place: every score from
// `valid` on becomes masked_score.
void mask_row(double* row, std::size_t valid, std::size_t keys);

struct MaskedScores {
    xt::xtensor<double, 3> scores;        // the scores, masked_score where masked
    xt::xtensor<std::uint8_t, 3> masked;  // 1 where masked, 0 elsewhere
    xt::xtensor<int, 2> row_lengths;      // (batch, queries): the valid length of each row
};

// d2l's masked scores: d2l's masked_softmax is the softmax of each of their
// rows (for a row of valid length 0 that is uniform; masked_softmax here
// gives zeros there).
MaskedScores mask_scores(const xt::xtensor<double, 3>& scores, const xt::xtensor<int, 1>& valid_lens);

}  // namespace attention
