// Printing (web/styles/print.css): what CSS alone cannot do before the page
// is laid out on paper. A heatmap, and a matrix whose cells are on a
// canvas, is a canvas placed under its SVG at the pixel offsets of the
// width it was drawn at on screen, so it cannot shrink as an SVG does
// (max-width); it is scaled whole instead (zoom, read by print.css as
// --print-scale) to the paper's width and at most PRINT_HEIGHT tall. Set on
// `beforeprint`, which every browser fires before it lays the page out for
// printing (Chromium's PDF printing too); a screen never reads the property.
const PRINT_WIDTH = 680; // CSS px: A4's 210 mm less print.css's margins and a figure's padding
const PRINT_HEIGHT = 280; // CSS px, 74 mm: two heatmaps to a page with their text
// Each figure drawn on a canvas under its SVG: the figure, and its SVG.
const CANVAS_FIGURES = [['.heatmap', '.heatmap-svg'], ['.matrix.has-canvas', '.matrix-svg']];

function scaleCanvasFiguresForPrint(root) {
  for (const [figureSelector, svgSelector] of CANVAS_FIGURES) {
    for (const figure of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(figureSelector))) {
      const svg = figure.querySelector(svgSelector);
      const width = Number(svg?.getAttribute('width'));
      const height = Number(svg?.getAttribute('height'));
      if (!(width > 0 && height > 0)) continue;
      const scale = Math.min(1, PRINT_WIDTH / width, PRINT_HEIGHT / height);
      figure.style.setProperty('--print-scale', scale.toFixed(3));
    }
  }
}

// A plot's points painted on a canvas are drawn as SVG circles for the
// paper (line-plot.js), where the SVG shrinks to its cell and a canvas
// placed at the screen's offsets would not follow it.
function drawPlotsAsVectors(printing, root) {
  for (const plot of root.querySelectorAll('[data-canvas-layers]')) {
    plot.dispatchEvent(new CustomEvent('figure-vector', { detail: printing }));
  }
}

// `roots()`: where the lab's figures are when the page is printed (the
// document; each <attention-lab> element's shadow root, which no query of
// the document reaches).
export function preparePrinting(roots = () => [document]) {
  window.addEventListener('beforeprint', () => {
    for (const root of roots()) {
      scaleCanvasFiguresForPrint(root);
      drawPlotsAsVectors(true, root);
    }
  });
  window.addEventListener('afterprint', () => {
    for (const root of roots()) drawPlotsAsVectors(false, root);
  });
}
