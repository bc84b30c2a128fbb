// KaTeX, loaded when the first formula is asked for, not with the page: its
// code and fonts are a third of the page's weight, and the first screen
// draws few formulas or none. A formula asked for before KaTeX is there is
// typeset when it arrives (the page waits for that before it says it is
// ready: texReady()); after that, at once. The page loads KaTeX's
// stylesheet (its fonts inlined) beside it (useTexStylesheet); the element
// carries it in its own CSS.
let katex = null;
let loading = null;
let stylesheet = null;
const waiting = new Map(); // element -> [tex, options]: its latest formula

// The page's KaTeX stylesheet, loaded with KaTeX: the formulas are typeset once both are there.
export function useTexStylesheet(href) {
  stylesheet = href;
}

function loadStylesheet() {
  if (!stylesheet || !globalThis.document) return null;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = stylesheet;
  const loaded = new Promise((resolve) => {
    // A missing stylesheet leaves the formulas unstyled, not untypeset.
    link.onload = resolve;
    link.onerror = resolve;
  });
  document.head.append(link);
  return loaded;
}

function load() {
  loading ??= Promise.all([import('katex'), loadStylesheet()]).then(([module]) => {
    katex = module.default;
    for (const [element, [tex, options]] of waiting) katex.render(tex, element, options);
    waiting.clear();
  });
  return loading;
}

// Typesets `tex` into `element` (KaTeX's render, with its options).
export function typeset(element, tex, options) {
  if (katex) {
    katex.render(tex, element, options);
    return;
  }
  element.replaceChildren();
  waiting.set(element, [tex, options]);
  load();
}

// Resolves once every formula asked for so far is typeset.
export const texReady = () => loading ?? Promise.resolve();
