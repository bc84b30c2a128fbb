// A box that scrolls sideways (a formula wider than a phone, the
// pipeline's table) is reached by the keyboard while it scrolls: a tab
// stop (the arrow keys then scroll it), named for a screen reader (a group
// with a label, in the language shown). Where its content fits, it is no
// tab stop. Checked after layout by one ResizeObserver, never by forcing a
// layout: when the box is resized, when its `content` is, and when the
// caller says its content changed (observing it again brings a report).
import { t } from '../i18n/index.js';

let observer = null;
const boxOf = new WeakMap(); // an observed element -> the box whose scrolling it tells

function update(box) {
  // An inline box (a formula in a table's cell) has no client width and never scrolls.
  const scrolls = box.clientWidth > 0 && box.scrollWidth > box.clientWidth;
  if (scrolls === box.hasAttribute('tabindex')) return;
  if (scrolls) {
    box.tabIndex = 0;
    box.setAttribute('role', 'group');
    box.dataset.i18nAria = box.dataset.scrollLabel; // a language switch names it anew
    box.setAttribute('aria-label', t(box.dataset.scrollLabel));
  } else {
    for (const name of ['tabindex', 'role', 'aria-label', 'data-i18n-aria']) box.removeAttribute(name);
  }
}

// Keeps `box` reached by the keyboard while it scrolls, named by the
// catalogue key `labelKey`. Returns what to call when its content changed.
export function reachWhenScrolling(box, labelKey, content = null) {
  if (typeof ResizeObserver === 'undefined') return () => {};
  observer ??= new ResizeObserver((entries) => {
    for (const { target } of entries) update(boxOf.get(target));
  });
  box.dataset.scrollLabel = labelKey;
  for (const observed of content ? [box, content] : [box]) {
    boxOf.set(observed, box);
    observer.observe(observed);
  }
  return () => {
    observer.unobserve(box);
    observer.observe(box);
  };
}
