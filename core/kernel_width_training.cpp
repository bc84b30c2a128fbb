#include "kernel_width_training.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "errors.hpp"
#include "limits.hpp"
#include "kernels.hpp"
#include "vector_math.hpp"

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
// One row at a time: d^2 to every point, the max-subtracted exp (the point
// itself gets weight 0 with leave-one-out), then the four sums in one pass.
LossAndGradient loss_and_gradient(const double* x, const double* y, std::size_t n, double w,
                                  bool leave_one_out) {
    namespace vm = vector_math;
    const double half_w2 = gaussian_rate(w);
    std::vector<double> d2(n), e(n);
    LossAndGradient result;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            const double d = x[i] - x[j];
            d2[j] = d * d;
        }
        // The largest score among the points predicted from.
        const double min_d2 = leave_one_out
            ? std::min(vm::min(d2.data(), i), vm::min(d2.data() + i + 1, n - i - 1))
            : vm::min(d2.data(), n);
        // With leave-one-out the point's own weight is 0; d2[i] = min_d2 first
        // only keeps its (discarded) exp argument at 0, inside exp_nonpositive's domain.
        if (leave_one_out) d2[i] = min_d2;
        for (std::size_t j = 0; j < n; ++j)
            e[j] = vm::exp_nonpositive(-half_w2 * (d2[j] - min_d2));
        if (leave_one_out) e[i] = 0.0;

        double sum[vm::lanes] = {}, sum_y[vm::lanes] = {}, sum_d2[vm::lanes] = {},
               sum_d2_y[vm::lanes] = {};
        vm::for_each_lane(n, [&](std::size_t j, std::size_t lane) {
            const double e_d2 = e[j] * d2[j];
            sum[lane] += e[j];
            sum_y[lane] += e[j] * y[j];
            sum_d2[lane] += e_d2;
            sum_d2_y[lane] += e_d2 * y[j];
        });
        const double total = vm::total(sum);
        const double y_hat = vm::total(sum_y) / total;
        const double dy_hat = -w * (vm::total(sum_d2_y) - y_hat * vm::total(sum_d2)) / total;
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
