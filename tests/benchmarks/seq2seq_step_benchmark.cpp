// Native side of the translators' step benchmark: one training step of d2l's
// train_seq2seq on a fixed batch, for the models of core/seq2seq/model.hpp
// (d2l 10.4's Bahdanau attention, one-directional or bidirectional, and d2l
// 10.7's Transformer). seq2seq-step.bench.mjs runs this executable once per
// configuration, times the wasm module (seq2seqStep) and PyTorch
// (seq2seq_step_torch.py --serve) on the same batch, and prints the comparison.
//
// One step is what d2l's train_seq2seq does per batch and what the JS API's
// seq2seqStep does:
//   seq2seq_loss (teacher-forced forward pass, masked cross-entropy, backward pass)
//   clip_gradients (global norm 1)
//   optimizer_step (Adam, lr 0.005).
// Every step uses the same batch; the model keeps training, as in a loop.
//
// The batch: tokens drawn from the core's seeded generator (ids 3 and up),
// each row's valid length in [2, length], <eos> at its end and <pad> after;
// target_in is <bos> then target_out shifted right (d2l's teacher input).
//
// Timing as model_step_benchmark.cpp: k back-to-back steps timed together on
// the wall clock (steady_clock) and as CPU time of the process (std::clock).
//
// Usage: seq2seq_step_benchmark [--architecture bahdanau|transformer] [--bidirectional 0|1]
//          [--batch 64] [--length 8] [--hidden 32] [--embed 32] [--layers 2] [--heads 4]
//          [--ffn-hidden 64] [--blocks 2] [--source-vocab 34] [--target-vocab 16]
//          [--seed 0] [--batch-seed 1] [--lr 0.005] [--clip 1]
//          [--warmup 3] [--repetitions 21] [--calls 5] [--serve | --parts]
// Alone it prints the median ms per step. With --parts it prints the medians
// of the step's parts (the forward pass, forward + backward, the step, and
// greedy translation of the batch's sources), for profiling. With --serve
// (used by seq2seq-step.bench.mjs) it prints one JSON line: the configuration,
// the multiply-adds of a forward pass (the core's *_forward_work), the batch,
// the initial parameters by name, the objective and token losses of the first
// three steps and the parameters after them (17 significant digits); then it
// answers each input line "step k" (or "translate k") with "<wall ms> <cpu ms>"
// of k back-to-back steps (greedy translations of the batch's sources), until
// "quit" or the end of input.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <iostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "training/optimizers.hpp"
#include "numerics/random.hpp"
#include "seq2seq/architectures.hpp"
#include "seq2seq/model.hpp"
#include "seq2seq/training.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

namespace {

struct Config {
    attention::Seq2SeqConfig model;
    std::size_t batch = 64;
    std::uint32_t batch_seed = 1;
    double lr = 0.005;
    double clip = 1.0;
    int warmup = 3;
    int repetitions = 21;
    long calls = 5;
    bool serve = false;
    bool parts = false;
};

[[noreturn]] void usage(const char* problem) {
    std::fprintf(stderr,
                 "seq2seq_step_benchmark: %s\nusage: seq2seq_step_benchmark [--architecture bahdanau|transformer] "
                 "[--bidirectional 0|1] [--scoring additive|dot] [--cell gru|lstm] [--batch B] [--length L] [--hidden H] [--embed E] [--layers N] [--heads h] "
                 "[--ffn-hidden F] [--blocks b] [--source-vocab V] [--target-vocab V] [--seed S] [--batch-seed S] "
                 "[--lr LR] [--clip C] [--warmup K] [--repetitions R] [--calls C] [--serve | --parts]\n",
                 problem);
    std::exit(2);
}

Config parse(int argc, char** argv) {
    Config config;
    config.model.bidirectional = false;  // d2l 10.4's encoder unless asked
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--serve" || flag == "--parts") {
            (flag == "--serve" ? config.serve : config.parts) = true;
            continue;
        }
        if (i + 1 >= argc) usage(("missing value after " + flag).c_str());
        const std::string value = argv[++i];
        const auto count = [&] { return static_cast<std::size_t>(std::strtoul(value.c_str(), nullptr, 10)); };
        attention::Seq2SeqConfig& m = config.model;
        if (flag == "--architecture") m.architecture = attention::seq2seq_architecture_from_name(value);
        else if (flag == "--bidirectional") m.bidirectional = value == "1" || value == "true";
        else if (flag == "--scoring") m.scoring = attention::seq2seq_scoring_names.from_name(value);
        else if (flag == "--cell") m.cell = attention::seq2seq_cell_names.from_name(value);
        else if (flag == "--batch") config.batch = count();
        else if (flag == "--length") m.source_length = m.target_length = count();
        else if (flag == "--hidden") m.hidden = count();
        else if (flag == "--embed") m.embed = count();
        else if (flag == "--layers") m.layers = count();
        else if (flag == "--heads") m.heads = count();
        else if (flag == "--ffn-hidden") m.ffn_hidden = count();
        else if (flag == "--blocks") m.blocks = count();
        else if (flag == "--source-vocab") m.source_vocab = count();
        else if (flag == "--target-vocab") m.target_vocab = count();
        else if (flag == "--seed") m.seed = static_cast<std::uint32_t>(count());
        else if (flag == "--batch-seed") config.batch_seed = static_cast<std::uint32_t>(count());
        else if (flag == "--lr") config.lr = std::strtod(value.c_str(), nullptr);
        else if (flag == "--clip") config.clip = std::strtod(value.c_str(), nullptr);
        else if (flag == "--warmup") config.warmup = std::atoi(value.c_str());
        else if (flag == "--repetitions") config.repetitions = std::atoi(value.c_str());
        else if (flag == "--calls") config.calls = std::atol(value.c_str());
        else usage(("unknown option " + flag).c_str());
    }
    // d2l's TransformerEncoder/Decoder scale the embeddings by sqrt(hidden).
    config.model.embedding_scale = std::sqrt(static_cast<double>(config.model.hidden));
    if (config.repetitions < 1 || config.warmup < 0 || config.calls < 1 || config.batch < 1) usage("bad option value");
    return config;
}

volatile double sink = 0.0;

struct Sample {
    double wall_ms;
    double cpu_ms;
};

template <class Body>
Sample time_calls(Body&& body, long calls) {
    const std::clock_t cpu_start = std::clock();
    const auto start = std::chrono::steady_clock::now();
    for (long call = 0; call < calls; ++call) sink = sink + body();
    const auto stop = std::chrono::steady_clock::now();
    const std::clock_t cpu_stop = std::clock();
    return {std::chrono::duration<double, std::milli>(stop - start).count(),
            1000.0 * static_cast<double>(cpu_stop - cpu_start) / CLOCKS_PER_SEC};
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t m = values.size() / 2;
    return values.size() % 2 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

template <class T>
void print_array(const char* name, const T* data, std::size_t size) {
    std::printf("\"%s\":[", name);
    for (std::size_t i = 0; i < size; ++i) {
        if (i) std::printf(",");
        if constexpr (std::is_integral_v<T>) std::printf("%d", static_cast<int>(data[i]));
        else std::printf("%.17g", static_cast<double>(data[i]));
    }
    std::printf("]");
}

// One side of the batch: rows of `length` tokens in [3, vocab), each valid
// length in [2, length] with <eos> last and <pad> after.
void draw_rows(attention::Random& random, std::size_t batch, std::size_t length, std::size_t vocab,
               xt::xtensor<int, 1>& tokens, xt::xtensor<int, 1>& lens) {
    tokens = xt::xtensor<int, 1>::from_shape({batch * length});
    lens = xt::xtensor<int, 1>::from_shape({batch});
    for (std::size_t b = 0; b < batch; ++b) {
        const std::size_t valid = 2 + static_cast<std::size_t>(random.uniform() * static_cast<double>(length - 1));
        lens(b) = static_cast<int>(valid);
        for (std::size_t i = 0; i < length; ++i) {
            const int drawn = 3 + static_cast<int>(random.uniform() * static_cast<double>(vocab - 3));
            tokens(b * length + i) = i + 1 < valid ? drawn : i + 1 == valid ? attention::eos_token : attention::pad_token;
        }
    }
}

attention::Seq2SeqBatch make_batch(const Config& config) {
    const attention::Seq2SeqConfig& m = config.model;
    attention::Random random(config.batch_seed);
    attention::Seq2SeqBatch batch;
    batch.batch = config.batch;
    draw_rows(random, config.batch, m.source_length, m.source_vocab, batch.source, batch.source_lens);
    draw_rows(random, config.batch, m.target_length, m.target_vocab, batch.target_out, batch.target_lens);
    batch.target_in = xt::xtensor<int, 1>::from_shape({config.batch * m.target_length});
    for (std::size_t b = 0; b < config.batch; ++b) {
        batch.target_in(b * m.target_length) = attention::bos_token;
        for (std::size_t i = 1; i < m.target_length; ++i)
            batch.target_in(b * m.target_length + i) = batch.target_out(b * m.target_length + i - 1);
    }
    return batch;
}

// The model, its optimiser state and the batch: what one step needs.
struct Trainer {
    attention::Seq2SeqModel model;
    attention::OptimizerState state;
    attention::OptimizerOptions adam;
    attention::Seq2SeqBatch batch;
    double clip = 1.0;
    double last_objective = 0.0;

    // Returns the batch's token loss before the step (what seq2seqStep returns).
    double step() {
        attention::Seq2SeqLoss loss = attention::seq2seq_loss(model, batch);
        attention::clip_gradients(loss.gradients, clip);
        attention::optimizer_step(model.values, loss.gradients, state, adam);
        last_objective = loss.loss;
        return loss.token_loss;
    }
    double translate() {
        const attention::Translation t = attention::seq2seq_translate(model, batch.source, batch.source_lens,
                                                                      batch.batch, model.config.target_length);
        return static_cast<double>(t.lengths(0));
    }
};

std::uint64_t forward_work(const attention::Seq2SeqConfig& config, std::size_t batch) {
    return config.architecture == attention::Seq2SeqArchitecture::bahdanau
               ? attention::seq2seq_detail::bahdanau_forward_work(config, batch)
               : attention::seq2seq_detail::transformer_forward_work(config, batch);
}

void set_up(Trainer& trainer, const Config& config) {
    trainer.model = attention::init_seq2seq_model(config.model);
    trainer.state = {};
    trainer.adam.kind = attention::OptimizerKind::adam;
    trainer.adam.lr = config.lr;
    trainer.clip = config.clip;
    trainer.batch = make_batch(config);
    attention::check_seq2seq_batch(trainer.model, trainer.batch);
}

int run(const Config& config) {
    Trainer trainer;
    set_up(trainer, config);

    const auto medians = [&](auto&& body, long calls) {
        for (int k = 0; k < config.warmup; ++k) time_calls(body, calls);
        std::vector<double> wall, cpu;
        for (int k = 0; k < config.repetitions; ++k) {
            const Sample sample = time_calls(body, calls);
            wall.push_back(sample.wall_ms / static_cast<double>(calls));
            cpu.push_back(sample.cpu_ms / static_cast<double>(calls));
        }
        return Sample{median(wall), median(cpu)};
    };
    if (config.parts) {
        const std::pair<const char*, Sample> parts[] = {
            {"forward", medians([&] { return attention::seq2seq_forward(trainer.model, trainer.batch).logits(0); },
                                config.calls)},
            {"forward + backward",
             medians([&] { return attention::seq2seq_loss(trainer.model, trainer.batch).loss; }, config.calls)},
            {"step", medians([&] { return trainer.step(); }, config.calls)},
            {"greedy translation", medians([&] { return trainer.translate(); }, config.calls)},
        };
        std::printf("%s, medians of %d samples after %d warm-up samples (ms per call)\n",
                    attention::seq2seq_architecture_name(config.model.architecture), config.repetitions,
                    config.warmup);
        for (const auto& [name, sample] : parts)
            std::printf("  %-20s wall clock %8.4f   CPU time %8.4f\n", name, sample.wall_ms, sample.cpu_ms);
        return 0;
    }
    if (!config.serve) {
        const Sample sample = medians([&] { return trainer.step(); }, config.calls);
        std::printf("%s, one step, medians of %d samples of %ld steps after %d warm-up samples (ms per step)\n",
                    attention::seq2seq_architecture_name(config.model.architecture), config.repetitions, config.calls,
                    config.warmup);
        std::printf("  wall clock %.4f   CPU time %.4f\n", sample.wall_ms, sample.cpu_ms);
        return 0;
    }

    const attention::Seq2SeqConfig& m = config.model;
    const attention::Seq2SeqBatch& b = trainer.batch;
    std::printf("{\"config\":{\"architecture\":\"%s\",\"sourceVocab\":%zu,\"targetVocab\":%zu,\"sourceLength\":%zu,"
                "\"targetLength\":%zu,\"hidden\":%zu,\"embed\":%zu,\"layers\":%zu,\"bidirectional\":%s,"
                "\"scoring\":\"%s\",\"cell\":\"%s\",\"heads\":%zu,\"ffnHidden\":%zu,\"blocks\":%zu,\"embeddingScale\":%.17g,\"seed\":%u},"
                "\"batch\":%zu,\"lr\":%.17g,\"clip\":%.17g,\"forwardWork\":%llu,",
                attention::seq2seq_architecture_name(m.architecture), m.source_vocab, m.target_vocab, m.source_length,
                m.target_length, m.hidden, m.embed, m.layers, m.bidirectional ? "true" : "false",
                attention::seq2seq_scoring_names.name_of(attention::seq2seq_scoring(m)),
                attention::seq2seq_cell_names.name_of(m.cell), m.heads,
                m.ffn_hidden, m.blocks, m.embedding_scale, m.seed, config.batch, config.lr, config.clip,
                static_cast<unsigned long long>(forward_work(m, config.batch)));
    print_array("source", b.source.data(), b.source.size());
    std::printf(",");
    print_array("sourceLens", b.source_lens.data(), b.source_lens.size());
    std::printf(",");
    print_array("targetIn", b.target_in.data(), b.target_in.size());
    std::printf(",");
    print_array("targetOut", b.target_out.data(), b.target_out.size());
    std::printf(",");
    print_array("targetLens", b.target_lens.data(), b.target_lens.size());
    std::printf(",\"params\":{");
    for (std::size_t k = 0; k < trainer.model.layout.size(); ++k) {
        const auto& slot = trainer.model.layout[k];
        if (k) std::printf(",");
        print_array(slot.name.c_str(), trainer.model.values.data() + slot.offset, slot.size);
    }
    std::printf("},");
    double token_losses[3], objectives[3];
    for (int s = 0; s < 3; ++s) token_losses[s] = trainer.step(), objectives[s] = trainer.last_objective;
    print_array("tokenLosses", token_losses, 3);
    std::printf(",");
    print_array("losses", objectives, 3);
    std::printf(",");
    print_array("paramsAfter", trainer.model.values.data(), trainer.model.values.size());
    std::printf("}\n");
    std::fflush(stdout);

    for (std::string line; std::getline(std::cin, line) && line != "quit";) {
        const std::size_t space = line.find(' ');
        const std::string command = line.substr(0, space);
        const long calls = space == std::string::npos ? 1 : std::strtol(line.c_str() + space + 1, nullptr, 10);
        if ((command == "step" || command == "translate") && calls >= 1) {
            const Sample sample = command == "step" ? time_calls([&] { return trainer.step(); }, calls)
                                                    : time_calls([&] { return trainer.translate(); }, calls);
            std::printf("%.6f %.6f\n", sample.wall_ms, sample.cpu_ms);
        } else {
            std::printf("error: unknown command '%s'\n", line.c_str());
        }
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace

#ifdef __EMSCRIPTEN__
// The core compiled to wasm with no JS API in between (README.md: built by
// hand with em++ -sMODULARIZE=1 -sINVOKE_RUN=0
// -sEXPORTED_FUNCTIONS=_seq2seq_step_setup,_seq2seq_step_run,_seq2seq_translate_run,_main),
// so that two builds of the core can be timed side by side in one Node process.
static Trainer exported_trainer;

extern "C" {
EMSCRIPTEN_KEEPALIVE int seq2seq_step_setup(int transformer, int bidirectional, int batch, int length, int hidden,
                                            int embed) {
    Config config;
    config.model.architecture =
        transformer ? attention::Seq2SeqArchitecture::transformer : attention::Seq2SeqArchitecture::bahdanau;
    config.model.bidirectional = bidirectional != 0;
    config.batch = static_cast<std::size_t>(batch);
    config.model.source_length = config.model.target_length = static_cast<std::size_t>(length);
    config.model.hidden = static_cast<std::size_t>(hidden);
    config.model.embed = static_cast<std::size_t>(embed);
    config.model.embedding_scale = std::sqrt(static_cast<double>(config.model.hidden));
    try {
        set_up(exported_trainer, config);
        return 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "seq2seq_step_setup: %s\n", error.what());
        return 0;
    }
}

// k steps; returns the token loss of the last.
EMSCRIPTEN_KEEPALIVE double seq2seq_step_run(int steps) {
    double loss = 0.0;
    for (int k = 0; k < steps; ++k) loss = exported_trainer.step();
    return loss;
}

// k greedy translations of the batch's sources.
EMSCRIPTEN_KEEPALIVE double seq2seq_translate_run(int calls) {
    double last = 0.0;
    for (int k = 0; k < calls; ++k) last = exported_trainer.translate();
    return last;
}
}
#endif

int main(int argc, char** argv) {
    try {
        return run(parse(argc, argv));
    } catch (const std::exception& error) {  // e.g. a size beyond the core's limits
        std::fprintf(stderr, "seq2seq_step_benchmark: %s\n", error.what());
        return 1;
    }
}
