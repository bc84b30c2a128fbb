// The seeded toy tasks: targets and ideal attention patterns of each task,
// padding, reproducibility, refused options.
#include <algorithm>

#include "encoder/attention_tasks.hpp"
#include "contract/limits.hpp"
#include "reference.hpp"

using attention::AttentionTask;
using attention::TaskOptions;

namespace {
TaskOptions task_options(AttentionTask task, bool variable = false) {
    TaskOptions o;
    o.task = task;
    o.batch = 50;
    o.length = 8;
    o.vocab = 10;
    o.seed = 9;
    o.lag = 3;
    o.variable_lengths = variable;
    return o;
}
const AttentionTask all_tasks[] = {AttentionTask::reverse, AttentionTask::sort, AttentionTask::shift,
                                   AttentionTask::lookup};
}  // namespace

TEST_CASE("attention_task_batch: every target is the token its ideal pattern points at", "[tasks]") {
    for (AttentionTask task : all_tasks)
        for (bool variable : {false, true}) {
            INFO(attention::attention_task_name(task) << " variable=" << variable);
            const auto o = task_options(task, variable);
            const auto batch = attention::attention_task_batch(o);
            REQUIRE(batch.tokens.size() == 400);
            REQUIRE(batch.targets.size() == 400);
            REQUIRE(batch.valid_lens.size() == 50);
            bool some_short = false;
            for (std::size_t b = 0; b < 50; ++b) {
                const int valid = batch.valid_lens(b);
                CHECK(valid >= (task == AttentionTask::lookup ? 2 : 1));
                CHECK(valid <= 8);
                some_short = some_short || valid < 8;
                const auto pattern = attention::ideal_attention(o, batch, b);
                for (int i = 0; i < 8; ++i) {
                    const int t = batch.tokens(b * 8 + i), y = batch.targets(b * 8 + i);
                    CHECK(t >= 0);
                    CHECK(t < 10);
                    CHECK(y >= 0);
                    CHECK(y < 10);
                    double sum = 0;
                    std::size_t key = 0;
                    for (std::size_t j = 0; j < 8; ++j) {
                        sum += pattern(i, j);
                        if (pattern(i, j) == 1.0) key = j;
                    }
                    if (i >= valid) {
                        CHECK(t == 0);
                        CHECK(y == 0);
                        CHECK(sum == 0.0);
                        continue;
                    }
                    CHECK(sum == 1.0);
                    CHECK(key < static_cast<std::size_t>(valid));
                    const int pointed = batch.tokens(b * 8 + key);
                    if (task == AttentionTask::lookup && i >= valid / 2) {
                        CHECK(pointed == t);                     // found by content
                        CHECK(y == static_cast<int>(key));       // answers the position
                    } else {
                        CHECK(y == pointed);
                    }
                }
            }
            CHECK(some_short == variable);
        }
}

TEST_CASE("attention tasks: the patterns of each task", "[tasks]") {
    auto o = task_options(AttentionTask::reverse);
    auto batch = attention::attention_task_batch(o);
    auto p = attention::ideal_attention(o, batch, 4);
    for (std::size_t i = 0; i < 8; ++i) CHECK(p(i, 7 - i) == 1.0);
    o = task_options(AttentionTask::shift);
    batch = attention::attention_task_batch(o);
    p = attention::ideal_attention(o, batch, 0);
    for (std::size_t i = 0; i < 8; ++i) CHECK(p(i, (i + 5) % 8) == 1.0);
    for (std::size_t i = 3; i < 8; ++i) CHECK(batch.targets(i) == batch.tokens(i - 3));
    o = task_options(AttentionTask::sort);
    batch = attention::attention_task_batch(o);
    for (std::size_t b = 0; b < 50; ++b) {
        std::vector<int> sorted(batch.tokens.begin() + b * 8, batch.tokens.begin() + b * 8 + 8);
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::equal(sorted.begin(), sorted.end(), batch.targets.begin() + b * 8));
    }
    o = task_options(AttentionTask::lookup);
    batch = attention::attention_task_batch(o);
    for (std::size_t b = 0; b < 50; ++b) {
        std::vector<int> keys(batch.tokens.begin() + b * 8, batch.tokens.begin() + b * 8 + 4);
        std::sort(keys.begin(), keys.end());
        CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());  // distinct keys
    }
}

TEST_CASE("attention_task_batch: seeded", "[tasks]") {
    for (AttentionTask task : all_tasks) {
        auto o = task_options(task, true);
        const auto a = attention::attention_task_batch(o), b = attention::attention_task_batch(o);
        CHECK(bool(a.tokens == b.tokens));
        CHECK(bool(a.targets == b.targets));
        CHECK(bool(a.valid_lens == b.valid_lens));
        o.seed = 10;
        CHECK(bool(attention::attention_task_batch(o).tokens != a.tokens));
    }
    CHECK(attention::attention_task_from_name("sort") == AttentionTask::sort);
    REQUIRE_ARGUMENT_ERROR_WITH(attention::attention_task_from_name("copy"), "task", "reverse, sort, shift, lookup");
}

TEST_CASE("attention_task_batch: refused options", "[tasks][errors]") {
    auto with = [](AttentionTask task, auto change) {
        auto o = task_options(task);
        change(o);
        return o;
    };
    using attention::attention_task_batch;
    namespace limits = attention::limits;
    REQUIRE_ARGUMENT_ERROR(attention_task_batch(with(AttentionTask::reverse, [](auto& o) { o.batch = 0; })), "batch");
    REQUIRE_ARGUMENT_ERROR(
        attention_task_batch(with(AttentionTask::reverse, [](auto& o) { o.batch = limits::max_model_batch + 1; })),
        "batch");
    REQUIRE_ARGUMENT_ERROR(attention_task_batch(with(AttentionTask::sort, [](auto& o) { o.length = 0; })), "length");
    REQUIRE_ARGUMENT_ERROR(
        attention_task_batch(with(AttentionTask::sort, [](auto& o) { o.length = limits::max_model_length + 1; })),
        "length");
    REQUIRE_ARGUMENT_ERROR(attention_task_batch(with(AttentionTask::lookup, [](auto& o) { o.length = 1; })), "length");
    REQUIRE_ARGUMENT_ERROR(attention_task_batch(with(AttentionTask::shift, [](auto& o) { o.vocab = 1; })), "vocab");
    REQUIRE_ARGUMENT_ERROR(
        attention_task_batch(with(AttentionTask::shift, [](auto& o) { o.vocab = limits::max_vocab + 1; })), "vocab");
    REQUIRE_ARGUMENT_ERROR(attention_task_batch(with(AttentionTask::lookup, [](auto& o) { o.vocab = 3; })), "vocab");
    REQUIRE_ARGUMENT_ERROR(attention_task_batch(with(AttentionTask::shift, [](auto& o) { o.lag = 8; })), "lag");
    CHECK_NOTHROW(attention_task_batch(with(AttentionTask::reverse, [](auto& o) { o.lag = 8; })));  // not read
    const auto o = task_options(AttentionTask::reverse);
    const auto batch = attention_task_batch(o);
    REQUIRE_ARGUMENT_ERROR(attention::ideal_attention(o, batch, 50), "item");
    auto other = o;
    other.batch = 3;
    REQUIRE_ARGUMENT_ERROR(attention::ideal_attention(other, batch, 0), "batch");
}
