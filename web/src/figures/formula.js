// A formula rendered by KaTeX (bundled, no CDN; loaded when first needed,
// tex.js). TeX strings come from the sections' own templates, numbers
// formatted by them.
//
// A drag changes a formula's numbers, not its structure, and typesetting
// is the costliest part of many redraws (about 12 ms at a 4x slower CPU
// for one short formula). So a formula is typeset once per structure (its
// TeX with every run of digits taken out) and afterwards only the digits
// in its typeset text are rewritten: in the drawn part and in the MathML
// that screen readers read. That is safe only where KaTeX's output holds
// the TeX's digit runs, whole and in the same order; a formula is checked
// for that once per structure and, where it does not hold, typeset anew.
import { typeset } from './tex.js';
import { reachWhenScrolling } from './scroll-reach.js';
import { element } from '../dom.js';

const DIGITS = /\d+(?:\.\d+)?/g;
const structureOf = (tex) => tex.replace(DIGITS, '#');

// The text nodes of `part` that hold digit runs (a TeX annotation's left
// out), and the runs, in document order.
function digitNodes(part) {
  const nodes = [];
  const runs = [];
  const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (text.parentNode.nodeName.toLowerCase() === 'annotation') continue;
    const found = /** @type {Text} */ (text).data.match(DIGITS);
    if (!found) continue;
    nodes.push(text);
    runs.push(...found);
  }
  return { nodes, runs };
}

// For each of KaTeX's two parts (drawn and MathML), the text nodes holding
// the digit runs of `tex`, if each part holds those runs, in order, and no
// other, with the TeX annotation; null otherwise (or if `node` holds no
// typeset formula yet).
function digitsOf(node, tex) {
  const expected = tex.match(DIGITS) ?? [];
  const parts = [node.querySelector('.katex-html'), node.querySelector('.katex-mathml')];
  if (expected.length === 0 || parts.includes(null)) return null;
  const found = parts.map(digitNodes);
  const same = ({ runs }) => runs.length === expected.length && runs.every((run, i) => run === expected[i]);
  if (!found.every(same)) return null;
  return { parts: found.map(({ nodes }) => nodes), annotation: node.querySelector('annotation') };
}

// Rewrites the digit runs of each part's text nodes with those of `tex`.
function rewriteDigits({ parts, annotation }, tex) {
  const values = tex.match(DIGITS);
  for (const nodes of parts) {
    let next = 0;
    for (const text of nodes) {
      const data = text.data.replace(DIGITS, () => values[next++]);
      if (data !== text.data) text.data = data;
    }
  }
  if (annotation) annotation.textContent = tex;
}

export function createFormula(container, { display = true, className = 'formula' } = {}) {
  const node = element(display ? 'div' : 'span', { className });
  container.append(node);
  // Wider than a phone, it scrolls sideways: then the keyboard reaches it.
  // (KaTeX's typeset line, an inline block as wide as the formula, not its display block, as wide as the box.)
  const contentChanged = reachWhenScrolling(node, 'scroll.formula', () => node.querySelector('.katex-html') ?? node.firstElementChild);
  let shown = null;
  let structure = null;
  // For the structure shown: undefined until checked (KaTeX's output is there
  // once it has loaded), then its parts' digit nodes and annotation, or null: typeset anew.
  let digits;
  return {
    element: node,
    set(tex) {
      if (tex === shown) return; // a drag fires often
      const nextStructure = structureOf(tex);
      const sameStructure = nextStructure === structure;
      if (sameStructure && digits === undefined && node.querySelector('.katex')) digits = digitsOf(node, shown);
      if (sameStructure && digits) {
        rewriteDigits(digits, tex);
      } else {
        if (!sameStructure) digits = undefined;
        typeset(node, tex, { displayMode: display, throwOnError: false });
      }
      shown = tex;
      structure = nextStructure;
      contentChanged();
    },
  };
}
