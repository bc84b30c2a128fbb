#include "bleu.hpp"

#include <algorithm>
#include <map>

#include "numerics/portable_math.hpp"

namespace attention {

double bleu(const std::vector<int>& prediction, const std::vector<int>& label, std::size_t k) {
    const std::size_t len_pred = prediction.size(), len_label = label.size();
    if (len_pred == 0) return 0.0;
    double score = portable::exp(std::min(0.0, 1.0 - static_cast<double>(len_label) / static_cast<double>(len_pred)));
    // Orders longer than the prediction are skipped, as d2l's current bleu
    // does (range(1, min(k, len_pred) + 1)): the brevity penalty alone
    // answers for a short prediction.
    double weight = 1.0;
    for (std::size_t n = 1; n <= std::min(k, len_pred); ++n) {
        weight *= 0.5;
        // The label's n-grams with their counts; each matches at most that often (clipping).
        std::map<std::vector<int>, std::size_t> label_counts;
        for (std::size_t i = 0; i + n <= len_label; ++i)
            ++label_counts[std::vector<int>(label.begin() + static_cast<std::ptrdiff_t>(i),
                                            label.begin() + static_cast<std::ptrdiff_t>(i + n))];
        std::size_t matches = 0;
        for (std::size_t i = 0; i + n <= len_pred; ++i) {
            const auto found = label_counts.find(std::vector<int>(prediction.begin() + static_cast<std::ptrdiff_t>(i),
                                                                  prediction.begin() + static_cast<std::ptrdiff_t>(i + n)));
            if (found != label_counts.end() && found->second > 0) {
                ++matches;
                --found->second;
            }
        }
        score *= portable::pow(static_cast<double>(matches) / static_cast<double>(len_pred - n + 1), weight);
    }
    return score;
}

}  // namespace attention
