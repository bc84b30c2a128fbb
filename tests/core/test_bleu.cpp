// d2l's BLEU against d2l's own function in Python (task_references.json), and
// the cases d2l's string version cannot express.
#include <cmath>
#include <vector>

#include "reference.hpp"
#include "seq2seq/bleu.hpp"
#include "task_references.hpp"

TEST_CASE("bleu: d2l's values on fixed and seeded cases", "[bleu]") {
    const auto& cases = ref::task_references().at("bleu");
    REQUIRE(cases.size() >= 50);
    std::size_t nonzero = 0, perfect = 0;
    for (const auto& c : cases) {
        const auto prediction = c.at("prediction").get<std::vector<int>>();
        const auto label = c.at("label").get<std::vector<int>>();
        const auto k = c.at("k").get<std::size_t>();
        const double expected = c.at("bleu").get<double>();
        INFO("prediction " << c.at("prediction").dump() << " label " << c.at("label").dump() << " k " << k);
        const double got = attention::bleu(prediction, label, k);
        CHECK(std::abs(got - expected) <= 1e-14 * std::max(1.0, std::abs(expected)));
        nonzero += expected > 0 && expected < 1;
        perfect += expected == 1.0;
    }
    CHECK(nonzero >= 15);  // the cases exercise partial matches, not only 0 and 1
    CHECK(perfect >= 2);
}

TEST_CASE("bleu: by hand, and what d2l's strings cannot say", "[bleu]") {
    using attention::bleu;
    // Precision 2/4 clipped (the label has two 4s), brevity penalty 1: (1/2)^(1/2).
    CHECK(bleu({4, 4, 4, 4}, {4, 5, 4}, 1) == Approx(std::sqrt(0.5)).epsilon(1e-15));
    // A prediction shorter than n: orders past its length are left out; the penalty remains.
    CHECK(bleu({4}, {4, 5}, 4) == Approx(std::exp(1.0 - 2.0)).epsilon(1e-15));
    CHECK(bleu({4, 5}, {4, 5}, 4) == 1.0);
    CHECK(bleu({}, {4, 5}, 2) == 0.0);   // empty prediction
    CHECK(bleu({4, 5}, {}, 2) == 0.0);   // empty label: nothing matches
    CHECK(bleu({4, 5}, {4, 5, 6, 7}, 0) == Approx(std::exp(-1.0)).epsilon(1e-15));  // k = 0: the penalty alone
    CHECK(bleu({5, 4}, {4, 5}, 1) == 1.0);
    CHECK(bleu({5, 4}, {4, 5}, 2) == 0.0);
}
