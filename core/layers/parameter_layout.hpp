#pragma once
// One flat vector holds every parameter of a model (and its gradients, in the
// same layout). A model describes its parameters once, in order, through a
// LayoutBuilder: add(name, shape, init) under a prefix ("b0.", or later
// "encoder." / "decoder.blks.block0."), which hands back a handle (the
// parameter's place in the flat vector). The same description gives the
// names and shapes the JS API and PyTorch exchange, the initialisation, and
// the handles the forward and backward passes read through, so nothing
// refers to a parameter by its position or by the tail of its name.
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attention {

class Random;

// How a parameter starts, drawn in layout order, each row-major.
struct Init {
    enum class Kind { normal, constant, uniform };
    Kind kind = Kind::constant;
    double value = 0.0;  // constant's value; uniform's bound b of U(-b, b)

    static Init normal() { return {Kind::normal, 0.0}; }          // N(0, 1): nn.Embedding
    static Init constant(double value) { return {Kind::constant, value}; }
    // nn.Linear's weight and bias: U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in the weight's columns.
    static Init linear(std::size_t fan_in);
    // Xavier-uniform (d2l's xavier_init_weights): U(-b, b) with b = sqrt(6 / (fan_in + fan_out)),
    // fan_in a weight's columns and fan_out its rows, as torch.nn.init.xavier_uniform_ counts them.
    static Init xavier(std::size_t fan_in, std::size_t fan_out);
};

// One named parameter inside the flat vector of all of them.
struct ParameterSlot {
    std::string name;                // e.g. "embedding", "b0.Wq", "b1.ln2.gamma", "readoutBias"
    std::vector<std::size_t> shape;  // PyTorch's: (vocab, hidden), (hidden, hidden), (ffnHidden,) ...
    std::size_t offset = 0;          // into the flat vector
    std::size_t size = 0;
    Init init;
};

// A parameter's place in the flat vector of values (or of gradients).
struct ParameterHandle {
    std::size_t offset = 0, size = 0;
    const double* in(const double* flat) const { return flat + offset; }
    double* in(double* flat) const { return flat + offset; }
};

class LayoutBuilder {
public:
    // Records every slot into `slots` when given; without, only counts (the
    // handles of a model whose layout is already known, with no string built).
    explicit LayoutBuilder(std::vector<ParameterSlot>* slots = nullptr) : state_(&own_), prefix_() {
        own_.slots = slots;
    }
    LayoutBuilder(const LayoutBuilder&) = delete;  // under() returns a prvalue: no copy is needed
    LayoutBuilder& operator=(const LayoutBuilder&) = delete;

    ParameterHandle add(std::string_view name, std::initializer_list<std::size_t> shape, Init init);
    // The parameters added through the result are named prefix + name; they take
    // their places in this builder's vector.
    LayoutBuilder under(std::string_view prefix) const;
    // The same with prefix stem + index + tail ("b", 0, "." is "b0."), built only when names are recorded.
    LayoutBuilder under(std::string_view stem, std::size_t index, std::string_view tail) const;

    std::size_t parameters() const { return state_->offset; }  // numbers laid out so far
    std::size_t slots() const { return state_->count; }        // named parameters so far

private:
    struct State {
        std::vector<ParameterSlot>* slots = nullptr;
        std::size_t offset = 0, count = 0;
    };
    LayoutBuilder(State* state, std::string prefix) : state_(state), prefix_(std::move(prefix)) {}
    State own_;
    State* state_;
    std::string prefix_;
};

// Every parameter drawn from `random` as its slot's init says, in layout order.
void initialise_parameters(const std::vector<ParameterSlot>& layout, Random& random, double* values);

// Parameters handed in by name (the page's, or PyTorch's).
struct NamedValues {
    std::string name;
    std::vector<double> values;
};

// The checks of parameters handed in, for a caller that copies the values
// in itself (the wasm bindings copy each JS array straight into the model,
// once every length is known to be right). The slot of each given
// parameter: every name of the layout exactly once, each of its size,
// checked before any value is copied (the count first, before any name is
// read)...
void check_parameter_count(const std::vector<ParameterSlot>& layout, std::size_t given);
struct NamedSize {
    std::string_view name;
    std::size_t size = 0;
};
std::vector<std::size_t> match_parameters(const std::vector<ParameterSlot>& layout,
                                          const std::vector<NamedSize>& given);
// ...and, once they are in, every value finite; errors name "params.<name>".
void check_finite_parameters(const std::vector<ParameterSlot>& layout, const double* values);

// All three: the given parameters matched to the layout, copied into
// `values` (the layout's flat vector) and checked finite.
void copy_named_parameters(const std::vector<ParameterSlot>& layout, const std::vector<NamedValues>& params,
                           double* values);

}  // namespace attention
