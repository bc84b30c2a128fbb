#include "numerics/batch_matrix_product.hpp"

#include <cmath>
#include <cstdint>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/matrix_products.hpp"

namespace attention {

namespace {

std::string shape_text(const BatchShape& s) { return text("(", s.n, ", ", s.rows, ", ", s.columns, ")"); }

void check_elements(std::string_view argument, std::uint64_t elements, std::string_view what) {
    if (elements > limits::max_matrix_elements)
        fail(argument, text(what, " <= ", limits::max_matrix_elements), elements);
}

}  // namespace

void check_batch_matrix_product(const BatchShape& x, const BatchShape& y, const BatchShapeNames& names) {
    // Each extent first: bounded by max_points, the products below stay far from wrapping in 64 bits.
    require_count(names.x_n, x.n, 1, limits::max_points);
    require_count(names.x_rows, x.rows, 1, limits::max_points);
    require_count(names.x_columns, x.columns, 1, limits::max_points);
    require_count(names.y_n, y.n, 1, limits::max_points);
    require_count(names.y_rows, y.rows, 1, limits::max_points);
    require_count(names.y_columns, y.columns, 1, limits::max_points);
    if (y.n != x.n || y.rows != x.columns)
        fail("Y", text("shape (", x.n, ", ", x.columns, ", c) to match X ", shape_text(x)), shape_text(y));
    const std::uint64_t n = x.n, a = x.rows, b = x.columns, c = y.columns;
    check_elements(names.x_columns, n * a * b, "X's n * a * b");
    check_elements(names.y_columns, n * b * c, "Y's n * b * c");
    check_elements(names.y_columns, n * a * c, "the result's n * a * c");
    if (n * a * b * c > limits::max_work)
        fail(names.y_columns, text("n * a * b * c <= ", limits::max_work, " multiply-adds"), n * a * b * c);
}

xt::xtensor<double, 3> batch_matrix_product(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 3>& y) {
    const BatchShape xs{x.shape(0), x.shape(1), x.shape(2)}, ys{y.shape(0), y.shape(1), y.shape(2)};
    check_batch_matrix_product(xs, ys);
    require_all_finite("X", x);
    require_all_finite("Y", y);
    const xt::xtensor<double, 3> result = batch_matrix_product_unchecked(x, y);
    const std::size_t a = xs.rows, c = ys.columns;
    // Finite operands, yet a sum of products overflows: refused, as the attention layers refuse theirs.
    const double* entries = result.data();
    for (std::size_t e = 0; e < result.size(); ++e)
        if (!std::isfinite(entries[e]))
            fail("X", "numbers small enough that the products X[i] Y[i] stay finite",
                 text("an entry of ", entries[e], " (batch item ", e / (a * c), ", row ", e / c % a, ", column ",
                      e % c, ")"));
    return result;
}

xt::xtensor<double, 3> batch_matrix_product_unchecked(const xt::xtensor<double, 3>& x, const xt::xtensor<double, 3>& y) {
    const std::size_t n = x.shape(0), a = x.shape(1), b = x.shape(2), c = y.shape(2);
    xt::xtensor<double, 3> result = xt::zeros<double>({n, a, c});
    for (std::size_t item = 0; item < n; ++item)
        matrix::multiply_add({x.data() + item * a * b, b, 1}, y.data() + item * b * c, c, result.data() + item * a * c,
                             c, a, c, b);
    return result;
}

}  // namespace attention
