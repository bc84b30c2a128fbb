// How the build finds the characters each KaTeX font must keep
// (web/build-steps/tex-characters.mjs) and writes their unicode-range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringLiterals, texCharacters, texIn } from '../../web/build-steps/tex-characters.mjs';
import { unicodeRange } from '../../web/build-steps/font-subsets.mjs';

const katexCss = await readFile('node_modules/katex/dist/katex.css', 'utf8');

async function fontsOf(source) {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'tex-characters-'));
  await writeFile(path.join(folder, 'section.js'), source);
  return texCharacters(folder, katexCss);
}
const text = (points) => String.fromCodePoint(...(points ?? []));

test('string literals are read unescaped, holes marked, nested templates on their own, comments skipped', () => {
  const literals = stringLiterals(
    "// 'not this'\nconst a = '\\\\alpha \\'q\\''; /* \"nor this\" */\n"
    + 'set(`\\\\sqrt{${x ? `\\\\tfrac{${n}}{2}` : "none"}}`);\n',
  );
  assert.deepEqual(literals, ["\\alpha 'q'", '\\tfrac{\u0000}{2}', 'none', '\\sqrt{\u0000}']);
});

test('TeX is a literal\'s $inline$ parts, or the whole literal when it holds a command', () => {
  assert.deepEqual(texIn('Weights $\\alpha_i$ sum to $1$.'), ['\\alpha_i', '1']);
  assert.deepEqual(texIn('\\sum_i y_i'), ['\\sum_i y_i']);
  assert.deepEqual(texIn('plain words'), []);
});

test('each character is credited to the font KaTeX draws it in', async () => {
  const fonts = await fontsOf("export const tex = '\\\\texttt{valid\\\\_lens} + \\\\mathcal{N} + \\\\sum_i';\n");
  assert.equal(text(fonts.get('KaTeX_Typewriter 400 normal')), '_adeilnsv');
  assert.equal(text(fonts.get('KaTeX_Caligraphic 400 normal')), 'N');
  assert.ok(fonts.get('KaTeX_Size2 400 normal').includes(0x2211), 'the display sum from Size2');
  assert.ok(fonts.get('KaTeX_Size1 400 normal').includes(0x2211), 'the inline sum from Size1');
  assert.equal(fonts.get('KaTeX_Main 700 normal'), undefined, 'no bold: the bold font is not kept');
});

test('a hole keeps printable ASCII in the font it lands in; the main fonts always keep ASCII and Greek', async () => {
  const fonts = await fontsOf('export const f = (name) => `\\\\mathbf{${name}}`;\n');
  const bold = text(fonts.get('KaTeX_Main 700 normal'));
  assert.equal(bold.length, 95);
  assert.ok(bold.includes('7') && bold.includes('Q') && bold.includes('~'));
  for (const key of ['KaTeX_Main 400 normal', 'KaTeX_Math 400 italic']) {
    const kept = text(fonts.get(key));
    assert.ok(kept.includes('x') && kept.includes('9') && kept.includes('Ω') && kept.includes('ω'), key);
  }
});

test('unicode-range lists single points and runs', () => {
  assert.equal(unicodeRange([0x20, 0x21, 0x22, 0x41, 0x3b1, 0x3b2]), 'U+20-22,U+41,U+3B1-3B2');
  assert.equal(unicodeRange([]), '');
});
