#pragma once
// Documented size limits. They keep a hostile or mistyped size from asking
// the browser for gigabytes; every entry point checks them before allocating.
// The JS API hands them to the page as `limits` (see wasm/bindings.cpp), and
// docs/js-api.md's table lists them.
#include <cstddef>
#include <cstdint>

namespace attention::limits {

inline constexpr std::size_t max_points = 10000;             // data set, queries, keys
inline constexpr std::size_t max_matrix_elements = 1u << 24;  // any result matrix (16.7 M doubles)
inline constexpr std::size_t max_dimension = 1024;           // feature / hidden sizes
inline constexpr std::size_t max_batch = 64;                 // also batch * heads in multi-head attention
inline constexpr std::size_t max_epochs = 10000;
inline constexpr std::size_t max_sequence = 10000;           // positional encoding length
inline constexpr double max_x = 1000.0;                      // data set xMax, and truth's x
inline constexpr double max_noise = 100.0;
inline constexpr std::uint32_t max_seed = 4294967295u;       // seeds are whole numbers in [0, 2^32)
inline constexpr double max_random_magnitude = 1e6;          // randomNormal's std, randomUniform's bounds
inline constexpr std::size_t max_study_dims = 64;            // scaling study: entries of dims
inline constexpr std::size_t max_study_samples = 10000;      // scaling study: queries per d
inline constexpr std::size_t max_study_keys = 1000;          // scaling study: keys per query
inline constexpr std::size_t max_study_sizes = 64;           // consistency study: entries of sizes
inline constexpr std::size_t max_study_repeats = 1000;       // consistency study: data sets per size
inline constexpr double max_study_width = 1e6;               // consistency study: the kernel's w

// Total-work bounds: every call accepted within the size limits above must
// still finish in about a second in the browser (wasm on a 2-core machine;
// tests/core checks them, docs/js-api.md's limits section has the measured worst
// cases). Counted in 64 bits before anything is allocated; the error names
// the argument the caller can change.
inline constexpr std::uint64_t max_work = std::uint64_t{1} << 29;  // multiply-adds of one attention call, or of batchMatrixProduct
// Gaussian kernel evaluations (query-key pairs) of one training or
// loss-landscape call: x.length^2 * epochs, x.length^2 * ws.length; of the
// consistency study: 2 * repeats * queries * (sum of sizes + 32 per size).
inline constexpr std::uint64_t max_kernel_evaluations = std::uint64_t{1} << 28;
// tanh evaluations of additive attention: batch * nq * nk * h.
inline constexpr std::uint64_t max_tanh_evaluations = std::uint64_t{1} << 24;
// Normal draws of the scaling study: samples * (keys + 1) * (sum of dims).
inline constexpr std::uint64_t max_study_draws = std::uint64_t{1} << 24;

}  // namespace attention::limits

// The trainable attention model (attention_model.hpp) and its toy tasks (attention_tasks.hpp).
// hidden is limited by max_dimension; every product below is computed in 64 bits.
namespace attention::limits {

inline constexpr std::size_t max_vocab = 1024;
inline constexpr std::size_t max_model_length = 256;              // positions per sequence
inline constexpr std::size_t max_heads = 64;
inline constexpr std::size_t max_blocks = 8;
inline constexpr std::size_t max_ffn_hidden = 4096;
inline constexpr std::size_t max_model_batch = 1024;              // sequences per batch
inline constexpr std::size_t max_model_parameters = 1u << 22;     // 4.2 M doubles
inline constexpr std::size_t max_model_activations = 1u << 24;    // doubles one forward/backward pass keeps
// Multiply-adds of one forward and backward pass (about 0.3 s in wasm), and of one training
// call: its steps' passes and its held-out evaluations (about 1.3 s; 1,000 steps of the default).
inline constexpr std::uint64_t max_model_work = std::uint64_t{1} << 30;
inline constexpr std::uint64_t max_training_work = std::uint64_t{1} << 32;
inline constexpr std::size_t max_training_steps = 10000;
inline constexpr double max_embedding_scale = 1000.0;
inline constexpr double max_learning_rate = 1000.0;

}  // namespace attention::limits
