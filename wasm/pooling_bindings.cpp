// Bindings of pooling and its data: the data set, kernels, Nadaraya-Watson,
// the kernel width's training and loss, the studies and the normal draws.
// (Average pooling and uniform draws: cues_bindings.cpp.)
#include <emscripten/bind.h>

#include <string>

#include "regression/consistency_study.hpp"
#include "regression/dataset.hpp"
#include "regression/kernel_width_training.hpp"
#include "regression/kernels.hpp"
#include "regression/pooling.hpp"
#include "numerics/random_tensor.hpp"
#include "scoring/scaling_study.hpp"
#include "regression/squared_error.hpp"
#include "transfer.hpp"

using namespace attention::transfer;

namespace {
val make_dataset(double n, double seed, double noise, double x_max) {
    return guarded([&] {
        attention::DatasetOptions options;
        options.n = count(n, "n");
        options.seed = seed_of(seed);
        options.noise = noise;
        options.x_max = x_max;
        const attention::Dataset data = attention::make_dataset(options);
        val object = val::object();
        object.set("x", to_js(data.x));
        object.set("y", to_js(data.y));
        return object;
    });
}

val truth(val x) { return guarded([&] { return to_js(attention::truth(vector(x, "x"))); }); }

val sum_squared_error(val predictions, val targets) {
    return guarded([&] {
        const auto p = incoming<1>(predictions, {limited_length(predictions, attention::limits::max_points, "predictions", "numbers")},
                                   "predictions");
        const auto t = incoming<1>(targets, {limited_length(targets, attention::limits::max_points, "targets", "numbers")}, "targets");
        return val(attention::sum_squared_error(p.copy(), t.copy()));
    });
}

attention::KernelSpec kernel_spec(const std::string& kernel, double w) {
    return {attention::parse_kernel(kernel), w};
}

// `out`: null, or a Float64Array of nq * nk numbers to write the weights into
// (a page redrawing a heatmap reuses one array instead of allocating n^2
// doubles each time; see tests/benchmarks/README.md).
val attention_weights(val queries, val keys, std::string kernel, double w, val out) {
    return guarded([&] {
        const auto q = vector(queries, "queries");
        const auto k = vector(keys, "keys");
        if (out.isNull()) return to_js(attention::attention_weights(q, k, kernel_spec(kernel, w)));
        const std::size_t length = js_length(out);
        if (length != q.size() * k.size())
            attention::fail("out", attention::text(q.size() * k.size(), " numbers (queries x keys)"), length);
        return copy_into(attention::attention_weights(q, k, kernel_spec(kernel, w)), out);
    });
}

val nadaraya_watson(val queries, val keys, val values, std::string kernel, double w) {
    return guarded([&] {
        return to_js(attention::nadaraya_watson(vector(queries, "queries"), vector(keys, "keys"),
                                                vector(values, "values"), kernel_spec(kernel, w)));
    });
}

val train_kernel_width(val x, val y, double w0, double lr, double epochs, bool leave_one_out) {
    return guarded([&] {
        attention::TrainingOptions options;
        options.w0 = w0;
        options.lr = lr;
        options.epochs = count(epochs, "epochs");
        options.leave_one_out = leave_one_out;
        const auto result = attention::train_kernel_width(vector(x, "x"), vector(y, "y"), options);
        val object = val::object();
        object.set("w", to_js(result.w));
        object.set("loss", to_js(result.loss));
        object.set("stopReason", result.stop_reason.empty() ? val::null() : val(result.stop_reason));
        return object;
    });
}

val loss_landscape(val x, val y, val ws, bool leave_one_out) {
    return guarded([&] {
        return to_js(attention::loss_landscape(vector(x, "x"), vector(y, "y"), vector(ws, "ws"), leave_one_out));
    });
}

val kernel_width_loss(val x, val y, double w, bool leave_one_out) {
    return guarded([&] {
        const auto result = attention::kernel_width_loss(vector(x, "x"), vector(y, "y"), w, leave_one_out);
        val object = val::object();
        object.set("loss", result.loss);
        object.set("gradient", result.gradient);
        return object;
    });
}

val random_normal(double count_, double seed, double std) {
    return guarded([&] { return to_js(attention::random_normal(count(count_, "count"), {seed_of(seed), std})); });
}

// {sizes, repeats, queries, w, noise, xMax, seed}, checked in JS for type.
val consistency_study(val options) {
    return guarded([&] {
        const auto sizes = vector(options["sizes"], "sizes");
        attention::ConsistencyStudyOptions o;
        o.sizes.clear();
        for (double n : sizes) o.sizes.push_back(count(n, "sizes"));
        o.repeats = count(options["repeats"].as<double>(), "repeats");
        o.queries = count(options["queries"].as<double>(), "queries");
        o.w = options["w"].as<double>();
        o.noise = options["noise"].as<double>();
        o.x_max = options["xMax"].as<double>();
        o.seed = seed_of(options["seed"].as<double>());
        const auto rows = attention::consistency_study(o);
        val result = val::array();
        for (const auto& row : rows) {
            val item = val::object();
            item.set("n", static_cast<double>(row.n));
            item.set("fixedError", row.fixed_error);
            item.set("growingW", row.growing_w);
            item.set("growingError", row.growing_error);
            result.call<void>("push", item);
        }
        return result;
    });
}

val scaling_study(val dims, double samples, double keys, double seed) {
    return guarded([&] {
        const auto dims_tensor = vector(dims, "dims");
        attention::ScalingStudyOptions options;
        options.dims.clear();
        for (double d : dims_tensor) options.dims.push_back(count(d, "dims"));
        options.samples = count(samples, "samples");
        options.keys = count(keys, "keys");
        options.seed = seed_of(seed);
        const auto rows = attention::scaling_study(options);
        val result = val::array();
        for (const auto& row : rows) {
            val item = val::object();
            item.set("d", static_cast<double>(row.d));
            item.set("variance", row.variance);
            item.set("scaledVariance", row.scaled_variance);
            item.set("maxWeight", row.max_weight);
            item.set("scaledMaxWeight", row.scaled_max_weight);
            result.call<void>("push", item);
        }
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_pooling) {
    emscripten::function("makeDataset", &make_dataset);
    emscripten::function("truth", &truth);
    emscripten::function("sumSquaredError", &sum_squared_error);
    emscripten::function("attentionWeights", &attention_weights);
    emscripten::function("nadarayaWatson", &nadaraya_watson);
    emscripten::function("trainKernelWidth", &train_kernel_width);
    emscripten::function("lossLandscape", &loss_landscape);
    emscripten::function("kernelWidthLoss", &kernel_width_loss);
    emscripten::function("randomNormal", &random_normal);
    emscripten::function("scalingStudy", &scaling_study);
    emscripten::function("consistencyStudy", &consistency_study);
}
