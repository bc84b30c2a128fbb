// A canvas paints colours it read from the page's styles (a theme's
// points, a hatching): when the system's colour scheme changes while the
// page is open, the figures that paint so paint again. Held weakly: a
// figure dropped from the page is not kept alive by this list.
const painters = new Set();
let listening = false;

/** @param {() => void} paint the figure's own repaint, kept alive by the figure */
export function repaintOnColourScheme(paint) {
  painters.add(new WeakRef(paint));
  if (listening || typeof matchMedia !== 'function') return;
  listening = true;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    for (const painter of painters) {
      const live = painter.deref();
      if (live) live();
      else painters.delete(painter);
    }
  });
}
