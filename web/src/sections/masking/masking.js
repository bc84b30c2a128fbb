// Masked softmax (d2l 10.3.1). Scores of the book's shape
// (2, 2, 4), drawn by the core's seeded generator or typed in; valid lengths
// per batch item (1-D) or per query row (2-D). Three matrices side by side:
// the scores, the masked scores (d2l writes -1e6 over the padding) and the
// weights; a fourth shows what d2l's own version returns, which differs only
// on a fully masked row, and a note says why. Which cells are masked, and
// the masked scores, come from the core (maskScores).
import { MASK_MODES } from '../../state.js';
import { createMatrix } from '../../figures/matrix.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { maskingSnippet } from './pytorch.js';
import { MASK_SHAPE, LENGTHS_1D, LENGTHS_2D, validLens, seededScores } from './setup.js';
import { MASKING_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const [BATCH, ROWS, KEYS] = MASK_SHAPE;
const SCORE_LIMIT = 10; // typed scores are kept within [-10, 10]
const MASKED_TEX = '\\operatorname{masked\\_softmax}(\\mathbf S)_{ij} = \\frac{[\\,j < \\ell_i\\,]\\, \\exp s_{ij}}{\\sum_{j\'} [\\,j\' < \\ell_i\\,]\\, \\exp s_{ij\'}}';
// d2l's rule, its words in the page's language.
const d2lTex = () =>
  `\\text{d2l:}\\;\\; s_{ij} \\leftarrow -10^{6}\\ \\text{ ${t('masking.d2lFor')} } j \\ge \\ell_i,\\ \\text{${t('masking.d2lThen')}}`;

// Everything the section shows of a score tensor: the core's masking, the
// lab's masked softmax and d2l's (softmax over the masked scores).
function maskAll(core, scores, lens) {
  const { maskedScores, masked, rowLengths } = core.maskScores(scores, MASK_SHAPE, lens);
  return {
    scores, maskedScores, masked, rowLengths,
    weights: core.maskedSoftmax(scores, MASK_SHAPE, lens),
    book: core.maskedSoftmax(maskedScores, MASK_SHAPE, null),
  };
}

// Typed scores are the view's own state, not parameters: the view masks
// them with the core it was given.
function create({ frame, controls, core, errors }) {
  const panel = frame.controlsPanel;
  let edits = new Map(); // typed scores: cell index -> value, until the scores are redrawn
  let editsSeed = null;
  let last = null; // [result, inputs] last drawn

  const redraw = controls.nextSeedButton('maskSeed', { labelKey: 'masking.redraw', action: 'mask-redraw' });
  const lengthControls = Object.fromEntries([
    ['maskLen1', 'masking.len1'], ['maskLen2', 'masking.len2'],
    ['maskLen11', 'masking.len11'], ['maskLen12', 'masking.len12'], ['maskLen21', 'masking.len21'], ['maskLen22', 'masking.len22'],
  ].map(([name, labelKey]) => [name, controls.numberControl(name, { labelKey })]));
  panel.append(
    controls.choiceControl('maskMode', {
      labelKey: 'masking.mode',
      optionKeys: Object.fromEntries(MASK_MODES.map((mode) => [mode, `masking.mode.${mode}`])),
    }),
    ...Object.values(lengthControls),
    controls.numberControl('maskSeed', { labelKey: 'masking.seed', slider: false }),
    redraw,
  );

  // The score editor: one number box per score, laid out like the tensor.
  const editorInputs = [];
  const editorBlocks = Array.from({ length: BATCH }, (_, b) => {
    const grid = element('div', { className: 'score-editor-grid' });
    for (let q = 0; q < ROWS; q += 1) {
      for (let k = 0; k < KEYS; k += 1) {
        const index = (b * ROWS + q) * KEYS + k;
        const input = element('input', {
          type: 'number', step: 0.1, min: -SCORE_LIMIT, max: SCORE_LIMIT, className: 'number score-input',
          dataset: { index },
        });
        input.addEventListener('change', () => {
          const value = Number(input.value);
          if (input.value.trim() === '' || Number.isNaN(value)) {
            edits.delete(index);
          } else {
            edits.set(index, Math.max(-SCORE_LIMIT, Math.min(SCORE_LIMIT, value)));
            input.value = String(edits.get(index)); // the box keeps focus: draw() leaves it alone
          }
          if (last) draw(...last);
        });
        editorInputs.push(input);
        grid.append(input);
      }
    }
    return element('div', { className: 'score-editor-block' }, [
      element('span', { className: 'control-label', dataset: { i18n: `masking.editItem${b + 1}` } }),
      grid,
    ]);
  });
  const undoEdits = controls.button({
    labelKey: 'masking.undoEdits', className: 'button button-quiet', action: 'mask-undo-edits',
    onClick: () => {
      edits = new Map();
      if (last) draw(...last);
    },
  });
  const editor = element('details', { className: 'score-editor' }, [
    element('summary', { dataset: { i18n: 'masking.edit' } }),
    element('p', { className: 'control-hint', dataset: { i18n: 'masking.editHint' } }),
    ...editorBlocks,
    undoEdits,
  ]);
  panel.append(editor);

  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  createFormula(formulas).set(MASKED_TEX);
  const d2lFormula = createFormula(formulas);
  d2lFormula.set(d2lTex());
  const lensFormula = createFormula(formulas);
  lensFormula.element.dataset.role = 'valid-lens';

  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'mask-readout' } });
  const grid = element('div', { className: 'figure-grid matrix-row-3' });
  frame.figures.append(grid);
  let shown = null; // what the read-out needs
  const hover = (kind) => (cell) => {
    if (!cell || !shown) {
      readout.textContent = t('masking.hoverHint');
      return;
    }
    const index = cell.row * KEYS + cell.col;
    readout.textContent = t('masking.readout', {
      batch: Math.floor(cell.row / ROWS) + 1, row: (cell.row % ROWS) + 1, key: cell.col + 1,
      length: shown.rowLengths[cell.row],
      score: formatNumber(shown.scores[index], '.4~f'),
      masked: shown.masked[index] ? '−1e6' : formatNumber(shown.scores[index], '.4~f'),
      weight: formatNumber(shown.weights[index], '.4~f'),
      d2l: shown.book ? formatNumber(shown.book[index], '.4~f') : '—',
    });
    readout.dataset.kind = kind;
  };
  const matrixOptions = (kind, extra = {}) => ({ format: '.2f', onHover: hover(kind), ...extra });
  const scoresMatrix = createMatrix(figureCell(grid, { captionKey: 'masking.scoresCaption' }),
    matrixOptions('scores', { ariaKey: 'masking.scoresLabel', colTitleKey: 'masking.keysAxis', rowTitleKey: 'masking.rowsAxis' }));
  scoresMatrix.element.dataset.figure = 'mask-scores';
  const maskedMatrix = createMatrix(figureCell(grid, { captionKey: 'masking.maskedCaption' }),
    matrixOptions('masked', { ariaKey: 'masking.maskedLabel', colTitleKey: 'masking.keysAxis', rowTitleKey: 'masking.rowsAxis' }));
  maskedMatrix.element.dataset.figure = 'mask-masked';
  const weightsMatrix = createMatrix(figureCell(grid, { captionKey: 'masking.weightsCaption' }),
    matrixOptions('weights', { ariaKey: 'masking.weightsLabel', colTitleKey: 'masking.keysAxis', rowTitleKey: 'masking.rowsAxis' }));
  weightsMatrix.element.dataset.figure = 'mask-weights';
  // Hovering ① reads the masked score and the weight too: a prediction of
  // the zeros covers it (a box around it, so that the cover stays as the
  // read-out is written, and keeps its words from screen readers).
  frame.figures.append(element('div', { className: 'note-box', dataset: { figure: 'mask-readout' } }, [readout]));

  const compare = element('div', { className: 'figure-grid matrix-compare' });
  frame.figures.append(compare);
  const bookBody = figureCell(compare, { captionKey: 'masking.bookCaption' });
  const bookMatrix = createMatrix(bookBody, matrixOptions('book', { maxCell: 46, ariaKey: 'masking.bookLabel', colTitleKey: 'masking.keysAxis', rowTitleKey: 'masking.rowsAxis' }));
  bookMatrix.element.dataset.figure = 'mask-book';
  const explanation = element('div', { className: 'mask-explanation' });
  compare.append(explanation);
  const emptyNote = note(explanation, { key: 'masking.emptyRow', className: 'note note-callout' });
  emptyNote.dataset.role = 'empty-row-note';
  const emptyBox = element('div', { className: 'note-box', dataset: { figure: 'mask-empty-rows' } });
  explanation.append(emptyBox);
  const emptyStatus = note(emptyBox, { className: 'note note-warning' });
  emptyStatus.dataset.role = 'empty-rows';
  // Names the rows whose weights are all 0: a prediction of the zeros covers it (its box).

  function draw(result, inputs) {
    last = [result, inputs];
    const oneD = inputs.maskMode === '1d';
    for (const name of LENGTHS_1D) lengthControls[name].hidden = !oneD;
    for (const name of LENGTHS_2D) lengthControls[name].hidden = oneD;
    const lens = validLens(inputs);
    lensFormula.set(oneD
      ? `\\texttt{valid\\_lens} = [${lens.join(',\\ ')}]`
      : `\\texttt{valid\\_lens} = [[${lens[0]},\\ ${lens[1]}],\\ [${lens[2]},\\ ${lens[3]}]]`);

    if (editsSeed !== inputs.maskSeed) {
      edits = new Map(); // new draws replace whatever was typed over the old ones
      editsSeed = inputs.maskSeed;
    }
    if (edits.size > 0) {
      const scores = Float64Array.from(result.scores);
      for (const [index, value] of edits) scores[index] = value;
      errors.clear();
      const edited = errors.run(() => maskAll(core, scores, lens), inputs);
      if (!edited) return;
      shown = edited;
    } else {
      shown = result;
    }
    const { scores, maskedScores, masked, weights, book } = shown;
    const lengths = Array.from(shown.rowLengths);

    const rowNames = lengths.map((length, r) => t('masking.rowName', { batch: Math.floor(r / ROWS) + 1, row: (r % ROWS) + 1, length }));
    const colNames = Array.from({ length: KEYS }, (_, k) => `k${k + 1}`);
    const common = { rows: BATCH * ROWS, cols: KEYS, rowNames, colNames, groupRows: ROWS };
    scoresMatrix.set({ ...common, values: scores });
    maskedMatrix.set({ ...common, values: maskedScores, masked, maskedText: '−1e6', domain: scoresMatrix.domain() });
    weightsMatrix.set({ ...common, values: weights, domain: [0, 1], format: '.2f' });
    bookMatrix.set({ ...common, values: book, domain: [0, 1], format: '.3f' });
    for (const input of editorInputs) {
      const index = Number(input.dataset.index);
      input.setAttribute('aria-label', t('masking.editCell', {
        batch: Math.floor(index / (ROWS * KEYS)) + 1, row: (Math.floor(index / KEYS) % ROWS) + 1, key: (index % KEYS) + 1,
      }));
      // A typed score shows as the core gets it (typed, or clamped into
      // range), never rounded; a drawn one to three decimals, with its full
      // value in the box's tooltip.
      if (input.getRootNode().activeElement !== input) {
        input.value = edits.has(index) ? String(edits.get(index)) : formatNumber(scores[index], '.3~f').replace('−', '-');
      }
      input.title = String(scores[index]);
      input.classList.toggle('is-edited', edits.has(index));
    }
    undoEdits.disabled = edits.size === 0;

    const empty = lengths.map((length, r) => (length === 0 ? r : -1)).filter((r) => r >= 0);
    emptyNote.classList.toggle('is-emphasised', empty.length > 0);
    emptyBox.hidden = empty.length === 0;
    emptyStatus.textContent = empty.length === 0 ? '' : t('masking.emptyRows', {
      rows: empty.map((r) => t('masking.rowName', { batch: Math.floor(r / ROWS) + 1, row: (r % ROWS) + 1, length: 0 })).join(', '),
    });
  }

  return {
    // The cell an exercise asks about, outlined in ① where its score is read.
    markCell: (index) => scoresMatrix.mark(index),
    draw(result, inputs, changed) {
      d2lFormula.set(d2lTex()); // a language switch redraws: the rule's words follow it
      draw(result, inputs);
      if (!readout.textContent || changed.has('language')) readout.textContent = t('masking.hoverHint');
    },
  };
}

export const maskingSection = {
  id: 'masking',
  order: 70,
  book: {
    en: bookSubsection('attention-scoring-functions', 'masked-softmax-operation', '11.3.2.1', 'Masked Softmax Operation'),
    zh: bookSubsection('attention-scoring-functions', null, '10.3', '注意力评分函数'),
  },
  frame: { titleKey: 'masking.title', leadKeys: ['masking.lead1', 'masking.lead2'] },
  inputs: ['maskMode', ...LENGTHS_1D, ...LENGTHS_2D, 'maskSeed'],
  // The core names a guilty valid length by its index.
  arguments: { validLens: ({ maskMode }) => (maskMode === '1d' ? LENGTHS_1D : LENGTHS_2D), seed: 'maskSeed', count: 'maskSeed' },
  create,
  compute: (core, inputs) =>
    maskAll(core, seededScores(core, inputs), validLens(inputs)),
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: maskingSnippet,
  exercises: MASKING_EXERCISES,
  teacherNoteKey: 'masking.ex.teacherNote',
};
