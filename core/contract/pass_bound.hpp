#pragma once
// The bound on one forward and backward pass of a trainable model (the
// encoder's, a translator's): the doubles it keeps within
// limits::max_model_activations and its multiply-adds within
// limits::max_model_work. Every call that runs a pass checks it before
// anything is allocated, and its refusal names the argument of the caller's
// that sets how many items the pass holds (a batch's `batch`, an alignment's
// `count`, a training call's `heldOut`, a translation's `source`), with how
// many this model takes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "contract/errors.hpp"
#include "contract/limits.hpp"

namespace attention {

// `activations(n)` and `work(n)`: what a pass over n items keeps and does
// (both growing with n; work counted as forward and backward). `items`:
// the items of the pass; `argument`: the caller's argument that sets them,
// `given` its value; `noun`: what the items are ("sequences", "pairs").
template <class Activations, class Work>
void check_pass_bound(std::size_t items, std::string_view argument, std::size_t given, std::string_view noun,
                      Activations activations, Work work) {
    const auto fits = [&](std::uint64_t n) {
        return activations(n) <= limits::max_model_activations && work(n) <= limits::max_model_work;
    };
    if (fits(items)) return;
    const std::string why = activations(items) > limits::max_model_activations
                                ? text("keeps more than ", limits::max_model_activations, " numbers")
                                : text("takes more than ", limits::max_model_work, " multiply-adds");
    // The most items a pass takes: fits(most), !fits(over).
    std::uint64_t most = 0, over = items;
    while (over - most > 1) {
        const std::uint64_t middle = most + (over - most) / 2;
        (fits(middle) ? most : over) = middle;
    }
    if (most == 0)
        fail(argument, text("a smaller model (its forward and backward pass over a single one of its ", noun, " ", why,
                            ")"),
             given);
    fail(argument, text("at most ", most, " ", noun, " (this model's forward and backward pass over more ", why, ")"),
         given);
}

}  // namespace attention
