#!/usr/bin/python3
"""Writes core/contract/escaped_code_points.hpp: the code points an error's
quote of a caller's text escapes (core/contract/errors.hpp, quoted()).

    /usr/bin/python3 tests/references/make_escaped_code_points.py

A code point is escaped when it shows nothing by itself, or changes how the
text around it shows, or is no character at all:

- General_Category Cc (controls), Cf (format: soft hyphen, bidirectional
  controls, zero-width characters, the BOM, tags, invisible operators, ...),
  Cs (surrogates), Co (private use), Cn (unassigned, noncharacters
  included), Zl and Zp (the line and paragraph separators);
- Default_Ignorable_Code_Point (Hangul fillers, the combining grapheme
  joiner, variation selectors, Mongolian free variation selectors, musical
  formatting symbols, tags, ...), whatever its category.

The data: Debian's unicode-data package (/usr/share/unicode, Unicode 15.0.0;
python3-fonttools, a build package, depends on it), its
extracted/DerivedGeneralCategory.txt (every code point's category, Cn listed
too) and DerivedCoreProperties.txt (Default_Ignorable_Code_Point).

Checked twice: here, every code point's category against Python's own
unicodedata (another copy of the data, possibly an older Unicode: a code point
may differ only where DerivedAge.txt says it was assigned after that version);
and tests/core/test_quoted_text.cpp reads UnicodeData.txt (a third form of
the data, with its First/Last ranges) and DerivedCoreProperties.txt and checks
every code point of 0..10FFFF against the table as compiled.
"""

import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.environ.get('ATTENTION_UNICODE_DATA', '/usr/share/unicode')
OUTPUT = os.path.join(ROOT, 'core', 'contract', 'escaped_code_points.hpp')

ESCAPED_CATEGORIES = {'Cc', 'Cf', 'Cs', 'Co', 'Cn', 'Zl', 'Zp'}
LINE = re.compile(r'^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([^#\s]+(?:\s[^#\s]+)*)\s*(?:#.*)?$')


def ranges_of(path):
    """(first, last, value) of every data line of a UCD file."""
    with open(path, encoding='utf-8') as lines:
        for line in lines:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            match = LINE.match(line)
            if not match:
                sys.exit(f'{path}: unreadable line {line!r}')
            first = int(match.group(1), 16)
            last = int(match.group(2), 16) if match.group(2) else first
            yield first, last, match.group(3).strip()


def version_of(path):
    with open(path, encoding='utf-8') as lines:
        head = lines.readline()
    match = re.search(r'-(\d+\.\d+\.\d+)\.txt', head)
    return match.group(1) if match else 'unknown'


def main():
    category = [None] * 0x110000
    for first, last, value in ranges_of(os.path.join(DATA, 'extracted', 'DerivedGeneralCategory.txt')):
        for c in range(first, last + 1):
            category[c] = value
    missing = [c for c in range(0x110000) if category[c] is None]
    if missing:
        sys.exit(f'DerivedGeneralCategory.txt leaves {len(missing)} code points without a category')

    ignorable = [False] * 0x110000
    for first, last, value in ranges_of(os.path.join(DATA, 'DerivedCoreProperties.txt')):
        if value == 'Default_Ignorable_Code_Point':
            for c in range(first, last + 1):
                ignorable[c] = True

    # Python's unicodedata: the same categories, up to the code points assigned after its version.
    age = {}
    for first, last, value in ranges_of(os.path.join(DATA, 'DerivedAge.txt')):
        for c in range(first, last + 1):
            age[c] = tuple(int(part) for part in value.split('.'))
    python_version = tuple(int(part) for part in unicodedata.unidata_version.split('.'))[:2]
    newer = 0
    for c in range(0x110000):
        theirs = unicodedata.category(chr(c))
        if theirs != category[c]:
            if theirs == 'Cn' and age.get(c, (0, 0)) > python_version:
                newer += 1
                continue
            sys.exit(f'U+{c:04X}: {category[c]} in the data files, {theirs} in Python {unicodedata.unidata_version}')

    escaped = [category[c] in ESCAPED_CATEGORIES or ignorable[c] for c in range(0x110000)]
    ranges = []
    for c in range(0x110000):
        if not escaped[c]:
            continue
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])

    version = version_of(os.path.join(DATA, 'extracted', 'DerivedGeneralCategory.txt'))
    # The ranges as LEB128 varints, two a range: its start's distance from the end of the range
    # before (the first's from 0), then its length - 1; every BLOCK-th range indexed.
    runs, index, previous_end = [], [], 0
    for k, (first, last) in enumerate(ranges):
        gap = varint(first - previous_end)
        if k % BLOCK == 0:
            index.append((first, len(runs) + len(gap)))
        runs += gap + varint(last - first)
        previous_end = last + 1
    if len(runs) >= 1 << 16:
        sys.exit('the runs outgrew the index\'s 16-bit offsets')
    run_rows = rows_of([f'0x{byte:02X},' for byte in runs])
    index_rows = rows_of([f'{{0x{first:04X}, {offset}}},' for first, offset in index])
    with open(OUTPUT, 'w', encoding='utf-8') as out:
        out.write(f'''#pragma once
// Generated by tests/references/make_escaped_code_points.py; do not edit.
//
// The code points an error's quote of a caller's text escapes (errors.hpp,
// quoted()): General_Category Cc, Cf, Cs, Co, Cn, Zl, Zp, and every
// Default_Ignorable_Code_Point, from Unicode {version} as Debian's unicode-data
// package holds it (/usr/share/unicode: extracted/DerivedGeneralCategory.txt,
// DerivedCoreProperties.txt). The script checks the categories against
// Python's unicodedata; tests/core/test_quoted_text.cpp checks every code
// point against UnicodeData.txt and DerivedCoreProperties.txt.
// {sum(escaped)} code points in {len(ranges)} ranges, sorted and disjoint, held in
// {len(runs)} bytes (a table of pairs of 32-bit code points would take {8 * len(ranges)}).
#include <cstdint>

namespace attention::unicode {{

inline constexpr const char* escaped_code_points_version = "{version}";

// The ranges, each as two LEB128 varints (7 bits a byte, low bits first, the
// high bit set on every byte but a number's last): how far its first code
// point lies past the end of the range before (the first range: past 0),
// then its length - 1.
inline constexpr std::uint8_t escaped_code_point_runs[] = {{
{run_rows}
}};

// Every {BLOCK}th range: its first code point, and where its length's varint
// starts in the runs. A lookup reads at most {BLOCK} ranges.
struct EscapedRunsEntry {{
    char32_t first;
    std::uint16_t length_at;
}};
inline constexpr EscapedRunsEntry escaped_code_point_index[] = {{
{index_rows}
}};

}}  // namespace attention::unicode
''')
    print(f'{OUTPUT}: {len(ranges)} ranges, {sum(escaped)} code points (Unicode {version}) in {len(runs)} bytes; '
          f'{newer} code points assigned after Python\'s Unicode {unicodedata.unidata_version}')


BLOCK = 32


def varint(number):
    out = []
    while True:
        byte = number & 0x7F
        number >>= 7
        if number:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return out


def rows_of(items, width=110):
    rows, row = [], '   '
    for item in items:
        if len(row) + 1 + len(item) > width:
            rows.append(row)
            row = '   '
        row += ' ' + item
    rows.append(row)
    return '\n'.join(rows)


if __name__ == '__main__':
    main()
