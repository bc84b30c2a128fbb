#include "inspection/alignment.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "contract/errors.hpp"

namespace attention {

double alignment_score(const xt::xtensor<double, 2>& weights, const xt::xtensor<double, 2>& ideal) {
    if (weights.shape(0) != ideal.shape(0) || weights.shape(1) != ideal.shape(1))
        fail("weights", text("the ideal's shape (", ideal.shape(0), " x ", ideal.shape(1), ")"),
             text(weights.shape(0), " x ", weights.shape(1)));
    require_all_finite("weights", weights);
    require_all_finite("ideal", ideal);
    double total = 0.0;
    std::size_t rows = 0;
    for (std::size_t t = 0; t < ideal.shape(0); ++t) {
        double on_ideal = 0.0;
        bool defined = false;
        for (std::size_t s = 0; s < ideal.shape(1); ++s) {
            if (ideal(t, s) <= 0.0) continue;
            defined = true;
            on_ideal += weights(t, s);
        }
        if (!defined) continue;
        total += on_ideal;
        ++rows;
    }
    if (rows == 0) fail("ideal", "an alignment with at least one row", "no row with mass");
    return total / static_cast<double>(rows);
}

Seq2SeqAlignment seq2seq_alignment(const Seq2SeqModel& model, Seq2SeqTask task, std::size_t count) {
    const Seq2SeqConfig& config = model.config;
    check_seq2seq_config(config);
    const Seq2SeqTaskShape shape = seq2seq_task_shape(task);
    if (shape.source_vocab != config.source_vocab || shape.target_vocab != config.target_vocab ||
        shape.source_length != config.source_length || shape.target_length != config.target_length)
        fail("task", text("a task of the model's vocabularies (", config.source_vocab, ", ", config.target_vocab,
                          ") and lengths (", config.source_length, ", ", config.target_length, ")"),
             quoted(seq2seq_task_name(task)));
    require_count("count", count, 1, seq2seq_held_out_size(task));
    // In slices, as the evaluation reads the held-out set: a slice's pass within the bound, or `count` is what to lower.
    constexpr std::size_t slice = seq2seq_held_out_slice;
    check_seq2seq_pass(config, std::min(count, slice), "count", count, "pairs");
    const Seq2SeqBatch pairs = seq2seq_held_out(task, count);
    const std::size_t ls = shape.source_length, lt = shape.target_length;
    const bool transformer = config.architecture == Seq2SeqArchitecture::transformer;
    const std::size_t blocks = transformer ? config.blocks : 1, heads = transformer ? config.heads : 1;

    Seq2SeqAlignment result;
    result.scores = xt::zeros<double>({blocks, heads, count});
    for (std::size_t first = 0; first < count; first += slice) {
        const std::size_t n = std::min(slice, count - first);
        Seq2SeqBatch part;
        part.batch = n;
        auto rows = [&](const xt::xtensor<int, 1>& from, std::size_t width) {
            xt::xtensor<int, 1> to = xt::xtensor<int, 1>::from_shape({n * width});
            std::copy_n(from.data() + first * width, n * width, to.data());
            return to;
        };
        part.source = rows(pairs.source, ls);
        part.source_lens = rows(pairs.source_lens, 1);
        part.target_in = rows(pairs.target_in, lt);
        part.target_out = rows(pairs.target_out, lt);
        part.target_lens = rows(pairs.target_lens, 1);
        const Seq2SeqForward forward = seq2seq_forward(model, part);
        for (std::size_t b = 0; b < n; ++b) {
            const xt::xtensor<double, 2> ideal = seq2seq_ideal_alignment(task, part, b);
            for (std::size_t k = 0; k < blocks; ++k)
                for (std::size_t h = 0; h < heads; ++h) {
                    xt::xtensor<double, 2> map = xt::xtensor<double, 2>::from_shape({lt, ls});
                    std::copy_n(&forward.cross_weights(k, b, h, 0, 0), lt * ls, map.data());
                    result.scores(k, h, first + b) = alignment_score(map, ideal);
                }
        }
    }
    result.mean = xt::zeros<double>({blocks, heads});
    for (std::size_t k = 0; k < blocks; ++k)
        for (std::size_t h = 0; h < heads; ++h) {
            double sum = 0.0;
            for (std::size_t i = 0; i < count; ++i) sum += result.scores(k, h, i);
            result.mean(k, h) = sum / static_cast<double>(count);
        }
    return result;
}

}  // namespace attention
