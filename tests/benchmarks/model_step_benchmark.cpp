// Native side of the model-step benchmark: one Adam step of the trainable
// attention model (core/encoder/attention_model.hpp, core/training/optimizers.hpp) on one
// batch of a seeded task (core/encoder/attention_tasks.hpp). model-step.bench.mjs
// runs this executable once per configuration, times the wasm module and
// PyTorch (model_step_torch.py) the same way, and prints the comparison.
//
// One step is what a training loop does per batch, and what PyTorch's
// zero_grad(); loss.backward(); optimizer.step() does:
//   attention_model_loss (forward, mean cross-entropy, backward pass)
//   optimizer_step (Adam, in place on the flat parameter vector).
// Every step uses the same batch; the model keeps training, as in a loop.
//
// Timing as attention_benchmark.cpp: k back-to-back steps timed together on
// the wall clock (steady_clock) and as CPU time of the process (std::clock),
// so the Node and Python sides (performance.now / process.cpuUsage,
// perf_counter / process_time) measure alike.
//
// Usage: model_step_benchmark [--vocab 10] [--length 8] [--hidden 32] [--heads 4] [--blocks 1]
//          [--ffn-hidden 0] [--batch 32] [--seed 0] [--task-seed 0] [--lr 0.01]
//          [--positional sinusoidal|learned|none] [--warmup 3] [--repetitions 21] [--calls 10] [--serve | --parts]
// Alone it prints its medians (ms per step). With --parts it prints the
// medians of the step's parts, one after the other: the forward pass alone
// (attention_model_forward, which also copies the weights out), forward and
// backward (attention_model_loss), the Adam update, the whole step, and the
// step followed by release_encoder_workspace() (what every call of the wasm
// bindings does: the next pass allocates its buffers afresh). The same file
// builds as wasm for Node, so the parts compare with no JS API in between
// (README.md, "Where the time goes"):
//   em++ -std=c++17 -O3 -DNDEBUG -ffp-contract=off -msimd128 -fexceptions -Icore
//     -isystem build/web/third_party_include tests/benchmarks/model_step_benchmark.cpp
//     core/encoder/{attention_model,attention_tasks}.cpp core/contract/attention_checks.cpp
//     core/numerics/{random,portable_math,matrix_products}.cpp core/layers/*.cpp core/training/*.cpp
//     -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -sSINGLE_FILE=1 -o build/parts/model_step_parts.cjs
//   node --no-liftoff build/parts/model_step_parts.cjs --parts   (after mkdir -p build/parts)
// Built from the same command with -sMODULARIZE=1 -sINVOKE_RUN=0
// -sEXPORTED_FUNCTIONS=_model_step_setup,_model_step_run -o build/parts/model_step_core.cjs it is
// the "wasm core" column of model-step.bench.mjs (see model_step_run below).
// With --serve (used by model-step.bench.mjs) it prints one JSON line: the
// configuration, the batch (tokens, targets), the initial parameters, the
// losses of the first three steps and the parameters after them (17
// significant digits, so the caller can check that native, wasm and PyTorch
// agree and give PyTorch the same starting point); then it answers each input line "step k" with
// "<wall ms> <cpu ms>" of k back-to-back steps, until "quit" or end of input.
#include <algorithm>
#include <chrono>
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

#include "encoder/attention_model.hpp"
#include "encoder/attention_tasks.hpp"
#include "training/optimizers.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

namespace {

struct Config {
    attention::EncoderConfig model;
    std::size_t batch = 32;
    std::uint32_t task_seed = 0;
    double lr = 0.01;
    int warmup = 3;
    int repetitions = 21;
    long calls = 10;
    bool serve = false;
    bool parts = false;
};

[[noreturn]] void usage(const char* problem) {
    std::fprintf(stderr,
                 "model_step_benchmark: %s\nusage: model_step_benchmark [--vocab V] [--length L] [--hidden H] "
                 "[--heads h] [--blocks b] [--ffn-hidden F] [--batch B] [--seed S] [--task-seed T] [--lr LR] "
                 "[--positional sinusoidal|learned|none] [--warmup K] [--repetitions R] [--calls C] [--serve | --parts]\n",
                 problem);
    std::exit(2);
}

Config parse(int argc, char** argv) {
    Config config;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--serve" || flag == "--parts") {
            (flag == "--serve" ? config.serve : config.parts) = true;
            continue;
        }
        if (i + 1 >= argc) usage(("missing value after " + flag).c_str());
        const char* value = argv[++i];
        const auto count = [&] { return static_cast<std::size_t>(std::strtoul(value, nullptr, 10)); };
        if (flag == "--vocab") config.model.vocab = count();
        else if (flag == "--length") config.model.length = count();
        else if (flag == "--hidden") config.model.hidden = count();
        else if (flag == "--heads") config.model.heads = count();
        else if (flag == "--blocks") config.model.blocks = count();
        else if (flag == "--ffn-hidden") config.model.ffn_hidden = count();
        else if (flag == "--batch") config.batch = count();
        else if (flag == "--seed") config.model.seed = static_cast<std::uint32_t>(count());
        else if (flag == "--task-seed") config.task_seed = static_cast<std::uint32_t>(count());
        else if (flag == "--lr") config.lr = std::strtod(value, nullptr);
        else if (flag == "--positional") config.model.positional = attention::positional_kind_names.from_name(value);
        else if (flag == "--warmup") config.warmup = std::atoi(value);
        else if (flag == "--repetitions") config.repetitions = std::atoi(value);
        else if (flag == "--calls") config.calls = std::atol(value);
        else usage(("unknown option " + flag).c_str());
    }
    if (config.repetitions < 1 || config.warmup < 0 || config.calls < 1) usage("bad option value");
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

// The model, its optimiser state and the batch: what one step needs.
struct Trainer {
    attention::AttentionModel model;
    attention::OptimizerState state;
    attention::OptimizerOptions adam;
    attention::TaskBatch data;
    attention::BatchOptions options;  // valid_lens empty: every position valid (the task's lengths are full)

    double step() {
        const attention::LossResult result = attention::attention_model_loss(model, data.tokens, data.targets, options);
        attention::optimizer_step(model.values, result.gradients, state, adam);
        return result.loss;
    }
};

void set_up(Trainer& trainer, const Config& config) {
    trainer.model = attention::init_attention_model(config.model);
    trainer.state = {};
    trainer.adam.kind = attention::OptimizerKind::adam;
    trainer.adam.lr = config.lr;
    attention::TaskOptions task;
    task.task = attention::AttentionTask::reverse;
    task.batch = config.batch;
    task.length = config.model.length;
    task.vocab = config.model.vocab;
    task.seed = config.task_seed;
    trainer.data = attention::attention_task_batch(task);
    trainer.options.batch = config.batch;
}

}  // namespace

#ifdef __EMSCRIPTEN__
// The core compiled to wasm with no JS API in between: model-step.bench.mjs
// loads this file built with -sMODULARIZE=1 -sINVOKE_RUN=0 (README.md) and
// times model_step_run(k) calls itself, beside the other implementations.
static Trainer exported_trainer;

extern "C" {
EMSCRIPTEN_KEEPALIVE int model_step_setup(int vocab, int length, int hidden, int heads, int blocks, int ffn_hidden,
                                          int batch, double lr) {
    Config config;
    config.model.vocab = static_cast<std::size_t>(vocab);
    config.model.length = static_cast<std::size_t>(length);
    config.model.hidden = static_cast<std::size_t>(hidden);
    config.model.heads = static_cast<std::size_t>(heads);
    config.model.blocks = static_cast<std::size_t>(blocks);
    config.model.ffn_hidden = static_cast<std::size_t>(ffn_hidden);
    config.batch = static_cast<std::size_t>(batch);
    config.lr = lr;
    try {
        set_up(exported_trainer, config);
        return 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "model_step_setup: %s\n", error.what());
        return 0;
    }
}

// k steps; returns the loss of the last.
EMSCRIPTEN_KEEPALIVE double model_step_run(int steps) {
    double loss = 0.0;
    for (int k = 0; k < steps; ++k) loss = exported_trainer.step();
    return loss;
}
}
#endif

int run(const Config& config) {
    Trainer trainer;
    set_up(trainer, config);

    // Medians (wall clock, CPU time) in ms per call of `calls` back-to-back calls.
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
#ifdef __EMSCRIPTEN__
    const char* build = "wasm";
#else
    const char* build = "native";
#endif
    if (config.parts) {
        const attention::LossResult loss =
            attention::attention_model_loss(trainer.model, trainer.data.tokens, trainer.data.targets, trainer.options);
        attention::OptimizerState adam_state;  // its own, so timing the update leaves the trainer's alone
        xt::xtensor<double, 1> values = trainer.model.values;
        const std::pair<const char*, Sample> parts[] = {
            {"forward", medians([&] { return attention::attention_model_forward(trainer.model, trainer.data.tokens,
                                                                                 trainer.options).logits(0); },
                                config.calls)},
            {"forward + backward", medians([&] { return attention::attention_model_loss(trainer.model, trainer.data.tokens,
                                                                                         trainer.data.targets,
                                                                                         trainer.options).loss; },
                                           config.calls)},
            {"Adam update", medians([&] {
                 attention::optimizer_step(values, loss.gradients, adam_state, trainer.adam);
                 return values(0);
             }, 10 * config.calls)},
            {"step", medians([&] { return trainer.step(); }, config.calls)},
            {"step, workspace released", medians([&] {
                 const double l = trainer.step();
                 attention::release_encoder_workspace();
                 return l;
             }, config.calls)},
        };
        std::printf("%s parts of one Adam step, medians of %d samples after %d warm-up samples (ms per call)\n", build,
                    config.repetitions, config.warmup);
        for (const auto& [name, sample] : parts)
            std::printf("  %-26s wall clock %8.4f   CPU time %8.4f\n", name, sample.wall_ms, sample.cpu_ms);
        return 0;
    }
    if (!config.serve) {
        const Sample sample = medians([&] { return trainer.step(); }, config.calls);
        std::printf("%s, one Adam step, medians of %d samples of %ld steps after %d warm-up samples (ms per step)\n",
                    build, config.repetitions, config.calls, config.warmup);
        std::printf("  wall clock %.4f   CPU time %.4f\n", sample.wall_ms, sample.cpu_ms);
        return 0;
    }

    const attention::EncoderConfig& m = config.model;
    std::printf("{\"config\":{\"vocab\":%zu,\"length\":%zu,\"hidden\":%zu,\"heads\":%zu,\"blocks\":%zu,"
                "\"ffnHidden\":%zu,\"embeddingScale\":%.17g,\"positional\":\"%s\",\"seed\":%u},\"batch\":%zu,\"lr\":%.17g,",
                m.vocab, m.length, m.hidden, m.heads, m.blocks, m.ffn_hidden, m.embedding_scale,
                attention::positional_kind_names.name_of(m.positional), m.seed, config.batch, config.lr);
    print_array("tokens", trainer.data.tokens.data(), trainer.data.tokens.size());
    std::printf(",");
    print_array("targets", trainer.data.targets.data(), trainer.data.targets.size());
    std::printf(",\"params\":{");
    for (std::size_t k = 0; k < trainer.model.layout.size(); ++k) {
        const auto& slot = trainer.model.layout[k];
        if (k) std::printf(",");
        print_array(slot.name.c_str(), trainer.model.values.data() + slot.offset, slot.size);
    }
    std::printf("},");
    double losses[3];
    for (double& loss : losses) loss = trainer.step();
    print_array("losses", losses, 3);
    std::printf(",");
    print_array("paramsAfter", trainer.model.values.data(), trainer.model.values.size());
    std::printf("}\n");
    std::fflush(stdout);

    for (std::string line; std::getline(std::cin, line) && line != "quit";) {
        const std::size_t space = line.find(' ');
        const std::string command = line.substr(0, space);
        const long calls = space == std::string::npos ? 1 : std::strtol(line.c_str() + space + 1, nullptr, 10);
        if (command == "step" && calls >= 1) {
            const Sample sample = time_calls([&] { return trainer.step(); }, calls);
            std::printf("%.6f %.6f\n", sample.wall_ms, sample.cpu_ms);
        } else {
            std::printf("error: unknown command '%s'\n", line.c_str());
        }
        std::fflush(stdout);
    }
    return 0;
}

int main(int argc, char** argv) {
    try {
        return run(parse(argc, argv));
    } catch (const std::exception& error) {  // e.g. an unknown positional, a size beyond the core's limits
        std::fprintf(stderr, "model_step_benchmark: %s\n", error.what());
        return 1;
    }
}
