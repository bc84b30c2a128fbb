// libFuzzer target over the core's entry points. Each input picks one entry
// point and feeds it sizes and numbers from the fuzzer, hostile ones included
// (NaN, infinities, huge counts). The core may refuse with ArgumentError; any
// other exception, a crash, a sanitizer report or a broken invariant is a bug.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scoring/checked_additive_attention.hpp"
#include "encoder/attention_model.hpp"
#include "encoder/attention_training.hpp"
#include "numerics/batch_matrix_product.hpp"
#include "regression/dataset.hpp"
#include "scoring/dot_product_attention.hpp"
#include "contract/errors.hpp"
#include "regression/kernel_width_training.hpp"
#include "contract/limits.hpp"
#include "scoring/masking.hpp"
#include "scoring/checked_multi_head_attention.hpp"
#include "regression/pooling.hpp"
#include "layers/positional_encoding.hpp"
#include "numerics/random_tensor.hpp"
#include "scoring/scaling_study.hpp"
#include "regression/consistency_study.hpp"
#include "seq2seq/tasks.hpp"
#include "scoring/masked_softmax.hpp"
#include "../core/utf8_encoding.hpp"

using attention::testing::utf8;

namespace {

using attention::Kernel;

// Mostly small sizes, sometimes any size at all (must be refused, not allocated).
std::size_t size(FuzzedDataProvider& data) {
    return data.ConsumeBool() ? data.ConsumeIntegralInRange<std::size_t>(0, 12)
                              : data.ConsumeIntegral<std::size_t>();
}

double number(FuzzedDataProvider& data) {
    switch (data.ConsumeIntegralInRange(0, 3)) {
        case 0: return data.ConsumeFloatingPoint<double>();
        case 1: return data.ConsumeFloatingPointInRange<double>(-5.0, 5.0);
        case 2: return data.ConsumeIntegralInRange(-3, 3);
        default: return data.ConsumeBool() ? NAN : INFINITY;
    }
}

// Tensors are built with bounded element counts: the fuzzer targets the core's
// checks, not the test's own allocator.
template <std::size_t N>
xt::xtensor<double, N> tensor(FuzzedDataProvider& data, std::array<std::size_t, N> shape) {
    for (auto& extent : shape) extent = std::min<std::size_t>(extent, 16);
    xt::xtensor<double, N> result = xt::xtensor<double, N>::from_shape(shape);
    for (double& v : result) v = number(data);
    return result;
}

xt::xtensor<int, 1> lengths(FuzzedDataProvider& data, std::size_t count) {
    xt::xtensor<int, 1> result = xt::xtensor<int, 1>::from_shape({std::min<std::size_t>(count, 64)});
    for (int& v : result) v = data.ConsumeIntegralInRange(-2, 20);
    return result;
}

// Whether a call that the core would accept can be afforded. At 32 bits the target runs
// under qemu-i386 with ASan (preset fuzz32), where large blocks come from the 512 MB below
// ASan's shadow only: two or three results of 2^24 doubles exhaust it and ASan aborts on
// its own check. There a call is made when its result stays within 2^20 doubles or a
// size must be refused anyway (the 32-bit run is for size arithmetic that could wrap;
// the 64-bit run makes the calls at their largest accepted sizes).
bool affordable(std::uint64_t result_elements, bool refused) {
    return sizeof(std::size_t) == 8 || refused || result_elements <= (std::uint64_t{1} << 20);
}

void expect(bool invariant) {
    if (!invariant) std::abort();
}

// Each row of weights sums to 1, or is all zeros (fully masked), or is NaN (no key in reach).
void check_rows(const double* weights, std::size_t rows, std::size_t keys, bool zero_allowed) {
    for (std::size_t r = 0; r < rows; ++r) {
        double sum = 0.0;
        bool nan = false;
        for (std::size_t k = 0; k < keys; ++k) {
            const double w = weights[r * keys + k];
            nan = nan || std::isnan(w);
            if (!std::isnan(w)) expect(w >= 0.0 && w <= 1.0 + 1e-12);
            sum += w;
        }
        expect(nan || std::abs(sum - 1.0) < 1e-9 || (zero_allowed && sum == 0.0));
    }
}

// A quote's text with its escapes undone (\x0a and \xff as the byte,
// \u00AD and \u{E0001} as the code point), or nullopt if it is no quote.
std::optional<std::string> unquoted(std::string_view quote, bool& cut_before, bool& cut_after) {
    const std::string_view ellipsis = "\xe2\x80\xa6";
    if (quote.size() < 2 || quote.front() != '\'' || quote.back() != '\'') return std::nullopt;
    quote = quote.substr(1, quote.size() - 2);
    cut_before = quote.substr(0, ellipsis.size()) == ellipsis;
    if (cut_before) quote.remove_prefix(ellipsis.size());
    cut_after = quote.size() >= ellipsis.size() && quote.substr(quote.size() - ellipsis.size()) == ellipsis;
    if (cut_after) quote.remove_suffix(ellipsis.size());
    std::string text;
    for (std::size_t at = 0; at < quote.size();) {
        if (quote[at] == '\\' && at + 3 < quote.size() && quote[at + 1] == 'x') {
            text += static_cast<char>(std::stoul(std::string(quote.substr(at + 2, 2)), nullptr, 16));
            at += 4;
        } else if (quote[at] == '\\' && at + 2 < quote.size() && quote[at + 1] == 'u' && quote[at + 2] == '{') {
            const std::size_t close = quote.find('}', at);
            text += utf8(static_cast<char32_t>(std::stoul(std::string(quote.substr(at + 3, close - at - 3)), nullptr, 16)));
            at = close + 1;
        } else if (quote[at] == '\\' && at + 5 < quote.size() && quote[at + 1] == 'u') {
            text += utf8(static_cast<char32_t>(std::stoul(std::string(quote.substr(at + 2, 4)), nullptr, 16)));
            at += 6;
        } else {
            text += quote[at++];
        }
    }
    return text;
}

std::size_t code_points(std::string_view text) {
    std::size_t n = 0;
    for (std::size_t at = 0; at < text.size(); at += attention::utf8_step(text, at).size) ++n;
    return n;
}

// A refusal's message is well-formed UTF-8 with no code point that shows
// nothing or reorders text (errors.hpp: quoted escapes them, by the Unicode
// data's properties); its quote of the typed text reads back as that text
// (escapes undone): whole up to 200 code points, or 200 of them with an
// ellipsis on each side cut, from the text's start unless cut there.
void check_refusal_of_text(const std::string& typed, const attention::ArgumentError& error) {
    const std::string_view message = error.what();
    for (std::size_t at = 0; at < message.size();) {
        const attention::Utf8Step step = attention::utf8_step(message, at);
        expect(step.character && !attention::is_escaped_code_point(step.code_point));
        at += step.size;
    }
    // A backslash or an ellipsis typed may read as an escape or a cut: the message's form is all there is to check.
    if (typed.find('\\') != std::string::npos || typed.find("\xe2\x80\xa6") != std::string::npos) return;
    bool cut_before = false, cut_after = false;
    const auto text = unquoted(error.got(), cut_before, cut_after);
    if (!text) return;  // a count, not a quote
    expect(code_points(*text) <= attention::longest_quote);
    expect(!(cut_before || cut_after) || code_points(*text) == attention::longest_quote);
    const std::size_t where = typed.find(*text);
    expect(where != std::string::npos);
    if (!cut_before) expect(where == 0);
    if (!cut_before && !cut_after) expect(*text == typed);
}

// A text for the translators' tasks: any bytes; or code points of the whole
// range (every general category, surrogates and unassigned ones included)
// among the tasks' words; or a piece repeated past the 200 code points a
// quote shows, with a word of any of those anywhere in it.
std::string typed_text(FuzzedDataProvider& data) {
    switch (data.ConsumeIntegralInRange(0, 2)) {
        case 0:
            return data.ConsumeRandomLengthString(200);
        case 1: {
            std::string text;
            const char* words[] = {"1", " ", "four ", "\xe5\x9b\x9b", "25 ", "November "};
            for (int n = data.ConsumeIntegralInRange(0, 40); n > 0; --n)
                text += data.ConsumeBool() ? utf8(data.ConsumeIntegralInRange<char32_t>(0, 0x10FFFF))
                                           : std::string(words[data.ConsumeIntegralInRange(0, 5)]);
            return text;
        }
        default: {
            const std::string piece = data.ConsumeRandomLengthString(4);
            const std::string bad = data.ConsumeBool() ? utf8(data.ConsumeIntegralInRange<char32_t>(0, 0x10FFFF))
                                                       : data.ConsumeRandomLengthString(8);
            std::string text;
            for (int n = data.ConsumeIntegralInRange(0, 260); n > 0; --n) text += piece;
            text += bad;
            for (int n = data.ConsumeIntegralInRange(0, 260); n > 0; --n) text += piece;
            return text;
        }
    }
}

void run(FuzzedDataProvider& data) {
    const Kernel kernels[] = {Kernel::gaussian, Kernel::boxcar, Kernel::constant, Kernel::triangular,
                              Kernel::epanechnikov};
    switch (data.ConsumeIntegralInRange(0, 14)) {
        case 0: {
            attention::DatasetOptions options{size(data), data.ConsumeIntegral<std::uint32_t>(), number(data),
                                              number(data)};
            options.n = std::min<std::size_t>(options.n, 20000);  // above the limit, below the allocator's
            if (data.ConsumeBool()) {
                // Any double: refused outside [0, maxX], finite inside.
                expect(std::isfinite(attention::truth(number(data))));
                break;
            }
            const auto set = attention::make_dataset(options);
            for (std::size_t i = 1; i < set.x.size(); ++i) expect(set.x(i - 1) <= set.x(i));
            break;
        }
        case 1: {
            const auto queries = tensor<1>(data, {size(data)});
            const auto keys = tensor<1>(data, {size(data)});
            const attention::KernelSpec spec{kernels[data.ConsumeIntegralInRange(0, 4)], number(data)};
            const auto weights = attention::attention_weights(queries, keys, spec);
            check_rows(weights.data(), queries.size(), keys.size(), false);
            break;
        }
        case 2: {
            const std::size_t n = size(data);
            const auto queries = tensor<1>(data, {size(data)});
            const auto keys = tensor<1>(data, {n});
            const auto values = tensor<1>(data, {data.ConsumeBool() ? n : size(data)});
            const attention::KernelSpec spec{kernels[data.ConsumeIntegralInRange(0, 4)], number(data)};
            const auto prediction = attention::nadaraya_watson(queries, keys, values, spec);
            // The Gaussian weighs every key (the nearest by 1): a weighted mean of finite values, finite.
            if (spec.kernel == Kernel::gaussian)
                for (double p : prediction) expect(std::isfinite(p));
            break;
        }
        case 3: {
            const std::size_t n = size(data);
            attention::TrainingOptions options{number(data), number(data),
                                               std::min<std::size_t>(size(data), 50), data.ConsumeBool()};
            const auto result =
                attention::train_kernel_width(tensor<1>(data, {n}), tensor<1>(data, {n}), options);
            expect(result.w.size() == result.loss.size() + 1);
            break;
        }
        case 4: {
            const std::size_t n = size(data);
            attention::loss_landscape(tensor<1>(data, {n}), tensor<1>(data, {n}), tensor<1>(data, {size(data)}),
                                      data.ConsumeBool());
            break;
        }
        case 5: {
            const auto scores = tensor<3>(data, {size(data), size(data), size(data)});
            const auto lens = lengths(data, size(data));
            if (data.ConsumeBool()) {
                const auto weights = attention::masked_softmax(scores, lens);
                check_rows(weights.data(), scores.shape(0) * scores.shape(1), scores.shape(2), true);
                break;
            }
            // The masking itself: each row masked from its valid length on, with -1e6.
            const auto masked = attention::mask_scores(scores, lens);
            const std::size_t keys = scores.shape(2);
            for (std::size_t row = 0; row < masked.row_lengths.size(); ++row) {
                const auto valid = static_cast<std::size_t>(masked.row_lengths.data()[row]);
                expect(valid <= keys);
                for (std::size_t k = 0; k < keys; ++k) {
                    const std::size_t i = row * keys + k;
                    expect(masked.masked.data()[i] == (k >= valid ? 1 : 0));
                    expect(masked.scores.data()[i] == (k >= valid ? attention::masked_score : scores.data()[i]));
                }
            }
            break;
        }
        case 6: {
            const std::size_t b = size(data), nk = size(data), h = size(data);
            const std::size_t dq = size(data), dk = size(data);
            attention::additive_attention(tensor<3>(data, {b, size(data), dq}), tensor<3>(data, {b, nk, dk}),
                                          tensor<3>(data, {b, nk, size(data)}), tensor<2>(data, {h, dq}),
                                          tensor<2>(data, {h, dk}), tensor<1>(data, {h}),
                                          lengths(data, size(data)));
            break;
        }
        case 7: {
            const std::size_t b = size(data), nk = size(data), d = size(data);
            attention::dot_product_attention(tensor<3>(data, {b, size(data), d}), tensor<3>(data, {b, nk, d}),
                                             tensor<3>(data, {b, nk, size(data)}), lengths(data, size(data)));
            break;
        }
        case 8: {
            const std::size_t b = size(data), nk = size(data), hidden = size(data);
            std::vector<double> mask(data.ConsumeIntegralInRange<std::size_t>(0, 4));
            for (double& m : mask) m = number(data);
            attention::multi_head_attention(
                tensor<3>(data, {b, size(data), hidden}), tensor<3>(data, {b, nk, hidden}),
                tensor<3>(data, {b, nk, hidden}), tensor<2>(data, {hidden, hidden}),
                tensor<2>(data, {hidden, hidden}), tensor<2>(data, {hidden, hidden}),
                tensor<2>(data, {hidden, hidden}), size(data), lengths(data, size(data)), mask);
            break;
        }
        case 9: {
            const std::size_t max_len = size(data), dim = size(data);
            const bool refused = max_len > attention::limits::max_sequence || dim > attention::limits::max_dimension;
            if (affordable(std::uint64_t{max_len} * dim, refused)) attention::positional_encoding(max_len, dim);
            break;
        }
        case 10: {
            // The trainable model: a configuration, a batch of tokens (some out of the vocab),
            // valid lengths and causal masking; then its loss, and a short training call.
            attention::EncoderConfig config;
            config.vocab = size(data), config.length = size(data), config.hidden = size(data);
            config.heads = size(data), config.blocks = size(data), config.ffn_hidden = size(data);
            config.embedding_scale = number(data);
            config.seed = data.ConsumeIntegral<std::uint32_t>();
            attention::check_encoder_config(config);
            attention::BatchOptions options;
            options.batch = size(data);
            options.causal = data.ConsumeBool();
            // The work of a pass is bounded at 2^30 multiply-adds; the fuzzer keeps to cheap ones.
            if (options.batch > attention::limits::max_model_batch ||
                attention::model_pass_work(config, options.batch) > (std::uint64_t{1} << 22) ||
                !affordable(attention::encoder_parameter_count(config), false))
                break;
            const auto model = attention::init_attention_model(config);
            const std::size_t count = options.batch * config.length;
            xt::xtensor<int, 1> tokens = xt::xtensor<int, 1>::from_shape({count}), targets = tokens;
            const int vocab = static_cast<int>(config.vocab);
            for (auto* ids : {&tokens, &targets})
                for (int& t : *ids) t = data.ConsumeIntegralInRange(data.ConsumeBool() ? -1 : 0, vocab - (data.ConsumeBool() ? 0 : 1));
            if (data.ConsumeBool()) options.valid_lens = lengths(data, options.batch);
            const auto loss = attention::attention_model_loss(model, tokens, targets, options);
            expect(std::isfinite(loss.loss) && loss.loss >= 0.0);
            for (double g : loss.gradients) expect(std::isfinite(g));
            attention::ModelTrainingOptions training;
            training.task = static_cast<attention::AttentionTask>(data.ConsumeIntegralInRange(0, 3));
            training.steps = std::min<std::size_t>(size(data), 3);
            training.batch = std::min<std::size_t>(size(data), 8);
            training.held_out = std::min<std::size_t>(size(data), 8);
            training.eval_every = size(data);
            training.lag = size(data);
            training.variable_lengths = data.ConsumeBool();
            training.optimizer.lr = number(data);
            auto trained = model;
            attention::OptimizerState state;
            const auto result = attention::train_attention_model(trained, state, training);
            expect(result.loss.size() == training.steps && state.step == training.steps);
            expect(result.held_out_accuracy >= 0.0 && result.held_out_accuracy <= 1.0);
            break;
        }
        case 11: {
            // Any sizes for the checks (their work count must not wrap); the study itself runs on
            // small ones, as a large accepted study takes seconds under the sanitizers.
            attention::ConsistencyStudyOptions study;
            study.sizes.resize(std::min<std::size_t>(size(data), 80));
            for (auto& n : study.sizes) n = size(data);
            study.repeats = size(data);
            study.queries = size(data);
            study.w = number(data);
            study.noise = number(data);
            study.x_max = number(data);
            study.seed = data.ConsumeIntegral<std::uint32_t>();
            attention::check_consistency_study(study);
            for (auto& n : study.sizes) n = std::min<std::size_t>(n, 300);
            study.repeats = std::min<std::size_t>(study.repeats, 4);
            study.queries = std::min<std::size_t>(study.queries, 60);
            for (const auto& row : attention::consistency_study(study))
                expect(std::isnan(row.fixed_error) || row.fixed_error >= 0.0);
            break;
        }
        case 12: {
            // Any shapes for the checks (their 64-bit products must not wrap); the product
            // itself on bounded operands, whose shapes may still disagree.
            const attention::BatchShape x{size(data), size(data), size(data)};
            const attention::BatchShape y{data.ConsumeBool() ? x.n : size(data),
                                          data.ConsumeBool() ? x.columns : size(data), size(data)};
            attention::check_batch_matrix_product(x, y);
            const auto left = tensor<3>(data, {x.n, x.rows, x.columns});
            const auto right = tensor<3>(data, {y.n, y.rows, y.columns});
            const auto product = attention::batch_matrix_product(left, right);
            expect(product.shape(0) == left.shape(0) && product.shape(1) == left.shape(1) &&
                   product.shape(2) == right.shape(2));
            break;
        }
        case 13: {
            // A learner's typed text, any bytes, for any task.
            const auto task = static_cast<attention::Seq2SeqTask>(data.ConsumeIntegralInRange(0, 4));
            const std::string typed = typed_text(data);
            try {
                const std::vector<int> tokens = attention::seq2seq_source_from_text(task, typed);
                expect(!tokens.empty());
            } catch (const attention::ArgumentError& error) {
                check_refusal_of_text(typed, error);
            }
            break;
        }
        default: {
            std::vector<std::size_t> dims(std::min<std::size_t>(size(data), 4));
            for (auto& d : dims) d = std::min<std::size_t>(size(data), 2000);
            attention::scaling_study({dims, std::min<std::size_t>(size(data), 20000),
                                      std::min<std::size_t>(size(data), 2000), data.ConsumeIntegral<std::uint32_t>()});
            const std::size_t normals = std::min<std::size_t>(size(data), 1u << 25);
            const attention::NormalOptions normal{data.ConsumeIntegral<std::uint32_t>(), number(data)};
            if (affordable(normals, normals > attention::limits::max_matrix_elements))
                attention::random_normal(normals, normal);
            const std::size_t uniforms = std::min<std::size_t>(size(data), 1u << 25);
            const attention::UniformOptions uniform{data.ConsumeIntegral<std::uint32_t>(), number(data), number(data)};
            if (affordable(uniforms, uniforms > attention::limits::max_matrix_elements))
                attention::random_uniform(uniforms, uniform);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t length) {
    FuzzedDataProvider data(bytes, length);
    try {
        run(data);
    } catch (const attention::ArgumentError&) {
        // A refused argument is the expected answer to most fuzz inputs.
    }
    return 0;
}
