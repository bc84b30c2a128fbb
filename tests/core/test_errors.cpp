// Argument errors carry fields (argument, expected, got, index) and a message
// made of them; a few representative errors of the core, field by field.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "contract/attention_checks.hpp"
#include "regression/dataset.hpp"
#include "contract/errors.hpp"
#include "regression/kernels.hpp"
#include "regression/pooling.hpp"
#include "reference.hpp"
#include "scoring/masked_softmax.hpp"

using attention::ArgumentError;
using attention::ArgumentFields;

TEST_CASE("an ArgumentError's message is made of its fields", "[errors]") {
    const ArgumentError full({"validLens", "lengths in [0, 10] (nk)", "11", 1});
    CHECK(std::string(full.what()) == "validLens: expected lengths in [0, 10] (nk), got 11 at index 1");
    CHECK(full.argument() == "validLens");
    CHECK(full.expected() == "lengths in [0, 10] (nk)");
    CHECK(full.got() == "11");
    REQUIRE(full.index().has_value());
    CHECK(*full.index() == 1);
    const ArgumentError no_index({"n", "a count in [1, 10000]", "0", std::nullopt});
    CHECK(std::string(no_index.what()) == "n: expected a count in [1, 10000], got 0");
    const ArgumentError nothing_got({"keys", "the same batch size as the queries (2)", "", std::nullopt});
    CHECK(std::string(nothing_got.what()) == "keys: expected the same batch size as the queries (2)");
    // Index 0 is an index: it shows.
    const ArgumentError first({"x", "finite numbers", "NaN", 0});
    CHECK(std::string(first.what()) == "x: expected finite numbers, got NaN at index 0");
    // Still an std::invalid_argument for callers that only know the standard ones.
    const std::invalid_argument& standard = full;
    CHECK(std::string(standard.what()) == full.what());
}

TEST_CASE("fail and the require helpers fill the fields", "[errors]") {
    const auto count = ref::argument_error_of([] { attention::require_count("epochs", 10001, 1, 10000); });
    CHECK(count.argument == "epochs");
    CHECK(count.expected == "a count in [1, 10000]");
    CHECK(count.got == "10001");
    CHECK_FALSE(count.index.has_value());
    const std::vector<double> values = {1.0, 2.0, -std::numeric_limits<double>::infinity()};
    const auto finite = ref::argument_error_of([&] { attention::require_all_finite("values", values); });
    CHECK(finite.expected == "finite numbers");
    CHECK(finite.got == "-Infinity");
    CHECK(finite.index == std::optional<std::size_t>(2));
    const auto range = ref::argument_error_of([] { attention::require_range("noise", 0.1 + 100, 0.0, 100.0); });
    CHECK(range.expected == "a value in [0, 100]");
    CHECK(range.got == "100.1");  // as JS's String(): the shortest digits that read back
}

TEST_CASE("numbers in messages read as JS's String() writes them", "[errors]") {
    // Each expected text is node's String(value).
    const std::pair<double, const char*> cases[] = {
        {10000.000001, "10000.000001"}, {1000.0000000001, "1000.0000000001"}, {4294967295.5, "4294967295.5"},
        {1000.0000001, "1000.0000001"}, {1e21, "1e+21"}, {1e20, "100000000000000000000"},
        {1.2345678901234568e20, "123456789012345680000"}, {1e-7, "1e-7"}, {1.5e-7, "1.5e-7"},
        {0.000001, "0.000001"}, {0.1, "0.1"}, {1.0 / 3.0, "0.3333333333333333"}, {-2.0 / 3.0, "-0.6666666666666666"},
        {9007199254740992.0, "9007199254740992"}, {9007199254740991.0, "9007199254740991"}, {5e-324, "5e-324"},
        {1.7976931348623157e308, "1.7976931348623157e+308"}, {-1e308, "-1e+308"}, {1e12, "1000000000000"},
        {0.1 + 0.2, "0.30000000000000004"}, {123.456, "123.456"}, {-0.0001234, "-0.0001234"}, {-0.0, "0"},
        {std::numeric_limits<double>::quiet_NaN(), "NaN"}, {-std::numeric_limits<double>::infinity(), "-Infinity"},
    };
    for (const auto& [value, expected] : cases) CHECK(attention::js_number(value) == expected);
    // A value a hair past a limit is quoted as given, not rounded onto the limit.
    const auto past = ref::argument_error_of([] { attention::require_range("xMax", 1000.0000000001, 0.0, 1000.0); });
    CHECK(past.got == "1000.0000000001");
    // Every double reads back as itself (bit patterns from a fixed generator).
    std::uint64_t bits = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 20000; ++i) {
        bits ^= bits << 13;
        bits ^= bits >> 7;
        bits ^= bits << 17;
        double value;
        std::memcpy(&value, &bits, sizeof value);
        if (!std::isfinite(value)) continue;
        const std::string written = attention::js_number(value);
        REQUIRE(std::strtod(written.c_str(), nullptr) == value);
    }
}

TEST_CASE("representative core errors, field by field", "[errors]") {
    SECTION("a valid length over nk: index") {
        const xt::xtensor<double, 3> scores = xt::zeros<double>({2, 3, 10});
        const xt::xtensor<int, 1> lens = {4, 11};
        const auto e = ref::argument_error_of([&] { attention::masked_softmax(scores, lens); });
        CHECK(e.argument == "validLens");
        CHECK(e.expected == "lengths in [0, 10] (nk)");
        CHECK(e.got == "11");
        CHECK(e.index == std::optional<std::size_t>(1));
    }
    SECTION("a count of lengths: got, no index") {
        const xt::xtensor<double, 3> scores = xt::zeros<double>({2, 3, 4});
        const xt::xtensor<int, 1> lens = {1, 2, 3};
        const auto e = ref::argument_error_of([&] { attention::masked_softmax(scores, lens); });
        CHECK(e.argument == "validLens");
        CHECK(e.expected == "null, 2 (batch) or 6 (batch*nq) lengths");
        CHECK(e.got == "3");
        CHECK_FALSE(e.index.has_value());
    }
    SECTION("a data set option: a number as JS prints it") {
        attention::DatasetOptions options;
        options.noise = std::numeric_limits<double>::quiet_NaN();
        const auto e = ref::argument_error_of([&] { attention::make_dataset(options); });
        CHECK(e.argument == "noise");
        CHECK(e.expected == "a finite number");
        CHECK(e.got == "NaN");
    }
    SECTION("a mismatch with nothing got") {
        const xt::xtensor<double, 3> q = xt::zeros<double>({2, 3, 4}), k = xt::zeros<double>({1, 5, 4});
        const auto e = ref::argument_error_of([&] { attention::check_attention_tensors(q, k, k); });
        CHECK(e.argument == "keys");
        CHECK(e.expected == "the same batch size as the queries (2)");
        CHECK(e.got.empty());
        CHECK_FALSE(e.index.has_value());
    }
    SECTION("pooling: the values' count") {
        const xt::xtensor<double, 1> keys = {1.0, 2.0, 3.0}, values = {1.0, 2.0};
        const auto e = ref::argument_error_of([&] { attention::nadaraya_watson(keys, keys, values, {}); });
        CHECK(e.argument == "values");
        CHECK(e.expected == "3 values (one per key)");
        CHECK(e.got == "2");
    }
    SECTION("an unknown kernel: its own wording, the name quoted in got") {
        try {
            attention::parse_kernel("cosine");
            FAIL("no error");
        } catch (const ArgumentError& e) {
            CHECK(std::string(e.what()) ==
                  "kernel: expected one of gaussian, boxcar, constant, triangular, epanechnikov; got 'cosine'");
            CHECK(e.argument() == "kernel");
            CHECK(e.expected() == "one of gaussian, boxcar, constant, triangular, epanechnikov");
            CHECK(e.got() == "'cosine'");
            CHECK_FALSE(e.index().has_value());
        }
        // An empty name still has a got: the quotes.
        const auto empty = ref::argument_error_of([] { attention::parse_kernel(""); });
        CHECK(empty.got == "''");
    }
}

TEST_CASE("an unknown kernel's name shows control characters escaped", "[errors]") {
    // A NUL would otherwise end the message (what() is a C string) before the closing quote.
    const auto nul = ref::argument_error_of([] { attention::parse_kernel(std::string("gaussian\0", 9)); });
    CHECK(nul.got == "'gaussian\\x00'");
    const auto tab = ref::argument_error_of([] { attention::parse_kernel("box\tcar"); });
    CHECK(tab.got == "'box\\x09car'");
    CHECK(ref::argument_error_of([] { attention::parse_kernel("Gaussian"); }).got == "'Gaussian'");
}

TEST_CASE("a long kernel name is quoted to 200 code points, never cut inside a character", "[errors]") {
    const std::string ellipsis = "\xe2\x80\xa6";
    // 199 ASCII characters, then a 3-byte one, then more: the 200th code point is kept whole.
    const std::string name = std::string(199, 'a') + "\xe6\xb3\xa8" + "more";
    CHECK(ref::argument_error_of([&] { attention::parse_kernel(name); }).got ==
          "'" + std::string(199, 'a') + "\xe6\xb3\xa8" + ellipsis + "'");
    // 200 four-byte characters (800 bytes): all shown; one more and the 201st is left out.
    std::string emoji;
    for (int i = 0; i < 200; ++i) emoji += "\xf0\x9f\x98\x80";
    CHECK(ref::argument_error_of([&] { attention::parse_kernel(emoji); }).got == "'" + emoji + "'");
    CHECK(ref::argument_error_of([&] { attention::parse_kernel(emoji + "\xf0\x9f\x98\x81"); }).got ==
          "'" + emoji + ellipsis + "'");
    // Exactly 200: nothing cut, no ellipsis.
    CHECK(ref::argument_error_of([] { attention::parse_kernel(std::string(200, 'b')); }).got ==
          "'" + std::string(200, 'b') + "'");
}

TEST_CASE("a long name that is no UTF-8 is quoted byte by byte, escaped, not emptied", "[errors]") {
    // Continuation bytes only: each is a byte that starts no character, shown as its escape.
    const std::string name = std::string(250, '\xb8');
    std::string escaped;
    for (int i = 0; i < 200; ++i) escaped += "\\xb8";
    CHECK(ref::argument_error_of([&] { attention::parse_kernel(name); }).got ==
          "'" + escaped + "\xe2\x80\xa6'");
    // A four-byte character cut short at the end of the text: its bytes escaped, the text whole.
    CHECK(ref::argument_error_of([] { attention::parse_kernel("ab\xf0\x9f\x98"); }).got ==
          "'ab\\xf0\\x9f\\x98'");
}
