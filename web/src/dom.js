// The page's one DOM helper: an element with attributes and children.
// `className` sets the class, `dataset` the data-* attributes; an attribute
// that is undefined, null or false is left out, true gives an empty one.
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') node.className = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
}
