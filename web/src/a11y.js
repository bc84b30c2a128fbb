// Accessibility helpers shared by the page and the <attention-lab> element.
//
// A control a section greys out (class is-disabled, e.g. the kernel under
// average pooling) must also be out of reach of the keyboard and of
// assistive technology, not only of the mouse: it is made inert while the
// class is on. (Its greyed text is then, rightly, no contrast failure.)
// The nodes it made inert are kept here, to be given back when the class
// goes: searching a section's nodes for a mark on every drag cost more.
const madeInert = new Set();
export function syncDisabled(root) {
  for (const node of root.getElementsByClassName('is-disabled')) {
    if (!node.inert) {
      node.inert = true;
      madeInert.add(node);
    }
  }
  for (const node of madeInert) {
    if (!node.isConnected) madeInert.delete(node);
    else if (root.contains(node) && !node.classList.contains('is-disabled')) {
      node.inert = false;
      madeInert.delete(node);
    }
  }
}
