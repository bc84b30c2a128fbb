// Bindings of what the cues section computes: average pooling, masked
// softmax, the batch matrix product and uniform draws. The page draws that
// section first, so these are linked into a part of the core of their own
// (wasm/CMakeLists.txt: cues), less than half the basics' size, which its first
// screen waits for; and into the basics too, for every other caller.
#include <emscripten/bind.h>

#include "contract/attention_checks.hpp"
#include "numerics/batch_matrix_product.hpp"
#include "numerics/random_tensor.hpp"
#include "regression/pooling.hpp"
#include "scoring/masked_softmax.hpp"
#include "transfer.hpp"

using namespace attention::transfer;

namespace {

val average_pool(val values, double n_queries) {
    return guarded([&] {
        return to_js(attention::average_pool(vector(values, "values"), count(n_queries, "nQueries")));
    });
}

val random_uniform(double count_, double seed, double low, double high) {
    return guarded([&] {
        return to_js(attention::random_uniform(count(count_, "count"), {seed_of(seed), low, high}));
    });
}

val masked_softmax(val scores, double batch, double nq, double nk, val lens) {
    return guarded([&] {
        const auto a = scores_arguments(scores, batch, nq, nk, lens);
        return to_js(attention::masked_softmax(a.scores, a.lens));
    });
}

// torch.bmm: X (n, a, b) times Y (n, b, c). The shapes arrive as arrays of
// three whole numbers (checked in JS for type); the core checks them, and
// that they match, before either array is copied.
constexpr attention::BatchShapeNames batch_shape_names{"shapeX[0] (n)", "shapeX[1] (a)", "shapeX[2] (b)",
                                                       "shapeY[0] (n)", "shapeY[1] (b)", "shapeY[2] (c)"};

val batch_matrix_product(val x, val y, val shape_x, val shape_y) {
    return guarded([&] {
        const auto& names = batch_shape_names;
        const attention::BatchShape sx{count(shape_x[0].as<double>(), names.x_n),
                                       count(shape_x[1].as<double>(), names.x_rows),
                                       count(shape_x[2].as<double>(), names.x_columns)};
        const attention::BatchShape sy{count(shape_y[0].as<double>(), names.y_n),
                                       count(shape_y[1].as<double>(), names.y_rows),
                                       count(shape_y[2].as<double>(), names.y_columns)};
        attention::check_batch_matrix_product(sx, sy, names);
        const auto incoming_x = incoming<3>(x, {sx.n, sx.rows, sx.columns}, "X");
        const auto incoming_y = incoming<3>(y, {sy.n, sy.rows, sy.columns}, "Y");
        const auto product = attention::batch_matrix_product(incoming_x.copy(), incoming_y.copy());
        val shape = val::array();
        for (std::size_t extent : product.shape()) shape.call<void>("push", static_cast<double>(extent));
        val result = val::object();
        result.set("values", to_js(product));
        result.set("shape", shape);
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_cues) {
    emscripten::function("averagePool", &average_pool);
    emscripten::function("randomUniform", &random_uniform);
    emscripten::function("maskedSoftmax", &masked_softmax);
    emscripten::function("batchMatrixProduct", &batch_matrix_product);
}
