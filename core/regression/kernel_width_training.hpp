#pragma once
// Parametric attention pooling (d2l 10.2.4): one scalar width w in the
// Gaussian kernel, trained by full-batch gradient descent on the sum of
// squared errors of the training points, each predicted from the others
// (leave-one-out). The gradient is analytic.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <xtensor/xtensor.hpp>

namespace attention {

struct LossAndGradient {
    double loss = 0.0;      // sum_i (y_hat_i - y_i)^2
    double gradient = 0.0;  // dL/dw
};

// With leave_one_out false every point also attends to itself, and the loss
// falls towards 0 as w grows: the fit memorises the noise.
LossAndGradient kernel_width_loss(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                                  double w, bool leave_one_out = true);

struct TrainingOptions {
    double w0 = 1.0;
    double lr = 0.5;
    std::size_t epochs = 5;
    bool leave_one_out = true;
};

struct TrainingResult {
    std::vector<double> w;     // w before the first step and after each epoch
    std::vector<double> loss;  // loss of each epoch, measured before its step
    std::string stop_reason;   // empty when every epoch ran
};

// The d2l PyTorch recipe: for each epoch, measure the loss, then w -= lr * dL/dw.
// A loss or gradient that turns non-finite stops the run; stop_reason says when.
TrainingResult train_kernel_width(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                                  const TrainingOptions& options);

// The work bound of training and of the landscape: each epoch or width costs
// x.length^2 Gaussian evaluations, and x.length^2 * count (count: the epochs
// or ws.length, named count_name in the error) must be within
// limits::max_kernel_evaluations.
void check_kernel_evaluations(std::size_t points, std::size_t count, std::string_view count_name);

// The loss landscape: L(w) for each w in ws, with or without leave-one-out.
xt::xtensor<double, 1> loss_landscape(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                                      const xt::xtensor<double, 1>& ws, bool leave_one_out = true);

}  // namespace attention
