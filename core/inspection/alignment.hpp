#pragma once
// How far a translator's attention follows the task's ideal alignment
// (seq2seq/tasks.hpp), as a number the page's texts can be checked against: the
// share of a map row's attention mass on the source positions the ideal
// alignment gives that target token ("writing 八 the decoder reads
// 'eighty'"). 1 is a map on the ideal words only; a row spread evenly over
// n source words scores about 1/n.
#include <cstddef>

#include <xtensor/xtensor.hpp>

#include "seq2seq/model.hpp"
#include "seq2seq/tasks.hpp"

namespace attention {

// The mean, over the rows the ideal alignment defines (those with mass,
// <eos> included), of the weights' sum over the row's ideal positions
// (ideal > 0). weights and ideal: (target_length x source_length), the
// same shape; weights finite. Errors name "weights" and "ideal" (an ideal
// with no row).
double alignment_score(const xt::xtensor<double, 2>& weights, const xt::xtensor<double, 2>& ideal);

// The score of every decoder attention map of a model on the first `count`
// pairs of the task's held-out set, read with teacher forcing (as the page
// draws its maps): (blocks, heads, count); bahdanau has one block of one
// head. The model must be shaped for the task; count in [1, the held-out size].
struct Seq2SeqAlignment {
    xt::xtensor<double, 3> scores;  // (blocks, heads, count)
    xt::xtensor<double, 2> mean;    // (blocks, heads): each map's mean over the pairs
};
Seq2SeqAlignment seq2seq_alignment(const Seq2SeqModel& model, Seq2SeqTask task, std::size_t count);

}  // namespace attention
