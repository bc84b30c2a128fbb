#include "scoring/masking.hpp"

#include <algorithm>

#include "contract/attention_checks.hpp"
#include "contract/errors.hpp"

namespace attention {

ValidLengths::ValidLengths(const xt::xtensor<int, 1>& valid_lens, std::size_t batch,
                           std::size_t queries, std::size_t keys)
    : lens_(valid_lens), queries_(queries), keys_(keys), per_row_(valid_lens.size() == batch * queries) {
    const std::size_t n = valid_lens.size();
    check_count(n, batch, queries);
    for (std::size_t i = 0; i < n; ++i)
        if (valid_lens(i) < 0 || static_cast<std::size_t>(valid_lens(i)) > keys)
            fail("validLens", text("lengths in [0, ", keys, "] (nk)"), valid_lens(i), i);
}

void ValidLengths::check_count(std::size_t count, std::size_t batch, std::size_t queries) {
    if (count != 0 && count != batch && count != batch * queries)
        fail("validLens", text("null, ", batch, " (batch) or ", batch * queries, " (batch*nq) lengths"), count);
}

std::size_t ValidLengths::of_row(std::size_t b, std::size_t q) const {
    if (lens_.size() == 0) return keys_;
    // With one query per item both readings of the lengths agree.
    return static_cast<std::size_t>(per_row_ ? lens_(b * queries_ + q) : lens_(b));
}

ValidLengths check_masking(const xt::xtensor<double, 3>& scores, const xt::xtensor<int, 1>& valid_lens) {
    const std::size_t batch = scores.shape(0), queries = scores.shape(1), keys = scores.shape(2);
    check_attention_extents({batch, queries, keys});
    require_all_finite("scores", scores);
    return ValidLengths(valid_lens, batch, queries, keys);
}

void mask_row(double* row, std::size_t valid, std::size_t keys) { std::fill(row + valid, row + keys, masked_score); }

MaskedScores mask_scores(const xt::xtensor<double, 3>& scores, const xt::xtensor<int, 1>& valid_lens) {
    const ValidLengths lengths = check_masking(scores, valid_lens);
    const std::size_t batch = scores.shape(0), queries = scores.shape(1), keys = scores.shape(2);
    MaskedScores result{scores, xt::zeros<std::uint8_t>(scores.shape()),
                        xt::xtensor<int, 2>::from_shape({batch, queries})};
    for (std::size_t b = 0; b < batch; ++b)
        for (std::size_t q = 0; q < queries; ++q) {
            const std::size_t valid = lengths.of_row(b, q);
            result.row_lengths(b, q) = static_cast<int>(valid);
            mask_row(&result.scores(b, q, 0), valid, keys);
            std::fill(&result.masked(b, q, 0) + valid, &result.masked(b, q, 0) + keys, std::uint8_t{1});
        }
    return result;
}

}  // namespace attention
