// How an error quotes a caller's text (core/contract/errors.hpp, quoted()):
// whole up to 200 code points, past that the part at fault kept in view, and
// every code point that shows nothing or changes how the text around it
// shows escaped, by the Unicode data's own properties. The table of those
// (core/contract/escaped_code_points.hpp, generated) is checked here code
// point by code point against Debian's unicode-data files, read afresh.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "contract/errors.hpp"
#include "reference.hpp"
#include "seq2seq/tasks.hpp"
#include "utf8_encoding.hpp"

using attention::testing::utf8;

using attention::Seq2SeqTask;

namespace {

const Seq2SeqTask all_tasks[] = {Seq2SeqTask::numbers_en_zh, Seq2SeqTask::numbers_zh_en, Seq2SeqTask::dates,
                                 Seq2SeqTask::reverse, Seq2SeqTask::sort};
const std::string ellipsis = "\xe2\x80\xa6";

// The escape the quote writes: \x0a below U+0020 and U+007F, \u00AD to
// U+FFFF, \u{E0001} past it.
std::string escape(char32_t c) {
    char text[16];
    if (c < 0x20 || c == 0x7F)
        std::snprintf(text, sizeof text, "\\x%02x", static_cast<unsigned>(c));
    else
        std::snprintf(text, sizeof text, c > 0xFFFF ? "\\u{%X}" : "\\u%04X", static_cast<unsigned>(c));
    return text;
}

std::string text_error(Seq2SeqTask task, const std::string& typed) {
    INFO(attention::seq2seq_task_name(task) << ", typed: " << typed);
    const auto fields = ref::argument_error_of([&] { attention::seq2seq_source_from_text(task, typed); });
    CHECK(fields.argument == "text");
    return fields.got;
}

// "0041..005A ; Property # ..." or "0041;NAME;Lu;...": the first field as a range.
void read_range(const std::string& field, char32_t& first, char32_t& last) {
    const auto dots = field.find("..");
    first = static_cast<char32_t>(std::stoul(field.substr(0, dots), nullptr, 16));
    last = dots == std::string::npos ? first : static_cast<char32_t>(std::stoul(field.substr(dots + 2), nullptr, 16));
}

std::string trimmed(const std::string& text) {
    const auto begin = text.find_first_not_of(" \t");
    const auto end = text.find_last_not_of(" \t\r");
    return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

}  // namespace

TEST_CASE("every code point the Unicode data calls control, format, surrogate, private use, unassigned, "
          "separator or default-ignorable, and no other, is escaped in a quote",
          "[errors]") {
    const std::string data = ATTENTION_UNICODE_DATA;
    // UnicodeData.txt: each assigned code point, or a range as a <..., First> and <..., Last> pair; the rest is Cn.
    std::vector<std::string> names = {"Cn"};  // the categories met, by index
    std::vector<std::uint8_t> category(0x110000, 0);
    std::ifstream unicode_data(data + "/UnicodeData.txt");
    REQUIRE(unicode_data.good());  // Debian's unicode-data (python3-fonttools, a build package, depends on it)
    std::string line;
    char32_t range_first = 0;
    std::size_t assigned_lines = 0;
    while (std::getline(unicode_data, line)) {
        std::vector<std::string> fields;
        std::stringstream row(line);
        for (std::string field; std::getline(row, field, ';');) fields.push_back(field);
        REQUIRE(fields.size() >= 3);
        const char32_t c = static_cast<char32_t>(std::stoul(fields[0], nullptr, 16));
        const std::string& name = fields[1];
        if (name.size() > 8 && name.compare(name.size() - 8, 8, ", First>") == 0) {
            range_first = c;
            continue;
        }
        const char32_t first = name.size() > 7 && name.compare(name.size() - 7, 7, ", Last>") == 0 ? range_first : c;
        std::size_t index = 0;
        while (index < names.size() && names[index] != fields[2]) ++index;
        if (index == names.size()) names.push_back(fields[2]);
        for (char32_t k = first; k <= c; ++k) category[k] = static_cast<std::uint8_t>(index);
        ++assigned_lines;
    }
    CHECK(assigned_lines > 30000);
    // DerivedCoreProperties.txt: Default_Ignorable_Code_Point; its first line names the Unicode version.
    std::vector<bool> ignorable(0x110000, false);
    std::ifstream properties(data + "/DerivedCoreProperties.txt");
    REQUIRE(properties.good());
    std::getline(properties, line);
    INFO("the data files: " << line << "; the table: Unicode " << attention::unicode::escaped_code_points_version
                            << " (tests/references/make_escaped_code_points.py makes it again)");
    REQUIRE(line.find(std::string("-") + attention::unicode::escaped_code_points_version + ".txt") != std::string::npos);
    std::size_t ignorable_count = 0;
    while (std::getline(properties, line)) {
        const std::string content = line.substr(0, line.find('#'));
        const auto semicolon = content.find(';');
        if (semicolon == std::string::npos || trimmed(content.substr(semicolon + 1)) != "Default_Ignorable_Code_Point")
            continue;
        char32_t first = 0, last = 0;
        read_range(trimmed(content.substr(0, semicolon)), first, last);
        for (char32_t k = first; k <= last; ++k) ignorable[k] = true, ++ignorable_count;
    }
    CHECK(ignorable_count > 4000);

    // Every code point: the table against the files, and quoted() writing it as such, 200 to a quote.
    std::size_t mismatches = 0, escaped_count = 0;
    std::string typed, wanted;
    std::size_t in_quote = 0;
    auto check_quote = [&] {
        if (in_quote == 0) return;
        const std::string got = attention::quoted(typed);
        if (got != "'" + wanted + "'") {
            ++mismatches;
            if (mismatches < 5) CHECK(got == "'" + wanted + "'");
        }
        typed.clear();
        wanted.clear();
        in_quote = 0;
    };
    for (char32_t c = 0; c < 0x110000; ++c) {
        const std::string& gc = names[category[c]];
        const bool expected = gc == "Cc" || gc == "Cf" || gc == "Cs" || gc == "Co" || gc == "Cn" || gc == "Zl" ||
                              gc == "Zp" || ignorable[c];
        escaped_count += expected;
        if (attention::is_escaped_code_point(c) != expected) {
            ++mismatches;
            if (mismatches < 5) FAIL_CHECK("U+" << std::hex << static_cast<std::uint32_t>(c) << " (" << gc << ")");
        }
        typed += utf8(c);
        wanted += expected ? escape(c) : utf8(c);
        if (++in_quote == attention::longest_quote) check_quote();
    }
    check_quote();
    CHECK(mismatches == 0);
    CHECK(escaped_count > 900000);  // mostly unassigned and private use
    // The named examples (hand-picked once; now each by its property).
    for (const char32_t c : {0x00AD, 0x180E, 0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0xFFF9, 0xE0001, 0xE0041,
                             0x1D173, 0x180B, 0xFE0F, 0xE0100, 0x2028, 0x2029, 0xD800, 0xE000, 0x10FFFF, 0x0378})
        CHECK(attention::is_escaped_code_point(c));
    for (const char32_t c : {0x0020, 0x0041, 0x00A0, 0x00E9, 0x0301, 0x4E00, 0x3000, 0x1F600, 0x20000})
        CHECK_FALSE(attention::is_escaped_code_point(c));
}

TEST_CASE("a refused typed text is quoted whole up to 200 code points, in every task", "[errors]") {
    // Once cut at 40 bytes: "'four thousand seven hundred and eighty t…'", the word at fault behind the ellipsis.
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "four thousand seven hundred and eighty two wibble") ==
          "'four thousand seven hundred and eighty two wibble'");
    const std::string chinese = "\xe5\x9b\x9b\xe5\x8d\x83\xe4\xb8\x83\xe7\x99\xbe";  // 四千七百
    const std::pair<Seq2SeqTask, std::string> cases[] = {
        {Seq2SeqTask::numbers_en_zh, "one two three four five six seven eight nine ten eleven twelve wibble"},
        {Seq2SeqTask::numbers_zh_en, chinese + chinese + chinese + chinese + " " + chinese + chinese + "x"},
        {Seq2SeqTask::dates, "25 November 20 26 25 November 20 26 25 November Novembre"},
        {Seq2SeqTask::reverse, "1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 x"},
        {Seq2SeqTask::sort, "1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 a"},
    };
    for (const auto& [task, typed] : cases) {
        REQUIRE(typed.size() > 40);
        CHECK(text_error(task, typed) == "'" + typed + "'");
    }
    // 200 code points exactly, some of them four bytes: whole.
    std::string two_hundred;
    for (int i = 0; i < 99; ++i) two_hundred += "1 ";
    two_hundred += "\xf0\x9f\x98\x80";  // U+1F600, not a digit
    two_hundred += "1";
    CHECK(text_error(Seq2SeqTask::reverse, two_hundred) == "'" + two_hundred + "'");
}

TEST_CASE("past 200 code points a refused text's quote keeps the word at fault in view", "[errors]") {
    const auto count_code_points = [](const std::string& text) {
        std::size_t n = 0;
        for (const char byte : text) n += (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
        return n;
    };
    // The word at fault at the end of a long text, in each task (within the task's byte limit).
    const std::pair<Seq2SeqTask, std::string> cases[] = {
        {Seq2SeqTask::numbers_en_zh, [] { std::string t; for (int i = 0; i < 70; ++i) t += "one "; return t + "wibble"; }()},
        {Seq2SeqTask::numbers_zh_en, [] { std::string t; for (int i = 0; i < 105; ++i) t += "\xe5\x9b\x9b "; return t + "x"; }()},
        {Seq2SeqTask::dates, [] { std::string t; for (int i = 0; i < 75; ++i) t += "25 "; return t + "Novembre"; }()},
        {Seq2SeqTask::reverse, [] { std::string t; for (int i = 0; i < 200; ++i) t += "1 "; return t + "x 2 3"; }()},
        {Seq2SeqTask::sort, [] { std::string t; for (int i = 0; i < 200; ++i) t += "1 "; return t + "a"; }()},
    };
    for (const auto& [task, typed] : cases) {
        INFO(attention::seq2seq_task_name(task));
        REQUIRE(count_code_points(typed) > attention::longest_quote);
        REQUIRE(typed.size() <= attention::seq2seq_text_limit(task));
        const std::string got = text_error(task, typed);
        // An ellipsis before (the start left out), 200 code points of the text, the word at fault among them.
        REQUIRE(got.size() > 2 + ellipsis.size());
        CHECK(got.compare(1, ellipsis.size(), ellipsis) == 0);
        std::string shown = got.substr(1 + ellipsis.size(), got.size() - 2 - ellipsis.size());
        if (shown.size() >= ellipsis.size() && shown.compare(shown.size() - ellipsis.size(), ellipsis.size(), ellipsis) == 0)
            shown.resize(shown.size() - ellipsis.size());
        CHECK(count_code_points(shown) == attention::longest_quote);
        CHECK(typed.find(shown) != std::string::npos);
        const std::string word = task == Seq2SeqTask::numbers_en_zh ? "wibble"
                                 : task == Seq2SeqTask::dates      ? "Novembre"
                                 : task == Seq2SeqTask::sort       ? "a"
                                                                   : "x";
        CHECK(shown.find(word) != std::string::npos);
    }
    // A word at fault near the start of a long text: the quote starts with the text, the ellipsis after.
    std::string early = "one wibble";
    for (int i = 0; i < 80; ++i) early += " one";
    const std::string got = text_error(Seq2SeqTask::numbers_en_zh, early);
    CHECK(got == "'" + early.substr(0, attention::longest_quote) + ellipsis + "'");
}

TEST_CASE("a quote's window around its focus, never cut inside a character", "[errors]") {
    using attention::QuoteFocus;
    using attention::quoted;
    // 500 three-byte characters, the 301st marked by its neighbours being other ones: 200 of them, centred on it.
    std::string text;
    for (int i = 0; i < 500; ++i) text += i == 201 || i == 400 ? "\xe5\x9b\x9b" : "\xe6\xb3\xa8";
    const std::string got = quoted(text, {300 * 3, 301 * 3});
    CHECK(got == "'" + ellipsis + text.substr(201 * 3, 200 * 3) + ellipsis + "'");
    CHECK(got.find("\xe5\x9b\x9b") == 1 + ellipsis.size());  // the 202nd character first: 99 before the focus
    // The focus ends within the first 200: from the start.
    CHECK(quoted(text, {190 * 3, 200 * 3}) == "'" + text.substr(0, 200 * 3) + ellipsis + "'");
    // A focus at the very end: the last 200, one ellipsis.
    CHECK(quoted(text, {499 * 3, 500 * 3}) == "'" + ellipsis + text.substr(300 * 3) + "'");
    // A focus wider than the window: from its start.
    const std::string wide = std::string(100, 'a') + std::string(400, 'b');
    CHECK(quoted(wide, {100, 500}) == "'" + ellipsis + std::string(200, 'b') + ellipsis + "'");
    // A focus past the first 200 in a text whose characters are escaped: each escape counts as one.
    const std::string soft = [] { std::string t; for (int i = 0; i < 250; ++i) t += "\xc2\xad"; return t + "z"; }();
    std::string escapes;
    for (int i = 0; i < 199; ++i) escapes += "\\u00AD";
    CHECK(quoted(soft, {500, 501}) == "'" + ellipsis + escapes + "z'");
    // focus_of: a view into the text is its focus; any other string none.
    const std::string_view whole = "one two wibble";
    CHECK(attention::focus_of(whole, whole.substr(8, 6)).begin == 8);
    CHECK(attention::focus_of(whole, whole.substr(8, 6)).end == 14);
    const std::string elsewhere = "wibble";
    CHECK(attention::focus_of(whole, elsewhere).end == 0);
}

TEST_CASE("invisible characters in a refused text are escaped, in every task", "[errors]") {
    // Each once passed through raw: '\u00AD12' showed as '12'.
    const char32_t invisible[] = {0x00AD, 0x180E, 0x034F, 0x115F, 0x3164, 0xFFA0, 0xFFF9, 0xE0001, 0xE0041, 0x1D173};
    for (const Seq2SeqTask task : all_tasks) {
        for (const char32_t c : invisible) {
            CHECK(text_error(task, utf8(c) + "12") == "'" + escape(c) + "12'");
            CHECK(text_error(task, "1" + utf8(c) + "2") == "'1" + escape(c) + "2'");
        }
        // A surrogate written in three bytes, and bytes that are no UTF-8: escaped too, the message valid UTF-8.
        CHECK(text_error(task, utf8(0xD800) + "12") == "'\\uD800" "12'");
        CHECK(text_error(task, "1\xff" "2") == "'1\\xff" "2'");
        CHECK(text_error(task, "1\xc0\xaf" "2") == "'1\\xc0\\xaf" "2'");
    }
}
