// Catalogue strings may hold $inline TeX$, **strong** and *emphasis*. They
// become DOM nodes (KaTeX for the maths, figures/tex.js), never innerHTML of catalogue text.
import { typeset } from '../figures/tex.js';

const token = /(\$[^$]+\$|\*\*[^*]+\*\*|\*[^*]+\*)/;

export function setRichText(element, text) {
  element.replaceChildren(...text.split(token).filter(Boolean).map(toNode));
}

// A value the lab has none for is written as a dash ("—" from format.js,
// "–" for an exercise not drawn yet); inside a formula it is set as text,
// since TeX's maths has no dashes.
const texOf = (part) => part.slice(1, -1).replace(/[–—]/g, '\\text{$&}');

function toNode(part) {
  if (part.startsWith('$')) {
    const span = document.createElement('span');
    typeset(span, texOf(part), { throwOnError: false });
    return span;
  }
  if (part.startsWith('**')) return wrap('strong', part.slice(2, -2));
  if (part.startsWith('*')) return wrap('em', part.slice(1, -1));
  return document.createTextNode(part);
}

function wrap(tag, text) {
  const element = document.createElement(tag);
  element.textContent = text;
  return element;
}
