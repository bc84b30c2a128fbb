#pragma once
// Seeded toy tasks for the trainable attention model (attention_model.hpp).
// Each sequence has a valid length (the whole length unless variable lengths
// are asked for); positions past it are padding: token 0, target 0, masked
// as keys and left out of the loss by validLens.
// Each task comes with its ideal attention pattern: for one sequence, the
// (length x length) weights a head needs to solve it alone, row = query,
// column = key, rows summing to 1 at valid positions, padding rows zero.
//
//   reverse   target[i] = token[l-1-i], l the item's valid length (L without
//             variable lengths): the anti-diagonal. Positional only: the query
//             must find the key at l-1-i, which only the positional encoding
//             tells apart.
//   sort      targets are the valid tokens in ascending order; query i looks
//             at the key holding the i-th smallest token (ties by position, a
//             stable sort): a pattern decided by content (ranks).
//   shift     copy with a lag: target[i] = token[(i - lag) mod l], an
//             off-diagonal wrapping round at the start.
//   lookup    a content lookup: the first half (m = floor(L/2) positions)
//             holds m distinct tokens, "keys"; each later position holds one
//             of those keys again, and its target is where that key stands in
//             the first half (0 .. m-1, a token of the vocab): the query finds
//             its partner by content, then reads the partner's position. The
//             first half's targets are the tokens themselves (the diagonal).
//             Needs vocab >= m.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <xtensor/xtensor.hpp>

#include "contract/kind_names.hpp"

namespace attention {

enum class AttentionTask { reverse, sort, shift, lookup };

inline constexpr KindNames<AttentionTask, 4> attention_task_names{
    "task", {{{AttentionTask::reverse, "reverse"}, {AttentionTask::sort, "sort"},
              {AttentionTask::shift, "shift"}, {AttentionTask::lookup, "lookup"}}}};

// "reverse", "sort", "shift", "lookup"; throws ArgumentError("task") otherwise.
AttentionTask attention_task_from_name(std::string_view name);
const char* attention_task_name(AttentionTask task);

struct TaskOptions {
    AttentionTask task = AttentionTask::reverse;
    std::size_t batch = 32;
    std::size_t length = 8;
    std::size_t vocab = 10;
    std::uint32_t seed = 0;
    std::size_t lag = 1;                // shift only, in [0, length)
    bool variable_lengths = false;      // valid lengths uniform in [2, length] (lookup) or [1, length]
};

struct TaskBatch {
    xt::xtensor<int, 1> tokens;      // batch x length, row-major
    xt::xtensor<int, 1> targets;     // batch x length
    xt::xtensor<int, 1> valid_lens;  // batch (all `length` without variable lengths)
};

// The checks: batch in [1, max_model_batch], length in [1, max_model_length]
// (lookup: [2, ..]), vocab in [2, max_vocab] (lookup: >= length / 2), lag < length.
void check_task_options(const TaskOptions& options);

TaskBatch attention_task_batch(const TaskOptions& options);

// The ideal (length x length) pattern of sequence `item` of a batch made with `options`.
xt::xtensor<double, 2> ideal_attention(const TaskOptions& options, const TaskBatch& batch, std::size_t item);

}  // namespace attention
