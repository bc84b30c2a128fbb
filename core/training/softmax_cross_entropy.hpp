#pragma once
// Softmax cross-entropy of rows of logits against target classes, with its
// gradient: nn.CrossEntropyLoss(reduction='none') per row, and d2l's masked
// variants by a divisor per row (the encoder's mean over valid positions:
// every valid row divided by their count; d2l's MaskedSoftmaxCELoss: by the
// sequence's length). A row whose divisor is 0 takes no part.
#include <cstddef>

namespace attention::layers {

// log(sum exp l) - l[target] of one row, computed from the largest logit;
// exp(l - top) of each logit is left in `shifted` and their sum in `sum`.
double cross_entropy(const double* logits, std::size_t classes, std::size_t target, double* shifted, double& sum);

// losses[r] = the row's cross-entropy (0 where divisors[r] is 0), and
// dlogits[r] = (softmax(logits[r]) - onehot(targets[r])) / divisors[r] (0 there).
void softmax_cross_entropy(const double* logits, std::size_t rows, std::size_t classes, const int* targets,
                           const double* divisors, double* losses, double* dlogits);

}  // namespace attention::layers
