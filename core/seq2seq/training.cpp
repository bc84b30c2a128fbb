#include "training.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "training/training_loop.hpp"
#include "architectures.hpp"
#include "bleu.hpp"

namespace attention {

namespace {

// BLEU over bigrams: the targets are short (at most a few tokens), as d2l's
// French sentences are, for which the book uses k = 2.
constexpr std::size_t bleu_order = 2;

// An item's tokens up to, not including, <eos>.
std::vector<int> words(const int* tokens, std::size_t length) {
    std::vector<int> result;
    for (std::size_t t = 0; t < length && tokens[t] != eos_token; ++t) result.push_back(tokens[t]);
    return result;
}

std::uint64_t forward_work(const Seq2SeqConfig& config, std::uint64_t batch) {
    return config.architecture == Seq2SeqArchitecture::bahdanau
               ? seq2seq_detail::bahdanau_forward_work(config, batch)
               : seq2seq_detail::transformer_forward_work(config, batch);
}

// A step's work on each parameter besides the passes (the gradients zeroed
// and clipped, the optimiser's update, the model copied): in the time of
// about this many multiply-adds (tests/benchmarks/translator-work-bound.bench.mjs).
constexpr std::uint64_t update_work_per_parameter = 32;

std::uint64_t update_work(const Seq2SeqConfig& config) {
    return update_work_per_parameter * seq2seq_parameter_count(config);
}

// Greedy decoding of `count` items costs about one teacher-forced forward
// pass: the Bahdanau decoder steps as in training, and the Transformer's
// keeps its keys and values (it projects each position once).
std::uint64_t evaluation_work(const Seq2SeqConfig& config, std::uint64_t count) {
    return forward_work(config, count);
}

}  // namespace

double clip_gradients(xt::xtensor<double, 1>& gradients, double theta) {
    double sum = 0.0;
    for (double g : gradients) sum += g * g;
    const double norm = std::sqrt(sum);
    if (theta > 0.0 && norm > theta) {
        const double scale = theta / norm;
        for (double& g : gradients) g *= scale;
    }
    return norm;
}

Seq2SeqEvaluation evaluate_seq2seq(const Seq2SeqModel& model, Seq2SeqTask task, std::size_t count) {
    require_count("heldOut", count, 1, seq2seq_held_out_size(task));
    const Seq2SeqBatch pairs = seq2seq_held_out(task, count);
    const std::size_t steps = model.config.target_length;
    Seq2SeqEvaluation result;
    constexpr std::size_t slice = seq2seq_held_out_slice;
    const std::size_t source_length = model.config.source_length;
    for (std::size_t first = 0; first < count; first += slice) {
        const std::size_t n = std::min(slice, count - first);
        xt::xtensor<int, 1> source = xt::xtensor<int, 1>::from_shape({n * source_length});
        xt::xtensor<int, 1> lens = xt::xtensor<int, 1>::from_shape({n});
        std::copy_n(pairs.source.data() + first * source_length, n * source_length, source.data());
        std::copy_n(pairs.source_lens.data() + first, n, lens.data());
        const Translation out = seq2seq_translate(model, source, lens, n, steps);
        for (std::size_t b = 0; b < n; ++b) {
            const std::vector<int> predicted = words(out.tokens.data() + b * steps, steps);
            const std::vector<int> label = words(pairs.target_out.data() + (first + b) * steps, steps);
            result.accuracy += predicted == label;
            result.bleu += bleu(predicted, label, bleu_order);
        }
    }
    result.accuracy /= static_cast<double>(count);
    result.bleu /= static_cast<double>(count);
    return result;
}

Seq2SeqTrainingResult train_seq2seq(Seq2SeqModel& model, OptimizerState& state, const Seq2SeqTrainingOptions& options) {
    const Seq2SeqConfig& config = model.config;
    check_seq2seq_config(config);
    const Seq2SeqTaskShape shape = seq2seq_task_shape(options.task);
    if (shape.source_vocab != config.source_vocab || shape.target_vocab != config.target_vocab ||
        shape.source_length != config.source_length || shape.target_length != config.target_length)
        fail("task", text("a task of the model's vocabularies (", config.source_vocab, ", ", config.target_vocab,
                          ") and lengths (", config.source_length, ", ", config.target_length, ")"),
             quoted(seq2seq_task_name(options.task)));
    require_count("steps", options.steps, 1, limits::max_training_steps);
    require_count("batch", options.batch, 1, limits::max_model_batch);
    require_count("evalEvery", options.eval_every, 1, limits::max_training_steps);
    require_count("heldOut", options.held_out, 1, seq2seq_held_out_size(options.task));
    require_range("clip", options.clip, 0.0, std::numeric_limits<double>::max());
    // Each pass within its own bound first: a step's over `batch` pairs, an evaluation's over a slice of `heldOut`.
    check_seq2seq_pass(config, options.batch, "batch", options.batch, "pairs");
    check_seq2seq_pass(config, std::min(options.held_out, seq2seq_held_out_slice), "heldOut", options.held_out,
                       "held-out pairs");
    TrainingCallWork call;
    call.steps = options.steps;
    call.eval_every = options.eval_every;
    call.held_out = options.held_out;
    call.evaluations = options.steps / options.eval_every + 1;
    call.fewest_evaluations = 1;  // the one at the end
    call.step_work = options.steps * (3 * forward_work(config, options.batch) + update_work(config)) +
                     forward_work(config, options.batch);  // the last step's check
    call.evaluation_work = evaluation_work(config, options.held_out);
    call.one_item_evaluation = evaluation_work(config, 1);
    check_training_call(options.optimizer, state, model.values.size(), call);

    auto batch_of_step = [&] {
        return seq2seq_task_batch(options.task, options.batch, static_cast<std::uint32_t>(options.seed + state.step));
    };
    auto step_loss = [&](xt::xtensor<double, 1>& gradients) {
        Seq2SeqLoss loss = seq2seq_loss(model, batch_of_step());
        gradients = std::move(loss.gradients);
        clip_gradients(gradients, options.clip);
        return loss.token_loss;
    };
    // The forward pass alone: a call of one step (the page's chunks off its thread) would otherwise pay two.
    auto next_loss = [&] { return seq2seq_token_loss(model, batch_of_step()); };
    auto evaluate = [&] { return evaluate_seq2seq(model, options.task, options.held_out); };
    auto run = run_training_loop<Seq2SeqEvaluation>(model.values, state, options.optimizer, options.steps,
                                                    options.eval_every, step_loss, next_loss, evaluate);

    Seq2SeqTrainingResult result;
    result.stop_reason = run.stop_reason;
    result.loss = as_tensor(run.losses);
    std::vector<double> accuracy, bleu_scores;
    for (const auto& e : run.evaluations) {
        accuracy.push_back(e.accuracy);
        bleu_scores.push_back(e.bleu);
    }
    result.accuracy = as_tensor(accuracy);
    result.bleu = as_tensor(bleu_scores);
    result.evaluated_at = as_tensor(run.evaluated_at);
    const bool evaluated = !run.evaluated_at.empty() && run.evaluated_at.back() == static_cast<double>(state.step);
    if (evaluated) {
        result.held_out_accuracy = accuracy.back();
        result.held_out_bleu = bleu_scores.back();
    } else if (options.evaluate_at_end) {
        const Seq2SeqEvaluation end = evaluate();
        result.held_out_accuracy = end.accuracy;
        result.held_out_bleu = end.bleu;
    } else {
        result.held_out_accuracy = result.held_out_bleu = std::numeric_limits<double>::quiet_NaN();
    }
    return result;
}

}  // namespace attention
