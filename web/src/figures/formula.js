// A formula rendered by KaTeX (bundled, no CDN). TeX strings come from the
// sections' own templates, numbers formatted by them.
import katex from 'katex';

export function createFormula(container, { display = true, className = 'formula' } = {}) {
  const element = document.createElement(display ? 'div' : 'span');
  element.className = className;
  container.append(element);
  let shown = null;
  return {
    element,
    set(tex) {
      if (tex === shown) return; // KaTeX is cheap, but a drag fires often
      shown = tex;
      katex.render(tex, element, { displayMode: display, throwOnError: false });
    },
  };
}
