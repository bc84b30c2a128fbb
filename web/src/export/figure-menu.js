// The "Save" menu of a figure: PNG, SVG and, where the figure has data, CSV.
// Each figure module registers its figures itself (line-plot.js, heatmap.js,
// matrix.js, plane.js) with what only it knows: its SVG, its canvas, its
// data as a table. So a figure a section creates, even later, has the menu
// with no wiring and no search of the page.
import { t } from '../i18n/index.js';
import { toCsv } from './csv.js';
import { figureSvg } from './svg.js';
import { svgToPng } from './png.js';
import { download } from './download.js';
import { element } from '../dom.js';
import { labelled, statusLine } from './menu-elements.js';

// A file name from the figure's data-figure name (or its section's id).
export function figureName(figure) {
  const named = figure.closest('[data-figure]')?.dataset.figure ?? figure.dataset.figure;
  const section = figure.closest('[data-section]')?.dataset.section;
  const base = named ?? (section ? `${section}-figure` : 'figure');
  return `attention-lab-${base.replace(/[^\w-]+/g, '-')}`;
}

// Called by each figure module once per figure, with:
//   svg: its <svg>; canvas: the heatmap's cells (optional), gapsShowPaper:
//   whether the canvas's transparent pixels are paper (a matrix's) or hatching;
//   table(): its data as { header, rows } for CSV, or null for no CSV;
//   asVector(make) (optional): make() run while what the figure paints on a
//   canvas is drawn in its SVG, for a file that is vector throughout.
export function attachFigureExport(figure, descriptor) {
  if (figure.dataset.exportable) return;
  figure.dataset.exportable = descriptor.canvas ? 'heatmap' : 'plot';
  const status = statusLine();
  const formats = [['png', 'export.png'], ['svg', 'export.svg']];
  if (descriptor.table) formats.push(['csv', 'export.csv']);
  const buttons = formats.map(([format, key]) => {
    const button = labelled('button', key, { type: 'button', className: 'export-button', dataset: { export: format } });
    button.addEventListener('click', () => save(format));
    return button;
  });
  const menu = element('details', { className: 'figure-export' }, [
    labelled('summary', 'export.menu'),
    element('div', { className: 'figure-export-menu' }, buttons),
    status,
  ]);
  figure.append(menu);

  async function save(format) {
    const name = figureName(figure);
    try {
      let blob;
      if (format === 'csv') {
        const table = descriptor.table();
        if (!table) return;
        // A byte-order mark: spreadsheets then read the file as UTF-8 (Chinese labels).
        blob = new Blob(['\ufeff', toCsv(table)], { type: 'text/csv;charset=utf-8' });
      } else {
        const make = () => figureSvg(figure, descriptor);
        const svg = descriptor.asVector ? descriptor.asVector(make) : make();
        blob = format === 'svg' ? new Blob([svg.text], { type: 'image/svg+xml' }) : await svgToPng(svg);
      }
      const file = `${name}.${format}`;
      download(blob, file, figure);
      status.textContent = t('export.saved', { file });
    } catch (error) {
      status.textContent = t('export.failed', { message: String(error?.message ?? error) });
    }
  }
}
