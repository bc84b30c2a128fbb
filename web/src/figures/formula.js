// A formula rendered by KaTeX (bundled, no CDN; loaded when first needed,
// tex.js). TeX strings come from the sections' own templates, numbers
// formatted by them.
import { typeset } from './tex.js';
import { element } from '../dom.js';

export function createFormula(container, { display = true, className = 'formula' } = {}) {
  const node = element(display ? 'div' : 'span', { className });
  container.append(node);
  let shown = null;
  return {
    element: node,
    set(tex) {
      if (tex === shown) return; // KaTeX is cheap, but a drag fires often
      shown = tex;
      typeset(node, tex, { displayMode: display, throwOnError: false });
    },
  };
}
