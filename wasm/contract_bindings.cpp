// Binding of the core's contract, read once by the JS API: the documented
// limits (the table of limits.hpp, all of it: the table is constants) and
// the defaults of the basics' options (the option structs), so the JS side
// holds no number of its own. The trainable models' defaults are bound with
// them, in their own module (model_contract_bindings.cpp).
#include <emscripten/bind.h>

#include <string>

#include "regression/consistency_study.hpp"
#include "regression/dataset.hpp"
#include "regression/kernel_width_training.hpp"
#include "regression/kernels.hpp"
#include "scoring/masking.hpp"
#include "numerics/random_tensor.hpp"
#include "scoring/scaling_study.hpp"
#include "transfer.hpp"

using namespace attention::transfer;
namespace lim = attention::limits;

namespace {

val contract() {
    // Every entry of the table, under its name (a literal, so NUL-terminated).
    val limits = val::object();
    for (const lim::Limit& limit : lim::table) put(limits, limit.name.data(), limit.value);

    const attention::DatasetOptions data;
    val dataset = val::object();
    put(dataset, "n", data.n);
    put(dataset, "seed", data.seed);
    put(dataset, "noise", data.noise);
    put(dataset, "xMax", data.x_max);

    const attention::KernelSpec spec;
    val kernel = val::object();
    put(kernel, "kernel", val(std::string(attention::kernel_name(spec.kernel))));
    put(kernel, "w", spec.w);

    const attention::TrainingOptions train;
    val training = val::object();
    put(training, "w0", train.w0);
    put(training, "lr", train.lr);
    put(training, "epochs", train.epochs);
    put(training, "leaveOneOut", val(train.leave_one_out));

    const attention::ScalingStudyOptions study;
    val dims = val::array();
    for (std::size_t d : study.dims) dims.call<void>("push", static_cast<double>(d));
    val scaling = val::object();
    put(scaling, "dims", dims);
    put(scaling, "samples", study.samples);
    put(scaling, "keys", study.keys);
    put(scaling, "seed", study.seed);

    const attention::ConsistencyStudyOptions consistency_options;
    val sizes = val::array();
    for (std::size_t n : consistency_options.sizes) sizes.call<void>("push", static_cast<double>(n));
    val consistency = val::object();
    put(consistency, "sizes", sizes);
    put(consistency, "repeats", consistency_options.repeats);
    put(consistency, "queries", consistency_options.queries);
    put(consistency, "w", consistency_options.w);
    put(consistency, "noise", consistency_options.noise);
    put(consistency, "xMax", consistency_options.x_max);
    put(consistency, "seed", consistency_options.seed);

    const attention::NormalOptions normal_options;
    val normal = val::object();
    put(normal, "seed", normal_options.seed);
    put(normal, "std", normal_options.std);

    const attention::UniformOptions uniform_options;
    val uniform = val::object();
    put(uniform, "seed", uniform_options.seed);
    put(uniform, "low", uniform_options.low);
    put(uniform, "high", uniform_options.high);

    val defaults = val::object();
    put(defaults, "dataset", dataset);
    put(defaults, "kernel", kernel);
    put(defaults, "training", training);
    put(defaults, "scalingStudy", scaling);
    put(defaults, "consistencyStudy", consistency);
    put(defaults, "randomNormal", normal);
    put(defaults, "randomUniform", uniform);
    put(defaults, "maskedScore", attention::masked_score);

    val result = val::object();
    put(result, "limits", limits);
    put(result, "defaults", defaults);
    return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_contract) {
    emscripten::function("contract", &contract);
}
