#!/usr/bin/python3
"""Writes tests/references/task_references.json: what the C++ tests of the
translation tasks (core/seq2seq/tasks.hpp) and of BLEU (core/seq2seq/bleu.hpp)
check against.

    /usr/bin/python3 tests/references/make_task_references.py

- numbers: every number 0-9999 in English words and in Chinese numerals,
  written here independently of the C++ (English recursively, Chinese digit
  by digit with the zeros collapsed afterwards).
- dates: how many valid dates the years 1950-2049 hold, by Python's calendar.
- bleu: d2l's bleu (d2l.bleu of d2l 1.0, over space-separated tokens, its
  n-gram orders running to min(k, len_pred)) on fixed and seeded cases; the
  tokens are integers, joined with spaces for d2l.
"""

import collections
import datetime
import json
import math
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))

UNDER_TWENTY = ('zero one two three four five six seven eight nine ten eleven twelve thirteen '
                'fourteen fifteen sixteen seventeen eighteen nineteen').split()
TENS = 'twenty thirty forty fifty sixty seventy eighty ninety'.split()


def english(n):
    """British English: 'and' before the last part under a hundred."""
    if n < 20:
        return UNDER_TWENTY[n]
    if n < 100:
        return TENS[n // 10 - 2] + ('' if n % 10 == 0 else ' ' + UNDER_TWENTY[n % 10])
    big, unit = (1000, 'thousand') if n >= 1000 else (100, 'hundred')
    head = english(n // big) + ' ' + unit
    rest = n % big
    if rest == 0:
        return head
    if rest < 100:
        return head + ' and ' + english(rest)
    return head + ' ' + english(rest)


DIGITS = '零一二三四五六七八九'


def chinese(n):
    """Digit by digit with its unit, zeros as 零, then runs of 零 collapsed and
    trailing ones dropped; 一十 at the start becomes 十."""
    if n == 0:
        return '零'
    text = ''
    for digit, unit in zip(f'{n:04d}', ['千', '百', '十', '']):
        d = int(digit)
        text += DIGITS[d] + unit if d else '零'
    text = re.sub('零+', '零', text).strip('零')
    if text.startswith('一十'):
        text = text[1:]
    return text


def d2l_bleu(pred_seq, label_seq, k):
    """d2l's bleu, as the book defines it (section 10.7 of d2l 1.0)."""
    pred_tokens, label_tokens = pred_seq.split(' '), label_seq.split(' ')
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, min(k, len_pred) + 1):
        num_matches, label_subs = 0, collections.defaultdict(int)
        for i in range(len_label - n + 1):
            label_subs[' '.join(label_tokens[i: i + n])] += 1
        for i in range(len_pred - n + 1):
            if label_subs[' '.join(pred_tokens[i: i + n])] > 0:
                num_matches += 1
                label_subs[' '.join(pred_tokens[i: i + n])] -= 1
        score *= math.pow(num_matches / (len_pred - n + 1), math.pow(0.5, n))
    return score


def bleu_cases():
    fixed = [
        ([4, 5, 6, 7], [4, 5, 6, 7], 2),          # a perfect match
        ([4, 5, 6, 7], [4, 5, 6, 7], 4),
        ([4, 5, 6], [4, 5, 6, 7, 8], 2),          # short: the brevity penalty
        ([4, 5, 6, 7, 8, 9], [4, 5, 6], 2),       # long: no penalty, lower precision
        ([4, 4, 4, 4], [4, 5, 4], 1),             # clipping of repeated tokens
        ([4], [4], 2),                            # shorter than k: order 2 skipped
        ([4], [5, 4, 6], 4),
        ([9, 8], [4, 5, 6], 3),                   # nothing in common
        ([6, 5, 4], [4, 5, 6], 1),                # unigrams only
        ([6, 5, 4], [4, 5, 6], 2),                # no bigram in common
        ([4, 5, 6, 4, 5], [4, 5, 4, 5, 6], 3),
    ]
    generator = random.Random(27)
    for _ in range(40):
        pred = [generator.randint(3, 5) for _ in range(generator.randint(1, 8))]
        label = [generator.randint(3, 5) for _ in range(generator.randint(1, 8))]
        fixed.append((pred, label, generator.randint(1, 3)))
    return [{'prediction': p, 'label': l, 'k': k,
             'bleu': d2l_bleu(' '.join(map(str, p)), ' '.join(map(str, l)), k)} for p, l, k in fixed]


def count_dates(first, last):
    return (datetime.date(last, 12, 31) - datetime.date(first, 1, 1)).days + 1


def dump_json(data):
    numbers = ',\n    '.join(json.dumps([english(n), chinese(n)], ensure_ascii=False) for n in range(10000))
    cases = ',\n    '.join(json.dumps(case) for case in data['bleu'])
    return ('{\n  "numbers": [\n    ' + numbers + '\n  ],\n'
            f'  "dates": {json.dumps(data["dates"])},\n'
            '  "bleu": [\n    ' + cases + '\n  ]\n}\n')


def main():
    data = {'dates': {'first_year': 1950, 'last_year': 2049, 'count': count_dates(1950, 2049)},
            'bleu': bleu_cases()}
    path = os.path.join(HERE, 'task_references.json')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(dump_json(data))
    print('wrote', path)


if __name__ == '__main__':
    main()
