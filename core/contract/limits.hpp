#pragma once
// Documented size limits. They keep a hostile or mistyped size from asking
// the browser for gigabytes; every entry point checks them before allocating.
//
// One table holds them all: the JS API hands every entry to the page as
// `limits` under its name (wasm/contract_bindings.cpp walks the table), and
// tests/node/contract.test.mjs checks docs/js-api.md's tables and
// wasm/attention-core.d.ts's names against that object. The named constants
// the core uses are read from the table by name, at compile time.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace attention::limits {

struct Limit {
    std::string_view name;  // its key in the JS API's `limits`
    double value;           // as JS holds it (every one is exact in a double)
    std::string_view what;  // what it bounds
};

inline constexpr Limit table[] = {
    {"maxPoints", 10000, "points: data set, queries, keys"},
    {"maxMatrixElements", 1 << 24, "elements of any result matrix (16.7 M doubles)"},
    {"maxDimension", 1024, "feature / hidden sizes"},
    {"maxBatch", 64, "batch, also batch * heads in multi-head attention"},
    {"maxEpochs", 10000, "epochs of the kernel width's training"},
    {"maxSequence", 10000, "positional encoding length"},
    {"maxX", 1000, "data set xMax, and truth's x"},
    {"maxNoise", 100, "data set noise"},
    {"maxSeed", 4294967295.0, "seeds: whole numbers in [0, 2^32)"},
    {"maxRandomMagnitude", 1e6, "randomNormal's std, randomUniform's bounds"},
    {"maxStudyDims", 64, "scaling study: entries of dims"},
    {"maxStudySamples", 10000, "scaling study: queries per d"},
    {"maxStudyKeys", 1000, "scaling study: keys per query"},
    {"maxStudySizes", 64, "consistency study: entries of sizes"},
    {"maxStudyRepeats", 1000, "consistency study: data sets per size"},
    {"maxStudyWidth", 1e6, "consistency study: the kernel's w"},

    // Total-work bounds: every call accepted within the size limits above
    // must still finish in about a second in the browser (wasm on a 2-core
    // machine; tests/core checks them, docs/js-api.md's limits section has
    // the measured worst cases). Counted in 64 bits before anything is
    // allocated; the error names the argument the caller can change.
    {"maxWork", 1 << 29, "multiply-adds of one attention call, or of batchMatrixProduct"},
    // x.length^2 * epochs, x.length^2 * ws.length; of the consistency study:
    // 2 * repeats * queries * (sum of sizes + 32 per size).
    {"maxKernelEvaluations", 1 << 28, "Gaussian kernel evaluations of one training, loss-landscape or study call"},
    {"maxTanhEvaluations", 1 << 24, "tanh evaluations of additive attention: batch * nq * nk * h"},
    {"maxStudyDraws", 1 << 24, "normal draws of the scaling study: samples * (keys + 1) * (sum of dims)"},

    // The trainable attention model (attention_model.hpp) and its toy tasks
    // (attention_tasks.hpp). hidden is limited by maxDimension; every product
    // is computed in 64 bits.
    {"maxVocab", 1024, "attention model: vocabulary"},
    {"maxModelLength", 256, "attention model: positions per sequence"},
    {"maxHeads", 64, "attention model: heads"},
    {"maxBlocks", 8, "attention model: blocks"},
    {"maxFfnHidden", 4096, "attention model: FFN hidden size"},
    {"maxModelBatch", 1024, "attention model: sequences per batch"},
    {"maxModelParameters", 1 << 22, "attention model: parameters (4.2 M doubles)"},
    {"maxModelActivations", 1 << 24, "attention model: doubles one forward/backward pass keeps"},
    // About 0.3 s in wasm.
    {"maxModelWork", 1 << 30, "attention model: multiply-adds of one forward and backward pass"},
    // About 1.3 s; 1,000 steps of the default.
    {"maxTrainingWork", 4294967296.0, "attention model: multiply-adds of one training call (its passes and held-out evaluations)"},
    {"maxEmbeddingScale", 1000, "attention model: embedding scale"},
    {"maxLearningRate", 1000, "attention model: learning rate"},
    {"maxTrainingSteps", 10000, "attention model: steps of one training call"},
};

// Not constexpr: a name the table lacks, or a value the type cannot hold,
// reaches it and stops the compilation.
inline void missing_or_inexact_limit() {}

constexpr double value_of(std::string_view name) {
    for (const Limit& limit : table)
        if (limit.name == name) return limit.value;
    missing_or_inexact_limit();
    return 0;
}

// The table's value as an integer type, which must hold it exactly.
template <class T>
constexpr T whole(std::string_view name) {
    const double value = value_of(name);
    if (!(value >= 0 && value <= static_cast<double>(static_cast<T>(-1)) && static_cast<double>(static_cast<T>(value)) == value))
        missing_or_inexact_limit();
    return static_cast<T>(value);
}

inline constexpr std::size_t max_points = whole<std::size_t>("maxPoints");
inline constexpr std::size_t max_matrix_elements = whole<std::size_t>("maxMatrixElements");
inline constexpr std::size_t max_dimension = whole<std::size_t>("maxDimension");
inline constexpr std::size_t max_batch = whole<std::size_t>("maxBatch");
inline constexpr std::size_t max_epochs = whole<std::size_t>("maxEpochs");
inline constexpr std::size_t max_sequence = whole<std::size_t>("maxSequence");
inline constexpr double max_x = value_of("maxX");
inline constexpr double max_noise = value_of("maxNoise");
inline constexpr std::uint32_t max_seed = whole<std::uint32_t>("maxSeed");
inline constexpr double max_random_magnitude = value_of("maxRandomMagnitude");
inline constexpr std::size_t max_study_dims = whole<std::size_t>("maxStudyDims");
inline constexpr std::size_t max_study_samples = whole<std::size_t>("maxStudySamples");
inline constexpr std::size_t max_study_keys = whole<std::size_t>("maxStudyKeys");
inline constexpr std::size_t max_study_sizes = whole<std::size_t>("maxStudySizes");
inline constexpr std::size_t max_study_repeats = whole<std::size_t>("maxStudyRepeats");
inline constexpr double max_study_width = value_of("maxStudyWidth");

inline constexpr std::uint64_t max_work = whole<std::uint64_t>("maxWork");
inline constexpr std::uint64_t max_kernel_evaluations = whole<std::uint64_t>("maxKernelEvaluations");
inline constexpr std::uint64_t max_tanh_evaluations = whole<std::uint64_t>("maxTanhEvaluations");
inline constexpr std::uint64_t max_study_draws = whole<std::uint64_t>("maxStudyDraws");

inline constexpr std::size_t max_vocab = whole<std::size_t>("maxVocab");
inline constexpr std::size_t max_model_length = whole<std::size_t>("maxModelLength");
inline constexpr std::size_t max_heads = whole<std::size_t>("maxHeads");
inline constexpr std::size_t max_blocks = whole<std::size_t>("maxBlocks");
inline constexpr std::size_t max_ffn_hidden = whole<std::size_t>("maxFfnHidden");
inline constexpr std::size_t max_model_batch = whole<std::size_t>("maxModelBatch");
inline constexpr std::size_t max_model_parameters = whole<std::size_t>("maxModelParameters");
inline constexpr std::size_t max_model_activations = whole<std::size_t>("maxModelActivations");
inline constexpr std::uint64_t max_model_work = whole<std::uint64_t>("maxModelWork");
inline constexpr std::uint64_t max_training_work = whole<std::uint64_t>("maxTrainingWork");
inline constexpr std::size_t max_training_steps = whole<std::size_t>("maxTrainingSteps");
inline constexpr double max_embedding_scale = value_of("maxEmbeddingScale");
inline constexpr double max_learning_rate = value_of("maxLearningRate");

}  // namespace attention::limits
