#include "number_names.hpp"

#include <map>

#include "model.hpp"  // pad_token, bos_token, eos_token

namespace attention {

namespace {

// English ids: zero..nineteen, then twenty..ninety, then hundred, thousand, and.
constexpr int first_english_word = eos_token + 1;
int english_under_twenty(int n) { return first_english_word + n; }
int english_tens(int tens) { return first_english_word + 20 + (tens - 2); }  // tens in [2, 9]
constexpr int english_hundred = first_english_word + 28;
constexpr int english_thousand = english_hundred + 1;
constexpr int english_and = english_hundred + 2;

// Chinese ids: 零 and the digits 一..九 at first_numeral + digit, then 十 百 千.
constexpr int first_numeral = eos_token + 1;
int chinese_digit(int digit) { return first_numeral + digit; }
constexpr int chinese_ten = first_numeral + 10;
constexpr int chinese_hundred = chinese_ten + 1;
constexpr int chinese_thousand = chinese_ten + 2;

// Appends one English word and the numerals it becomes.
void add(NumberSpelling& spelling, int word, const std::vector<int>& numerals) {
    spelling.words.push_back(word);
    for (const int numeral : numerals) {
        spelling.numerals.push_back(numeral);
        spelling.numeral_word.push_back(spelling.words.size() - 1);
    }
}

// Every spelling, its index the number, and the reverse look-ups, made once.
struct SpellingTables {
    std::vector<NumberSpelling> spellings;
    std::map<std::vector<int>, int> by_words, by_numerals;
    SpellingTables() {
        spellings.reserve(largest_spelled_number + 1);
        for (int n = 0; n <= largest_spelled_number; ++n) {
            spellings.push_back(spell_number(n));
            by_words.emplace(spellings.back().words, n);
            by_numerals.emplace(spellings.back().numerals, n);
        }
    }
};

const SpellingTables& tables() {
    static const SpellingTables instance;
    return instance;
}

int look_up(const std::map<std::vector<int>, int>& table, const int* tokens, std::size_t count) {
    const auto found = table.find(std::vector<int>(tokens, tokens + count));
    return found == table.end() ? -1 : found->second;
}

}  // namespace

const std::vector<std::string>& english_number_vocabulary() {
    static const std::vector<std::string> words = {
        "<pad>",   "<bos>",    "<eos>",     "zero",     "one",     "two",     "three",    "four",    "five",
        "six",     "seven",    "eight",     "nine",     "ten",     "eleven",  "twelve",   "thirteen", "fourteen",
        "fifteen", "sixteen",  "seventeen", "eighteen", "nineteen", "twenty", "thirty",   "forty",   "fifty",
        "sixty",   "seventy",  "eighty",    "ninety",   "hundred", "thousand", "and"};
    return words;
}

const std::vector<std::string>& chinese_number_vocabulary() {
    static const std::vector<std::string> numerals = {"<pad>", "<bos>", "<eos>", "零", "一", "二", "三", "四",
                                                      "五",    "六",    "七",    "八", "九", "十", "百", "千"};
    return numerals;
}

NumberSpelling spell_number(int n) {
    NumberSpelling spelling;
    if (n == 0) {
        add(spelling, english_under_twenty(0), {chinese_digit(0)});
        return spelling;
    }
    const int thousands = n / 1000, hundreds = n / 100 % 10, rest = n % 100;
    if (thousands != 0) {
        add(spelling, english_under_twenty(thousands), {chinese_digit(thousands)});
        add(spelling, english_thousand, {chinese_thousand});
    }
    if (hundreds != 0) {
        add(spelling, english_under_twenty(hundreds), {chinese_digit(hundreds)});
        add(spelling, english_hundred, {chinese_hundred});
    }
    if (rest == 0) return spelling;
    if (n >= 100) {
        // "and" announces the part under a hundred; Chinese writes 零 where a
        // zero digit stands between it and the part above (1015, 1005, 305).
        const bool gap = (thousands != 0 && hundreds == 0) || (hundreds != 0 && rest < 10);
        add(spelling, english_and, gap ? std::vector<int>{chinese_digit(0)} : std::vector<int>{});
    }
    const int tens = rest / 10, units = rest % 10;
    if (rest < 10) {
        add(spelling, english_under_twenty(rest), {chinese_digit(rest)});
    } else if (rest < 20) {
        // 十五 alone, 一十五 after a higher part: "fifteen" gives all of them.
        std::vector<int> numerals;
        if (n >= 100) numerals.push_back(chinese_digit(1));
        numerals.push_back(chinese_ten);
        if (units != 0) numerals.push_back(chinese_digit(units));
        add(spelling, english_under_twenty(rest), numerals);
    } else {
        add(spelling, english_tens(tens), {chinese_digit(tens), chinese_ten});
        if (units != 0) add(spelling, english_under_twenty(units), {chinese_digit(units)});
    }
    return spelling;
}

int number_from_words(const int* words, std::size_t count) { return look_up(tables().by_words, words, count); }

int number_from_numerals(const int* numerals, std::size_t count) {
    return look_up(tables().by_numerals, numerals, count);
}

}  // namespace attention
