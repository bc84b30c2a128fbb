#pragma once
// The numbers 0-9999 spelled in English words and in Chinese numerals, the
// pair the numbers tasks (tasks.hpp) translate, with which English word each
// numeral comes from.
//
// English (British "and" before the last part under a hundred, no hyphens):
//   305 "three hundred and five", 1015 "one thousand and fifteen",
//   4782 "four thousand seven hundred and eighty two", 2000 "two thousand".
// Chinese: 15 十五 but 110 一百一十 and 1015 一千零一十五; 二 (never 两);
// trailing zeros dropped (3000 三千, 3500 三千五百); one 零 for an internal
// gap of zeros (1005 一千零五, 1050 一千零五十, 305 三百零五).
//
// Token ids are those of the vocabularies below: 0, 1, 2 are <pad>, <bos>,
// <eos>; English then zero..nineteen, twenty..ninety, hundred, thousand, and
// (34 in all); Chinese 零一二三四五六七八九十百千 (16 in all).
#include <cstddef>
#include <string>
#include <vector>

namespace attention {

inline constexpr int largest_spelled_number = 9999;

const std::vector<std::string>& english_number_vocabulary();
const std::vector<std::string>& chinese_number_vocabulary();

struct NumberSpelling {
    std::vector<int> words;          // English token ids, without <eos>
    std::vector<int> numerals;       // Chinese token ids, without <eos>
    // For each numeral, the English word it comes from: 八 and 十 of 80 from
    // "eighty", 一 十 五 of 1015 from "fifteen", 零 from "and".
    std::vector<std::size_t> numeral_word;
};

// n in [0, largest_spelled_number]; the caller checks.
NumberSpelling spell_number(int n);

// The number these English words (or Chinese numerals) spell exactly as
// spell_number does, or -1 if they spell none.
int number_from_words(const int* words, std::size_t count);
int number_from_numerals(const int* numerals, std::size_t count);

}  // namespace attention
