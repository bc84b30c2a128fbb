// The alignment score of a translator's attention maps against the task's
// ideal alignment: hand-worked maps, every map of a model equal to the score
// of its forward pass's map, training that raises it, and refused arguments.
#include <cmath>

#include "contract/limits.hpp"
#include "training/optimizers.hpp"
#include "reference.hpp"
#include "inspection/alignment.hpp"
#include "seq2seq/training.hpp"

#include <xtensor/xview.hpp>

using attention::Seq2SeqArchitecture;
using attention::Seq2SeqConfig;
using attention::Seq2SeqTask;

namespace {

Seq2SeqConfig numbers_config(Seq2SeqArchitecture architecture, bool bidirectional = true) {
    Seq2SeqConfig config;  // numbers-en-zh's shape
    config.architecture = architecture;
    config.bidirectional = bidirectional;
    return config;
}

}  // namespace

TEST_CASE("alignment score: the share of each ideal row's words, averaged over the rows the ideal defines", "[seq2seq-alignment]") {
    // Row 0 comes from word 0, row 1 evenly from words 1 and 2, row 2 from nothing (past the target).
    const xt::xtensor<double, 2> ideal = {{1, 0, 0}, {0, 0.5, 0.5}, {0, 0, 0}};
    CHECK(attention::alignment_score(ideal, ideal) == Approx(1.0).margin(1e-15));
    const xt::xtensor<double, 2> weights = {{0.7, 0.2, 0.1}, {0.4, 0.5, 0.1}, {1, 0, 0}};
    // (0.7 + (0.5 + 0.1)) / 2: row 2 takes no part.
    CHECK(attention::alignment_score(weights, ideal) == Approx(0.65).margin(1e-15));
    const xt::xtensor<double, 2> uniform = xt::ones<double>({3, 3}) / 3.0;
    CHECK(attention::alignment_score(uniform, ideal) == Approx(0.5).margin(1e-15));  // (1/3 + 2/3) / 2
}

TEST_CASE("alignment score: every decoder map of a model, teacher-forced on the held-out pairs", "[seq2seq-alignment]") {
    const std::size_t count = 70;  // more than one slice of 64
    for (const auto architecture : {Seq2SeqArchitecture::bahdanau, Seq2SeqArchitecture::transformer}) {
        const auto model = attention::init_seq2seq_model(numbers_config(architecture));
        const auto alignment = attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, count);
        const std::size_t blocks = architecture == Seq2SeqArchitecture::transformer ? 2 : 1;
        const std::size_t heads = architecture == Seq2SeqArchitecture::transformer ? 4 : 1;
        REQUIRE(alignment.scores.shape(0) == blocks);
        REQUIRE(alignment.scores.shape(1) == heads);
        REQUIRE(alignment.scores.shape(2) == count);
        const auto pairs = attention::seq2seq_held_out(Seq2SeqTask::numbers_en_zh, count);
        for (const std::size_t item : {std::size_t{0}, std::size_t{65}}) {
            // The item's map from a forward pass of that pair alone.
            attention::Seq2SeqBatch one;
            one.batch = 1;
            one.source = xt::view(pairs.source, xt::range(item * 8, item * 8 + 8));
            one.source_lens = {pairs.source_lens(item)};
            one.target_in = xt::view(pairs.target_in, xt::range(item * 8, item * 8 + 8));
            one.target_out = xt::view(pairs.target_out, xt::range(item * 8, item * 8 + 8));
            one.target_lens = {pairs.target_lens(item)};
            const auto forward = attention::seq2seq_forward(model, one);
            const auto ideal = attention::seq2seq_ideal_alignment(Seq2SeqTask::numbers_en_zh, one, 0);
            for (std::size_t k = 0; k < blocks; ++k)
                for (std::size_t h = 0; h < heads; ++h) {
                    const xt::xtensor<double, 2> map = xt::view(forward.cross_weights, k, 0, h, xt::all(), xt::all());
                    INFO("item " << item << " block " << k << " head " << h);
                    CHECK(alignment.scores(k, h, item) == Approx(attention::alignment_score(map, ideal)).margin(1e-12));
                }
        }
        for (std::size_t k = 0; k < blocks; ++k)
            for (std::size_t h = 0; h < heads; ++h) {
                double sum = 0;
                for (std::size_t i = 0; i < count; ++i) {
                    CHECK(alignment.scores(k, h, i) >= 0.0);
                    CHECK(alignment.scores(k, h, i) <= 1.0 + 1e-12);
                    sum += alignment.scores(k, h, i);
                }
                CHECK(alignment.mean(k, h) == Approx(sum / count).margin(1e-12));
            }
    }
}

TEST_CASE("alignment score: training the bidirectional GRU raises it far above the untrained map's", "[seq2seq-alignment][learning]") {
    auto model = attention::init_seq2seq_model(numbers_config(Seq2SeqArchitecture::bahdanau));
    const double before = attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, 100).mean(0, 0);
    attention::OptimizerState state;
    attention::Seq2SeqTrainingOptions options;  // d2l's recipe, in calls of 50 steps (a call's work is bounded)
    options.steps = 50;
    options.eval_every = 50;
    options.held_out = 10;
    for (int call = 0; call < 6; ++call) attention::train_seq2seq(model, state, options);
    const double after = attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, 100).mean(0, 0);
    INFO("before " << before << ", after " << after);
    CHECK(before < 0.35);  // about one word of the source's four to eight
    CHECK(after > before + 0.2);
}

TEST_CASE("alignment score: refused arguments are named", "[seq2seq-alignment]") {
    auto refused = [](auto call) { return ref::argument_error_of(call).argument; };
    const xt::xtensor<double, 2> ideal = {{1, 0}, {0, 1}};
    CHECK(refused([&] { attention::alignment_score(xt::xtensor<double, 2>({{1, 0}}), ideal); }) == "weights");
    CHECK(refused([&] { attention::alignment_score(xt::xtensor<double, 2>({{NAN, 0}, {0, 1}}), ideal); }) == "weights");
    CHECK(refused([&] { attention::alignment_score(ideal, xt::xtensor<double, 2>({{0, 0}, {0, 0}})); }) == "ideal");
    const auto model = attention::init_seq2seq_model(numbers_config(Seq2SeqArchitecture::bahdanau));
    CHECK(refused([&] { attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, 0); }) == "count");
    CHECK(refused([&] { attention::seq2seq_alignment(model, Seq2SeqTask::numbers_en_zh, 501); }) == "count");
    CHECK(refused([&] { attention::seq2seq_alignment(model, Seq2SeqTask::dates, 5); }) == "task");
}
