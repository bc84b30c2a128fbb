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
//
// widthsDrawn() resolves once every figure is drawn at its container's
// width: a figure is first drawn at a provisional width, before a rendering
// update reports the real one, and a height measured in between (the
// sections' kept heights, offscreen-sections.js) would be the provisional
// drawing's. On a fast machine every section is built in one task, with no
// rendering update before the measure.
let redrawsWaiting = 0;

// A page that draws no frames (a tab in the background) waits no longer
// than this a frame: the redraws wait for its frames, the page does not.
const LONGEST_FRAME_MS = 200;

const afterRenderingUpdate = () => new Promise((resolve) => {
  // A task queued in a frame's callbacks runs after that frame's layout and
  // its ResizeObserver reports.
  requestAnimationFrame(() => setTimeout(resolve, 0));
  setTimeout(resolve, LONGEST_FRAME_MS);
});

// Bounded: a layout that never rests (a redraw that changes its own
// ruler's width every frame) resolves after this many frames all the same.
const MOST_FRAMES = 30;

export async function widthsDrawn() {
  for (let frames = 0; frames < MOST_FRAMES; frames += 1) {
    await afterRenderingUpdate();
    if (redrawsWaiting === 0) return;
  }
}

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
    if (frame) return;
    redrawsWaiting += 1;
    frame = requestAnimationFrame(() => {
      frame = 0;
      redrawsWaiting -= 1;
      if (reported === width) return;
      width = reported;
      onWidth(width);
    });
  }).observe(ruler);
}
