#pragma once
// What each architecture (bahdanau.cpp, transformer.cpp) provides to the
// shared model code (model.cpp: checks, dispatch, the loss, decoding's
// bookkeeping). Not part of the core's interface.
#include <cstddef>
#include <variant>
#include <vector>

#include "contract/attention_row_inputs.hpp"
#include "layers/parameter_layout.hpp"
#include "model.hpp"

namespace attention::seq2seq_detail {

// The parameters in state_dict order, named and initialised (model.hpp).
void describe_bahdanau(const Seq2SeqConfig& config, LayoutBuilder& layout);
void describe_transformer(const Seq2SeqConfig& config, LayoutBuilder& layout);

// Teacher-forced forward pass over a checked batch: logits (batch *
// target_length rows of target_vocab) into `logits`; the attention weights
// into `weights` when it is not null (its arrays shaped as model.hpp says).
// The architecture keeps what its backward pass needs in its workspace.
void bahdanau_forward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::vector<double>& logits,
                      Seq2SeqForward* weights);
void transformer_forward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::vector<double>& logits,
                         Seq2SeqForward* weights);

// After the forward pass of the same model and batch: gradients (the model's
// layout, zeroed by the caller) += d objective / d parameters, given
// dlogits = d objective / d logits.
void bahdanau_backward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const double* dlogits,
                       double* gradients);
void transformer_backward(const Seq2SeqModel& model, const Seq2SeqBatch& batch, const double* dlogits,
                          double* gradients);

// Greedy decoding (model.hpp's seq2seq_translate) of a checked source.
Translation bahdanau_translate(const Seq2SeqModel& model, const xt::xtensor<int, 1>& source,
                               const xt::xtensor<int, 1>& source_lens, std::size_t batch, std::size_t max_length);
Translation transformer_translate(const Seq2SeqModel& model, const xt::xtensor<int, 1>& source,
                                  const xt::xtensor<int, 1>& source_lens, std::size_t batch,
                                  std::size_t max_length);

// After a teacher-forced forward pass of a checked batch: item `item`'s
// attention over the source (Bahdanau's; the Transformer's encoder-decoder
// attention of block `block`, or with `self` its masked self-attention), as
// attention_row_inputs.hpp describes it, additive or dot product as the
// model's scoring is (the Transformer's additive inputs are head `head`'s).
// block, item and head are checked by the caller.
using ItemInputs = std::variant<AdditiveItemInputs, DotProductItemInputs>;
ItemInputs bahdanau_attention_inputs(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::size_t item);
ItemInputs transformer_attention_inputs(const Seq2SeqModel& model, const Seq2SeqBatch& batch, std::size_t block,
                                        std::size_t item, std::size_t head, bool self);

// Multiply-adds of one teacher-forced forward pass over `batch` items (the
// limits count three of them for a forward and backward pass), in 64 bits.
std::uint64_t bahdanau_forward_work(const Seq2SeqConfig& config, std::uint64_t batch);
std::uint64_t transformer_forward_work(const Seq2SeqConfig& config, std::uint64_t batch);

void release_bahdanau_workspace();
void release_transformer_workspace();

// A lease of the architecture's workspace held from a forward pass to the
// backward pass that reads its buffers (each pass's own lease would release
// a large workspace in between): model.cpp's loss.
void hold_bahdanau_workspace();
void let_go_bahdanau_workspace();
void hold_transformer_workspace();
void let_go_transformer_workspace();

}  // namespace attention::seq2seq_detail
