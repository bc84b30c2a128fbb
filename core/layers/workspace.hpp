#pragma once
// The buffers of a model's forward and backward passes, kept from call to
// call: a training step allocates nothing, and the buffers stay warm in the
// cache. (Allocating them afresh each step cost more than the arithmetic:
// page faults and zeroing of freshly mapped memory.) Each model kind owns one
// set, one for the process: the core runs on one thread (a thread_local one
// would register its destructor with an allocation on first use, which the
// wasm leak checks would see). A set that grew past large_workspace doubles
// is released when the outermost lease of it ends (a call that runs a
// forward pass and then the backward pass reading its buffers holds one
// across both: hold() and let_go()); release() frees it at once (the wasm
// bindings do at the end of every call, so memory returns to its level
// between calls).
#include <cstddef>
#include <vector>

namespace attention::layers {

inline constexpr std::size_t large_workspace = std::size_t{1} << 22;

// The doubles a set of buffers holds.
inline std::size_t capacity_of(const std::vector<double>& buffer) { return buffer.capacity(); }
template <class... Buffers>
std::size_t capacity_of(const Buffers&... buffers) {
    return (capacity_of(buffers) + ...);
}

// Buffers: default-constructible, with `std::size_t doubles() const`.
template <class Buffers>
class WorkspaceLease {
public:
    WorkspaceLease() : buffers_(storage()) { hold(); }
    ~WorkspaceLease() { let_go(); }
    WorkspaceLease(const WorkspaceLease&) = delete;
    WorkspaceLease& operator=(const WorkspaceLease&) = delete;
    Buffers& operator*() { return buffers_; }
    static void release() { storage() = Buffers{}; }
    // A lease without the object, for a caller that cannot name Buffers.
    static void hold() { ++leases(); }
    static void let_go() {
        if (--leases() == 0 && storage().doubles() > large_workspace) release();
    }

private:
    static std::size_t& leases() {
        static std::size_t count = 0;
        return count;
    }
    static Buffers& storage() {
        static Buffers buffers;
        return buffers;
    }
    Buffers& buffers_;
};

}  // namespace attention::layers
