// Sinusoidal positional encoding (d2l 10.6.3). The core's
// positionalEncoding(positions, d) as a heatmap (the book's 60 x 32), four of
// its columns over position (the book's columns 6-9), a slider for the
// encoding dimension d, and the book's analogy with counting in binary: the
// low bits flip fast, the high bits slowly, as the columns of P oscillate
// fast on the left and slowly on the right.
import { createHeatmap } from '../../figures/heatmap.js';
import { createLinePlot } from '../../figures/line-plot.js';
import { createMatrix } from '../../figures/matrix.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { POSITIONAL_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const CURVES = 4; // columns drawn over position, from peColumn on
const BITS = 3; // the book counts 0 ... 7 in binary
const BINARY_ROWS = 2 ** BITS;

// Integers written in binary, most significant bit first: formatting, not arithmetic on data.
const BINARY = Float64Array.from({ length: BINARY_ROWS * BITS }, (_, index) => {
  const digits = Math.floor(index / BITS).toString(2).padStart(BITS, '0');
  return Number(digits[index % BITS]);
});

function create({ frame, controls }) {
  frame.controlsPanel.append(
    controls.numberControl('peLength', { labelKey: 'positional.length' }),
    controls.numberControl('peDim', { labelKey: 'positional.dim', hintKey: 'positional.dimHint' }),
    controls.numberControl('peColumn', { labelKey: 'positional.column', hintKey: 'positional.columnHint' }),
  );
  const columnNote = note(frame.controlsPanel, { className: 'note note-warning' });
  columnNote.dataset.role = 'pe-column-note';
  columnNote.hidden = true;

  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  const formula = createFormula(formulas);
  const frequencyFormula = createFormula(formulas);
  frequencyFormula.element.dataset.role = 'pe-frequencies';

  const grid = element('div', { className: 'figure-grid' });
  frame.figures.append(grid);
  let current = null;
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'pe-readout' } });
  const heatmapBody = figureCell(grid, { captionKey: 'positional.heatmapCaption' });
  const heatmap = createHeatmap(heatmapBody, {
    labels: { x: 'positional.axisColumn', y: 'positional.axisRow' }, colorLabelKey: 'positional.axisValue', ariaKey: 'positional.heatmapLabel',
    aspect: 1.05, maxHeight: 420, firstIndex: 0, // positions and columns count from 0, as P[i, j] does
    onHover: (cell) => {
      readout.textContent = cell && current
        ? t('positional.readout', { row: cell.row, col: cell.col, value: formatNumber(cell.value, '.4~f') })
        : t('positional.hoverHint');
    },
  });
  heatmap.element.dataset.figure = 'pe-heatmap';
  heatmapBody.append(readout);

  const curvesBody = figureCell(grid, { captionKey: 'positional.curvesCaption' });
  const layers = Array.from({ length: CURVES }, (_, i) => `col${i}`);
  const curves = createLinePlot(curvesBody, {
    xDomain: [0, 59], yDomain: [-1.1, 1.1], layers, labels: { x: 'positional.axisRow', y: 'positional.axisValue' },
    ariaKey: 'positional.curvesLabel', aspect: 0.75, maxHeight: 380, yTicks: 5,
  });
  curves.element.dataset.figure = 'pe-curves';
  const legend = element('ul', { className: 'legend' });
  const legendItems = layers.map((_, i) => {
    const label = element('span');
    const swatch = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    swatch.setAttribute('class', 'swatch');
    swatch.setAttribute('width', '22');
    swatch.setAttribute('height', '12');
    swatch.setAttribute('aria-hidden', 'true');
    // Built node by node, not by innerHTML: the page runs under Trusted Types.
    const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
    for (const [name, value] of Object.entries({ x1: 1, x2: 21, y1: 6, y2: 6 })) line.setAttribute(name, String(value));
    swatch.append(line);
    const item = element('li', { className: `legend-item pe-col-${i}` }, [swatch, label]);
    legend.append(item);
    return { item, label };
  });
  curvesBody.append(legend);

  const binaryGrid = element('div', { className: 'figure-grid binary-grid' });
  frame.figures.append(binaryGrid);
  const binaryBody = figureCell(binaryGrid, { captionKey: 'positional.binaryCaption' });
  const binary = createMatrix(binaryBody, { ariaKey: 'positional.binaryLabel', format: '.0f', maxCell: 34, colTitleKey: 'positional.bitsAxis' });
  binary.element.dataset.figure = 'pe-binary';
  const analogy = element('div', { className: 'pe-analogy' });
  binaryGrid.append(analogy);
  // It says where the frequency is highest: a prediction of the fastest column covers it (its box).
  const binaryBox = element('div', { className: 'note-box', dataset: { figure: 'pe-binary-note' } });
  analogy.append(binaryBox);
  note(binaryBox, { key: 'positional.binaryNote', className: 'note note-callout' });
  note(analogy, { key: 'positional.relativeNote', className: 'note note-muted' });

  return {
    draw(encoding, inputs, changed) {
      const { peLength: length, peDim: dim, peColumn: first } = inputs;
      formula.set(`P_{i,\\,2j} = \\sin\\!\\Big(\\frac{i}{10000^{2j/${dim}}}\\Big),\\qquad P_{i,\\,2j+1} = \\cos\\!\\Big(\\frac{i}{10000^{2j/${dim}}}\\Big)`);
      current = encoding;
      heatmap.setMatrix({ values: encoding, rows: length, cols: dim, domain: [-1, 1] });
      if (!readout.textContent || changed.has('language')) readout.textContent = t('positional.hoverHint');

      // Columns first ... first + 3 over position: strided picks from the core's matrix.
      const positions = Float64Array.from({ length }, (_, i) => i);
      const columns = [];
      layers.forEach((layer, i) => {
        const column = first + i;
        const exists = column < dim;
        legendItems[i].item.hidden = !exists;
        legendItems[i].label.textContent = t('positional.col', { col: column });
        if (!exists) {
          curves.set(layer, null);
          return;
        }
        columns.push(column);
        const ys = Float64Array.from({ length }, (_, row) => encoding[row * dim + column]);
        curves.set(layer, { kind: 'line', xs: positions, ys, className: `pe-curve pe-col-${i}` });
      });
      curves.element.dataset.columns = columns.join(',');
      curves.setDomains({ x: [0, Math.max(1, length - 1)] });
      columnNote.hidden = columns.length === CURVES;
      columnNote.textContent = columns.length === CURVES ? '' : t('positional.columnNote', { dim, last: dim - 1 });
      // The frequency of each drawn column: columns 2j and 2j + 1 share w_j = 1 / 10000^(2j/d).
      const pairs = [...new Set(columns.map((column) => Math.floor(column / 2)))];
      frequencyFormula.set(pairs.length === 0 ? '' : pairs.map((j) => `\\omega_{${j}} = 1/10000^{${2 * j}/${dim}}`).join(',\\quad '));

      binary.set({
        values: BINARY, rows: BINARY_ROWS, cols: BITS, domain: [0, 1.6],
        rowNames: Array.from({ length: BINARY_ROWS }, (_, i) => String(i)),
        colNames: Array.from({ length: BITS }, (_, i) => `2${'⁰¹²³'[BITS - 1 - i]}`),
      });
    },
  };
}

export const positionalSection = {
  id: 'positional',
  order: 120,
  book: {
    en: bookSubsection('self-attention-and-positional-encoding', 'positional-encoding', '11.6.3', 'Positional Encoding'),
    zh: bookSubsection('self-attention-and-positional-encoding', 'subsec-positional-encoding', '10.6.3', '位置编码'),
  },
  frame: { titleKey: 'positional.title', leadKeys: ['positional.lead1', 'positional.lead2'] },
  inputs: ['peLength', 'peDim', 'peColumn'],
  arguments: { maxLen: 'peLength', dim: 'peDim' },
  create,
  compute: (core, { peLength, peDim }) => core.positionalEncoding(peLength, peDim),
  draw: (view, encoding, inputs, changed) => view.draw(encoding, inputs, changed),
  exercises: POSITIONAL_EXERCISES,
  teacherNoteKey: 'positional.ex.teacherNote',
};
