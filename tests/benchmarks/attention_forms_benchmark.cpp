// The page's checked attention functions against the layers' forward passes
// they are built on (docs/architecture.md, "The page's forward-only
// attention"): multi-head attention (batch 2, hidden 16, 4 heads, self-
// attention) and additive attention (batch 2, 16 features, h 8) at 4, 10
// and 32 positions, valid lengths per item. Medians of the wall clock, in
// microseconds a call, after warm-up calls. The layers' passes reuse their
// caches, as the models do; the page's calls allocate theirs.
//
// Usage: attention_forms_benchmark [--warmup 20] [--repetitions 201]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <xtensor/xview.hpp>

#include "layers/additive_attention.hpp"
#include "layers/multi_head_attention.hpp"
#include "scoring/checked_additive_attention.hpp"
#include "scoring/checked_multi_head_attention.hpp"

namespace {

volatile double sink = 0.0;

// The median of `repetitions` timed calls, each a batch of `calls` calls long enough for the clock, in us a call.
template <class Body>
double median_us(int warmup, int repetitions, Body&& body) {
    for (int k = 0; k < warmup; ++k) sink = sink + body();
    long calls = 1;
    for (;; calls *= 2) {  // about 0.2 ms a sample
        const auto start = std::chrono::steady_clock::now();
        for (long c = 0; c < calls; ++c) sink = sink + body();
        if (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() > 200) break;
    }
    std::vector<double> samples;
    for (int k = 0; k < repetitions; ++k) {
        const auto start = std::chrono::steady_clock::now();
        for (long c = 0; c < calls; ++c) sink = sink + body();
        samples.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                          static_cast<double>(calls));
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

// Deterministic numbers in [-1, 1).
xt::xtensor<double, 3> filled3(std::size_t a, std::size_t b, std::size_t c, unsigned seed) {
    xt::xtensor<double, 3> t = xt::xtensor<double, 3>::from_shape({a, b, c});
    unsigned state = seed;
    for (double& v : t) v = static_cast<double>((state = state * 1103515245u + 12345u) >> 8 & 0xffff) / 32768.0 - 1.0;
    return t;
}
xt::xtensor<double, 2> filled2(std::size_t a, std::size_t b, unsigned seed) {
    const auto t = filled3(1, a, b, seed);
    return xt::xtensor<double, 2>(xt::view(t, 0));
}

}  // namespace

int main(int argc, char** argv) {
#ifdef __GLIBC__
    // glibc gives the heap's top back to the system once more than 128 KB is free there, and
    // every call then pays page faults for its fresh buffers (about 0.4 ms at 32 positions);
    // the page's wasm heap never shrinks, so keep this one too.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    int warmup = 20, repetitions = 201;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--warmup") warmup = std::atoi(argv[i + 1]);
        else if (flag == "--repetitions") repetitions = std::atoi(argv[i + 1]);
    }
    std::printf("medians of %d samples after %d warm-up calls, us a call\n", repetitions, warmup);
    std::printf("positions   multi-head: page    layer      additive: page    layer\n");
    for (std::size_t n : {4, 10, 32}) {
        const std::size_t batch = 2, hidden = 16, heads = 4, features = 16, h = 8;
        const auto x = filled3(batch, n, hidden, 1);
        const auto wq = filled2(hidden, hidden, 2), wk = filled2(hidden, hidden, 3), wv = filled2(hidden, hidden, 4),
                   wo = filled2(hidden, hidden, 5);
        xt::xtensor<int, 1> lens = {static_cast<int>(n), static_cast<int>(n / 2 + 1)};
        const double page_mha = median_us(warmup, repetitions, [&] {
            return attention::multi_head_attention(x, x, x, wq, wk, wv, wo, heads, lens).output(0, 0, 0);
        });
        const attention::layers::AttentionShape shape{batch, n, n, hidden, heads};
        std::vector<std::size_t> visible;
        attention::layers::visible_keys(shape, lens.data(), false, visible);
        attention::layers::AttentionCache cache;
        std::vector<double> out(batch * n * hidden), transposed;
        const double layer_mha = median_us(warmup, repetitions, [&] {
            attention::layers::multi_head_attention_forward(shape, x.data(), x.data(), x.data(), visible.data(),
                                                            {wq.data(), wk.data(), wv.data(), wo.data()}, cache,
                                                            out.data(), transposed);
            return out[0];
        });

        const auto q = filled3(batch, n, features, 6), k = filled3(batch, n, features, 7),
                   v = filled3(batch, n, features, 8);
        const auto aq = filled2(h, features, 9), ak = filled2(h, features, 10);
        const xt::xtensor<double, 1> av = xt::view(filled2(1, h, 11), 0);
        const double page_additive = median_us(warmup, repetitions, [&] {
            return attention::additive_attention(q, k, v, aq, ak, av, lens).output(0, 0, 0);
        });
        const attention::layers::AdditiveShape additive{batch, n, n, features, features, features, h};
        attention::layers::AdditiveCache additive_cache;
        std::vector<double> projected(batch * n * h), additive_out(batch * n * features);
        const double layer_additive = median_us(warmup, repetitions, [&] {
            attention::layers::additive_keys_forward(additive, k.data(), ak.data(), projected.data(), transposed);
            attention::layers::additive_attention_forward(additive, q.data(), projected.data(), v.data(), lens.data(),
                                                          aq.data(), av.data(), additive_cache, additive_out.data(),
                                                          transposed);
            return additive_out[0];
        });
        std::printf("%9zu %16.2f %8.2f %18.2f %8.2f\n", n, page_mha, layer_mha, page_additive, layer_additive);
    }
    return 0;
}
