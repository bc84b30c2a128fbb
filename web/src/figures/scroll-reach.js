// A box that scrolls sideways (a formula wider than a phone, the
// pipeline's table) is reached by the keyboard while it scrolls: a tab
// stop (the arrow keys then scroll it), named for a screen reader (a group
// with a label, in the language shown). Where its content fits, it is no
// tab stop.
//
// Checked after layout, never by forcing one: one ResizeObserver watches
// each box's content (its width is the content's own, which no other
// drawing changes), and a resize of the window checks the boxes drawn
// once a frame. The boxes themselves are not observed: their width follows
// the page's, which another observer's redraw may change in the same
// frame (a scroll bar appearing), and an observation left undelivered
// then is reported as a "ResizeObserver loop" error (WebKit did).
import { t } from '../i18n/index.js';

let observer = null;
const boxOf = new WeakMap(); // an observed content -> its box
const observed = new WeakMap(); // a box -> the content observed
const boxes = new Set(); // WeakRefs of every box, for the window's resizes
let resizeCheck = null;

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

// Once a frame after the window's resizes: the boxes laid out (a section
// skipped while out of view is checked when its content is drawn).
function checkDrawnBoxes() {
  resizeCheck = null;
  for (const reference of boxes) {
    const box = reference.deref();
    if (!box) boxes.delete(reference);
    else if (box.isConnected && (box.checkVisibility?.({ contentVisibilityAuto: true }) ?? true)) update(box);
  }
}

function observeContent(box, contentOf) {
  const content = contentOf();
  const before = observed.get(box);
  if (before === content) {
    // The same element with new text: observed again, it is reported again.
    observer.unobserve(content);
  } else if (before) {
    observer.unobserve(before);
  }
  if (!content) return;
  observed.set(box, content);
  boxOf.set(content, box);
  observer.observe(content);
}

// Keeps `box` reached by the keyboard while it scrolls, named by the
// catalogue key `labelKey`. contentOf: its content now (a formula's is
// typeset anew). Returns what to call when its content changed.
export function reachWhenScrolling(box, labelKey, contentOf = () => box.firstElementChild) {
  if (typeof ResizeObserver === 'undefined') return () => {};
  if (!observer) {
    observer = new ResizeObserver((entries) => {
      for (const { target } of entries) {
        const owner = boxOf.get(target);
        if (owner) update(owner);
      }
    });
    window.addEventListener('resize', () => {
      resizeCheck ??= requestAnimationFrame(checkDrawnBoxes);
    });
  }
  box.dataset.scrollLabel = labelKey;
  boxes.add(new WeakRef(box));
  observeContent(box, contentOf);
  return () => observeContent(box, contentOf);
}
