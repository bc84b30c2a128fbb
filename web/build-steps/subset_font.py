"""Cuts a woff2 font down to the given code points (fontTools, Debian's
python3-fonttools with python3-brotli for woff2).

Usage: subset_font.py <font.woff2> <out.woff2> <hex,hex,...>
Prints the code points the cut font maps, as JSON, for its unicode-range.
"""
import json
import sys

from fontTools import subset
from fontTools.ttLib import TTFont


def main(source, target, unicodes):
    options = subset.Options()
    options.flavor = 'woff2'
    options.layout_features = ['*']  # keep KaTeX's kerning and ligatures for what stays
    # No TrueType hinting: a fifth of each font, and the browsers that draw
    # the page (anti-aliased, on high-density or ChromeOS, Android, macOS and
    # iOS screens, or DirectWrite's smoothing) ignore or barely use it.
    options.hinting = False
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[int(point, 16) for point in unicodes.split(',')])
    subsetter.subset(font)
    subset.save_font(font, target, options)
    print(json.dumps(sorted(TTFont(target).getBestCmap())))


if __name__ == '__main__':
    main(*sys.argv[1:])
