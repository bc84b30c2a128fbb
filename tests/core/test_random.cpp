// The seeded generator: same bits as the independent Python implementation,
// deterministic, and uniform / normal in distribution.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>

#include "numerics/random.hpp"
#include "reference.hpp"

using attention::Random;

TEST_CASE("Random matches the Python re-implementation bit for bit", "[random]") {
    for (const auto& c : ref::references()["random"]) {
        const auto seed = c["seed"].get<std::uint64_t>();
        INFO("seed " << seed);
        Random bits(seed), uniforms(seed), normals(seed);
        for (const auto& expected : c["bits"])
            CHECK(bits.next_bits() == std::stoull(expected.get<std::string>(), nullptr, 16));
        std::vector<double> u, n;
        for (std::size_t i = 0; i < c["uniform"].size(); ++i) u.push_back(uniforms.uniform());
        for (std::size_t i = 0; i < c["normal"].size(); ++i) n.push_back(normals.normal());
        CHECK_SAME_BITS(u, ref::numbers(c["uniform"]));
        CHECK_SAME_BITS(n, ref::numbers(c["normal"]));
    }
}

TEST_CASE("Random is deterministic per seed and differs between seeds", "[random]") {
    Random a(12345), b(12345), c(12346);
    std::vector<double> from_a, from_b, from_c;
    for (int i = 0; i < 1000; ++i) {
        from_a.push_back(i % 3 ? a.uniform() : a.normal());
        from_b.push_back(i % 3 ? b.uniform() : b.normal());
        from_c.push_back(i % 3 ? c.uniform() : c.normal());
    }
    CHECK_SAME_BITS(from_a, from_b);
    CHECK(from_a != from_c);
}

TEST_CASE("Random::uniform stays below 1 and fills the unit interval evenly", "[random]") {
    Random random(7);
    const int n = 200000;
    int buckets[10] = {};
    double sum = 0.0;
    std::set<double> distinct;
    int outside = 0, not_53_bits = 0;
    for (int i = 0; i < n; ++i) {
        const double u = random.uniform();
        if (!(u >= 0.0 && u < 1.0)) ++outside;
        // A uniform is a multiple of 2^-53: its top 53 bits.
        if (std::ldexp(u, 53) != std::floor(std::ldexp(u, 53))) ++not_53_bits;
        ++buckets[std::min(9, static_cast<int>(u * 10))];
        sum += u;
        distinct.insert(u);
    }
    CHECK(outside == 0);
    CHECK(not_53_bits == 0);
    CHECK(sum / n == Approx(0.5).margin(0.005));
    for (int count : buckets) CHECK(count == Approx(n / 10).margin(n / 100));
    CHECK(distinct.size() == static_cast<std::size_t>(n));
}

TEST_CASE("Random::normal has mean 0, variance 1 and Gaussian tails", "[random]") {
    Random random(2024);
    const int n = 200000;
    double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
    int beyond_2sigma = 0, not_finite = 0;
    for (int i = 0; i < n; ++i) {
        const double z = random.normal();
        if (!std::isfinite(z)) ++not_finite;
        sum += z;
        sum2 += z * z;
        sum4 += z * z * z * z;
        if (std::abs(z) > 2.0) ++beyond_2sigma;
    }
    CHECK(not_finite == 0);
    const double mean = sum / n, variance = sum2 / n - mean * mean;
    CHECK(mean == Approx(0.0).margin(0.01));
    CHECK(variance == Approx(1.0).margin(0.02));
    CHECK(sum4 / n == Approx(3.0).margin(0.1));             // kurtosis of a normal
    CHECK(beyond_2sigma / double(n) == Approx(0.0455).margin(0.003));
}

TEST_CASE("Random::normal returns the Box-Muller pair: cosine first, then the spare sine", "[random]") {
    // Two normals use exactly two uniforms; the third starts a new pair.
    Random normals(99), uniforms(99);
    normals.normal();
    normals.normal();
    uniforms.uniform();
    uniforms.uniform();
    CHECK(normals.next_bits() == uniforms.next_bits());
    // The pair lies on one circle of radius sqrt(-2 log u1).
    Random pair(5), source(5);
    const double z0 = pair.normal(), z1 = pair.normal();
    const double u1 = 1.0 - source.uniform();
    CHECK(z0 * z0 + z1 * z1 == Approx(-2.0 * std::log(u1)).epsilon(1e-12));
}
