// KaTeX's fonts cut down to the characters the page's TeX can draw (see
// tex-characters.mjs), each with the unicode-range of what it still maps, so
// a browser never asks a cut font for a glyph it lacks. The cutting is done
// by fontTools (subset_font.py).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
// Debian's interpreter, where python3-fonttools lives (a python3 earlier on PATH may not have it).
const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(path.dirname(new URL(import.meta.url).pathname), 'subset_font.py');

// 'U+20-7E,U+A0,...' from sorted code points.
export function unicodeRange(points) {
  const ranges = [];
  for (const point of points) {
    const last = ranges.at(-1);
    if (last && point === last[1] + 1) last[1] = point;
    else ranges.push([point, point]);
  }
  const hex = (point) => point.toString(16).toUpperCase();
  return ranges.map(([first, last]) => (first === last ? `U+${hex(first)}` : `U+${hex(first)}-${hex(last)}`)).join(',');
}

// A function giving a font file cut down to the given code points (the same
// font is cut once, however many bundles ask for it).
export function fontSubsetter() {
  const folder = mkdtemp(path.join(os.tmpdir(), 'attention-lab-fonts-'));
  const cut = new Map(); // font path -> promise of { bytes, unicodeRange }
  return (fontPath, codePoints) => {
    if (!cut.has(fontPath)) {
      cut.set(fontPath, (async () => {
        const target = path.join(await folder, path.basename(fontPath));
        const wanted = codePoints.map((point) => point.toString(16)).join(',');
        const { stdout } = await run(PYTHON, [SCRIPT, fontPath, target, wanted]);
        return { bytes: await readFile(target), unicodeRange: unicodeRange(JSON.parse(stdout)) };
      })());
    }
    return cut.get(fontPath);
  };
}
