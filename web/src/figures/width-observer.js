// Calls `onWidth(width)` when the content width of `container` changes, and
// only then. What is observed is a ruler of no height, as wide as the
// container's content: a figure redrawn at a new width changes its own
// height, and observing the container itself would report that as a second
// resize within the same frame, which browsers hold back and report as an
// error ("ResizeObserver loop completed with undelivered notifications").
// The figure is redrawn in the next animation frame, not in the observer's
// callback: a redraw there can still resize other rulers in the same frame
// (a taller page gains a scroll bar, and every ruler narrows), which is the
// same error. A ruler taken out of the document (its section removed) reports
// a width of 0: that is no width to draw at, and no frame is asked for.
export function observeWidth(container, onWidth) {
  const ruler = document.createElement('div');
  ruler.className = 'width-ruler';
  ruler.setAttribute('aria-hidden', 'true');
  container.prepend(ruler);
  let width = null;
  let reported = null;
  let frame = 0;
  new ResizeObserver(([entry]) => {
    if (!ruler.isConnected) return;
    reported = Math.round(entry.contentRect.width);
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      if (reported === width) return;
      width = reported;
      onWidth(width);
    });
  }).observe(ruler);
}
