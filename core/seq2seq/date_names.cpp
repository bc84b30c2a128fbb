#include "date_names.hpp"

#include "model.hpp"  // eos_token

namespace attention {

namespace {

constexpr const char* month_names[12] = {"January", "February", "March",     "April",   "May",      "June",
                                         "July",    "August",   "September", "October", "November", "December"};

// Source ids: the days "1".."9", then "00".."99", then the months.
constexpr int first_single_day = eos_token + 1;
constexpr int first_two_digit_source = first_single_day + 9;
constexpr int first_month = first_two_digit_source + 100;
// Target ids: "00".."99".
constexpr int first_two_digit_target = eos_token + 1;

std::string two_digits(int value) { return {static_cast<char>('0' + value / 10), static_cast<char>('0' + value % 10)}; }

int source_day_token(int day) { return day < 10 ? first_single_day + day - 1 : first_two_digit_source + day; }

}  // namespace

const std::vector<std::string>& date_source_vocabulary() {
    static const std::vector<std::string> words = [] {
        std::vector<std::string> result = {"<pad>", "<bos>", "<eos>"};
        for (int day = 1; day <= 9; ++day) result.push_back(std::to_string(day));
        for (int value = 0; value <= 99; ++value) result.push_back(two_digits(value));
        for (const char* month : month_names) result.push_back(month);
        return result;
    }();
    return words;
}

const std::vector<std::string>& date_target_vocabulary() {
    static const std::vector<std::string> words = [] {
        std::vector<std::string> result = {"<pad>", "<bos>", "<eos>"};
        for (int value = 0; value <= 99; ++value) result.push_back(two_digits(value));
        return result;
    }();
    return words;
}

bool is_task_date(int year, int month, int day) {
    if (year < first_date_year || year > last_date_year || month < 1 || month > 12 || day < 1) return false;
    static constexpr int days_in_month[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= days_in_month[month - 1] + (month == 2 && leap ? 1 : 0);
}

const std::vector<CalendarDate>& task_dates() {
    static const std::vector<CalendarDate> dates = [] {
        std::vector<CalendarDate> result;
        for (int year = first_date_year; year <= last_date_year; ++year)
            for (int month = 1; month <= 12; ++month)
                for (int day = 1; is_task_date(year, month, day); ++day) result.push_back({year, month, day});
        return result;
    }();
    return dates;
}

int date_month_token(int month) { return first_month + month - 1; }
int date_two_digit_source_token(int value) { return first_two_digit_source + value; }

std::array<int, date_tokens> date_source_tokens(const CalendarDate& date) {
    return {source_day_token(date.day), date_month_token(date.month),
            date_two_digit_source_token(date.year / 100), date_two_digit_source_token(date.year % 100)};
}

std::array<int, date_tokens> date_target_tokens(const CalendarDate& date) {
    return {first_two_digit_target + date.year / 100, first_two_digit_target + date.year % 100,
            first_two_digit_target + date.month, first_two_digit_target + date.day};
}

bool date_from_source_tokens(const int* tokens, std::size_t count, CalendarDate& date) {
    if (count != date_tokens) return false;
    auto two_digit = [](int token) {
        return token >= first_two_digit_source && token < first_month ? token - first_two_digit_source : -1;
    };
    // A day below 10 is written "5", never "05": only the task's own spelling counts.
    int day = -1;
    if (tokens[0] >= first_single_day && tokens[0] < first_two_digit_source)
        day = tokens[0] - first_single_day + 1;
    else if (two_digit(tokens[0]) >= 10)
        day = two_digit(tokens[0]);
    const int month = tokens[1] >= first_month && tokens[1] < first_month + 12 ? tokens[1] - first_month + 1 : -1;
    const int century = two_digit(tokens[2]), year_in_century = two_digit(tokens[3]);
    if (day < 0 || month < 0 || century < 0 || year_in_century < 0) return false;
    const int year = century * 100 + year_in_century;
    if (!is_task_date(year, month, day)) return false;
    date = {year, month, day};
    return true;
}

}  // namespace attention
