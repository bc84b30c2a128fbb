// Additive vs scaled dot-product attention (d2l 10.3.2-10.3.3)
// on the book's demo: keys (2, 10, 2) (all ones, or seeded random draws),
// values arange(40) as (2, 10, 4), valid lengths [2, 6]; queries (2, 1, 20)
// for additive attention and (2, 1, 2) for dot-product attention, or the same
// 2-D queries for both. The weights of both layers side by side, their
// outputs, the hidden size h of additive attention, and below them the
// "why divide by sqrt(d)" panel (scoring/scaling-panel.js).
import { SCORING_KEYS, ADDITIVE_QUERIES } from '../../state.js';
import { createMatrix } from '../../figures/matrix.js';
import { createFormula } from '../../figures/formula.js';
import { ADDITIVE_TEX, DOT_TEX } from '../shared/scoring-notation.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { createScalingPanel, SCALING_INPUTS } from './scaling-panel.js';
import { createScoringCostPanel } from './cost-panel.js';
import { scoringSnippet } from './pytorch.js';
import { SCORING_EXERCISES } from './exercises.js';
import { computeScoring, queryDimension, NK, DV } from './setup.js';
import { bookSubsection } from '../../book-links.js';

function create({ frame, controls, core, alone }) {
  const panel = frame.controlsPanel;
  const newDraw = controls.nextSeedButton('scoringSeed', { labelKey: 'scoring.newDraw', action: 'scoring-new-draw' });
  const hiddenControl = controls.numberControl('additiveHidden', { labelKey: 'scoring.hidden', hintKey: 'scoring.hiddenHint' });
  panel.append(
    controls.choiceControl('scoringKeys', {
      labelKey: 'scoring.keys', optionKeys: Object.fromEntries(SCORING_KEYS.map((name) => [name, `scoring.keys.${name}`])),
    }),
    controls.choiceControl('additiveQueries', {
      labelKey: 'scoring.queries', optionKeys: Object.fromEntries(ADDITIVE_QUERIES.map((name) => [name, `scoring.queries.${name}`])),
    }),
    controls.numberControl('scoringQueries', { labelKey: 'scoring.nq' }),
    controls.numberControl('scoringLen1', { labelKey: 'scoring.len1' }),
    controls.numberControl('scoringLen2', { labelKey: 'scoring.len2' }),
    hiddenControl,
    controls.numberControl('scoringSeed', { labelKey: 'scoring.seed', slider: false }),
    newDraw,
  );

  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  createFormula(formulas).set(ADDITIVE_TEX);
  createFormula(formulas).set(DOT_TEX);
  const shapes = element('p', { className: 'shape-line', dataset: { role: 'scoring-shapes' } });
  frame.figures.append(shapes);
  const onesNote = note(frame.figures, { key: 'scoring.onesNote', className: 'note note-callout' });
  onesNote.dataset.role = 'ones-note';

  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'scoring-readout' } });
  let shown = null;
  const hover = (layer) => (cell) => {
    if (!cell || !shown) {
      readout.textContent = t('scoring.hoverHint');
      return;
    }
    const weights = shown[layer].weights;
    readout.textContent = t('scoring.readout', {
      layer: t(`scoring.layer.${layer}`),
      batch: Math.floor(cell.row / shown.nq) + 1, query: (cell.row % shown.nq) + 1, key: cell.col + 1,
      weight: formatNumber(weights[cell.row * NK + cell.col], '.4~f'),
    });
  };

  // The two weight matrices one above the other, keys aligned; outputs below, side by side.
  const weightsBody = figureCell(frame.figures, { captionKey: 'scoring.weightsCaption', className: 'cell-weights' });
  const layerTitle = (key) => {
    const title = element('div', { className: 'layer-title' }, [element('strong', { dataset: { i18n: key } })]);
    weightsBody.append(title);
    return createFormula(title, { display: false, className: 'formula formula-small' });
  };
  const additiveFormula = layerTitle('scoring.additiveTitle');
  const additiveMatrix = createMatrix(weightsBody, {
    ariaKey: 'scoring.additiveLabel', colTitleKey: 'scoring.keysAxis', format: '.3f', maxCell: 58, textMinCell: 40, onHover: hover('additive'),
  });
  additiveMatrix.element.dataset.figure = 'additive-weights';
  const dotFormula = layerTitle('scoring.dotTitle');
  const dotMatrix = createMatrix(weightsBody, {
    ariaKey: 'scoring.dotLabel', colTitleKey: 'scoring.keysAxis', format: '.3f', maxCell: 58, textMinCell: 40, onHover: hover('dot'),
  });
  dotMatrix.element.dataset.figure = 'dot-weights';
  weightsBody.append(readout);

  const grid = element('div', { className: 'figure-grid' });
  frame.figures.append(grid);
  const additiveOutput = createMatrix(figureCell(grid, { captionKey: 'scoring.additiveCaption' }), {
    ariaKey: 'scoring.outputLabel', colTitleKey: 'scoring.outputAxis', format: '.2f', maxCell: 52,
  });
  additiveOutput.element.dataset.figure = 'additive-output';
  const dotOutput = createMatrix(figureCell(grid, { captionKey: 'scoring.dotCaption' }), {
    ariaKey: 'scoring.outputLabel', colTitleKey: 'scoring.outputAxis', format: '.2f', maxCell: 52,
  });
  dotOutput.element.dataset.figure = 'dot-output';

  const scaling = createScalingPanel(frame.figures, { controls, core, alone });
  const cost = createScoringCostPanel(frame.figures, { core, alone });

  return {
    dispose() {
      scaling.dispose();
      cost.dispose();
    },
    // Read-only, for the exercises (scoring/exercises.js): what the panels measured.
    scalingRow: (d, inputs) => scaling.rowAt(d, inputs),
    measuredCost: (n) => cost.measured(n),
    markCost: (n) => cost.mark(n),
    // The teacher's answer key (exercises=answers) gives this device's cost ratios: timed now.
    watchAnswers: (changed) => cost.measureNow(changed),
    draw({ additive, dot }, inputs, changed) {
      scaling.update(inputs, changed);
      cost.update(inputs, changed);
      const nq = inputs.scoringQueries;
      const dq = queryDimension(inputs);
      const lens = [inputs.scoringLen1, inputs.scoringLen2];
      shapes.textContent = t('scoring.shapes', {
        additive: `(2, ${nq}, ${dq})`, dot: `(2, ${nq}, 2)`, lens: `[${lens.join(', ')}]`, h: inputs.additiveHidden,
      });
      additiveFormula.set(`\\mathbf W_q \\in \\mathbb R^{${inputs.additiveHidden} \\times ${dq}},\\ \\mathbf W_k \\in \\mathbb R^{${inputs.additiveHidden} \\times 2},\\ \\mathbf w_v \\in \\mathbb R^{${inputs.additiveHidden}}`);
      dotFormula.set(`\\mathbf q, \\mathbf k \\in \\mathbb R^{2},\\ d = 2`);
      onesNote.hidden = inputs.scoringKeys !== 'ones';

      shown = { additive, dot, nq };
      const rows = 2 * nq;
      const rowNames = Array.from({ length: rows }, (_, r) => t('scoring.rowName', { batch: Math.floor(r / nq) + 1, query: (r % nq) + 1 }));
      const masked = new Uint8Array(rows * NK);
      for (let r = 0; r < rows; r += 1) {
        for (let k = lens[Math.floor(r / nq)]; k < NK; k += 1) masked[r * NK + k] = 1;
      }
      const colNames = Array.from({ length: NK }, (_, k) => String(k + 1));
      const weights = { rows, cols: NK, rowNames, colNames, groupRows: nq, domain: [0, 1], masked, maskedText: '0' };
      additiveMatrix.set({ ...weights, values: additive.weights });
      dotMatrix.set({ ...weights, values: dot.weights });
      const valueNames = Array.from({ length: DV }, (_, c) => t('scoring.valueDimension', { index: c + 1 }));
      const outputs = { rows, cols: DV, rowNames, colNames: valueNames, groupRows: nq, domain: [0, 39] };
      additiveOutput.set({ ...outputs, values: additive.output });
      dotOutput.set({ ...outputs, values: dot.output });
      if (!readout.textContent || changed.has('language')) readout.textContent = t('scoring.hoverHint');
    },
  };
}

export const scoringSection = {
  id: 'scoring',
  order: 80,
  // Both books' additive-attention subsection: the section starts from it,
  // and in both books the scaled dot product stands beside it.
  book: {
    en: bookSubsection('attention-scoring-functions', 'additive-attention', '11.3.4', 'Additive Attention'),
    zh: bookSubsection('attention-scoring-functions', 'subsec-additive-attention', '10.3.2', '加性注意力'),
  },
  frame: { titleKey: 'scoring.title', leadKeys: ['scoring.lead1', 'scoring.lead2'] },
  inputs: [
    'scoringKeys', 'additiveQueries', 'scoringQueries', 'scoringLen1', 'scoringLen2', 'additiveHidden', 'scoringSeed',
    ...SCALING_INPUTS,
  ],
  // The core names a guilty valid length by its index.
  arguments: {
    validLens: ['scoringLen1', 'scoringLen2'], 'shape.h': 'additiveHidden', 'shape.nq': 'scoringQueries',
    seed: 'scoringSeed', count: 'scoringSeed',
  },
  create,
  compute: computeScoring,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: scoringSnippet,
  exercises: SCORING_EXERCISES,
  teacherNoteKey: 'scoring.ex.teacherNote',
};
