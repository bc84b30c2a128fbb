// The translation tasks: vocabularies and shapes, every number's spelling
// against an independent Python one (task_references.json), held-out sets
// never drawn for training, reproducibility, the batch layout, ideal
// alignments, typed sources and every refused input.
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "contract/limits.hpp"
#include "reference.hpp"
#include "seq2seq/date_names.hpp"
#include "seq2seq/number_names.hpp"
#include "seq2seq/tasks.hpp"
#include "task_references.hpp"

using attention::Seq2SeqBatch;
using attention::Seq2SeqTask;

namespace {

const Seq2SeqTask all_tasks[] = {Seq2SeqTask::numbers_en_zh, Seq2SeqTask::numbers_zh_en, Seq2SeqTask::dates,
                                 Seq2SeqTask::reverse, Seq2SeqTask::sort};

// Tokens as words: separated by spaces, or run together (Chinese numerals).
std::string spelled(const std::vector<std::string>& vocabulary, const std::vector<int>& tokens, const char* separator = " ") {
    std::string result;
    for (std::size_t i = 0; i < tokens.size(); ++i) result += (i ? separator : "") + vocabulary.at(static_cast<std::size_t>(tokens[i]));
    return result;
}

// Item b's tokens of a row-major array, `count` of them.
std::vector<int> row(const xt::xtensor<int, 1>& values, std::size_t length, std::size_t b, std::size_t count) {
    return std::vector<int>(values.data() + b * length, values.data() + b * length + count);
}

std::vector<int> source_of(const Seq2SeqBatch& batch, Seq2SeqTask task, std::size_t b) {
    return row(batch.source, attention::seq2seq_task_shape(task).source_length, b, static_cast<std::size_t>(batch.source_lens(b)));
}

// A batch of one typed source, without targets (as the page translates).
Seq2SeqBatch typed_batch(Seq2SeqTask task, const std::string& typed) {
    const auto tokens = attention::seq2seq_source_from_text(task, typed);
    Seq2SeqBatch batch;
    batch.batch = 1;
    batch.source = xt::zeros<int>({attention::seq2seq_task_shape(task).source_length});
    std::copy(tokens.begin(), tokens.end(), batch.source.begin());
    batch.source_lens = {static_cast<int>(tokens.size())};
    return batch;
}

std::map<std::string, int> numbers_by_english() {
    std::map<std::string, int> result;
    const auto& numbers = ref::task_references().at("numbers");
    for (std::size_t n = 0; n < numbers.size(); ++n) result[numbers[n][0].get<std::string>()] = static_cast<int>(n);
    return result;
}

}  // namespace

TEST_CASE("seq2seq tasks: names, vocabularies and shapes", "[seq2seq-tasks]") {
    for (const Seq2SeqTask task : all_tasks) {
        INFO(attention::seq2seq_task_name(task));
        CHECK(attention::seq2seq_task_from_name(attention::seq2seq_task_name(task)) == task);
        const auto& vocabulary = attention::seq2seq_vocabulary(task);
        const auto shape = attention::seq2seq_task_shape(task);
        CHECK(shape.source_vocab == vocabulary.source.size());
        CHECK(shape.target_vocab == vocabulary.target.size());
        for (const auto* words : {&vocabulary.source, &vocabulary.target}) {
            REQUIRE(words->size() >= 3);
            CHECK((*words)[0] == "<pad>");
            CHECK((*words)[1] == "<bos>");
            CHECK((*words)[2] == "<eos>");
            CHECK(std::set<std::string>(words->begin(), words->end()).size() == words->size());
            CHECK(words->size() <= 128);
        }
        CHECK(shape.source_length <= 10);
        CHECK(shape.target_length <= 10);
    }
    using attention::seq2seq_task_shape;
    const auto en_zh = seq2seq_task_shape(Seq2SeqTask::numbers_en_zh);
    CHECK(en_zh.source_vocab == 34);
    CHECK(en_zh.target_vocab == 16);
    CHECK(en_zh.source_length == 8);
    CHECK(en_zh.target_length == 8);
    const auto zh_en = seq2seq_task_shape(Seq2SeqTask::numbers_zh_en);
    CHECK(zh_en.source_vocab == 16);
    CHECK(zh_en.target_vocab == 34);
    CHECK(attention::seq2seq_vocabulary(Seq2SeqTask::numbers_zh_en).source ==
          attention::seq2seq_vocabulary(Seq2SeqTask::numbers_en_zh).target);
    const auto dates = seq2seq_task_shape(Seq2SeqTask::dates);
    CHECK(dates.source_vocab == 124);
    CHECK(dates.target_vocab == 103);
    CHECK(dates.source_length == 5);
    CHECK(dates.target_length == 5);
    for (const Seq2SeqTask task : {Seq2SeqTask::reverse, Seq2SeqTask::sort}) {
        const auto shape = seq2seq_task_shape(task);
        CHECK(shape.source_vocab == 13);
        CHECK(shape.target_vocab == 13);
        CHECK(shape.source_length == 8);
        CHECK(shape.target_length == 8);
    }
    CHECK(attention::seq2seq_vocabulary(Seq2SeqTask::numbers_en_zh).target.at(3) == "零");
    CHECK(attention::seq2seq_vocabulary(Seq2SeqTask::numbers_en_zh).target.at(15) == "千");
    CHECK(attention::seq2seq_vocabulary(Seq2SeqTask::numbers_en_zh).source.at(33) == "and");

    const auto error = ref::argument_error_of([] { attention::seq2seq_task_from_name("numbers"); });
    CHECK(error.argument == "task");
    CHECK(error.got == "'numbers'");
}

TEST_CASE("seq2seq tasks: every number 0-9999 spelled as the Python reference spells it", "[seq2seq-tasks]") {
    const auto& numbers = ref::task_references().at("numbers");
    REQUIRE(numbers.size() == 10000);
    const auto& english = attention::english_number_vocabulary();
    const auto& chinese = attention::chinese_number_vocabulary();
    std::size_t mismatches = 0, longest_words = 0, longest_numerals = 0;
    for (int n = 0; n <= 9999; ++n) {
        const auto spelling = attention::spell_number(n);
        const std::string words = spelled(english, spelling.words), numerals = spelled(chinese, spelling.numerals, "");
        const auto expected_words = numbers[static_cast<std::size_t>(n)][0].get<std::string>();
        const auto expected_numerals = numbers[static_cast<std::size_t>(n)][1].get<std::string>();
        if (words != expected_words || numerals != expected_numerals) {
            if (++mismatches <= 5) FAIL_CHECK(n << ": " << words << " / " << numerals << ", expected " << expected_words << " / " << expected_numerals);
        }
        // Each numeral comes from one word, in order; the spellings read back.
        REQUIRE(spelling.numeral_word.size() == spelling.numerals.size());
        for (std::size_t j = 0; j < spelling.numerals.size(); ++j) {
            CHECK(spelling.numeral_word[j] < spelling.words.size());
            if (j > 0) CHECK(spelling.numeral_word[j] >= spelling.numeral_word[j - 1]);
        }
        CHECK(attention::number_from_words(spelling.words.data(), spelling.words.size()) == n);
        CHECK(attention::number_from_numerals(spelling.numerals.data(), spelling.numerals.size()) == n);
        // The typed digits give the same tokens, with <eos>.
        auto typed_words = attention::seq2seq_source_from_text(Seq2SeqTask::numbers_en_zh, std::to_string(n));
        auto typed_numerals = attention::seq2seq_source_from_text(Seq2SeqTask::numbers_zh_en, std::to_string(n));
        CHECK(typed_words.back() == attention::eos_token);
        CHECK(typed_numerals.back() == attention::eos_token);
        typed_words.pop_back();
        typed_numerals.pop_back();
        CHECK(typed_words == spelling.words);
        CHECK(typed_numerals == spelling.numerals);
        longest_words = std::max(longest_words, spelling.words.size());
        longest_numerals = std::max(longest_numerals, spelling.numerals.size());
    }
    CHECK(mismatches == 0);
    CHECK(longest_words == 7);  // with <eos>: the tasks' 8
    CHECK(longest_numerals == 7);
    const int not_a_number[] = {4, 4};  // "one one"
    CHECK(attention::number_from_words(not_a_number, 2) == -1);
}

TEST_CASE("seq2seq tasks: the dates are every date of 1950-2049", "[seq2seq-tasks]") {
    const auto& expected = ref::task_references().at("dates");
    const auto& dates = attention::task_dates();
    CHECK(attention::first_date_year == expected.at("first_year").get<int>());
    CHECK(attention::last_date_year == expected.at("last_year").get<int>());
    CHECK(dates.size() == expected.at("count").get<std::size_t>());
    CHECK(attention::is_task_date(2000, 2, 29));
    CHECK(attention::is_task_date(2048, 2, 29));
    CHECK_FALSE(attention::is_task_date(1990, 2, 29));
    CHECK_FALSE(attention::is_task_date(2026, 4, 31));
    CHECK_FALSE(attention::is_task_date(1949, 12, 31));
    CHECK_FALSE(attention::is_task_date(2050, 1, 1));
    const auto& source = attention::date_source_vocabulary();
    const auto& target = attention::date_target_vocabulary();
    for (const auto& date : dates) {
        const auto s = attention::date_source_tokens(date);
        attention::CalendarDate back;
        REQUIRE(attention::date_from_source_tokens(s.data(), s.size(), back));
        CHECK((back.year == date.year && back.month == date.month && back.day == date.day));
        const auto t = attention::date_target_tokens(date);
        // The target reads as the ISO date, the source's year tokens as the year.
        char iso[16];
        std::snprintf(iso, sizeof iso, "%04d-%02d-%02d", date.year, date.month, date.day);
        const auto at = [&](int id) { return target.at(static_cast<std::size_t>(id)); };
        REQUIRE(at(t[0]) + at(t[1]) + "-" + at(t[2]) + "-" + at(t[3]) == iso);
        REQUIRE(source.at(static_cast<std::size_t>(s[0])) == std::to_string(date.day));
        REQUIRE(source.at(static_cast<std::size_t>(s[2])) + source.at(static_cast<std::size_t>(s[3])) == std::to_string(date.year));
    }
    CHECK(spelled(source, {attention::date_month_token(11)}) == "November");
}

TEST_CASE("seq2seq tasks: the batch layout (padding, <bos>, <eos>) and its pairs", "[seq2seq-tasks]") {
    const auto by_english = numbers_by_english();
    const auto& numbers = ref::task_references().at("numbers");
    for (const Seq2SeqTask task : all_tasks) {
        INFO(attention::seq2seq_task_name(task));
        const auto shape = attention::seq2seq_task_shape(task);
        const auto& vocabulary = attention::seq2seq_vocabulary(task);
        const std::size_t ls = shape.source_length, lt = shape.target_length;
        const Seq2SeqBatch batch = attention::seq2seq_task_batch(task, 64, 5);
        REQUIRE(batch.batch == 64);
        REQUIRE(batch.source.size() == 64 * ls);
        REQUIRE(batch.source_lens.size() == 64);
        REQUIRE(batch.target_in.size() == 64 * lt);
        REQUIRE(batch.target_out.size() == 64 * lt);
        REQUIRE(batch.target_lens.size() == 64);
        std::set<int> lengths;
        for (std::size_t b = 0; b < 64; ++b) {
            const int sl = batch.source_lens(b), tl = batch.target_lens(b);
            REQUIRE(sl >= 2);
            REQUIRE(sl <= static_cast<int>(ls));
            REQUIRE(tl >= 2);
            REQUIRE(tl <= static_cast<int>(lt));
            lengths.insert(sl);
            for (int i = 0; i < static_cast<int>(ls); ++i) {
                const int token = batch.source(b * ls + static_cast<std::size_t>(i));
                if (i < sl - 1) {
                    CHECK(token > attention::eos_token);
                    CHECK(token < static_cast<int>(shape.source_vocab));
                } else {
                    CHECK(token == (i == sl - 1 ? attention::eos_token : attention::pad_token));
                }
            }
            for (int t = 0; t < static_cast<int>(lt); ++t) {
                const int in = batch.target_in(b * lt + static_cast<std::size_t>(t));
                const int out = batch.target_out(b * lt + static_cast<std::size_t>(t));
                if (t >= tl) {
                    CHECK(in == attention::pad_token);
                    CHECK(out == attention::pad_token);
                    continue;
                }
                // Teacher forcing: <bos>, then the target shifted right by one.
                CHECK(in == (t == 0 ? attention::bos_token : batch.target_out(b * lt + static_cast<std::size_t>(t) - 1)));
                if (t == tl - 1) {
                    CHECK(out == attention::eos_token);
                } else {
                    CHECK(out > attention::eos_token);
                    CHECK(out < static_cast<int>(shape.target_vocab));
                }
            }
            auto source = source_of(batch, task, b);
            source.pop_back();
            auto target = row(batch.target_out, lt, b, static_cast<std::size_t>(tl) - 1);
            // The pair is the task's: numbers as the Python reference spells them,
            // the digit tasks by their rule.
            if (task == Seq2SeqTask::numbers_en_zh) {
                const auto found = by_english.find(spelled(vocabulary.source, source));
                REQUIRE(found != by_english.end());
                CHECK(spelled(vocabulary.target, target, "") == numbers[static_cast<std::size_t>(found->second)][1].get<std::string>());
            } else if (task == Seq2SeqTask::numbers_zh_en) {
                const auto found = by_english.find(spelled(vocabulary.target, target));
                REQUIRE(found != by_english.end());
                CHECK(spelled(vocabulary.source, source, "") == numbers[static_cast<std::size_t>(found->second)][1].get<std::string>());
            } else if (task == Seq2SeqTask::reverse) {
                CHECK(target == std::vector<int>(source.rbegin(), source.rend()));
            } else if (task == Seq2SeqTask::sort) {
                auto sorted = source;
                std::sort(sorted.begin(), sorted.end());
                CHECK(target == sorted);
            } else {
                CHECK(target.size() == 4);
                CHECK(target[1] == batch.target_out(b * lt + 1));
            }
        }
        if (attention::seq2seq_task_name(task) == std::string("reverse")) CHECK(lengths.size() == 7);  // lengths 1..7 all drawn
    }
}

TEST_CASE("seq2seq tasks: the held-out set is fixed, distinct, and never drawn for training", "[seq2seq-tasks]") {
    for (const Seq2SeqTask task : all_tasks) {
        INFO(attention::seq2seq_task_name(task));
        REQUIRE(attention::seq2seq_held_out_size(task) == 500);
        const Seq2SeqBatch held = attention::seq2seq_held_out(task, 500);
        const Seq2SeqBatch first = attention::seq2seq_held_out(task, 20);
        REQUIRE(first.batch == 20);
        CHECK(std::equal(first.source.begin(), first.source.end(), held.source.begin()));
        CHECK(std::equal(first.target_out.begin(), first.target_out.end(), held.target_out.begin()));
        std::set<std::vector<int>> held_sources;
        std::map<std::size_t, std::size_t> per_length;
        for (std::size_t b = 0; b < 500; ++b) {
            held_sources.insert(source_of(held, task, b));
            ++per_length[static_cast<std::size_t>(held.source_lens(b)) - 1];
            // Every held-out pair is the task's own (the alignment checks the target).
            CHECK(attention::seq2seq_ideal_alignment(task, held, b).shape(0) == attention::seq2seq_task_shape(task).target_length);
        }
        CHECK(held_sources.size() == 500);
        if (task == Seq2SeqTask::reverse || task == Seq2SeqTask::sort) {
            CHECK(per_length == std::map<std::size_t, std::size_t>{{3, 100}, {4, 100}, {5, 100}, {6, 100}, {7, 100}});
            // The lengths take turns: any first part mixes them.
            CHECK(source_of(held, task, 0).size() == 4);
            CHECK(source_of(held, task, 4).size() == 8);
        }
        std::set<std::vector<int>> drawn;
        for (std::uint32_t seed = 0; seed < 300; ++seed) {
            const Seq2SeqBatch batch = attention::seq2seq_task_batch(task, 64, seed * 7919u + 3u);
            for (std::size_t b = 0; b < 64; ++b) {
                const auto source = source_of(batch, task, b);
                REQUIRE(held_sources.count(source) == 0);
                drawn.insert(source);
            }
        }
        // Uniform draws over the N training pairs: 19,200 of them see about
        // N (1 - exp(-19200 / N)) different ones (8,241 of 9,500 numbers, 14,886 of 36,025 dates).
        const double pairs = task == Seq2SeqTask::dates ? 36525.0 - 500.0 : 9500.0;
        const double expected = pairs * (1.0 - std::exp(-19200.0 / pairs));
        if (task == Seq2SeqTask::numbers_en_zh || task == Seq2SeqTask::dates)
            CHECK(std::abs(static_cast<double>(drawn.size()) - expected) < 0.01 * expected);
    }
    // Both number tasks hold out the same numbers.
    const auto en = attention::seq2seq_held_out(Seq2SeqTask::numbers_en_zh, 500);
    const auto zh = attention::seq2seq_held_out(Seq2SeqTask::numbers_zh_en, 500);
    for (std::size_t b = 0; b < 500; ++b) {
        const auto words = row(en.source, 8, b, static_cast<std::size_t>(en.source_lens(b)));
        const auto back = row(zh.target_out, 8, b, static_cast<std::size_t>(zh.target_lens(b)));
        REQUIRE(words == back);
    }
}

TEST_CASE("seq2seq tasks: the same seed draws the same batch, another seed another", "[seq2seq-tasks]") {
    for (const Seq2SeqTask task : all_tasks) {
        INFO(attention::seq2seq_task_name(task));
        const auto a = attention::seq2seq_task_batch(task, 32, 11);
        const auto b = attention::seq2seq_task_batch(task, 32, 11);
        const auto c = attention::seq2seq_task_batch(task, 32, 12);
        CHECK(a.source == b.source);
        CHECK(a.source_lens == b.source_lens);
        CHECK(a.target_in == b.target_in);
        CHECK(a.target_out == b.target_out);
        CHECK(a.target_lens == b.target_lens);
        CHECK(a.source != c.source);
        // A batch of one is the first item of a longer batch of the same seed.
        const auto one = attention::seq2seq_task_batch(task, 1, 11);
        const auto ls = attention::seq2seq_task_shape(task).source_length;
        CHECK(std::equal(one.source.begin(), one.source.end(), a.source.begin()));
        CHECK(one.source.size() == ls);
    }
}

TEST_CASE("seq2seq tasks: ideal alignments of named examples", "[seq2seq-tasks]") {
    using attention::seq2seq_ideal_alignment;
    auto check_rows = [](const xt::xtensor<double, 2>& a, const std::vector<std::map<std::size_t, double>>& rows) {
        for (std::size_t t = 0; t < a.shape(0); ++t)
            for (std::size_t s = 0; s < a.shape(1); ++s) {
                const double expected = t < rows.size() && rows[t].count(s) ? rows[t].at(s) : 0.0;
                INFO("row " << t << " column " << s);
                CHECK(a(t, s) == Approx(expected).margin(1e-15));
            }
    };
    // four thousand seven hundred and eighty two <eos> -> 四 千 七 百 八 十 二 <eos>
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_en_zh, typed_batch(Seq2SeqTask::numbers_en_zh, "4782"), 0),
               {{{0, 1}}, {{1, 1}}, {{2, 1}}, {{3, 1}}, {{5, 1}}, {{5, 1}}, {{6, 1}}, {{7, 1}}});
    // one thousand and fifteen <eos> -> 一 千 零(and) 一 十 五(fifteen) <eos>
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_en_zh, typed_batch(Seq2SeqTask::numbers_en_zh, "1015"), 0),
               {{{0, 1}}, {{1, 1}}, {{2, 1}}, {{3, 1}}, {{3, 1}}, {{3, 1}}, {{4, 1}}});
    // three hundred and five -> 三 百 零 五
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_en_zh, typed_batch(Seq2SeqTask::numbers_en_zh, "305"), 0),
               {{{0, 1}}, {{1, 1}}, {{2, 1}}, {{3, 1}}, {{4, 1}}});
    // zero -> 零; fifteen -> 十 五
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_en_zh, typed_batch(Seq2SeqTask::numbers_en_zh, "zero"), 0),
               {{{0, 1}}, {{1, 1}}});
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_en_zh, typed_batch(Seq2SeqTask::numbers_en_zh, "fifteen"), 0),
               {{{0, 1}}, {{0, 1}}, {{1, 1}}});
    // The other way: "eighty" from 八 and 十; "and" (no 零 in 4782) from the part it announces, 八十.
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_zh_en, typed_batch(Seq2SeqTask::numbers_zh_en, "四千七百八十二"), 0),
               {{{0, 1}}, {{1, 1}}, {{2, 1}}, {{3, 1}}, {{4, 0.5}, {5, 0.5}}, {{4, 0.5}, {5, 0.5}}, {{6, 1}}, {{7, 1}}});
    // one thousand and fifteen from 一 千 零 一 十 五: "and" from 零, "fifteen" from 一十五.
    const double third = 1.0 / 3.0;
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::numbers_zh_en, typed_batch(Seq2SeqTask::numbers_zh_en, "1015"), 0),
               {{{0, 1}}, {{1, 1}}, {{2, 1}}, {{3, third}, {4, third}, {5, third}}, {{6, 1}}});
    // 25 November 20 26 -> 20 26 11 25: the year from the year, the month from its name, the day from the day.
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::dates, typed_batch(Seq2SeqTask::dates, "25 November 2026"), 0),
               {{{2, 1}}, {{3, 1}}, {{1, 1}}, {{0, 1}}, {{4, 1}}});
    // reverse 3 1 4 -> 4 1 3; sort 3 1 3 -> 1 3 3 (ties in order of position).
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::reverse, typed_batch(Seq2SeqTask::reverse, "314"), 0),
               {{{2, 1}}, {{1, 1}}, {{0, 1}}, {{3, 1}}});
    check_rows(seq2seq_ideal_alignment(Seq2SeqTask::sort, typed_batch(Seq2SeqTask::sort, "3 1 3"), 0),
               {{{1, 1}}, {{0, 1}}, {{2, 1}}, {{3, 1}}});

    // Every row of every training item sums to 1 up to <eos>, 0 past it; each target
    // token of a one-to-one task is the source token it points at.
    for (const Seq2SeqTask task : all_tasks) {
        INFO(attention::seq2seq_task_name(task));
        const auto batch = attention::seq2seq_task_batch(task, 64, 77);
        const auto shape = attention::seq2seq_task_shape(task);
        for (std::size_t b = 0; b < 64; ++b) {
            const auto a = seq2seq_ideal_alignment(task, batch, b);
            REQUIRE(a.shape(0) == shape.target_length);
            REQUIRE(a.shape(1) == shape.source_length);
            for (std::size_t t = 0; t < shape.target_length; ++t) {
                double sum = 0;
                for (std::size_t s = 0; s < shape.source_length; ++s) {
                    sum += a(t, s);
                    if (a(t, s) > 0) CHECK(s < static_cast<std::size_t>(batch.source_lens(b)));
                    if (a(t, s) == 1.0 && (task == Seq2SeqTask::reverse || task == Seq2SeqTask::sort))
                        CHECK(batch.target_out(b * shape.target_length + t) == batch.source(b * shape.source_length + s));
                }
                CHECK(sum == Approx(t < static_cast<std::size_t>(batch.target_lens(b)) ? 1.0 : 0.0).margin(1e-15));
            }
        }
    }
}

TEST_CASE("seq2seq tasks: typed sources", "[seq2seq-tasks]") {
    using attention::seq2seq_source_from_text;
    const auto en = Seq2SeqTask::numbers_en_zh, zh = Seq2SeqTask::numbers_zh_en;
    const auto& english = attention::seq2seq_vocabulary(en).source;
    const auto& chinese = attention::seq2seq_vocabulary(zh).source;
    auto words = [](const std::vector<std::string>& vocabulary, std::vector<int> tokens, const char* separator = " ") {
        REQUIRE(tokens.back() == attention::eos_token);
        tokens.pop_back();
        return spelled(vocabulary, tokens, separator);
    };
    CHECK(words(english, seq2seq_source_from_text(en, "4782")) == "four thousand seven hundred and eighty two");
    CHECK(words(english, seq2seq_source_from_text(en, "  Four thousand seven-hundred AND eighty two ")) ==
          "four thousand seven hundred and eighty two");
    CHECK(words(english, seq2seq_source_from_text(en, "0042")) == "forty two");
    // Words are taken as typed, spelled right or not: the page shows what the model makes of them.
    CHECK(words(english, seq2seq_source_from_text(en, "and and")) == "and and");
    CHECK(words(chinese, seq2seq_source_from_text(zh, "四千七百八十二"), "") == "四千七百八十二");
    CHECK(words(chinese, seq2seq_source_from_text(zh, "四 千 七"), "") == "四千七");
    CHECK(words(chinese, seq2seq_source_from_text(zh, "1015"), "") == "一千零一十五");
    const auto& dates = attention::seq2seq_vocabulary(Seq2SeqTask::dates).source;
    CHECK(words(dates, seq2seq_source_from_text(Seq2SeqTask::dates, "2026-11-25")) == "25 November 20 26");
    CHECK(words(dates, seq2seq_source_from_text(Seq2SeqTask::dates, "1987-3-5")) == "5 March 19 87");
    CHECK(words(dates, seq2seq_source_from_text(Seq2SeqTask::dates, "25 november 2026")) == "25 November 20 26");
    CHECK(words(dates, seq2seq_source_from_text(Seq2SeqTask::dates, "25 November 20 26")) == "25 November 20 26");
    const auto& digits = attention::seq2seq_vocabulary(Seq2SeqTask::reverse).source;
    CHECK(words(digits, seq2seq_source_from_text(Seq2SeqTask::reverse, "3 1 4")) == "3 1 4");
    CHECK(words(digits, seq2seq_source_from_text(Seq2SeqTask::sort, "3141592")) == "3 1 4 1 5 9 2");
}

TEST_CASE("seq2seq tasks: every refused input names its argument", "[seq2seq-tasks]") {
    using attention::seq2seq_source_from_text;
    auto text_error = [](Seq2SeqTask task, const std::string& typed) {
        INFO("typed: " << typed);
        const auto fields = ref::argument_error_of([&] { seq2seq_source_from_text(task, typed); });
        CHECK(fields.argument == "text");
        return fields;
    };
    // A refusal quotes the whole text as typed, never a word cut out of it.
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "two hundred fourty").got == "'two hundred fourty'");
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "10000").expected == "a number in [0, 9999]");
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "99999999999999999999999").got == "'99999999999999999999999'");
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "<eos>").got == "'<eos>'");
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "one one one one one one one one").got == "8");
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, "   ").expected == "at least one source word");
    CHECK(text_error(Seq2SeqTask::numbers_en_zh, std::string(100000, 'a')).got == "100000");
    CHECK(text_error(Seq2SeqTask::numbers_zh_en, "两千").got == "'两千'");
    CHECK(text_error(Seq2SeqTask::numbers_zh_en, "四千x").got == "'四千x'");
    CHECK(text_error(Seq2SeqTask::numbers_zh_en, "一一一一一一一一").got == "8");
    CHECK(text_error(Seq2SeqTask::dates, "2026-02-30").got == "'2026-02-30'");
    CHECK(text_error(Seq2SeqTask::dates, "1949-12-31").got == "'1949-12-31'");
    CHECK(text_error(Seq2SeqTask::dates, "25 Novembre 2026").got == "'25 Novembre 2026'");
    CHECK(text_error(Seq2SeqTask::dates, "25 November 2050").got == "'25 November 2050'");
    CHECK(text_error(Seq2SeqTask::dates, "25 November 20 26 1").got == "5");
    CHECK(text_error(Seq2SeqTask::reverse, "12345678").got == "8");
    CHECK(text_error(Seq2SeqTask::sort, "1 2 a").got == "'1 2 a'");
    CHECK(text_error(Seq2SeqTask::sort, "").expected == "at least one source word");

    for (const Seq2SeqTask task : all_tasks) {
        INFO(attention::seq2seq_task_name(task));
        REQUIRE_ARGUMENT_ERROR(attention::seq2seq_task_batch(task, 0, 1), "batch");
        REQUIRE_ARGUMENT_ERROR(attention::seq2seq_task_batch(task, attention::limits::max_model_batch + 1, 1), "batch");
        CHECK(attention::seq2seq_task_batch(task, attention::limits::max_model_batch, 1).batch == attention::limits::max_model_batch);
        REQUIRE_ARGUMENT_ERROR(attention::seq2seq_held_out(task, 0), "count");
        REQUIRE_ARGUMENT_ERROR(attention::seq2seq_held_out(task, 501), "count");
    }

    // The ideal alignment's batch: sizes, item, lengths, a source or target that is not the task's.
    using attention::seq2seq_ideal_alignment;
    const auto task = Seq2SeqTask::numbers_en_zh;
    const Seq2SeqBatch good = attention::seq2seq_task_batch(task, 4, 3);
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, good, 4), "item");
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(Seq2SeqTask::dates, good, 0), "source");  // another task's lengths
    auto bad = good;
    bad.batch = 0;
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "batch");
    bad = good;
    bad.source = xt::zeros<int>({31});
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "source");
    bad = good;
    bad.source_lens = xt::zeros<int>({3});
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "sourceLens");
    bad = good;
    bad.source_lens(1) = 9;
    CHECK(ref::argument_error_of([&] { seq2seq_ideal_alignment(task, bad, 1); }).index == std::size_t{1});
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 1), "sourceLens");
    bad = good;
    bad.source(0) = 33;  // "and" first: no number
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "source");
    bad = good;
    bad.target_in = xt::zeros<int>({8});
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "targetIn");
    bad = good;
    bad.target_out = xt::zeros<int>({8});
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "targetOut");
    bad = good;
    bad.target_lens = xt::zeros<int>({8});
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 0), "targetLens");
    bad = good;
    bad.target_out(2 * 8) = bad.target_out(2 * 8) == 4 ? 5 : 4;
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 2), "targetOut");
    bad = good;
    bad.target_lens(2) += 1;
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, bad, 2), "targetLens");
    // A typed source the task's spelling does not know has no ideal alignment.
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(task, typed_batch(task, "and and"), 0), "source");
    REQUIRE_ARGUMENT_ERROR(seq2seq_ideal_alignment(Seq2SeqTask::dates, typed_batch(Seq2SeqTask::dates, "31 February 20 26"), 0), "source");
}
