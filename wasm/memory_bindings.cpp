// Binding of a module's memory figures, for leak checks. Each part of the
// core (the basics, the models) is a module of its own with its own heap,
// so each carries this binding; the JS API adds the parts' figures up.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

using emscripten::val;

namespace {

// Bytes malloc holds for live allocations, and the size of the wasm heap.
// The API hands no Embind class instances to JS, so nothing else can be left
// alive; after every call allocatedBytes returns to its level.
val memory_stats() {
    const struct mallinfo info = mallinfo();
    val stats = val::object();
    stats.set("allocatedBytes", static_cast<double>(info.uordblks));
    stats.set("heapBytes", val::module_property("HEAP8")["length"]);
    return stats;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_memory) {
    emscripten::function("memoryStats", &memory_stats);
}
