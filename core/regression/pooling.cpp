#include "regression/pooling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/softmax_row.hpp"
#include "numerics/table_exp2.hpp"
#include "numerics/vector_math.hpp"
#include "numerics/wasm_simd.hpp"  // empty unless the build targets wasm SIMD

namespace attention {
namespace {

constexpr double undefined = std::numeric_limits<double>::quiet_NaN();

void check_points(const char* name, const xt::xtensor<double, 1>& points) {
    if (points.size() < 1 || points.size() > limits::max_points)  // the name is only built to fail
        require_count(std::string(name) + ".length", points.size(), 1, limits::max_points);
    require_all_finite(name, points);
}

void check_spec(const KernelSpec& spec) { require_finite("w", spec.w); }

// The Gaussian rows are max-subtracted: every weight is
// 2^(factor * (d^2 - min d^2)), so the nearest key's weight is 1 and a row's
// sum is at least 1. min d^2 comes from the keys sorted once per call: the
// nearest key to q is next to q's place among them (q - k is monotonic in k,
// as is its rounding), so no pass over the row is needed for it, and it is the
// same number a pass would find. The farthest key is the first or the last:
// its d^2 decides whether the row's exponents stay in the table exp2's
// normal range (table_exp2::row_in_normal_range).
struct RowShift {
    double min_d2, max_d2;
};
RowShift row_shift(double query, const std::vector<double>& sorted_keys) noexcept {
    const auto above = std::lower_bound(sorted_keys.begin(), sorted_keys.end(), query);
    double best = std::numeric_limits<double>::infinity();
    if (above != sorted_keys.end()) {
        const double d = query - *above;
        best = d * d;
    }
    if (above != sorted_keys.begin()) {
        const double d = query - *(above - 1);
        best = std::min(best, d * d);
    }
    const double to_first = query - sorted_keys.front(), to_last = query - sorted_keys.back();
    return {best, std::max(to_first * to_first, to_last * to_last)};
}

// The Gaussian rows above compute d^2 = (q - k)^2 unscaled, with w folded
// into one factor per call: exact enough, and fast, while d^2 cannot
// overflow. With every query and key within 2^500 in magnitude, d^2 stays
// below 2^1002: the rows take that path. A query or key beyond it (hostile or
// mistyped input) takes the row below instead, which follows PyTorch's
// recipe, softmax(-((q - k) w)^2 / 2), step by step, so its results match
// PyTorch's wherever PyTorch's are finite.
constexpr double gaussian_fast_magnitude = 0x1p500;

double largest_magnitude(const xt::xtensor<double, 1>& numbers) noexcept {
    double largest = 0.0;
    for (double v : numbers) largest = std::max(largest, std::abs(v));
    return largest;
}

// PyTorch's recipe for one query: s_j = -((q - k_j) w)^2 / 2, then their
// softmax through the core's one softmax kernel (numerics/softmax_row.hpp:
// 2^((s_j - max s) log2 e), normalised by the sum's inverse, as PyTorch
// does); the row is returned normalised, with 1 for its sum. A (q - k_j) w
// that overflows gives s_j = -inf (weight 0), as in PyTorch. Where PyTorch has
// no finite score at all (every (q - k_j) w overflows: its row is NaN), the
// row is the Gaussian's limit for a growing width instead: the nearest keys
// (by the rounded |q/2 - k_j/2|, which cannot overflow) share the weight; that
// row is left unnormalised (1 on each nearest key) and its sum returned. w = 0
// is uniform (PyTorch's inf * 0 would be NaN). Portable scalar code or the
// kernel's wasm loop, the same bits in every build.
double gaussian_row_robust(double query, const double* keys, std::size_t n, double w, double* row) noexcept {
    double max_score = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
        const double d = w == 0.0 ? 0.0 : (query - keys[j]) * w;
        row[j] = -(d * d) / 2.0;
        max_score = std::max(max_score, row[j]);
    }
    if (max_score > -std::numeric_limits<double>::infinity()) {
        softmax_row(row, n, n);
        return 1.0;
    }
    double nearest = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) nearest = std::min(nearest, std::abs(query * 0.5 - keys[j] * 0.5));
    for (std::size_t j = 0; j < n; ++j) row[j] = std::abs(query * 0.5 - keys[j] * 0.5) == nearest ? 1.0 : 0.0;
    return vector_math::sum(row, n);
}

// Values are summed as sum_j e_j v_j (e_j <= 1) before the division by
// sum_j e_j: with |v| up to the largest double that sum can overflow where
// the prediction (a weighted mean) is representable. Values beyond 2^1009
// (max_points < 2^14 of them sum below the largest double) are therefore
// summed scaled by 2^-14, exactly (a power of two), and the prediction scaled
// back. Smaller values are used as they are: the hot loops are unchanged.
// A mean rounded a last bit above the largest |value| is clamped to it
// there, so that scaling back cannot overflow (NaN stays NaN).
class ScaledValues {
public:
    explicit ScaledValues(const xt::xtensor<double, 1>& values) : data_(values.data()) {
        const double largest = largest_magnitude(values);
        if (largest <= 0x1p1009) return;
        scaled_.assign(values.begin(), values.end());
        for (double& v : scaled_) v *= 0x1p-14;
        data_ = scaled_.data();
        largest_scaled_ = largest * 0x1p-14;
    }
    const double* data() const noexcept { return data_; }
    double unscale(double mean) const noexcept {
        if (scaled_.empty()) return mean;
        return std::clamp(mean, -largest_scaled_, largest_scaled_) * 0x1p14;
    }

private:
    std::vector<double> scaled_;
    const double* data_;
    double largest_scaled_ = 0.0;
};

// The portable loops (the native build): the Gaussian weights e_j of one
// query into row[j], and their sum into the lane partials (key j into lane
// j % 4). Compilers vectorise each loop; fused into one they do not.
template <bool in_normal_range>
[[maybe_unused]] void gaussian_row_portable(double query, const double* keys, std::size_t n, double factor,
                                            double min_d2, double* row, double (&sum)[vector_math::lanes]) noexcept {
    namespace vm = vector_math;
    for (std::size_t j = 0; j < n; ++j) {
        const double d = query - keys[j];
        row[j] = vm::table_exp2_for<in_normal_range>(factor * (d * d - min_d2));
    }
    vm::for_each_lane(n, [&](std::size_t j, std::size_t lane) { sum[lane] += row[j]; });
}

// The whole Gaussian row of one query into `row`; returns the lane partials' total.
template <bool in_normal_range>
double gaussian_row(double query, const double* keys, std::size_t n, double factor, double min_d2,
                    double* row) noexcept {
    namespace vm = vector_math;
    double sum[vm::lanes] = {};
#ifdef ATTENTION_WASM_SIMD
    for (std::size_t j = wasm_simd::gaussian_row<in_normal_range>(query, keys, n, factor, min_d2, row, sum); j < n;
         ++j) {
        const double d = query - keys[j];
        row[j] = vm::table_exp2_for<in_normal_range>(factor * (d * d - min_d2));
        sum[j % vm::lanes] += row[j];
    }
#else
    gaussian_row_portable<in_normal_range>(query, keys, n, factor, min_d2, row, sum);
#endif
    return vm::total(sum);
}

double gaussian_row(double query, const double* keys, std::size_t n, double factor, RowShift shift,
                    double* row) noexcept {
    return vector_math::table_exp2::row_in_normal_range(factor, shift.max_d2, shift.min_d2)
               ? gaussian_row<true>(query, keys, n, factor, shift.min_d2, row)
               : gaussian_row<false>(query, keys, n, factor, shift.min_d2, row);
}

// Nadaraya-Watson with the Gaussian, one query: sum_j e_j values[j] / sum_j e_j.
// `row` is scratch space for the portable loops.
template <bool in_normal_range>
double gaussian_prediction(double query, const double* keys, const double* values, std::size_t n, double factor,
                           double min_d2, double* row) noexcept {
    namespace vm = vector_math;
    double sum[vm::lanes] = {}, weighted[vm::lanes] = {};
#ifdef ATTENTION_WASM_SIMD
    (void)row;
    for (std::size_t j = wasm_simd::gaussian_sums<in_normal_range>(query, keys, values, n, factor, min_d2, sum,
                                                                   weighted);
         j < n; ++j) {
        const double d = query - keys[j];
        const double e = vm::table_exp2_for<in_normal_range>(factor * (d * d - min_d2));
        sum[j % vm::lanes] += e;
        weighted[j % vm::lanes] += e * values[j];
    }
#else
    gaussian_row_portable<in_normal_range>(query, keys, n, factor, min_d2, row, sum);
    vm::for_each_lane(n, [&](std::size_t j, std::size_t lane) { weighted[lane] += row[j] * values[j]; });
#endif
    const double total = vm::total(sum);
    return total > 0.0 ? vm::total(weighted) / total : undefined;
}

double gaussian_prediction(double query, const double* keys, const double* values, std::size_t n, double factor,
                           RowShift shift, double* row) noexcept {
    return vector_math::table_exp2::row_in_normal_range(factor, shift.max_d2, shift.min_d2)
               ? gaussian_prediction<true>(query, keys, values, n, factor, shift.min_d2, row)
               : gaussian_prediction<false>(query, keys, values, n, factor, shift.min_d2, row);
}

// The other kernels: unnormalised weights of one query into `row`, and their sum.
double kernel_row(double query, const double* keys, std::size_t n_keys, const KernelSpec& spec,
                  double* row) noexcept {
    for (std::size_t j = 0; j < n_keys; ++j) row[j] = kernel_value(spec.kernel, (query - keys[j]) * spec.w);
    return vector_math::sum(row, n_keys);
}

}  // namespace

xt::xtensor<double, 1> average_pool(const xt::xtensor<double, 1>& values, std::size_t n_queries) {
    check_points("values", values);
    require_count("nQueries", n_queries, 1, limits::max_points);
    const ScaledValues scaled(values);  // the sum of huge values may overflow where their mean does not
    double sum = 0.0;
    for (std::size_t j = 0; j < values.size(); ++j) sum += scaled.data()[j];
    xt::xtensor<double, 1> result = xt::xtensor<double, 1>::from_shape({n_queries});
    result.fill(scaled.unscale(sum / static_cast<double>(values.size())));
    return result;
}

xt::xtensor<double, 2> attention_weights(const xt::xtensor<double, 1>& queries,
                                         const xt::xtensor<double, 1>& keys, const KernelSpec& spec) {
    check_points("queries", queries);
    check_points("keys", keys);
    check_spec(spec);
    if (queries.size() * keys.size() > limits::max_matrix_elements)
        fail("queries", text("queries.length * keys.length <= ", limits::max_matrix_elements),
             queries.size() * keys.size());
    const std::size_t nk = keys.size();
    xt::xtensor<double, 2> weights = xt::xtensor<double, 2>::from_shape({queries.size(), nk});
    const bool gaussian = spec.kernel == Kernel::gaussian;
    std::vector<double> sorted_keys(keys.begin(), keys.begin() + (gaussian ? nk : 0));
    std::sort(sorted_keys.begin(), sorted_keys.end());
    const double factor = vector_math::gaussian_exp2_factor(gaussian_rate(spec.w));
    const bool fast_keys = !gaussian || largest_magnitude(keys) <= gaussian_fast_magnitude;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        double* row = &weights(i, 0);
        const double sum =
            !gaussian ? kernel_row(queries(i), keys.data(), nk, spec, row)
            : fast_keys && std::abs(queries(i)) <= gaussian_fast_magnitude
                ? gaussian_row(queries(i), keys.data(), nk, factor, row_shift(queries(i), sorted_keys), row)
                : gaussian_row_robust(queries(i), keys.data(), nk, spec.w, row);
        const double inverse = sum > 0.0 ? 1.0 / sum : undefined;
        for (std::size_t j = 0; j < nk; ++j) row[j] *= inverse;
    }
    return weights;
}

xt::xtensor<double, 1> nadaraya_watson(const xt::xtensor<double, 1>& queries,
                                       const xt::xtensor<double, 1>& keys,
                                       const xt::xtensor<double, 1>& values, const KernelSpec& spec) {
    check_points("queries", queries);
    check_points("keys", keys);
    check_points("values", values);
    check_spec(spec);
    if (values.size() != keys.size())
        fail("values", text(keys.size(), " values (one per key)"), values.size());
    const std::size_t nk = keys.size();
    std::vector<double> row(nk);
    xt::xtensor<double, 1> prediction = xt::xtensor<double, 1>::from_shape({queries.size()});
    const ScaledValues scaled(values);
    // A row of weights (not normalised) and its sum, into a weighted mean of the values.
    const auto weighted_mean = [&](double sum) {
        return sum > 0.0 ? scaled.unscale(vector_math::dot(row.data(), scaled.data(), nk) / sum) : undefined;
    };
    if (spec.kernel == Kernel::gaussian) {
        std::vector<double> sorted_keys(keys.begin(), keys.end());
        std::sort(sorted_keys.begin(), sorted_keys.end());
        const double factor = vector_math::gaussian_exp2_factor(gaussian_rate(spec.w));
        const bool fast_keys = largest_magnitude(keys) <= gaussian_fast_magnitude;
        for (std::size_t i = 0; i < queries.size(); ++i)
            prediction(i) = fast_keys && std::abs(queries(i)) <= gaussian_fast_magnitude
                ? scaled.unscale(gaussian_prediction(queries(i), keys.data(), scaled.data(), nk, factor,
                                                     row_shift(queries(i), sorted_keys), row.data()))
                : weighted_mean(gaussian_row_robust(queries(i), keys.data(), nk, spec.w, row.data()));
        return prediction;
    }
    for (std::size_t i = 0; i < queries.size(); ++i)
        prediction(i) = weighted_mean(kernel_row(queries(i), keys.data(), nk, spec, row.data()));
    return prediction;
}

}  // namespace attention
