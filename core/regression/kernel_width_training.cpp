#include "regression/kernel_width_training.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "regression/kernels.hpp"
#include "numerics/table_exp2.hpp"
#include "numerics/vector_math.hpp"
#include "numerics/wasm_simd.hpp"  // empty unless the build targets wasm SIMD

namespace attention {
namespace {

void check_training_data(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                         bool leave_one_out) {
    // Leave-one-out needs at least one other point to predict from.
    require_count("x.length", x.size(), leave_one_out ? 2 : 1, limits::max_points);
    if (y.size() != x.size()) fail("y", text(x.size(), " values (one per x)"), y.size());
    require_all_finite("x", x);
    require_all_finite("y", y);
}

// min over j != i (or over every j without leave-one-out) of d_ij^2, for
// every i, from x sorted once: the nearest other point is next to x_i's place
// among them (x_i - x_j is monotonic in x_j, as is its rounding), so this is
// the same number a pass over the row would find.
std::vector<double> nearest_d2(const double* x, std::size_t n, bool leave_one_out) {
    std::vector<double> result(n, 0.0);  // without leave-one-out, d_ii^2 = 0
    if (!leave_one_out) return result;
    std::vector<double> sorted(x, x + n);
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < n; ++i) {
        const auto [low, high] = std::equal_range(sorted.begin(), sorted.end(), x[i]);
        if (high - low >= 2) continue;  // another point at the same place: 0
        double best = std::numeric_limits<double>::infinity();
        if (high != sorted.end()) {
            const double d = x[i] - *high;
            best = d * d;
        }
        if (low != sorted.begin()) {
            const double d = x[i] - *(low - 1);
            best = std::min(best, d * d);
        }
        result[i] = best;
    }
    return result;
}

struct RowSums {
    double sum[vector_math::lanes] = {}, sum_y[vector_math::lanes] = {}, sum_d2[vector_math::lanes] = {},
           sum_d2_y[vector_math::lanes] = {};
};

// The portable loops for row i (the native build): d^2, the shifted exp2,
// then the four sums, point j into lane j % 4, point `skip` left out (its
// weight is 0). Compilers vectorise each loop. d2 and e are scratch rows.
template <bool in_normal_range>
[[maybe_unused]] void row_sums_portable(double xi, const double* x, const double* y, std::size_t n,
                                        std::size_t skip, double factor, double min_d2, double* d2, double* e,
                                        RowSums& sums) noexcept {
    namespace vm = vector_math;
    for (std::size_t j = 0; j < n; ++j) {
        const double d = xi - x[j];
        d2[j] = d * d;
    }
    // The left-out point's exponent is set to 0 (inside the exp2's domain), then its weight to 0.
    if (skip < n) d2[skip] = min_d2;
    for (std::size_t j = 0; j < n; ++j) e[j] = vm::table_exp2_for<in_normal_range>(factor * (d2[j] - min_d2));
    if (skip < n) e[skip] = 0.0;
    vm::for_each_lane(n, [&](std::size_t j, std::size_t lane) {
        const double e_d2 = e[j] * d2[j];
        sums.sum[lane] += e[j];
        sums.sum_y[lane] += e[j] * y[j];
        sums.sum_d2[lane] += e_d2;
        sums.sum_d2_y[lane] += e_d2 * y[j];
    });
}

// The four sums of row i (see loss_and_gradient).
template <bool in_normal_range>
void row_sums(const double* x, const double* y, std::size_t n, std::size_t i, std::size_t skip, double factor,
              double min_d2, [[maybe_unused]] double* d2, [[maybe_unused]] double* e, RowSums& sums) noexcept {
    namespace vm = vector_math;
#ifdef ATTENTION_WASM_SIMD
    // Every point but a last odd one with wasm SIMD (which clears the lane of `skip`), that one here.
    for (std::size_t j = wasm_simd::training_sums<in_normal_range>(x[i], x, y, n, skip, factor, min_d2, sums.sum,
                                                                   sums.sum_y, sums.sum_d2, sums.sum_d2_y);
         j < n; ++j) {
        if (j == skip) continue;  // weight 0: adds nothing
        const double d = x[i] - x[j];
        const double d2_j = d * d;
        const double e_j = vm::table_exp2_for<in_normal_range>(factor * (d2_j - min_d2));
        const double e_d2 = e_j * d2_j;
        sums.sum[j % vm::lanes] += e_j;
        sums.sum_y[j % vm::lanes] += e_j * y[j];
        sums.sum_d2[j % vm::lanes] += e_d2;
        sums.sum_d2_y[j % vm::lanes] += e_d2 * y[j];
    }
#else
    row_sums_portable<in_normal_range>(x[i], x, y, n, skip, factor, min_d2, d2, e, sums);
#endif
}

// Assumes validated inputs. With s_ij = -w^2 d_ij^2 / 2 and alpha = softmax_j(s_ij):
// d y_hat_i / dw = -w (sum_j alpha_ij d_ij^2 y_j - y_hat_i sum_j alpha_ij d_ij^2).
// One row at a time: the max-subtracted weights (in base 2, see
// table_exp2.hpp; the point itself gets weight 0 with leave-one-out) and the
// four sums, in one pass with wasm SIMD. A row whose farthest point (the
// smallest or the largest x) keeps its exponent in the table exp2's normal
// range takes its shorter form.
LossAndGradient loss_and_gradient(const double* x, const double* y, std::size_t n, double w,
                                  bool leave_one_out) {
    namespace vm = vector_math;
    const double factor = vm::gaussian_exp2_factor(gaussian_rate(w));
    const std::vector<double> min_d2 = nearest_d2(x, n, leave_one_out);
    const auto [smallest, largest] = std::minmax_element(x, x + n);
#ifndef ATTENTION_WASM_SIMD
    std::vector<double> d2_row(n), e_row(n);  // scratch rows of the portable loops
    double *const d2 = d2_row.data(), *const e = e_row.data();
#else
    double *const d2 = nullptr, *const e = nullptr;  // wasm SIMD needs none
#endif
    LossAndGradient result;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t skip = leave_one_out ? i : n;
        const double to_smallest = x[i] - *smallest, to_largest = x[i] - *largest;
        const double max_d2 = std::max(to_smallest * to_smallest, to_largest * to_largest);
        RowSums sums;
        if (vm::table_exp2::row_in_normal_range(factor, max_d2, min_d2[i]))
            row_sums<true>(x, y, n, i, skip, factor, min_d2[i], d2, e, sums);
        else
            row_sums<false>(x, y, n, i, skip, factor, min_d2[i], d2, e, sums);
        const double total = vm::total(sums.sum);
        const double y_hat = vm::total(sums.sum_y) / total;
        const double dy_hat = -w * (vm::total(sums.sum_d2_y) - y_hat * vm::total(sums.sum_d2)) / total;
        const double error = y_hat - y[i];
        result.loss += error * error;
        result.gradient += 2.0 * error * dy_hat;
    }
    return result;
}

}  // namespace

void check_kernel_evaluations(std::size_t points, std::size_t count, std::string_view count_name) {
    // In 64 bits: in wasm32 the size_t product can wrap around (8192^2 * 64 = 2^32).
    const std::uint64_t evaluations = std::uint64_t{points} * points * count;
    if (evaluations > limits::max_kernel_evaluations)
        fail(count_name, text("x.length^2 * ", count_name, " <= ", limits::max_kernel_evaluations), evaluations);
}

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
    if (!(options.lr > 0.0)) fail("lr", "a positive learning rate", options.lr);
    require_count("epochs", options.epochs, 1, limits::max_epochs);
    check_kernel_evaluations(x.size(), options.epochs, "epochs");

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

xt::xtensor<double, 1> loss_landscape(const xt::xtensor<double, 1>& x, const xt::xtensor<double, 1>& y,
                                      const xt::xtensor<double, 1>& ws, bool leave_one_out) {
    check_training_data(x, y, leave_one_out);
    require_count("ws.length", ws.size(), 1, limits::max_points);
    require_all_finite("ws", ws);
    check_kernel_evaluations(x.size(), ws.size(), "ws.length");
    xt::xtensor<double, 1> losses = xt::xtensor<double, 1>::from_shape({ws.size()});
    for (std::size_t k = 0; k < ws.size(); ++k)
        losses(k) = loss_and_gradient(x.data(), y.data(), x.size(), ws(k), leave_one_out).loss;
    return losses;
}

}  // namespace attention
