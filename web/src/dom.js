// The page's DOM helpers: an element with attributes and children, and writes of what differs only.
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

// Sets what differs only: a training run redraws its figures at every
// chunk, and an attribute or text written again with the same value still
// costs the browser a style, layout and paint of that node. null removes.
export function setAttributes(node, attributes) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null) {
      if (node.hasAttribute(name)) node.removeAttribute(name);
    } else if (node.getAttribute(name) !== String(value)) {
      node.setAttribute(name, String(value));
    }
  }
}

export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
