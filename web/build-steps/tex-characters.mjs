// Which characters the page's TeX can put on screen, in which of KaTeX's
// fonts, found at build time so that each font can be cut down to them. The
// TeX lives in the sources' string literals: whole formulas (`\\sum ...`),
// templates whose ${...} holes are filled at run time, and catalogue strings
// with $inline TeX$. Each is laid out by KaTeX as the page would, and every
// character is credited to the font its classes select (katex.css's rules).
// A hole can hold any number or name, so the font it lands in keeps all of
// printable ASCII; the page's main upright and italic fonts always keep it,
// with the Greek letters. tests/browser/page-load.test.mjs checks the result:
// every glyph a formula draws lies in its font's unicode-range.
import katex from 'katex';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const HOLE = '\u0000';
const ASCII = [[0x20, 0x7e]];
const ALWAYS = [
  ...ASCII,
  [0xa0, 0xa0], // KaTeX's no-break space
  [0x391, 0x3a9], [0x3b1, 0x3c9], [0x3d1, 0x3d6], [0x3f0, 0x3f5], // Greek, with TeX's variants
  [0x2212, 0x2212], // the minus sign of formatted numbers
];
const ALWAYS_IN = ['KaTeX_Main 400 normal', 'KaTeX_Math 400 italic'];

// The contents of a file's string literals, unescaped; a template's holes
// become HOLE. Nested templates inside a hole are literals of their own.
export function stringLiterals(source) {
  const literals = [];
  const stack = []; // open templates: their text so far and the brace depth of the hole being read
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    const template = stack.at(-1);
    if (template && template.depth === 0) {
      // inside a template's text
      if (c === '\\') { template.text += unescape(source[i + 1]); i += 2; continue; }
      if (c === '`') { literals.push(stack.pop().text); i += 1; continue; }
      if (c === '$' && source[i + 1] === '{') { template.text += HOLE; template.depth = 1; i += 2; continue; }
      template.text += c; i += 1; continue;
    }
    if (c === '/' && source[i + 1] === '/') { i = source.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '/' && source[i + 1] === '*') { i = source.indexOf('*/', i) + 2; continue; }
    if (c === '`') { stack.push({ text: '', depth: 0 }); i += 1; continue; }
    if (c === '"' || c === "'") {
      let text = '';
      i += 1;
      while (i < source.length && source[i] !== c) {
        if (source[i] === '\\') { text += unescape(source[i + 1]); i += 2; } else { text += source[i]; i += 1; }
      }
      literals.push(text);
      i += 1;
      continue;
    }
    if (template && c === '{') template.depth += 1;
    if (template && c === '}') template.depth -= 1;
    i += 1;
  }
  return literals;
}

function unescape(c) {
  return { n: '\n', t: '\t', r: '' }[c] ?? c;
}

// The TeX in one literal: its $...$ parts if it has any, else the whole
// literal when it holds a TeX command.
export function texIn(literal) {
  const inline = literal.match(/\$[^$]+\$/g);
  if (inline) return inline.map((part) => part.slice(1, -1));
  return /\\[a-zA-Z]/.test(literal) ? [literal] : [];
}

// KaTeX's font rules (`.katex .mathbf { font-family: KaTeX_Main; font-weight: bold }`),
// as [classes the node needs, what they set], in the stylesheet's order.
function fontRules(css) {
  const rules = [];
  for (const [, selectors, body] of css.matchAll(/([^{}]+)\{([^}]*)\}/g)) {
    const set = {};
    for (const [, property, value] of body.matchAll(/font-(family|weight|style):\s*([^;]+)/g)) set[property] = value.trim();
    if (!Object.keys(set).length || selectors.includes('@')) continue;
    for (const selector of selectors.split(',')) {
      const last = selector.trim().split(/\s*>\s*|\s+/).pop();
      if (selector.trim().startsWith('.katex ')) rules.push([last.split('.').filter(Boolean), set]);
    }
  }
  return rules;
}

function fontKey({ family, weight, style }) {
  return `${family.split(',')[0]} ${weight === 'bold' ? 700 : 400} ${style}`;
}

// Walks two layouts of one formula, its holes filled two ways, side by side:
// a symbol that differs between them is a hole.
function creditCharacters(a, b, font, rules, credit) {
  let own = font;
  for (const [classes, set] of rules) {
    if (classes.every((name) => a.classes?.includes(name))) own = { ...own, ...set };
  }
  if (typeof a.text === 'string' && !a.children) {
    if (a.text !== b.text) credit(own, null);
    else for (const character of a.text) credit(own, character.codePointAt(0));
    return;
  }
  (a.children ?? []).forEach((child, index) => creditCharacters(child, b.children[index], own, rules, credit));
}

async function sourceFiles(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

function addRanges(set, ranges) {
  for (const [first, last] of ranges) for (let point = first; point <= last; point += 1) set.add(point);
}

// For each font ('KaTeX_Main 700 normal'), the sorted code points the page's formulas can draw in it.
export async function texCharacters(sourceFolder, katexCss) {
  const rules = fontRules(katexCss);
  const fonts = new Map();
  const pointsOf = (font) => {
    const key = fontKey(font);
    if (!fonts.has(key)) fonts.set(key, new Set());
    return fonts.get(key);
  };
  const credit = (font, point) => (point === null ? addRanges(pointsOf(font), ASCII) : pointsOf(font).add(point));
  const base = { family: 'KaTeX_Main', weight: 'normal', style: 'normal' };
  for (const key of ALWAYS_IN) {
    const [family, weight, style] = key.split(' ');
    addRanges(pointsOf({ family, weight: weight === '700' ? 'bold' : 'normal', style }), ALWAYS);
  }
  for (const file of await sourceFiles(sourceFolder)) {
    for (const literal of stringLiterals(await readFile(file, 'utf8'))) {
      for (const tex of texIn(literal)) {
        for (const displayMode of [false, true]) {
          for (const [one, other] of [['0', '1'], ['a', 'b']]) { // a hole holding a number, then a name
            const layout = (fill) => katex.__renderToDomTree(tex.replaceAll(HOLE, fill), { displayMode, throwOnError: false, output: 'html' });
            creditCharacters(layout(one), layout(other), base, rules, credit);
          }
        }
      }
    }
  }
  return new Map([...fonts].map(([key, points]) => [key, [...points].sort((x, y) => x - y)]));
}
