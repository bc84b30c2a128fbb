// The batch matrix product panel of the training section: torch.bmm, which
// the book introduces just before parametric attention pooling (d2l 10.2.4).
// The learner sets the shapes of X (n, a, b) and Y (n, b', c); the core's
// batchMatrixProduct multiplies them, one matrix per batch item, and its
// answer gives the result's shape and every entry. When b' is not b the core
// refuses, and its error is shown at Y's stepper with no result drawn. Below,
// the shapes the training of w hands to bmm for the data section's n.
import { createMatrix } from '../../figures/matrix.js';
import { createErrorRouter } from '../../section-errors.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { setRichText } from '../../i18n/rich-text.js';
import { figureCell, note, subsection } from '../shared/frame.js';
import { normalDraws } from '../shared/seeded-draws.js';

// The panel's parameters (state.js); the training's shapes also quote the data section's n and leaveOneOut.
export const BATCH_PRODUCT_INPUTS = Object.freeze(['bmmN', 'bmmA', 'bmmB', 'bmmBY', 'bmmC', 'bmmValues', 'bmmSeed']);

const shapeText = (shape) => `(${shape.join(', ')})`;

// The operand's entries: the book's torch.ones, or the core's seeded N(0, 1) draws.
function operand(core, count, { bmmValues, bmmSeed }, role) {
  return bmmValues === 'ones' ? new Float64Array(count).fill(1) : normalDraws(core, count, bmmSeed, role);
}

// Rows named by batch item and row, as PyTorch indexes them: [item, row].
const rowNames = (items, rows) =>
  Array.from({ length: items * rows }, (_, r) => `[${Math.floor(r / rows)}, ${r % rows}]`);
const colNames = (cols) => Array.from({ length: cols }, (_, c) => String(c));

export function createBatchProductPanel(parent, { controls, core }) {
  const block = subsection(parent, {
    role: 'batch-product', className: 'batch-product', titleKey: 'bmm.title', leadKeys: ['bmm.lead', 'bmm.rule'],
  });

  const drawButton = controls.nextSeedButton('bmmSeed', { labelKey: 'bmm.redraw', action: 'bmm-redraw' });
  block.append(element('div', { className: 'bmm-controls' }, [
    controls.numberControl('bmmN', { labelKey: 'bmm.n', slider: false }),
    controls.numberControl('bmmA', { labelKey: 'bmm.a', slider: false }),
    controls.numberControl('bmmB', { labelKey: 'bmm.b', slider: false }),
    controls.numberControl('bmmBY', { labelKey: 'bmm.bY', slider: false }),
    controls.numberControl('bmmC', { labelKey: 'bmm.c', slider: false }),
    controls.choiceControl('bmmValues', { labelKey: 'bmm.values', optionKeys: { ones: 'bmm.valuesOnes', normal: 'bmm.valuesNormal' } }),
    drawButton,
  ]));

  const shapes = element('p', { className: 'bmm-shapes', dataset: { role: 'bmm-shapes' } });
  const errorSlot = element('p', { className: 'section-error', role: 'alert' });
  errorSlot.hidden = true;
  block.append(shapes, errorSlot);

  const grid = element('div', { className: 'figure-grid bmm-grid' });
  block.append(grid);
  // Each operand: its shape above its n stacked panes (one per batch item).
  function operandFigure(captionKey, name, ariaKey) {
    const body = figureCell(grid, { captionKey });
    const label = element('p', { className: 'bmm-shape-label', dataset: { role: `shape-${name}` } });
    body.append(label);
    const matrix = createMatrix(body, { ariaKey, format: '.2~f', maxCell: 40, minCell: 18, textMinCell: 18 });
    matrix.element.dataset.figure = `bmm-${name}`;
    return { body, label, matrix };
  }
  const x = operandFigure('bmm.xCaption', 'x', 'bmm.xLabel');
  const y = operandFigure('bmm.yCaption', 'y', 'bmm.yLabel');
  const product = operandFigure('bmm.resultCaption', 'result', 'bmm.resultLabel');
  const noResult = note(product.body, { key: 'bmm.noResult', className: 'note note-warning' });
  noResult.dataset.role = 'bmm-no-result';
  noResult.hidden = true;

  const training = note(block, { className: 'note note-callout' });
  training.dataset.role = 'bmm-training';

  // A mismatch is told in the page's language, with the core's own words beside it.
  const errors = createErrorRouter({
    controls, slot: errorSlot, core,
    routes: {
      arguments: {
        X: 'bmmB', Y: 'bmmBY', 'shapeX[0] (n)': 'bmmN', 'shapeX[1] (a)': 'bmmA', 'shapeX[2] (b)': 'bmmB',
        'shapeY[0] (n)': 'bmmN', 'shapeY[1] (b)': 'bmmBY', 'shapeY[2] (c)': 'bmmC',
      },
      explain: (error, inputs) => (error.argument === 'Y' && !Number.isInteger(error.index)
        ? t('error.detail', { sentence: t('bmm.mismatch', { b: inputs.bmmB, bY: inputs.bmmBY }), detail: error.message })
        : undefined),
    },
  });

  function drawOperand(figure, values, shape, name) {
    const [items, rows, cols] = shape;
    figure.label.textContent = `${name} ${shapeText(shape)}`;
    figure.matrix.set({
      values, rows: items * rows, cols, rowNames: rowNames(items, rows), colNames: colNames(cols), groupRows: rows,
    });
  }

  return {
    // inputs: the panel's parameters, the data section's n and the section's leaveOneOut.
    update(inputs) {
      const { bmmN: n, bmmA: a, bmmB: b, bmmBY: bY, bmmC: c } = inputs;
      drawButton.hidden = inputs.bmmValues === 'ones';
      const shapeX = [n, a, b];
      const shapeY = [n, bY, c];
      errors.clear();
      const X = errors.run(() => operand(core, n * a * b, inputs, 'queries'), inputs);
      const Y = errors.run(() => operand(core, n * bY * c, inputs, 'values'), inputs);
      if (X) drawOperand(x, X, shapeX, 'X');
      if (Y) drawOperand(y, Y, shapeY, 'Y');
      const result = X && Y ? errors.run(() => core.batchMatrixProduct(X, Y, { shapeX, shapeY }), inputs) : undefined;
      block.dataset.resultShape = result ? result.shape.join(',') : '';
      product.matrix.element.hidden = !result;
      product.label.hidden = !result;
      noResult.hidden = Boolean(result);
      if (result) drawOperand(product, result.values, result.shape, 'torch.bmm(X, Y)');
      shapes.textContent = result
        ? `${shapeText(shapeX)} × ${shapeText(shapeY)} → ${shapeText(result.shape)}`
        : `${shapeText(shapeX)} × ${shapeText(shapeY)} → ?`;
      // The training's shapes: each query's weights over its keys (the n - 1 others when its own
      // pair is left out, as in the book), and their values. Shapes, not numbers of the data.
      const others = inputs.leaveOneOut ? inputs.n - 1 : inputs.n;
      setRichText(training, t(inputs.leaveOneOut ? 'bmm.training' : 'bmm.trainingAll', {
        n: inputs.n, weights: shapeText([inputs.n, 1, others]), values: shapeText([inputs.n, others, 1]),
        result: shapeText([inputs.n, 1, 1]), others,
      }));
      training.dataset.n = String(inputs.n);
    },
  };
}
