#include "tasks.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

#include "contract/errors.hpp"
#include "contract/limits.hpp"
#include "numerics/random.hpp"
#include "date_names.hpp"
#include "number_names.hpp"

namespace attention {

namespace {

// Digit sequences of reverse and sort: lengths 1..7, tokens "0".."9".
constexpr std::size_t longest_digits = 7;
constexpr int first_digit_token = eos_token + 1;
// Held out: 100 sequences of each length 3..7 (lengths 1 and 2 have only 110
// sequences in all, too few to keep any from training).
constexpr std::size_t shortest_held_out_digits = 3;
constexpr std::size_t held_out_per_digit_length = 100;

constexpr std::size_t held_out_pairs = 500;
// The held-out sets' own seeds: the same set whatever the training seed.
constexpr std::uint64_t numbers_held_out_seed = 0x6e756d62657273ULL;  // both number tasks share it
constexpr std::uint64_t dates_held_out_seed = 0x6461746573ULL;
constexpr std::uint64_t reverse_held_out_seed = 0x72657665727365ULL;
constexpr std::uint64_t sort_held_out_seed = 0x736f7274ULL;

// A whole number in [0, n) from the generator's integer draws only (n small:
// the modulo's bias is below 2^-40), so every platform draws the same.
std::size_t below(Random& random, std::size_t n) { return static_cast<std::size_t>(random.next_bits() % n); }

bool is_numbers(Seq2SeqTask task) { return task == Seq2SeqTask::numbers_en_zh || task == Seq2SeqTask::numbers_zh_en; }
bool is_digits(Seq2SeqTask task) { return task == Seq2SeqTask::reverse || task == Seq2SeqTask::sort; }

// One pair, without <eos>; for each target token the source positions it
// comes from (the ideal alignment spreads a row evenly over them).
struct TaskPair {
    std::vector<int> source, target;
    std::vector<std::vector<std::size_t>> origins;
};

TaskPair number_pair(Seq2SeqTask task, int n) {
    const NumberSpelling spelling = spell_number(n);
    TaskPair pair;
    if (task == Seq2SeqTask::numbers_en_zh) {
        pair.source = spelling.words;
        pair.target = spelling.numerals;
        for (const std::size_t word : spelling.numeral_word) pair.origins.push_back({word});
        return pair;
    }
    pair.source = spelling.numerals;
    pair.target = spelling.words;
    for (std::size_t word = 0; word < spelling.words.size(); ++word) {
        auto numerals_of = [&](std::size_t w) {
            std::vector<std::size_t> found;
            for (std::size_t j = 0; j < spelling.numerals.size(); ++j)
                if (spelling.numeral_word[j] == w) found.push_back(j);
            return found;
        };
        // "and" without a 零 to come from is announced by the part under a
        // hundred that follows it (八十 of "and eighty two").
        std::vector<std::size_t> origins = numerals_of(word);
        if (origins.empty()) origins = numerals_of(word + 1);
        pair.origins.push_back(std::move(origins));
    }
    return pair;
}

TaskPair date_pair(const CalendarDate& date) {
    const auto source = date_source_tokens(date);
    const auto target = date_target_tokens(date);
    // Source: day, month, century, year; target: century, year, month, day.
    return {{source.begin(), source.end()}, {target.begin(), target.end()}, {{2}, {3}, {1}, {0}}};
}

TaskPair digits_pair(Seq2SeqTask task, std::vector<int> digits) {
    const std::size_t n = digits.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    if (task == Seq2SeqTask::reverse)
        std::reverse(order.begin(), order.end());
    else  // ties by position: a stable sort, so the alignment is one-to-one
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return digits[a] < digits[b]; });
    TaskPair pair;
    for (const std::size_t from : order) {
        pair.target.push_back(digits[from]);
        pair.origins.push_back({from});
    }
    pair.source = std::move(digits);
    return pair;
}

// A digit sequence as one integer: 10^length + its value (unique over lengths).
std::int64_t digits_key(const std::vector<int>& tokens) {
    std::int64_t key = 1;
    for (const int token : tokens) key = key * 10 + (token - first_digit_token);
    return key;
}

// The fixed held-out set of a task and, for numbers and dates, the indices
// training draws from (every other one, ascending).
struct HeldOut {
    std::vector<TaskPair> pairs;
    std::vector<int> training;           // numbers, or indices into task_dates()
    std::set<std::int64_t> digit_keys;   // reverse and sort: the held-out sequences
};

// The first `count` of a seeded shuffle of [0, size) (a partial Fisher-Yates).
std::vector<int> draw_without_replacement(std::uint64_t seed, std::size_t size, std::size_t count) {
    std::vector<int> all(size);
    std::iota(all.begin(), all.end(), 0);
    Random random(seed);
    for (std::size_t i = 0; i < count; ++i) std::swap(all[i], all[i + below(random, size - i)]);
    all.resize(count);
    return all;
}

std::vector<int> complement(std::vector<int> drawn, std::size_t size) {
    std::sort(drawn.begin(), drawn.end());
    std::vector<int> rest;
    rest.reserve(size - drawn.size());
    for (std::size_t i = 0, d = 0; i < size; ++i) {
        if (d < drawn.size() && drawn[d] == static_cast<int>(i))
            ++d;
        else
            rest.push_back(static_cast<int>(i));
    }
    return rest;
}

HeldOut make_held_out(Seq2SeqTask task) {
    HeldOut held;
    if (is_numbers(task)) {
        const std::size_t size = largest_spelled_number + 1;
        const auto drawn = draw_without_replacement(numbers_held_out_seed, size, held_out_pairs);
        for (const int n : drawn) held.pairs.push_back(number_pair(task, n));
        held.training = complement(drawn, size);
    } else if (task == Seq2SeqTask::dates) {
        const auto& dates = task_dates();
        const auto drawn = draw_without_replacement(dates_held_out_seed, dates.size(), held_out_pairs);
        for (const int index : drawn) held.pairs.push_back(date_pair(dates[static_cast<std::size_t>(index)]));
        held.training = complement(drawn, dates.size());
    } else {
        // Distinct sequences, the lengths taking turns so any first part of the set mixes them.
        Random random(task == Seq2SeqTask::reverse ? reverse_held_out_seed : sort_held_out_seed);
        for (std::size_t round = 0; round < held_out_per_digit_length; ++round)
            for (std::size_t length = shortest_held_out_digits; length <= longest_digits; ++length) {
                std::vector<int> digits(length);
                do {
                    for (int& digit : digits) digit = first_digit_token + static_cast<int>(below(random, 10));
                } while (held.digit_keys.count(digits_key(digits)) != 0);
                held.digit_keys.insert(digits_key(digits));
                held.pairs.push_back(digits_pair(task, digits));
            }
    }
    return held;
}

const HeldOut& held_out_of(Seq2SeqTask task) {
    static const HeldOut sets[] = {make_held_out(Seq2SeqTask::numbers_en_zh), make_held_out(Seq2SeqTask::numbers_zh_en),
                                   make_held_out(Seq2SeqTask::dates), make_held_out(Seq2SeqTask::reverse),
                                   make_held_out(Seq2SeqTask::sort)};
    return sets[static_cast<std::size_t>(task)];
}

// Rows of the batch's arrays: the tokens, <eos>, then <pad>; target_in
// starts with <bos> and stops before <eos>.
Seq2SeqBatch make_batch(Seq2SeqTask task, const std::vector<TaskPair>& pairs) {
    const Seq2SeqTaskShape shape = seq2seq_task_shape(task);
    const std::size_t batch = pairs.size(), ls = shape.source_length, lt = shape.target_length;
    Seq2SeqBatch result;
    result.batch = batch;
    result.source = xt::zeros<int>({batch * ls});
    result.source_lens = xt::zeros<int>({batch});
    result.target_in = xt::zeros<int>({batch * lt});
    result.target_out = xt::zeros<int>({batch * lt});
    result.target_lens = xt::zeros<int>({batch});
    for (std::size_t b = 0; b < batch; ++b) {
        const TaskPair& pair = pairs[b];
        int* source = result.source.data() + b * ls;
        std::copy(pair.source.begin(), pair.source.end(), source);
        source[pair.source.size()] = eos_token;
        result.source_lens(b) = static_cast<int>(pair.source.size() + 1);
        int* in = result.target_in.data() + b * lt;
        int* out = result.target_out.data() + b * lt;
        in[0] = bos_token;
        std::copy(pair.target.begin(), pair.target.end(), in + 1);
        std::copy(pair.target.begin(), pair.target.end(), out);
        out[pair.target.size()] = eos_token;
        result.target_lens(b) = static_cast<int>(pair.target.size() + 1);
    }
    return result;
}

// The task's pair whose source is these tokens (without <eos>); false if
// they spell none of the task's items.
bool pair_of_source(Seq2SeqTask task, const int* tokens, std::size_t count, TaskPair& pair) {
    if (is_numbers(task)) {
        const int n = task == Seq2SeqTask::numbers_en_zh ? number_from_words(tokens, count)
                                                          : number_from_numerals(tokens, count);
        if (n < 0) return false;
        pair = number_pair(task, n);
        return true;
    }
    if (task == Seq2SeqTask::dates) {
        CalendarDate date;
        if (!date_from_source_tokens(tokens, count, date)) return false;
        pair = date_pair(date);
        return true;
    }
    if (count < 1 || count > longest_digits) return false;
    for (std::size_t i = 0; i < count; ++i)
        if (tokens[i] < first_digit_token || tokens[i] >= first_digit_token + 10) return false;
    pair = digits_pair(task, std::vector<int>(tokens, tokens + count));
    return true;
}

const char* source_description(Seq2SeqTask task) {
    switch (task) {
        case Seq2SeqTask::numbers_en_zh: return "the English words of a number in [0, 9999], then <eos>";
        case Seq2SeqTask::numbers_zh_en: return "the Chinese numerals of a number in [0, 9999], then <eos>";
        case Seq2SeqTask::dates: return "a date of 1950-2049 as day, month, century, year, then <eos>";
        default: return "1 to 7 digits, then <eos>";
    }
}

}  // namespace

Seq2SeqTask seq2seq_task_from_name(std::string_view name) { return seq2seq_task_names.from_name(name); }

const char* seq2seq_task_name(Seq2SeqTask task) { return seq2seq_task_names.name_of(task); }

const Seq2SeqVocabulary& seq2seq_vocabulary(Seq2SeqTask task) {
    static const Seq2SeqVocabulary vocabularies[] = {
        {english_number_vocabulary(), chinese_number_vocabulary()},
        {chinese_number_vocabulary(), english_number_vocabulary()},
        {date_source_vocabulary(), date_target_vocabulary()},
        {{"<pad>", "<bos>", "<eos>", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
         {"<pad>", "<bos>", "<eos>", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
        {{"<pad>", "<bos>", "<eos>", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"},
         {"<pad>", "<bos>", "<eos>", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}};
    return vocabularies[static_cast<std::size_t>(task)];
}

Seq2SeqTaskShape seq2seq_task_shape(Seq2SeqTask task) {
    const Seq2SeqVocabulary& vocabulary = seq2seq_vocabulary(task);
    // Longest: "four thousand seven hundred and eighty two" (7 words) and its
    // 7 numerals; a date's 4 tokens; 7 digits; each with <eos>.
    const std::size_t length = task == Seq2SeqTask::dates ? date_tokens + 1 : 8;
    return {vocabulary.source.size(), vocabulary.target.size(), length, length};
}

Seq2SeqBatch seq2seq_task_batch(Seq2SeqTask task, std::size_t batch, std::uint32_t seed) {
    require_count("batch", batch, 1, limits::max_model_batch);
    const HeldOut& held = held_out_of(task);
    Random random(seed);
    std::vector<TaskPair> pairs;
    pairs.reserve(batch);
    for (std::size_t b = 0; b < batch; ++b) {
        if (is_numbers(task)) {
            pairs.push_back(number_pair(task, held.training[below(random, held.training.size())]));
        } else if (task == Seq2SeqTask::dates) {
            const auto index = static_cast<std::size_t>(held.training[below(random, held.training.size())]);
            pairs.push_back(date_pair(task_dates()[index]));
        } else {
            // The length first, then its digits again until they are not held out
            // (at most 10% of any length is), so lengths stay uniform in 1..7.
            std::vector<int> digits(1 + below(random, longest_digits));
            do {
                for (int& digit : digits) digit = first_digit_token + static_cast<int>(below(random, 10));
            } while (held.digit_keys.count(digits_key(digits)) != 0);
            pairs.push_back(digits_pair(task, std::move(digits)));
        }
    }
    return make_batch(task, pairs);
}

std::size_t seq2seq_held_out_size(Seq2SeqTask task) { return held_out_of(task).pairs.size(); }

Seq2SeqBatch seq2seq_held_out(Seq2SeqTask task, std::size_t count) {
    const HeldOut& held = held_out_of(task);
    require_count("count", count, 1, held.pairs.size());
    return make_batch(task, std::vector<TaskPair>(held.pairs.begin(), held.pairs.begin() + static_cast<std::ptrdiff_t>(count)));
}

xt::xtensor<double, 2> seq2seq_ideal_alignment(Seq2SeqTask task, const Seq2SeqBatch& batch, std::size_t item) {
    const Seq2SeqTaskShape shape = seq2seq_task_shape(task);
    const std::size_t ls = shape.source_length, lt = shape.target_length;
    // Sizes first, in 64 bits, before any value is read.
    require_count("batch", batch.batch, 1, limits::max_model_batch);
    const std::uint64_t n = batch.batch;
    if (batch.source.size() != n * ls)
        fail("source", text("batch * ", ls, " = ", n * ls, " tokens (the task's source length)"), batch.source.size());
    if (batch.source_lens.size() != n) fail("sourceLens", text(n, " lengths (batch)"), batch.source_lens.size());
    const bool with_targets = batch.target_in.size() != 0 || batch.target_out.size() != 0 || batch.target_lens.size() != 0;
    if (with_targets) {
        if (batch.target_in.size() != n * lt)
            fail("targetIn", text("batch * ", lt, " = ", n * lt, " tokens (the task's target length)"), batch.target_in.size());
        if (batch.target_out.size() != n * lt)
            fail("targetOut", text("batch * ", lt, " = ", n * lt, " tokens (the task's target length)"), batch.target_out.size());
        if (batch.target_lens.size() != n) fail("targetLens", text(n, " lengths (batch)"), batch.target_lens.size());
    }
    require_count("item", item, 0, batch.batch - 1);

    const int source_len = batch.source_lens(item);
    if (source_len < 1 || static_cast<std::size_t>(source_len) > ls)
        fail("sourceLens", text("lengths in [1, ", ls, "]"), source_len, item);
    const int* source = batch.source.data() + item * ls;
    const auto words = static_cast<std::size_t>(source_len) - 1;
    TaskPair pair;
    if (source[words] != eos_token || !pair_of_source(task, source, words, pair))
        fail("source", source_description(task), "another sequence", item);
    if (with_targets) {
        // The batch's target must be the task's own for that source.
        const std::size_t m = pair.target.size();
        const int* in = batch.target_in.data() + item * lt;
        const int* out = batch.target_out.data() + item * lt;
        if (batch.target_lens(item) != static_cast<int>(m + 1)) fail("targetLens", text("the task's length ", m + 1), batch.target_lens(item), item);
        bool same = out[m] == eos_token && in[0] == bos_token;
        for (std::size_t t = 0; t < m; ++t) same = same && out[t] == pair.target[t] && in[t + 1] == pair.target[t];
        if (!same) fail("targetOut", "the task's target for the item's source", "another sequence", item);
    }

    xt::xtensor<double, 2> alignment = xt::zeros<double>({lt, ls});
    for (std::size_t t = 0; t < pair.origins.size(); ++t) {
        const auto& origins = pair.origins[t];
        for (const std::size_t s : origins) alignment(t, s) = 1.0 / static_cast<double>(origins.size());
    }
    alignment(pair.target.size(), words) = 1.0;  // <eos> from <eos>
    return alignment;
}

namespace {

// The text's pieces between separators (spaces, tabs, newlines; hyphens too for English words).
std::vector<std::string_view> split_words(std::string_view text, bool hyphens) {
    std::vector<std::string_view> words;
    std::size_t start = 0;
    auto separator = [&](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || (hyphens && c == '-'); };
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || separator(text[i])) {
            if (i > start) words.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    return words;
}

bool all_digits(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A run of digits as a number, or -1 past `largest` (any length of digits is read safely).
long digits_value(std::string_view digits, long largest) {
    long value = 0;
    for (const char c : digits) {
        value = value * 10 + (c - '0');
        if (value > largest) return -1;
    }
    return value;
}

std::string lower_ascii(std::string_view word) {
    std::string result(word);
    for (char& c : result) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return result;
}

// The id of a word of the vocabulary (never <pad>, <bos>, <eos>), or -1.
int word_id(const std::vector<std::string>& vocabulary, std::string_view word) {
    for (std::size_t id = eos_token + 1; id < vocabulary.size(); ++id)
        if (vocabulary[id] == word) return static_cast<int>(id);
    return -1;
}

// One UTF-8 character from `at` (a lone or cut byte counts as one).
std::string_view next_character(std::string_view text, std::size_t at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    const std::size_t size = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    return text.substr(at, std::min(size, text.size() - at));
}

// `typed`: the learner's whole text, quoted as typed (a word cut out of it,
// "4782" of "-4782", would refuse digits the message calls digits); `word`,
// the part of it not understood, which a long text's quote keeps in view.
[[noreturn]] void unknown_word(Seq2SeqTask task, std::string_view typed, std::string_view word) {
    const std::string quote = quoted(typed, focus_of(typed, word));
    switch (task) {
        case Seq2SeqTask::numbers_en_zh: fail("text", "English number words (zero ... thousand, and) or digits", quote);
        case Seq2SeqTask::numbers_zh_en: fail("text", "Chinese numerals (零一二三四五六七八九十百千) or digits", quote);
        case Seq2SeqTask::dates: fail("text", "a date such as 2026-11-25 or 25 November 2026", quote);
        default: fail("text", "digits 0-9", quote);
    }
}

std::vector<int> date_tokens_of(int year, int month, int day, std::string_view text) {
    if (!is_task_date(year, month, day)) fail("text", "a valid date of the years 1950-2049", quoted(text));
    const auto tokens = date_source_tokens({year, month, day});
    return {tokens.begin(), tokens.end()};
}

// "2026-11-25" (month and day of one or two digits) as its tokens; empty if the text is not of that form.
std::vector<int> iso_date(std::string_view text) {
    const auto first = text.find('-'), second = text.rfind('-');
    if (first == std::string_view::npos || first == second) return {};
    const auto year = text.substr(0, first), month = text.substr(first + 1, second - first - 1), day = text.substr(second + 1);
    if (!all_digits(year) || !all_digits(month) || !all_digits(day) || month.size() > 2 || day.size() > 2) return {};
    return date_tokens_of(static_cast<int>(digits_value(year, 99999)), static_cast<int>(digits_value(month, 99)),
                          static_cast<int>(digits_value(day, 99)), text);
}

std::vector<int> source_words(Seq2SeqTask task, std::string_view text) {
    const Seq2SeqVocabulary& vocabulary = seq2seq_vocabulary(task);
    if (is_numbers(task) && all_digits(text)) {
        const long n = digits_value(text, largest_spelled_number);
        if (n < 0) fail("text", "a number in [0, 9999]", quoted(text));
        const NumberSpelling spelling = spell_number(static_cast<int>(n));
        return task == Seq2SeqTask::numbers_en_zh ? spelling.words : spelling.numerals;
    }
    std::vector<int> tokens;
    if (task == Seq2SeqTask::numbers_zh_en || is_digits(task)) {
        // One token a character; spaces between them allowed.
        for (std::size_t at = 0; at < text.size();) {
            const std::string_view character = next_character(text, at);
            at += character.size();
            if (character == " " || character == "\t" || character == "\n" || character == "\r") continue;
            const int id = word_id(vocabulary.source, character);
            if (id < 0) unknown_word(task, text, character);
            tokens.push_back(id);
        }
        return tokens;
    }
    if (task == Seq2SeqTask::dates) {
        const std::vector<int> iso = iso_date(text);
        if (!iso.empty()) return iso;
        for (const std::string_view word : split_words(text, false)) {
            if (word.size() == 4 && all_digits(word)) {
                // A year typed whole, "2026": its two tokens.
                const long year = digits_value(word, 9999);
                if (year < first_date_year || year > last_date_year)
                    fail("text", "a year in [1950, 2049]", quoted(text, focus_of(text, word)));
                tokens.push_back(date_two_digit_source_token(static_cast<int>(year / 100)));
                tokens.push_back(date_two_digit_source_token(static_cast<int>(year % 100)));
                continue;
            }
            int id = word_id(vocabulary.source, word);
            for (int month = 1; month <= 12 && id < 0; ++month)  // month names in any case
                if (lower_ascii(word) == lower_ascii(vocabulary.source[static_cast<std::size_t>(date_month_token(month))]))
                    id = date_month_token(month);
            if (id < 0) unknown_word(task, text, word);
            tokens.push_back(id);
        }
        return tokens;
    }
    for (const std::string_view word : split_words(text, true)) {
        const int id = word_id(vocabulary.source, lower_ascii(word));
        if (id < 0) unknown_word(task, text, word);
        tokens.push_back(id);
    }
    return tokens;
}

}  // namespace

std::size_t seq2seq_text_limit(Seq2SeqTask task) { return 64 * (seq2seq_task_shape(task).source_length - 1); }

std::vector<int> seq2seq_source_from_text(Seq2SeqTask task, std::string_view typed) {
    const std::size_t longest = seq2seq_task_shape(task).source_length - 1;
    // A megabyte of text is refused before it is split into words.
    const std::size_t longest_text = seq2seq_text_limit(task);
    if (typed.size() > longest_text) fail("text", text("at most ", longest_text, " bytes"), typed.size());
    std::vector<int> tokens = source_words(task, typed);
    if (tokens.empty()) fail("text", "at least one source word", quoted(typed));
    if (tokens.size() > longest) fail("text", text("at most ", longest, " source words"), tokens.size());
    tokens.push_back(eos_token);
    return tokens;
}

}  // namespace attention
