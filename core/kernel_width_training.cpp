#include "kernel_width_training.hpp"

#include <cmath>
#include <limits>

#include "errors.hpp"
#include "limits.hpp"

namespace attention {
namespace {

void check_training_data(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                         bool leave_one_out) {
    // Leave-one-out needs at least one other point to predict from.
    require_count("x.length", x.size(), leave_one_out ? 2 : 1, limits::max_points);
    if (y.size() != x.size()) fail("y", "expected ", x.size(), " values (one per x), got ", y.size());
    require_all_finite("x", x);
    require_all_finite("y", y);
}

// Assumes validated inputs. With s_ij = -w^2 d_ij^2 / 2 and alpha = softmax_j(s_ij):
// d y_hat_i / dw = -w (sum_j alpha_ij d_ij^2 y_j - y_hat_i sum_j alpha_ij d_ij^2).
LossAndGradient loss_and_gradient(const double* x, const double* y, std::size_t n, double w,
                                  bool leave_one_out) {
    const double half_w2 = 0.5 * w * w;
    LossAndGradient result;
    for (std::size_t i = 0; i < n; ++i) {
        double min_d2 = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < n; ++j) {
            if (leave_one_out && j == i) continue;
            const double d = x[i] - x[j];
            min_d2 = std::min(min_d2, d * d);
        }
        double sum = 0.0, sum_y = 0.0, sum_d2 = 0.0, sum_d2_y = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            if (leave_one_out && j == i) continue;
            const double d = x[i] - x[j];
            const double d2 = d * d;
            const double e = std::exp(-half_w2 * (d2 - min_d2));
            sum += e;
            sum_y += e * y[j];
            sum_d2 += e * d2;
            sum_d2_y += e * d2 * y[j];
        }
        const double y_hat = sum_y / sum;
        const double dy_hat = -w * (sum_d2_y - y_hat * sum_d2) / sum;
        const double error = y_hat - y[i];
        result.loss += error * error;
        result.gradient += 2.0 * error * dy_hat;
    }
    return result;
}

}  // namespace

LossAndGradient kernel_width_loss(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                                  double w, bool leave_one_out) {
    check_training_data(x, y, leave_one_out);
    require_finite("w", w);
    return loss_and_gradient(x.data(), y.data(), x.size(), w, leave_one_out);
}

TrainingResult train_kernel_width(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                                  const TrainingOptions& options) {
    check_training_data(x, y, options.leave_one_out);
    require_finite("w0", options.w0);
    require_finite("lr", options.lr);
    if (!(options.lr > 0.0)) fail("lr", "expected a positive learning rate, got ", options.lr);
    require_count("epochs", options.epochs, 1, limits::max_epochs);

    TrainingResult result;
    result.w.push_back(options.w0);
    double w = options.w0;
    for (std::size_t epoch = 1; epoch <= options.epochs; ++epoch) {
        const LossAndGradient step = loss_and_gradient(x.data(), y.data(), x.size(), w,
                                                       options.leave_one_out);
        const double next_w = w - options.lr * step.gradient;
        if (!std::isfinite(step.loss) || !std::isfinite(step.gradient) || !std::isfinite(next_w)) {
            result.stop_reason = "training stopped at epoch " + std::to_string(epoch) +
                                 ": the loss or w is no longer finite (try a smaller learning rate)";
            break;
        }
        result.loss.push_back(step.loss);
        w = next_w;
        result.w.push_back(w);
    }
    return result;
}

xt::xtensor<double, 1> kernel_width_loss_landscape(const xt::xtensor<double, 1>& x,
                                                   const xt::xtensor<double, 1>& y,
                                                   const xt::xtensor<double, 1>& ws,
                                                   bool leave_one_out) {
    check_training_data(x, y, leave_one_out);
    require_count("ws.length", ws.size(), 1, limits::max_points);
    require_all_finite("ws", ws);
    if (x.size() * x.size() * ws.size() > 64 * limits::max_matrix_elements)
        fail("ws.length", "expected x.length^2 * ws.length <= ", 64 * limits::max_matrix_elements,
             ", got ", x.size() * x.size() * ws.size());
    xt::xtensor<double, 1> losses = xt::xtensor<double, 1>::from_shape({ws.size()});
    for (std::size_t k = 0; k < ws.size(); ++k)
        losses(k) = loss_and_gradient(x.data(), y.data(), x.size(), ws(k), leave_one_out).loss;
    return losses;
}

}  // namespace attention
