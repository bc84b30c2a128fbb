// Calls `onWidth(width)` when the content width of `container` changes, and
// only then. What is observed is a ruler of no height, as wide as the
// container's content: a figure redrawn at a new width changes its own
// height, and observing the container itself would report that as a second
// resize within the same frame, which browsers hold back and report as an
// error ("ResizeObserver loop completed with undelivered notifications").
export function observeWidth(container, onWidth) {
  const ruler = document.createElement('div');
  ruler.className = 'width-ruler';
  ruler.setAttribute('aria-hidden', 'true');
  container.prepend(ruler);
  let width = null;
  new ResizeObserver(([entry]) => {
    const next = Math.round(entry.contentRect.width);
    if (next === width) return;
    width = next;
    onWidth(next);
  }).observe(ruler);
}
