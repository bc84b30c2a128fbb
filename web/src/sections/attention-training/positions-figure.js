// The positions the model adds to its embeddings, P (length x hidden), as
// heatmaps: d2l's sinusoidal table, and with learned positions the model's
// own table, at the step the maps show, beside it. Both on one colour
// scale, symmetric about 0, so a learned entry's size reads against the
// sinusoidal ones' [-1, 1]. Hidden with no positions (the section's note
// says what is lost then). Every value is the core's.
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { createHeatmap } from '../../figures/heatmap.js';
import { figureCell } from '../shared/frame.js';

// The largest magnitude of the values, at least 1 (the sinusoidal table's).
function largestMagnitude(values) {
  let largest = 1;
  for (const value of values) if (Math.abs(value) > largest) largest = Math.abs(value);
  return largest;
}

const KEYS = {
  sinusoidal: {
    caption: 'attention-training.positions.sinusoidalCaption', label: 'attention-training.positions.sinusoidalLabel',
    readout: 'attention-training.positions.sinusoidalReadout',
  },
  learned: {
    caption: 'attention-training.positions.learnedCaption', label: 'attention-training.positions.learnedLabel',
    readout: 'attention-training.positions.learnedReadout',
  },
};

export function createPositionsFigure(parent) {
  const grid = element('div', { className: 'figure-grid at-positions', dataset: { figure: 'at-positions' } });
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'at-positions-readout' } });
  parent.append(grid, readout);
  let shown = null; // { step } of the learned table on screen (null: none)
  let sinusoidalDrawn = null; // { values, top } the sinusoidal table was last drawn with

  const table = (kind) => {
    const body = figureCell(grid, { captionKey: KEYS[kind].caption });
    const heatmap = createHeatmap(body, {
      labels: { x: 'attention-training.positionsAxisColumn', y: 'attention-training.positionsAxisRow' },
      colorLabelKey: 'attention-training.positionsAxisValue', ariaKey: KEYS[kind].label,
      aspect: 0.45, minHeight: 150, maxHeight: 220, firstIndex: 0, // P[i, j] counts from 0
      onHover: (cell) => {
        readout.textContent = cell && shown
          ? t(KEYS[kind].readout, { row: cell.row, col: cell.col, value: formatNumber(cell.value, '.4~f'), step: shown.step })
          : t('attention-training.positionsHint');
      },
    });
    heatmap.element.dataset.figure = `at-positions-${kind}`;
    return { cell: /** @type {HTMLElement} */ (body.closest('figure')), heatmap };
  };
  const sinusoidal = table('sinusoidal');
  const learned = table('learned');
  const learnedStep = element('p', { className: 'readout', dataset: { role: 'at-positions-step' } });
  learned.cell.append(learnedStep);

  return {
    // sinusoidalValues: d2l's table (length x hidden); learnedTable: the
    // model's { values, step } with learned positions, else null.
    draw(sinusoidalValues, learnedTable, { atHidden: hidden, atPositional: positional }, length) {
      const none = positional === 'none';
      grid.hidden = none;
      readout.hidden = none;
      if (none) return;
      const learnedValues = learnedTable?.values ?? null;
      const step = learnedTable?.step ?? null;
      shown = { step };
      const top = learnedValues ? largestMagnitude(learnedValues) : 1;
      const shape = { rows: length, cols: hidden, domain: [-top, top] };
      // Every chunk of a run draws the tables: the sinusoidal one only when its values or scale changed.
      if (sinusoidalDrawn?.values !== sinusoidalValues || sinusoidalDrawn.top !== top) {
        sinusoidal.heatmap.setMatrix({ ...shape, values: sinusoidalValues });
        sinusoidalDrawn = { values: sinusoidalValues, top };
      }
      learned.cell.hidden = !learnedValues;
      if (learnedValues) {
        learned.heatmap.setMatrix({ ...shape, values: learnedValues });
        learnedStep.textContent = t('attention-training.positions.learnedStep', { step });
        learnedStep.dataset.step = String(step);
      }
      if (!readout.textContent) readout.textContent = t('attention-training.positionsHint');
    },
    // The hint in the page's language (the tables' texts are redrawn with the run).
    relabel() {
      readout.textContent = t('attention-training.positionsHint');
    },
  };
}
