// Printing (web/styles/print.css): what CSS alone cannot do before the page
// is laid out on paper. A heatmap is a canvas of cells placed under its SVG
// axes at the pixel offsets of the width it was drawn at on screen, so it
// cannot shrink as an SVG does (max-width); it is scaled whole instead
// (zoom, read by print.css as --print-scale) to the paper's width and at
// most PRINT_HEIGHT tall. Set on `beforeprint`, which every browser fires
// before it lays the page out for printing (Chromium's PDF printing too);
// a screen never reads the property.
const PRINT_WIDTH = 680; // CSS px: A4's 210 mm less print.css's margins and a figure's padding
const PRINT_HEIGHT = 280; // CSS px, 74 mm: two heatmaps to a page with their text

export function scaleHeatmapsForPrint(root = document) {
  for (const heatmap of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('.heatmap'))) {
    const svg = heatmap.querySelector('.heatmap-svg');
    const width = Number(svg?.getAttribute('width'));
    const height = Number(svg?.getAttribute('height'));
    if (!(width > 0 && height > 0)) continue;
    const scale = Math.min(1, PRINT_WIDTH / width, PRINT_HEIGHT / height);
    heatmap.style.setProperty('--print-scale', scale.toFixed(3));
  }
}

// A plot's points painted on a canvas are drawn as SVG circles for the
// paper (line-plot.js), where the SVG shrinks to its cell and a canvas
// placed at the screen's offsets would not follow it.
export function drawPlotsAsVectors(printing, root = document) {
  for (const plot of root.querySelectorAll('[data-canvas-layers]')) {
    plot.dispatchEvent(new CustomEvent('figure-vector', { detail: printing }));
  }
}

export function preparePrinting() {
  window.addEventListener('beforeprint', () => {
    scaleHeatmapsForPrint();
    drawPlotsAsVectors(true);
  });
  window.addEventListener('afterprint', () => drawPlotsAsVectors(false));
}
