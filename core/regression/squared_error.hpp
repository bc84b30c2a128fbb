#pragma once
// The sum of squared errors of predictions against targets, sum_i (p_i - t_i)^2
// in order: how close a fitted curve comes to the points (the pooling
// section's "make the fit chase the noise" compares the fit's with the
// noiseless truth's). d2l's loss of the kernel regression is the same sum.
#include <xtensor/xtensor.hpp>

namespace attention {

// Both of one length in [1, limits::max_points] (else an error on
// "targets"); targets finite; a NaN prediction (a query with no key in reach
// has no prediction) makes the sum NaN, any other non-finite one is refused.
double sum_squared_error(const xt::xtensor<double, 1>& predictions, const xt::xtensor<double, 1>& targets);

}  // namespace attention
