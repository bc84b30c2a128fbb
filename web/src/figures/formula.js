// A formula rendered by KaTeX (bundled, no CDN; loaded when first needed,
// tex.js). TeX strings come from the sections' own templates, numbers
// formatted by them.
import { typeset } from './tex.js';
import { element } from '../dom.js';

// Typeset formulas each formula keeps, most recent last: a slider moved
// back and forth (heads 5, 10, 5) shows a formula it showed a moment ago,
// and putting its nodes back costs nothing next to typesetting it again.
const KEPT = 6;

export function createFormula(container, { display = true, className = 'formula' } = {}) {
  const node = element(display ? 'div' : 'span', { className });
  container.append(node);
  let shown = null;
  const kept = new Map(); // TeX -> its rendered nodes, out of the document
  return {
    element: node,
    set(tex) {
      if (tex === shown) return; // KaTeX is cheap, but a drag fires often
      // Only what KaTeX drew is kept (before it has loaded the node is empty).
      if (shown !== null && node.childNodes.length > 0) {
        kept.delete(shown);
        kept.set(shown, [...node.childNodes]);
        if (kept.size > KEPT) kept.delete(kept.keys().next().value);
      }
      shown = tex;
      const nodes = kept.get(tex);
      if (nodes) {
        kept.delete(tex);
        node.replaceChildren(...nodes);
      } else {
        typeset(node, tex, { displayMode: display, throwOnError: false });
      }
    },
  };
}
