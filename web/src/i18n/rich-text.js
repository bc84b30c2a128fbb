// Catalogue strings may hold $inline TeX$, **strong** and *emphasis*. They
// become DOM nodes (KaTeX for the maths), never innerHTML of catalogue text.
import katex from 'katex';

const token = /(\$[^$]+\$|\*\*[^*]+\*\*|\*[^*]+\*)/;

export function setRichText(element, text) {
  element.replaceChildren(...text.split(token).filter(Boolean).map(toNode));
}

function toNode(part) {
  if (part.startsWith('$')) {
    const span = document.createElement('span');
    katex.render(part.slice(1, -1), span, { throwOnError: false });
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
