#pragma once
// The dates of the dates task (tasks.hpp): every valid calendar date of the
// years 1950-2049 (36,525 of them), written day first with the month's name
// in the source and in ISO order in the target, so the alignment crosses:
//   source  "25" "November" "20" "26"   (day, month, the year as two tokens)
//   target  "20" "26" "11" "25"         (the year, month and day, two digits each)
// The year is split in two tokens ("19" "87", "20" "26") to keep both
// vocabularies under 128 words: the source has <pad> <bos> <eos>, the days
// "1".."9", the two-digit tokens "00".."99" (days 10-31 and the year's
// halves) and the twelve month names (124 words); the target <pad> <bos>
// <eos> and "00".."99" (103 words).
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace attention {

inline constexpr int first_date_year = 1950;
inline constexpr int last_date_year = 2049;

const std::vector<std::string>& date_source_vocabulary();
const std::vector<std::string>& date_target_vocabulary();

struct CalendarDate {
    int year = first_date_year, month = 1, day = 1;
};

// Gregorian: in range of years, month 1-12, day within the month (29 February in leap years).
bool is_task_date(int year, int month, int day);

// Every date of the task in calendar order.
const std::vector<CalendarDate>& task_dates();

inline constexpr std::size_t date_tokens = 4;  // without <eos>, on both sides
std::array<int, date_tokens> date_source_tokens(const CalendarDate& date);
std::array<int, date_tokens> date_target_tokens(const CalendarDate& date);

// The date these source tokens spell as date_source_tokens does; false if none.
bool date_from_source_tokens(const int* tokens, std::size_t count, CalendarDate& date);

// Vocabulary ids of the source: a month's name (1-12), a two-digit token (0-99).
int date_month_token(int month);
int date_two_digit_source_token(int value);

}  // namespace attention
