#include "encoder/attention_tasks.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/random.hpp"

namespace attention {

namespace {

// A whole number in [0, n) from the generator (n small: the bias of the modulo is below 2^-50).
std::size_t below(Random& random, std::size_t n) { return static_cast<std::size_t>(random.next_bits() % n); }

// The positions of `tokens[0 .. valid)` in ascending order of token, ties by position.
std::vector<std::size_t> stable_order(const int* tokens, std::size_t valid) {
    std::vector<std::size_t> order(valid);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return tokens[a] < tokens[b]; });
    return order;
}

// Where query i of a sequence of valid length `valid` should look, for every task.
std::size_t ideal_key(const TaskOptions& options, const int* tokens, std::size_t valid, std::size_t i,
                      const std::vector<std::size_t>& order) {
    switch (options.task) {
        case AttentionTask::reverse: return valid - 1 - i;
        case AttentionTask::sort: return order[i];
        case AttentionTask::shift: return (i + valid - options.lag % valid) % valid;
        case AttentionTask::lookup: {
            const std::size_t keys = valid / 2;
            if (i < keys) return i;
            return static_cast<std::size_t>(std::find(tokens, tokens + keys, tokens[i]) - tokens);
        }
    }
    return i;
}

}  // namespace

AttentionTask attention_task_from_name(std::string_view name) { return attention_task_names.from_name(name); }

const char* attention_task_name(AttentionTask task) { return attention_task_names.name_of(task); }

void check_task_options(const TaskOptions& options) {
    const bool lookup = options.task == AttentionTask::lookup;
    require_count("batch", options.batch, 1, limits::max_model_batch);
    require_count("length", options.length, lookup ? 2 : 1, limits::max_model_length);
    require_count("vocab", options.vocab, std::max<std::size_t>(2, lookup ? options.length / 2 : 0), limits::max_vocab);
    if (options.task == AttentionTask::shift) require_count("lag", options.lag, 0, options.length - 1);
}

TaskBatch attention_task_batch(const TaskOptions& options) {
    check_task_options(options);
    const std::size_t n = options.length, batch = options.batch;
    TaskBatch result;
    result.tokens = xt::zeros<int>({batch * n});
    result.targets = xt::zeros<int>({batch * n});
    result.valid_lens = xt::xtensor<int, 1>::from_shape({batch});
    Random random(options.seed);
    const std::size_t shortest = options.task == AttentionTask::lookup ? 2 : 1;
    std::vector<int> keys(options.vocab);
    for (std::size_t b = 0; b < batch; ++b) {
        const std::size_t valid = options.variable_lengths ? shortest + below(random, n - shortest + 1) : n;
        result.valid_lens(b) = static_cast<int>(valid);
        int* tokens = result.tokens.data() + b * n;
        int* targets = result.targets.data() + b * n;
        if (options.task == AttentionTask::lookup) {
            // m distinct keys: the first m of a Fisher-Yates shuffle of the vocab.
            const std::size_t m = valid / 2;
            std::iota(keys.begin(), keys.end(), 0);
            for (std::size_t k = 0; k < m; ++k) std::swap(keys[k], keys[k + below(random, options.vocab - k)]);
            for (std::size_t i = 0; i < m; ++i) tokens[i] = targets[i] = keys[i];
            for (std::size_t i = m; i < valid; ++i) {
                const std::size_t k = below(random, m);
                tokens[i] = keys[k];
                targets[i] = static_cast<int>(k);
            }
            continue;
        }
        for (std::size_t i = 0; i < valid; ++i) tokens[i] = static_cast<int>(below(random, options.vocab));
        const auto order = options.task == AttentionTask::sort ? stable_order(tokens, valid) : std::vector<std::size_t>{};
        for (std::size_t i = 0; i < valid; ++i) targets[i] = tokens[ideal_key(options, tokens, valid, i, order)];
    }
    return result;
}

xt::xtensor<double, 2> ideal_attention(const TaskOptions& options, const TaskBatch& batch, std::size_t item) {
    check_task_options(options);
    const std::size_t n = options.length;
    if (batch.tokens.size() != options.batch * n || batch.valid_lens.size() != options.batch)
        fail("batch", text("a batch made with these options (batch = ", options.batch, ", length = ", n, ")"));
    require_count("item", item, 0, options.batch - 1);
    const int* tokens = batch.tokens.data() + item * n;
    const int valid_len = batch.valid_lens(item);
    if (valid_len < 1 || static_cast<std::size_t>(valid_len) > n)
        fail("validLens", text("lengths in [1, ", n, "] (length)"), valid_len, item);
    const auto valid = static_cast<std::size_t>(valid_len);
    const auto order = options.task == AttentionTask::sort ? stable_order(tokens, valid) : std::vector<std::size_t>{};
    xt::xtensor<double, 2> pattern = xt::zeros<double>({n, n});
    for (std::size_t i = 0; i < valid; ++i) pattern(i, ideal_key(options, tokens, valid, i, order)) = 1.0;
    return pattern;
}

}  // namespace attention
