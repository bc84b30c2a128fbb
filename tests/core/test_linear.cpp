// The bias-free nn.Linear layer: X W^T with W stored (out x in).
#include "layers/linear.hpp"
#include "reference.hpp"

TEST_CASE("linear_forward on tensors applies X W^T with W in nn.Linear layout", "[linear]") {
    const xt::xtensor<double, 3> x = {{{1.0, 2.0}, {3.0, 4.0}}, {{-1.0, 0.5}, {0.0, 0.0}}};
    const xt::xtensor<double, 2> w = {{1.0, 0.0}, {0.0, 1.0}, {2.0, -1.0}};  // out 3, in 2
    const auto y = attention::layers::linear_forward(x, w);
    const xt::xtensor<double, 3> expected = {{{1.0, 2.0, 0.0}, {3.0, 4.0, 2.0}},
                                             {{-1.0, 0.5, -2.5}, {0.0, 0.0, 0.0}}};
    CHECK_SAME_BITS(y, expected);
}
