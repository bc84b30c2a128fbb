// A figure as a standalone SVG file: its <svg> copied with the computed
// styles written in (the file needs no stylesheet), the HTML legend redrawn
// in SVG, a heatmap's canvas as one image, and the figure's caption above
// it and the lab's state as a link below it (labelFrame).
//
// A heatmap's cells are one image (the canvas, scaled up with nearest-
// neighbour to at least the size on screen) inside the SVG, not one <rect>
// per cell: a 50 x 1000 matrix would be 50,000 rects (megabytes, slow to
// open), while the image keeps every cell exact and sharp at any zoom; axes,
// labels and colour bar stay vector.
import { element } from '../dom.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

// Computed styles worth writing into an exported SVG, with the value that
// needs no writing (SVG's own default).
const STYLE_DEFAULTS = {
  fill: 'rgb(0, 0, 0)', 'fill-opacity': '1', stroke: 'none', 'stroke-width': '1px', 'stroke-opacity': '1',
  'stroke-dasharray': 'none', 'stroke-linecap': 'butt', 'stroke-linejoin': 'miter', opacity: '1',
  'font-weight': '400', 'font-style': 'normal', 'text-anchor': 'start', 'dominant-baseline': 'auto',
  'font-variant-numeric': 'normal',
};
const TEXT_STYLES = ['font-size', 'font-family'];

// Writes the source's computed styles into the clone; false when the source
// is not displayed (the clone is then left out).
function inlineStyles(source, clone) {
  const style = getComputedStyle(source);
  if (style.display === 'none') return false;
  const declarations = [];
  for (const [property, fallback] of Object.entries(STYLE_DEFAULTS)) {
    const value = style.getPropertyValue(property);
    if (value && value !== fallback) declarations.push(`${property}:${value}`);
  }
  if (source.localName === 'text' || source.localName === 'svg') {
    for (const property of TEXT_STYLES) declarations.push(`${property}:${style.getPropertyValue(property)}`);
  }
  clone.removeAttribute('class');
  for (const name of [...clone.getAttributeNames()]) if (name.startsWith('data-')) clone.removeAttribute(name);
  // Through the CSSOM, not setAttribute('style'): a strict style-src allows it.
  clone.removeAttribute('style');
  if (declarations.length > 0) clone.style.cssText = declarations.join(';');
  return true;
}

// Deep copy of an SVG element with its computed styles written in, so the
// file looks as on screen with no stylesheet. Hidden elements are left out.
function styledClone(source) {
  const clone = source.cloneNode(false);
  if (!inlineStyles(source, clone)) return null;
  for (const child of source.childNodes) {
    if (child.nodeType === Node.ELEMENT_NODE) {
      const copy = styledClone(child);
      if (copy) clone.append(copy);
    } else if (child.nodeType === Node.TEXT_NODE) {
      clone.append(child.cloneNode());
    }
  }
  return clone;
}

function svgElement(tag, attributes = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'style') node.style.cssText = String(value);
    else node.setAttribute(name, String(value));
  }
  return node;
}

// The canvas's cells as a PNG data: URL, each cell repeated so the image is
// at least as large as on screen (viewers then need no smoothing choice).
function cellsImage(canvas, width, height) {
  const kx = Math.max(1, Math.ceil(width / canvas.width));
  const ky = Math.max(1, Math.ceil(height / canvas.height));
  const big = element('canvas', { width: canvas.width * kx, height: canvas.height * ky });
  const context = big.getContext('2d');
  context.imageSmoothingEnabled = false;
  context.drawImage(canvas, 0, 0, big.width, big.height);
  return big.toDataURL('image/png');
}

// The figure as a standalone SVG document: { text, width, height }.
// descriptor: { svg, canvas, gapsShowPaper } as given to attachFigureExport.
export function figureSvg(figure, descriptor) {
  const source = descriptor.svg;
  const figureBox = figure.getBoundingClientRect();
  const svgBox = source.getBoundingClientRect();
  let width = Math.ceil(Number(source.getAttribute('width')) || svgBox.width);
  let height = Math.ceil(Number(source.getAttribute('height')) || svgBox.height);
  const root = styledClone(source);
  root.removeAttribute('style');
  root.removeAttribute('role');
  root.removeAttribute('aria-label');
  root.setAttribute('xmlns', SVG_NS);
  root.setAttribute('xmlns:xlink', XLINK_NS);
  const rootStyle = getComputedStyle(source);
  root.setAttribute('font-family', rootStyle.fontFamily);
  const paper = getComputedStyle(figure.closest('.figure-cell') ?? figure).backgroundColor;
  const background = svgElement('rect', { width: '100%', height: '100%', fill: paper && paper !== 'rgba(0, 0, 0, 0)' ? paper : '#ffffff' });
  root.insertBefore(background, root.firstChild);

  if (descriptor.canvas) {
    const canvas = descriptor.canvas;
    const box = canvas.getBoundingClientRect();
    const x = box.left - svgBox.left;
    const y = box.top - svgBox.top;
    const defs = svgElement('defs');
    const pattern = svgElement('pattern', { id: 'undefined-cells', width: 7, height: 7, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
    pattern.append(svgElement('rect', { width: 3, height: 7, fill: '#d9dde6' }));
    defs.append(pattern);
    const hatch = svgElement('rect', { x, y, width: box.width, height: box.height, fill: 'url(#undefined-cells)' });
    const image = svgElement('image', {
      x, y, width: box.width, height: box.height, preserveAspectRatio: 'none', style: 'image-rendering:pixelated',
    });
    const href = cellsImage(canvas, box.width, box.height);
    image.setAttribute('href', href);
    image.setAttributeNS(XLINK_NS, 'xlink:href', href);
    root.insertBefore(image, background.nextSibling);
    // A heatmap's undefined cells are gaps onto the hatching; a matrix's
    // canvas hatches its own cells, and the gaps between them show the paper.
    if (!descriptor.gapsShowPaper) {
      root.insertBefore(hatch, image);
      root.insertBefore(defs, background);
    }
  }

  // The HTML legend below a plot, redrawn in SVG at the same place.
  const legend = figure.querySelector('.legend');
  if (legend) {
    const group = svgElement('g', { class: 'legend' });
    for (const item of legend.querySelectorAll('.legend-item')) {
      const swatch = item.querySelector('svg');
      const label = item.querySelector('span');
      if (swatch) {
        const box = swatch.getBoundingClientRect();
        const copy = styledClone(swatch);
        if (copy) {
          copy.setAttribute('x', box.left - svgBox.left);
          copy.setAttribute('y', box.top - svgBox.top);
          copy.removeAttribute('aria-hidden');
          group.append(copy);
        }
      }
      if (label) {
        const box = label.getBoundingClientRect();
        const style = getComputedStyle(label);
        const text = svgElement('text', {
          x: box.left - svgBox.left, y: box.top - svgBox.top + box.height * 0.75,
          style: `font-size:${style.fontSize};fill:${style.color};font-family:${style.fontFamily}`,
        });
        text.textContent = label.textContent;
        group.append(text);
      }
      height = Math.max(height, Math.ceil(item.getBoundingClientRect().bottom - svgBox.top) + 4);
    }
    root.append(group);
  }
  height = Math.max(height, Math.ceil(Math.min(figureBox.bottom, svgBox.bottom) - svgBox.top));
  // On screen the SVG may draw past its box (overflow: visible, e.g. a
  // colour bar's label): the file's view box takes in all of the drawing.
  const drawn = source.getBBox();
  const left = Math.min(0, Math.floor(drawn.x) - 2);
  const top = Math.min(0, Math.floor(drawn.y) - 2);
  width = Math.max(width, Math.ceil(drawn.x + drawn.width) + 2) - left;
  height = Math.max(height, Math.ceil(drawn.y + drawn.height) + 2) - top;
  const frame = labelFrame(root, figure, source, { left, top, width, height });
  for (const [name, value] of Object.entries(frame)) background.setAttribute(name, value);
  root.setAttribute('width', frame.width);
  root.setAttribute('height', frame.height);
  root.setAttribute('viewBox', `${frame.x} ${frame.y} ${frame.width} ${frame.height}`);
  return {
    text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`,
    width: frame.width, height: frame.height,
  };
}

// A saved figure travels without the page: it carries its caption (in the
// page's language) as a title above it and the lab's state as a link below
// it, the URL with the current hash, which opens the lab as it was. The PNG
// is drawn from this SVG, so it carries both too.
export const TITLE_BAND = 24;
export const LINK_BAND = 16;
const TITLE_SIZE = 13;
const LINK_SIZE = 9;

// The figure's caption as it reads on screen, or its accessible name for a
// figure without one. A KaTeX formula holds its text twice more (MathML and
// the TeX source, for screen readers): only the rendered text is kept.
export function figureTitle(figure, source) {
  const caption = figure.closest('figure')?.querySelector(':scope > figcaption')?.cloneNode(true);
  caption?.querySelectorAll('.katex-mathml').forEach((node) => node.remove());
  const text = (caption?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text || (source.getAttribute('aria-label') ?? '');
}

// Adds the <title>, <desc>, title line and link line around the drawing's
// box; returns the file's box, taller by the two bands and wide enough for
// the title (the URL may be cut: it stays whole in the link and in <desc>).
function labelFrame(root, figure, source, { left, top, width, height }) {
  const heading = figureTitle(figure, source);
  const url = location.href;
  const fontFamily = root.getAttribute('font-family') ?? 'sans-serif';
  const title = svgElement('title');
  title.textContent = heading;
  const desc = svgElement('desc');
  desc.textContent = url;
  root.insertBefore(desc, root.firstChild);
  root.insertBefore(title, desc);

  const headingText = svgElement('text', {
    x: left + 4, y: top - TITLE_BAND + TITLE_SIZE + 4,
    style: `font-size:${TITLE_SIZE}px;font-weight:600;fill:#1f2430;font-family:${fontFamily}`,
  });
  headingText.textContent = heading;
  const link = svgElement('a', { href: url });
  link.setAttributeNS(XLINK_NS, 'xlink:href', url);
  const linkText = svgElement('text', {
    x: left + 4, y: top + height + LINK_SIZE + 3,
    style: `font-size:${LINK_SIZE}px;fill:#3a5a9a;font-family:${fontFamily}`,
  });
  linkText.textContent = url;
  link.append(linkText);
  root.append(headingText, link);
  const headingWidth = Math.ceil(textWidth(heading, `600 ${TITLE_SIZE}px ${fontFamily}`)) + 8;
  return { x: left, y: top - TITLE_BAND, width: Math.max(width, headingWidth), height: height + TITLE_BAND + LINK_BAND };
}

function textWidth(text, font) {
  const context = element('canvas').getContext('2d');
  context.font = font;
  return context.measureText(text).width;
}
