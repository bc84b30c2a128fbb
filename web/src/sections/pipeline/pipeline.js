// The attention scoring framework for one query (d2l 10.3, its
// Fig. 10.3.1): a scoring function a(q, k_i) per key, a softmax over the
// scores, a weighted sum of the values. The learner drags the query on a
// plane of keys and follows the numbers through the pipeline. The weights
// and the output come from the core's dotProductAttention or
// additiveAttention; the page writes each score out as the sum it is.
import { PIPELINE_SCORINGS } from '../../state.js';
import { createPlane } from '../../figures/plane.js';
import { createFormula } from '../../figures/formula.js';
import { reachWhenScrolling } from '../../figures/scroll-reach.js';
import { element } from '../../dom.js';
import { texNumber, formatNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { pipelineAttention } from './setup.js';
export { PIPELINE_DRAWS } from './setup.js';
import { PIPELINE_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const FRAMEWORK_TEX = 'f(\\mathbf q) = \\sum_{i=1}^{m} \\alpha(\\mathbf q, \\mathbf k_i)\\, v_i';
const SOFTMAX_TEX = '\\alpha(\\mathbf q, \\mathbf k_i) = \\frac{\\exp a(\\mathbf q, \\mathbf k_i)}{\\sum_{j=1}^{m} \\exp a(\\mathbf q, \\mathbf k_j)}';
const SCORE_TEX = {
  dot: 'a(\\mathbf q, \\mathbf k) = \\frac{\\mathbf q^\\top \\mathbf k}{\\sqrt{d}},\\quad d = 2',
  additive: 'a(\\mathbf q, \\mathbf k) = \\mathbf w_v^\\top \\tanh(\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k),\\quad h = 8',
};

// A number inside TeX: negative ones in parentheses when they are factors.
const factor = (value, spec = '.2f') => (value < 0 ? `(${texNumber(value, spec)})` : texNumber(value, spec));

function scoreTex(scoring, q, k, i, score) {
  const value = texNumber(score, '.3f');
  if (scoring === 'dot') {
    return `\\big(${factor(q[0])} \\cdot ${factor(k[0])} + ${factor(q[1])} \\cdot ${factor(k[1])}\\big) / \\sqrt 2 = ${value}`;
  }
  return `\\mathbf w_v^\\top \\tanh\\!\\big(\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k_{${i + 1}}\\big) = ${value}`;
}

function create({ frame, store, controls }) {
  const panel = frame.controlsPanel;
  const newKeys = controls.nextSeedButton('pipelineSeed', { labelKey: 'pipeline.newKeys', action: 'pipeline-new-keys' });
  panel.append(
    controls.choiceControl('pipelineScoring', {
      labelKey: 'pipeline.scoring',
      optionKeys: Object.fromEntries(PIPELINE_SCORINGS.map((name) => [name, `pipeline.scoring.${name}`])),
    }),
    controls.numberControl('pipelineKeys', { labelKey: 'pipeline.keys' }),
    controls.numberControl('pipelineQ1', { labelKey: 'pipeline.q1', hintKey: 'pipeline.qHint' }),
    controls.numberControl('pipelineQ2', { labelKey: 'pipeline.q2' }),
    controls.numberControl('pipelineSeed', { labelKey: 'pipeline.seed', slider: false }),
    newKeys,
  );
  note(panel, { key: 'pipeline.valuesNote', className: 'note note-muted' });

  const grid = element('div', { className: 'figure-grid pipeline-grid' });
  frame.figures.append(grid);
  const planeBody = figureCell(grid, { captionKey: 'pipeline.planeCaption', className: 'cell-plane' });
  const plane = createPlane(planeBody, {
    ariaKey: 'pipeline.planeLabel',
    queryLabelKey: 'pipeline.queryLabel',
    onMove: (x, y) => store.set({ pipelineQ1: x, pipelineQ2: y }),
  });
  plane.element.dataset.figure = 'pipeline-plane';
  // The framework's formulas beside the plane, the output of this query last.
  const formulas = element('div', { className: 'formula-strip formula-column' });
  grid.append(formulas);
  createFormula(formulas).set(FRAMEWORK_TEX);
  createFormula(formulas).set(SOFTMAX_TEX);
  const scoreFormula = createFormula(formulas);
  scoreFormula.element.dataset.role = 'pipeline-score-formula';
  const resultFormula = createFormula(formulas, { className: 'formula formula-result' });

  const tableBody = figureCell(frame.figures, { captionKey: 'pipeline.tableCaption', className: 'cell-pipeline' });
  const head = element('tr', {}, [
    element('th', { scope: 'col', dataset: { i18n: 'pipeline.colKey' } }),
    element('th', { scope: 'col', className: 'stage', dataset: { i18n: 'pipeline.colScore' } }),
    element('th', { scope: 'col', className: 'stage', dataset: { i18n: 'pipeline.colWeight' } }),
    element('th', { scope: 'col', dataset: { i18n: 'pipeline.colValue' } }),
    element('th', { scope: 'col', className: 'stage', dataset: { i18n: 'pipeline.colTerm' } }),
  ]);
  const rows = element('tbody');
  const outputCell = element('td', { colspan: 5, className: 'pipeline-output' });
  const table = element('table', { className: 'pipeline-table', dataset: { figure: 'pipeline-table' } }, [
    element('thead', {}, [head]),
    rows,
    element('tfoot', {}, [element('tr', {}, [outputCell])]),
  ]);
  const tableScroll = element('div', { className: 'pipeline-scroll' }, [table]);
  tableBody.append(tableScroll);
  reachWhenScrolling(tableScroll, 'scroll.table', () => table);
  const outputFormula = createFormula(outputCell, { display: false });
  outputFormula.element.dataset.role = 'pipeline-output';
  note(tableBody, { key: 'pipeline.scoreNote', className: 'note note-muted' });

  // One row per key, built once per key count and refilled on every change.
  let rowParts = [];
  function ensureRows(m) {
    if (rowParts.length === m) return;
    rowParts = Array.from({ length: m }, (_, i) => {
      const key = element('td', { className: 'pipeline-key' });
      const score = element('td', { className: 'pipeline-score' });
      const bar = element('span', { className: 'weight-bar' });
      const weightText = element('span', { className: 'weight-number', dataset: { role: 'pipeline-weight' } });
      const weight = element('td', { className: 'pipeline-weight' }, [element('span', { className: 'weight-track' }, [bar]), weightText]);
      const value = element('td', { className: 'pipeline-value' });
      const term = element('td', { className: 'pipeline-term' });
      const row = element('tr', { dataset: { key: i } }, [key, score, weight, value, term]);
      return {
        row, bar, weightText,
        key: createFormula(key, { display: false }),
        score: createFormula(score, { display: false }),
        value: createFormula(value, { display: false }),
        term: createFormula(term, { display: false }),
      };
    });
    rows.replaceChildren(...rowParts.map((part) => part.row));
  }

  let markedKey = null; // the row an exercise points at
  function outlineRows() {
    rowParts.forEach((part, i) => {
      part.row.toggleAttribute('data-marked', i === markedKey);
      part.row.style.outline = i === markedKey ? '2px dashed currentColor' : '';
    });
  }

  return {
    // An exercise's key, outlined in the table (null: none).
    markKey(index) {
      markedKey = index;
      outlineRows();
    },
    draw({ keys, values, scores, weights, output, queries }, inputs) {
      scoreFormula.set(SCORE_TEX[inputs.pipelineScoring]);
      const m = inputs.pipelineKeys;
      let strongest = 0;
      for (let i = 1; i < m; i += 1) if (weights[i] > weights[strongest]) strongest = i;

      plane.set({
        query: { x: queries[0], y: queries[1] },
        points: Array.from({ length: m }, (_, i) => ({ x: keys[2 * i], y: keys[2 * i + 1], weight: weights[i], label: `k${i + 1}` })),
      });

      ensureRows(m);
      rowParts.forEach((part, i) => {
        const k = [keys[2 * i], keys[2 * i + 1]];
        part.row.classList.toggle('is-strongest', i === strongest);
        part.key.set(`\\mathbf k_{${i + 1}}\\ (${texNumber(k[0], '.2f')},\\, ${texNumber(k[1], '.2f')})`);
        part.score.set(scoreTex(inputs.pipelineScoring, queries, k, i, scores[i]));
        part.score.element.dataset.value = String(scores[i]);
        part.bar.style.width = `${Math.max(0, Math.min(1, weights[i])) * 100}%`;
        part.weightText.textContent = formatNumber(weights[i], '.3f');
        part.weightText.dataset.value = String(weights[i]);
        part.value.set(`v_{${i + 1}} = ${texNumber(values[i], '.2f')}`);
        part.term.set(`${texNumber(weights[i], '.3f')} \\cdot ${factor(values[i])}`);
      });
      outlineRows();
      outputFormula.set(`f(\\mathbf q) = \\sum_{i=1}^{${m}} \\alpha_i v_i = \\mathbf{${texNumber(output, '.4f')}}`);
      outputFormula.element.dataset.value = String(output);
      resultFormula.set(`\\mathbf q = (${texNumber(queries[0], '.2f')},\\, ${texNumber(queries[1], '.2f')})\\ \\longrightarrow\\ f(\\mathbf q) = \\mathbf{${texNumber(output, '.4f')}}`);
    },
  };
}

export const pipelineSection = {
  id: 'pipeline',
  order: 60,
  book: {
    en: bookSubsection('attention-scoring-functions', null, '11.3', 'Attention Scoring Functions'),
    zh: bookSubsection('attention-scoring-functions', null, '10.3', '注意力评分函数'),
  },
  frame: { titleKey: 'pipeline.title', leadKeys: ['pipeline.lead1', 'pipeline.lead2'] },
  inputs: ['pipelineScoring', 'pipelineKeys', 'pipelineQ1', 'pipelineQ2', 'pipelineSeed'],
  arguments: { queries: 'pipelineQ1', keys: 'pipelineKeys', 'shape.nk': 'pipelineKeys', count: 'pipelineKeys', seed: 'pipelineSeed' },
  create,
  compute: (core, inputs) => pipelineAttention(core, inputs),
  draw: (view, result, inputs) => view.draw(result, inputs),
  exercises: PIPELINE_EXERCISES,
  teacherNoteKey: 'pipeline.ex.teacherNote',
};
