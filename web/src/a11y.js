// Accessibility helpers shared by the page and the <attention-lab> element.
//
// A control a section greys out (class is-disabled, e.g. the kernel under
// average pooling) must also be out of reach of the keyboard and of
// assistive technology, not only of the mouse: it is made inert while the
// class is on. (Its greyed text is then, rightly, no contrast failure.)
export function syncDisabled(root) {
  for (const node of root.querySelectorAll('.is-disabled')) {
    if (!node.inert) {
      node.inert = true;
      node.dataset.inertByLab = '';
    }
  }
  for (const node of root.querySelectorAll('[data-inert-by-lab]')) {
    if (!node.classList.contains('is-disabled')) {
      node.inert = false;
      delete node.dataset.inertByLab;
    }
  }
}
