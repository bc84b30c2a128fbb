// Export: every figure saves as PNG, SVG and CSV, and a section that
// declares a `pytorch` snippet (sections/registry.js) gets "Copy as PyTorch".
// Everything is made in the page from what is on screen and in the figures'
// data (no request anywhere: downloads are blob: links, images data: URLs).
//
// Figures register themselves: line-plot.js and heatmap.js call
// attachFigureExport() with what only they know (their SVG, their canvas,
// their data as a table). So a figure a new section creates, even later,
// has the menu without any wiring.
//
// SVG of a heatmap: the cells are one image (the canvas, scaled up with
// nearest-neighbour to at least the size on screen) inside the SVG, not one
// <rect> per cell: a 50 x 1000 matrix would be 50,000 rects (megabytes, slow
// to open), while the image keeps every cell exact and sharp at any zoom;
// axes, labels and colour bar stay vector.
import { t } from './i18n/index.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const PNG_SCALE = 2;

// Computed styles worth writing into an exported SVG, with the value that
// needs no writing (SVG's own default).
const STYLE_DEFAULTS = {
  fill: 'rgb(0, 0, 0)', 'fill-opacity': '1', stroke: 'none', 'stroke-width': '1px', 'stroke-opacity': '1',
  'stroke-dasharray': 'none', 'stroke-linecap': 'butt', 'stroke-linejoin': 'miter', opacity: '1',
  'font-weight': '400', 'font-style': 'normal', 'text-anchor': 'start', 'dominant-baseline': 'auto',
  'font-variant-numeric': 'normal',
};
const TEXT_STYLES = ['font-size', 'font-family'];

let statusId = 0;

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'dataset') Object.assign(node.dataset, value);
    else node.setAttribute(name, String(value));
  }
  node.append(...children);
  return node;
}

function labelled(tag, key, attributes = {}) {
  const node = element(tag, { ...attributes, dataset: { ...(attributes.dataset ?? {}), i18n: key } });
  node.textContent = t(key);
  return node;
}

// A file name from the figure's data-figure name (or its section's id).
export function figureName(figure) {
  const named = figure.closest('[data-figure]')?.dataset.figure ?? figure.dataset.figure;
  const section = figure.closest('[data-section]')?.dataset.section;
  const base = named ?? (section ? `${section}-figure` : 'figure');
  return `attention-lab-${base.replace(/[^\w-]+/g, '-')}`;
}

// ---- CSV ----

function csvCell(value) {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  const text = String(value ?? '');
  // Quote text that would split or start a formula in a spreadsheet.
  return /[",\n\r]|^[=+\-@\t]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv({ header, rows }) {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

// A line plot's layers as a table: for one layer with `columns`, plain
// columns (e.g. the data set's x, y); otherwise series, x, y per point.
export function plotTable(specs, csv = {}) {
  const layers = [...specs.entries()].filter(([name, spec]) =>
    spec && spec.xs && spec.ys && (!csv.layers || csv.layers.includes(name)));
  if (csv.columns && layers.length === 1) {
    const [, spec] = layers[0];
    return { header: csv.columns, rows: Array.from(spec.xs, (x, i) => [x, spec.ys[i]]) };
  }
  const rows = [];
  for (const [name, spec] of layers) {
    for (let i = 0; i < spec.xs.length; i += 1) rows.push([name, spec.xs[i], spec.ys[i]]);
  }
  return { header: ['series', 'x', 'y'], rows };
}

// A heatmap's matrix as a table: the corner names both axes, the first row
// holds the column values (or indexes), each row starts with its value.
export function matrixTable({ values, rows, cols, rowValues, colValues }, { xLabel = 'column', yLabel = 'row' } = {}) {
  const colHeads = Array.from({ length: cols }, (_, j) => (colValues ? colValues[j] : j));
  const body = [];
  for (let i = 0; i < rows; i += 1) {
    const row = [rowValues ? rowValues[i] : i];
    for (let j = 0; j < cols; j += 1) row.push(values[i * cols + j]);
    body.push(row);
  }
  return { header: [`${yLabel} \\ ${xLabel}`, ...colHeads], rows: body };
}

// ---- SVG ----

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
  const big = document.createElement('canvas');
  big.width = canvas.width * kx;
  big.height = canvas.height * ky;
  const context = big.getContext('2d');
  context.imageSmoothingEnabled = false;
  context.drawImage(canvas, 0, 0, big.width, big.height);
  return big.toDataURL('image/png');
}

// The figure as a standalone SVG document (text).
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
    root.insertBefore(hatch, image);
    root.insertBefore(defs, background);
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
  for (const [name, value] of Object.entries({ x: left, y: top, width, height })) background.setAttribute(name, value);
  root.setAttribute('width', width);
  root.setAttribute('height', height);
  root.setAttribute('viewBox', `${left} ${top} ${width} ${height}`);
  const title = svgElement('title');
  title.textContent = source.getAttribute('aria-label') ?? '';
  root.insertBefore(title, root.firstChild);
  return { text: `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`, width, height };
}

// The SVG drawn onto a canvas (an image from a data: URL: allowed by the
// page's img-src, and it leaves the canvas readable) and saved as PNG.
export function svgToPng({ text, width, height }, scale = PNG_SCALE) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      const context = canvas.getContext('2d');
      context.imageSmoothingEnabled = false; // the heatmap's cells stay sharp
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG: the browser made no image'))), 'image/png');
    };
    image.onerror = () => reject(new Error('PNG: the SVG could not be drawn'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  });
}

// ---- Downloads and the clipboard ----

export function download(blob, filename, near) {
  const url = URL.createObjectURL(blob);
  const link = element('a', { href: url, download: filename });
  link.hidden = true;
  (near?.getRootNode?.() instanceof ShadowRoot ? near.getRootNode() : document.body).append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function copyText(text, near) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No permission (or no secure context): the old way, through a selection.
    const area = element('textarea', { readonly: '', 'aria-hidden': 'true', tabindex: '-1' });
    area.value = text;
    area.className = 'visually-hidden';
    const root = near.getRootNode() instanceof ShadowRoot ? near.getRootNode() : document.body;
    root.append(area);
    area.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    area.remove();
    return copied;
  }
}

function statusLine() {
  statusId += 1;
  const node = element('span', { class: 'export-status', role: 'status', id: `export-status-${statusId}` });
  return node;
}

// ---- The menus ----

// Called by each figure module once, with:
//   svg: its <svg>; canvas: the heatmap's cells (optional);
//   table(): its data as { header, rows } for CSV, or null.
export function attachFigureExport(figure, descriptor) {
  if (figure.dataset.exportable) return;
  figure.dataset.exportable = descriptor.canvas ? 'heatmap' : 'plot';
  const status = statusLine();
  const formats = [['png', 'export.png'], ['svg', 'export.svg']];
  if (descriptor.table) formats.push(['csv', 'export.csv']);
  const buttons = formats.map(([format, key]) => {
    const button = labelled('button', key, { type: 'button', class: 'export-button', dataset: { export: format } });
    button.addEventListener('click', () => run(format));
    return button;
  });
  const menu = element('details', { class: 'figure-export' }, [
    labelled('summary', 'export.menu'),
    element('div', { class: 'figure-export-menu' }, buttons),
  ]);
  menu.append(status);
  figure.append(menu);

  async function run(format) {
    const name = figureName(figure);
    try {
      let blob;
      let file;
      if (format === 'csv') {
        const table = descriptor.table();
        if (!table) return;
        blob = new Blob(['\ufeff', toCsv(table)], { type: 'text/csv;charset=utf-8' });
        file = `${name}.csv`;
      } else {
        const svg = figureSvg(figure, descriptor);
        blob = format === 'svg' ? new Blob([svg.text], { type: 'image/svg+xml' }) : await svgToPng(svg);
        file = `${name}.${format}`;
      }
      download(blob, file, figure);
      status.textContent = t('export.saved', { file });
    } catch (error) {
      status.textContent = t('export.failed', { message: String(error?.message ?? error) });
    }
  }
}

// Figures of kinds that do not register themselves (an <svg> drawn by a
// section's own module) still get PNG and SVG: any figure cell's direct
// <div> holding an <svg>. Run after sections are built and after redraws.
export function attachFallbackExports(root) {
  for (const body of root.querySelectorAll('.figure-body')) {
    for (const child of body.children) {
      if (child.localName !== 'div' || child.dataset.exportable) continue;
      const svg = [...child.children].find((node) => node.localName === 'svg');
      if (svg) attachFigureExport(child, { svg, table: null });
    }
  }
}

// "Copy as PyTorch" for each shown section that declares a snippet, with
// the code also shown on request (for a browser that refuses the clipboard).
// getComputations: () => the computations once the core is loaded.
export function attachSectionTools({ sections, store, getComputations }) {
  for (const { id, root, declarations } of sections) {
    if (!declarations?.pytorch) continue;
    const snippet = () => {
      const computations = getComputations();
      return computations ? declarations.pytorch(store.get(), computations, id) : '';
    };
    const status = statusLine();
    const copy = labelled('button', 'export.pytorch', {
      type: 'button', class: 'button button-quiet', dataset: { action: 'copy-pytorch' },
    });
    const code = element('code');
    const pre = element('pre', { class: 'code-view', tabindex: '0' }, [code]);
    const details = element('details', { class: 'code-details' }, [labelled('summary', 'export.pytorchShow'), pre]);
    const refresh = () => {
      if (details.open) code.textContent = snippet();
    };
    details.addEventListener('toggle', refresh);
    store.subscribe(refresh);
    copy.addEventListener('click', async () => {
      const text = snippet();
      if (!text) return;
      code.textContent = text;
      const copied = await copyText(text, copy);
      status.textContent = t(copied ? 'export.copied' : 'export.copyFailed');
      if (!copied) details.open = true;
    });
    const tools = element('div', { class: 'section-tools' }, [copy, status, details]);
    const body = root.querySelector('.section-body');
    if (body) body.after(tools);
    else root.append(tools);
  }
}
