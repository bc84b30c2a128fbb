// Self-attention, hands on (the course notes' self-attention chapter, d2l
// 10.6.1): the sentence 她正在吃一个绿色的苹果 with small hand-built word
// vectors attends to itself, y_i = sum_j softmax_j(x_i . x_j / sqrt(d)) x_j,
// with no projections: the weights come from the words alone. The learner
// edits a word's vector (its components are parameters of the page's table,
// so an edit travels in the URL) and watches its row and column change. A
// switch puts seeded random projections W_q, W_k, W_v in between (the core's
// multi-head attention with one head), and a comparison sets self-attention
// beside encoder-decoder attention: the English translation asking over the
// Chinese sentence.
//
// The scores are divided by sqrt(d), as d2l's DotProductAttention (and so
// its self-attention) does; the notes' softmax(x_i . x_j) leaves it out.
// Dividing by a constant keeps the order of the weights in every row, so the
// word each row favours is the same either way; the lead says so.
import { createMatrix } from '../../figures/matrix.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t, getLanguage } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { parameters, SA_FEATURES } from '../../state.js';
import { figureCell, note } from '../shared/frame.js';
import { normalDraws, linearBound } from '../shared/seeded-draws.js';
import { createSeriesPanel, computeSeries, SERIES_INPUTS, SERIES_ARGUMENTS } from './series-smoothing-panel.js';
import {
  WORDS, WORD_COUNT, FEATURE_COUNT, VECTOR_PARAMETERS, TRANSLATION, sentenceMatrix, builtInVectors, translationQueries,
} from './words.js';
import { SELF_ATTENTION_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

const ONE_SENTENCE = 1; // batch
const TRAINING_SECTION = 'attention-training'; // where projections are trained

// W_o of the one-head layer: the identity, so the output is the weighted sum
// of the values themselves, as in the formula shown (a constant, not data).
const IDENTITY = Float64Array.from({ length: FEATURE_COUNT * FEATURE_COUNT },
  (_, i) => (Math.floor(i / FEATURE_COUNT) === i % FEATURE_COUNT ? 1 : 0));

const PLAIN_TEX = 'y_i = \\sum_{j=1}^{6} \\operatorname{softmax}_j\\!\\Big(\\frac{\\mathbf x_i \\cdot \\mathbf x_j}{\\sqrt{5}}\\Big)\\, \\mathbf x_j';
const PROJECTED_TEX = 'y_i = \\sum_{j=1}^{6} \\operatorname{softmax}_j\\!\\Big(\\frac{\\mathbf q_i \\cdot \\mathbf k_j}{\\sqrt{5}}\\Big)\\, \\mathbf v_j,\\quad \\mathbf Q = \\mathbf X \\mathbf W_q,\\ \\mathbf K = \\mathbf X \\mathbf W_k,\\ \\mathbf V = \\mathbf X \\mathbf W_v';

// The comparison table's rows, one per point of the notes: the point, then
// encoder-decoder attention's text and self-attention's.
const COMPARISON_ROWS = [
  ['self-attention.compare.appliedTo', 'self-attention.compare.appliedTo.cross', 'self-attention.compare.appliedTo.self'],
  ['self-attention.compare.sources', 'self-attention.compare.sources.cross', 'self-attention.compare.sources.self'],
  ['self-attention.compare.connects', 'self-attention.compare.connects.cross', 'self-attention.compare.connects.self'],
  ['self-attention.compare.stacking', 'self-attention.compare.stacking.cross', 'self-attention.compare.stacking.self'],
  ['self-attention.compare.strength', 'self-attention.compare.strength.cross', 'self-attention.compare.strength.self'],
  ['self-attention.compare.modalities', 'self-attention.compare.modalities.cross', 'self-attention.compare.modalities.self'],
  ['self-attention.compare.general', 'self-attention.compare.general.cross', 'self-attention.compare.general.self'],
  ['self-attention.compare.example', 'self-attention.compare.example.cross', 'self-attention.compare.example.self'],
];

// The features' names, in the order of SA_FEATURES.
const FEATURE_KEYS = ['self-attention.feature.person', 'self-attention.feature.action', 'self-attention.feature.food', 'self-attention.feature.colour', 'self-attention.feature.grammar'];

// The tokens as the figures label them: the glosses in English, the Chinese
// words in Chinese.
const tokenNames = () => WORDS.map((word) => (getLanguage() === 'zh' ? word.token : t(word.glossKey)));

function create({ frame, store, controls }) {
  const panel = frame.controlsPanel;
  panel.append(
    controls.toggleControl('saProjections', { labelKey: 'self-attention.projections' }),
    controls.numberControl('saSeed', { labelKey: 'self-attention.seed', slider: false }),
    controls.nextSeedButton('saSeed', { labelKey: 'self-attention.newDraw', action: 'sa-new-draw' }),
    controls.button({
      labelKey: 'self-attention.reset', className: 'button button-quiet', action: 'sa-reset',
      onClick: () => store.set(builtInVectors()),
    }),
  );
  note(panel, { key: 'self-attention.vectorsNote', className: 'note note-muted' });

  // First the notes' noisy series: self-attention as Nadaraya–Watson over one sequence.
  const series = createSeriesPanel(frame.figures, { controls });

  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  const formula = createFormula(formulas);
  formula.element.dataset.role = 'sa-formula';

  // The weights and the outputs, both from the core.
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'sa-readout' } });
  let shown = null; // { weights, output } drawn last, for the hover read-out
  const weightsBody = figureCell(frame.figures, { captionKey: 'self-attention.weightsCaption' });
  const weightsMatrix = createMatrix(weightsBody, {
    format: '.2f', maxCell: 46, minCell: 20, textMinCell: 27, rotateColumns: true, ariaKey: 'self-attention.weightsLabel',
    rowTitleKey: 'self-attention.axisQuery', colTitleKey: 'self-attention.axisKey',
    onHover: (cell) => {
      if (!cell || !shown) {
        readout.textContent = t('self-attention.hoverHint');
        return;
      }
      const names = tokenNames();
      readout.textContent = t('self-attention.readout', { query: names[cell.row], key: names[cell.col], weight: formatNumber(cell.value, '.4~f') });
    },
  });
  weightsMatrix.element.dataset.figure = 'sa-weights';
  weightsBody.append(readout);
  const strongest = element('ul', { className: 'note', dataset: { role: 'sa-strongest', says: 'self-attention.strongest' } });
  weightsBody.append(strongest);

  const outputBody = figureCell(frame.figures, { captionKey: 'self-attention.outputCaption' });
  const outputMatrix = createMatrix(outputBody, {
    format: '.2f', maxCell: 46, minCell: 20, textMinCell: 27, rotateColumns: true, ariaKey: 'self-attention.outputLabel',
  });
  outputMatrix.element.dataset.figure = 'sa-outputs';

  // The vectors: one number box per component, through the table's clamping.
  const editorBody = figureCell(frame.figures, { captionKey: 'self-attention.editorCaption', className: 'cell-pipeline' });
  const boxes = new Map(); // parameter -> its number box
  const wordCells = [];
  const featureHeads = FEATURE_KEYS.map((key) => element('th', { scope: 'col', dataset: { i18n: key } }));
  const editorRows = WORDS.map((word) => {
    const wordCell = element('th', { scope: 'row' });
    wordCells.push(wordCell);
    const cells = word.parameters.map((name) => {
      const spec = parameters[name];
      const box = element('input', {
        type: 'number', min: spec.min, max: spec.max, step: spec.step, inputmode: 'decimal',
        className: 'number', dataset: { role: 'sa-component' },
      });
      box.addEventListener('change', () => {
        store.set({ [name]: box.value });
        box.value = String(store.get()[name]); // the clamped value, even if nothing changed
      });
      boxes.set(name, box);
      // data-param on the cell: the hash's hide list and the tests find it as any control's.
      return element('td', { dataset: { param: name } }, [box]);
    });
    return element('tr', { dataset: { word: word.token } }, [wordCell, ...cells]);
  });
  const editor = element('table', { className: 'pipeline-table', dataset: { role: 'sa-editor' } }, [
    element('thead', {}, [element('tr', {}, [element('th', { scope: 'col', dataset: { i18n: 'self-attention.word' } }), ...featureHeads])]),
    element('tbody', {}, editorRows),
  ]);
  editorBody.append(element('div', { className: 'pipeline-scroll' }, [editor]));

  // Why projections, and where they are trained (a link when that section is on the page).
  const projectionNote = note(frame.figures, { key: 'self-attention.projectionsWhy', className: 'note note-callout' });
  projectionNote.dataset.role = 'sa-projections-note';
  const linkSpace = document.createTextNode(' ');
  const trainingLink = element('p', { className: 'note', dataset: { role: 'sa-training-link' } }, [
    element('span', { dataset: { i18nRich: 'self-attention.trainBefore' } }), linkSpace,
    element('a', { href: `#${TRAINING_SECTION}`, dataset: { i18n: 'attention-training.title' } }),
    element('span', { dataset: { i18nRich: 'self-attention.trainAfter' } }),
  ]);
  frame.figures.append(trainingLink);

  // Attention vs self-attention: the notes' points, then one live example of each.
  const comparisonBody = figureCell(frame.figures, { captionKey: 'self-attention.compareCaption', className: 'cell-pipeline' });
  // The wrapping table style of the training section's examples: these cells hold sentences.
  const comparison = element('table', { className: 'at-examples', dataset: { role: 'sa-comparison' } }, [
    element('thead', {}, [element('tr', {}, [
      element('th', { scope: 'col', dataset: { i18n: 'self-attention.compare.point' } }),
      element('th', { scope: 'col', dataset: { i18n: 'self-attention.compare.cross' } }),
      element('th', { scope: 'col', dataset: { i18n: 'self-attention.compare.self' } }),
    ])]),
    element('tbody', {}, COMPARISON_ROWS.map(([point, cross, self]) => element('tr', {}, [
      element('th', { scope: 'row', dataset: { i18n: point } }),
      element('td', { dataset: { i18nRich: cross } }),
      element('td', { dataset: { i18nRich: self } }),
    ]))),
  ]);
  comparisonBody.append(element('div', { className: 'pipeline-scroll' }, [comparison]));

  const examples = element('div', { className: 'figure-grid' });
  frame.figures.append(examples);
  const exampleMatrix = (captionKey, ariaKey, figure) => {
    const body = figureCell(examples, { captionKey });
    const matrix = createMatrix(body, {
      format: '.2f', maxCell: 40, minCell: 18, textMinCell: 27, rotateColumns: true, ariaKey,
      rowTitleKey: 'self-attention.axisQuery', colTitleKey: 'self-attention.axisKey',
    });
    matrix.element.dataset.figure = figure;
    return matrix;
  };
  const crossMatrix = exampleMatrix('self-attention.crossCaption', 'self-attention.crossLabel', 'sa-cross');
  const selfMatrix = exampleMatrix('self-attention.selfCaption', 'self-attention.selfLabel', 'sa-self');

  return {
    // For the exercises (self-attention/exercises.js): a point of the series marked.
    markSeriesTime: (time) => series.mark(time),
    // A cell (row-major, query x key) outlined in the map "Self-attention" of the comparison.
    markSelfCell: (index) => selfMatrix.mark(index),
    draw(result, inputs, changed) {
      series.draw(result.series, inputs, changed);
      const target = frame.root.getRootNode().getElementById?.(TRAINING_SECTION);
      trainingLink.hidden = !target || target.hidden;
      linkSpace.data = getLanguage() === 'zh' ? '' : ' ';
      const projected = result.projected !== null;
      formula.set(projected ? PROJECTED_TEX : PLAIN_TEX);
      const names = tokenNames();
      const source = WORDS.map((word) => word.token);

      shown = projected ? result.projected : result.plain;
      const square = { rows: WORD_COUNT, cols: WORD_COUNT, rowNames: names, colNames: names, domain: [0, 1] };
      weightsMatrix.set({ ...square, values: shown.weights });
      outputMatrix.set({
        values: shown.output, rows: WORD_COUNT, cols: FEATURE_COUNT, rowNames: names,
        // Projected values are mixtures of the features: their columns have no names.
        colNames: projected ? SA_FEATURES.map((_, i) => `v${i + 1}`) : FEATURE_KEYS.map((key) => t(key)),
      });
      if (!readout.textContent || changed.has('language')) readout.textContent = t('self-attention.hoverHint');

      // Each word's strongest weight on another word (choosing among the
      // core's weights, which the cells show).
      strongest.replaceChildren(...names.map((name, i) => {
        let best = i === 0 ? 1 : 0;
        for (let j = 0; j < WORD_COUNT; j += 1) {
          if (j !== i && shown.weights[i * WORD_COUNT + j] > shown.weights[i * WORD_COUNT + best]) best = j;
        }
        return element('li', { dataset: { word: WORDS[i].token, strongest: WORDS[best].token } }, [t('self-attention.strongest', {
          query: name, key: names[best], weight: formatNumber(shown.weights[i * WORD_COUNT + best], '.2f'),
        })]);
      }));

      WORDS.forEach((word, i) => {
        wordCells[i].textContent = getLanguage() === 'zh' ? word.token : `${word.token} ${t(word.glossKey)}`;
        word.parameters.forEach((name, k) => {
          const box = boxes.get(name);
          box.setAttribute('aria-label', t('self-attention.componentLabel', { word: names[i], feature: t(FEATURE_KEYS[k]) }));
          if (box.getRootNode().activeElement !== box) box.value = String(inputs[name]);
        });
      });

      crossMatrix.set({
        values: result.cross.weights, rows: TRANSLATION.length, cols: WORD_COUNT, domain: [0, 1],
        // In Chinese each English query also names the word it translates.
        rowNames: TRANSLATION.map(({ word, source: i }) => (getLanguage() === 'zh' ? `${word} ${WORDS[i].token}` : word)),
        colNames: source,
      });
      selfMatrix.set({ ...square, rowNames: source, colNames: source, values: result.plain.weights });
    },
  };
}

// Everything drawn comes from the core: the sentence attending to itself
// (without projections, and with them when switched on), and the English
// translation attending to it.
function compute(core, inputs) {
  const sentence = sentenceMatrix(inputs);
  const attend = (queries, nq) => core.dotProductAttention({
    queries, keys: sentence, values: sentence,
    shape: { batch: ONE_SENTENCE, nq, nk: WORD_COUNT, d: FEATURE_COUNT, dv: FEATURE_COUNT },
  });
  const plain = attend(sentence, WORD_COUNT);
  const cross = attend(translationQueries(), TRANSLATION.length);
  const series = computeSeries(core, inputs);
  if (!inputs.saProjections) return { plain, cross, projected: null, series };
  // Seeded random projections drawn as the multi-head section draws its own
  // (N(0, 1/d)): the core's generator, one stream per role.
  const projection = (role) => normalDraws(core, FEATURE_COUNT * FEATURE_COUNT, inputs.saSeed, role, linearBound(FEATURE_COUNT));
  const projected = core.multiHeadAttention({
    queries: sentence, keys: sentence, values: sentence,
    shape: { batch: ONE_SENTENCE, nq: WORD_COUNT, nk: WORD_COUNT, hidden: FEATURE_COUNT, heads: 1 },
    Wq: projection('wq'), Wk: projection('wk'), Wv: projection('wv'), Wo: IDENTITY,
  });
  return { plain, cross, projected, series };
}

export const selfAttentionSection = {
  id: 'self-attention',
  order: 90,
  book: {
    en: bookSubsection('self-attention-and-positional-encoding', 'self-attention', '11.6.1', 'Self-Attention'),
    zh: bookSubsection('self-attention-and-positional-encoding', null, '10.6', '自注意力和位置编码'),
  },
  frame: { titleKey: 'self-attention.title', leadKeys: ['self-attention.lead1', 'self-attention.lead2'] },
  inputs: [...SERIES_INPUTS, ...VECTOR_PARAMETERS, 'saProjections', 'saSeed'],
  arguments: { seed: 'saSeed', ...SERIES_ARGUMENTS },
  create,
  compute,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  exercises: SELF_ATTENTION_EXERCISES,
  teacherNoteKey: 'self-attention.ex.teacherNote',
};
