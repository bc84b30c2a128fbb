// Section 8: additive vs scaled dot-product attention (d2l 10.3.2-10.3.3)
// on the book's demo: keys (2, 10, 2) (all ones, or seeded random draws),
// values arange(40) as (2, 10, 4), valid lengths [2, 6]; queries (2, 1, 20)
// for additive attention and (2, 1, 2) for dot-product attention, or the same
// 2-D queries for both. The weights of both layers side by side, their
// outputs, the hidden size h of additive attention, and below them the
// "why divide by sqrt(d)" panel (scaling-panel.js).
import { SCORING_KEYS, ADDITIVE_QUERIES, parameters } from '../state.js';
import { createMatrix } from '../figures/matrix.js';
import { createFormula } from '../figures/formula.js';
import { createErrorScope } from '../errors.js';
import { element } from '../controls.js';
import { t } from '../i18n/index.js';
import { formatNumber } from '../format.js';
import { createSectionFrame, figureCell, note } from './frame.js';
import { createScalingPanel } from './scaling-panel.js';

const NK = 10;
const DV = 4;
const ADDITIVE_TEX = 'a(\\mathbf q, \\mathbf k) = \\mathbf w_v^\\top \\tanh(\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k) \\in \\mathbb R';
const DOT_TEX = 'a(\\mathbf q, \\mathbf k) = \\frac{\\mathbf q^\\top \\mathbf k}{\\sqrt d},\\qquad \\operatorname{softmax}\\!\\Big(\\frac{\\mathbf Q \\mathbf K^\\top}{\\sqrt d}\\Big) \\mathbf V';

export function createScoringFunctionsSection({ root, store, controls }) {
  const frame = createSectionFrame(root, { titleKey: 'scoring.title', leadKeys: ['scoring.lead1', 'scoring.lead2'] });
  const panel = frame.controlsPanel;
  const newDraw = controls.button({
    labelKey: 'scoring.newDraw', className: 'button button-quiet', action: 'scoring-new-draw',
    onClick: () => {
      const { scoringSeed } = store.get();
      store.set({ scoringSeed: scoringSeed >= parameters.scoringSeed.max ? 0 : scoringSeed + 1 });
    },
  });
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

  const scaling = createScalingPanel(frame.figures, { store, controls });

  const errors = createErrorScope(controls, frame.errorSlot);
  const scoringArguments = {
    validLens: null, 'shape.h': 'additiveHidden', 'shape.nq': 'scoringQueries', seed: 'scoringSeed', count: 'scoringSeed',
  };
  const watched = ['scoringKeys', 'additiveQueries', 'scoringQueries', 'scoringLen1', 'scoringLen2', 'additiveHidden', 'scoringSeed', 'language'];

  // The core names the guilty valid length by its index.
  function run(compute) {
    try {
      return compute();
    } catch (error) {
      const index = /^validLens:.*at index (\d+)/.exec(error.message);
      const owner = index ? ['scoringLen1', 'scoringLen2'][Number(index[1])] : undefined;
      return errors.run(() => { throw error; }, owner ? { ...scoringArguments, validLens: owner } : scoringArguments);
    }
  }

  return {
    update(state, changed, lab) {
      scaling.update(state, changed, lab);
      if (!watched.some((name) => changed.has(name))) return;
      const nq = state.scoringQueries;
      const dq = state.additiveQueries === '20d' ? 20 : 2;
      const lens = [state.scoringLen1, state.scoringLen2];
      shapes.textContent = t('scoring.shapes', {
        additive: `(2, ${nq}, ${dq})`, dot: `(2, ${nq}, 2)`, lens: `[${lens.join(', ')}]`, h: state.additiveHidden,
      });
      additiveFormula.set(`\\mathbf W_q \\in \\mathbb R^{${state.additiveHidden} \\times ${dq}},\\ \\mathbf W_k \\in \\mathbb R^{${state.additiveHidden} \\times 2},\\ \\mathbf w_v \\in \\mathbb R^{${state.additiveHidden}}`);
      dotFormula.set(`\\mathbf q, \\mathbf k \\in \\mathbb R^{2},\\ d = 2`);
      onesNote.hidden = state.scoringKeys !== 'ones';

      errors.clear();
      const additive = run(() => lab.attention.additive(state));
      const dot = run(() => lab.attention.dot(state));
      if (!additive || !dot) return;
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
      const valueNames = Array.from({ length: DV }, (_, c) => `v${c + 1}`);
      const outputs = { rows, cols: DV, rowNames, colNames: valueNames, groupRows: nq, domain: [0, 39] };
      additiveOutput.set({ ...outputs, values: additive.output });
      dotOutput.set({ ...outputs, values: dot.output });
      if (!readout.textContent || changed.has('language')) readout.textContent = t('scoring.hoverHint');
    },
  };
}
