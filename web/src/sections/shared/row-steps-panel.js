// "Take one row apart": from a trained model's attention map back to the
// mechanics the chapter taught. The learner picks a head and a query
// position of the map on screen and steps through that one row, in the
// scoring section's notation: ① the query and the keys, ② the scores
// (q·k/√d, or the additive w_vᵀ tanh(W_q q + W_k k)), ③ the mask, ④ the
// softmax (the map's row), ⑤ the weighted sum of the values. Each step
// links back to the section that taught it.
//
// Every number is the core's (attentionModelRowSteps / seq2seqRowSteps,
// handed in by the section as `compute`) for the model the section names.
// It is computed only while the panel is open, and only when its inputs
// change (the model, the example, the head, the query); while a run plays
// it waits for the run to pause (the maps redraw a few at a time then).
import { createFormula } from '../../figures/formula.js';
import { createMatrix } from '../../figures/matrix.js';
import { element } from '../../dom.js';
import { t, translateTree } from '../../i18n/index.js';
import { setRichText } from '../../i18n/rich-text.js';
import { formatNumber, texNumber } from '../../format.js';
import { ADDITIVE_TEX, DOT_TEX } from './scoring-notation.js';

export const ROW_STEPS = Object.freeze(['vectors', 'scores', 'mask', 'softmax', 'sum']);
const STEP_KEYS = Object.freeze({
  vectors: 'steps.step.vectors', scores: 'steps.step.scores', mask: 'steps.step.mask', softmax: 'steps.step.softmax',
  sum: 'steps.step.sum',
});
const STEP_MARKS = ['①', '②', '③', '④', '⑤'];

// The sections that taught each step (their ids on the page).
const TAUGHT_IN = Object.freeze({
  vectors: { dot: ['self-attention', 'multihead'], additive: ['scoring'] },
  scores: { dot: ['scoring'], additive: ['scoring'] },
  mask: { dot: ['masking'], additive: ['masking'] },
  softmax: { dot: ['masking', 'heatmap'], additive: ['masking', 'heatmap'] },
  sum: { dot: ['pooling'], additive: ['pooling'] },
});
const SECTION_LINK_KEYS = Object.freeze({
  'self-attention': 'steps.link.selfAttention', multihead: 'steps.link.multihead', scoring: 'steps.link.scoring',
  masking: 'steps.link.masking', heatmap: 'steps.link.heatmap', pooling: 'steps.link.pooling',
});

// The two visible keys with the largest scores (the first on a tie), for
// the read-outs and the exercise; one or none where fewer keys are visible.
export function topTwoKeys(steps) {
  const order = [];
  for (let j = 0; j < steps.keyCount; j += 1) if (steps.visible[j]) order.push(j);
  order.sort((a, b) => steps.scores[b] - steps.scores[a] || a - b);
  return order.slice(0, 2);
}

// `name`: the prefix of the panel's roles and ids ('at', 'tr').
export function createRowStepsPanel({ name }) {
  const summary = element('summary', { className: 'row-steps-summary', dataset: { i18n: 'steps.summary' } });
  const intro = element('p', { className: 'note note-muted', dataset: { i18nRich: 'steps.intro' } });
  const headSelect = element('select', { id: `${name}-steps-head`, dataset: { role: `${name}-steps-head` } });
  const querySelect = element('select', { id: `${name}-steps-query`, dataset: { role: `${name}-steps-query` } });
  const pickers = element('div', { className: 'row-steps-pickers' }, [
    element('label', { className: 'control-label', for: headSelect.id, dataset: { i18n: 'steps.head' } }), headSelect,
    element('label', { className: 'control-label', for: querySelect.id, dataset: { i18n: 'steps.query' } }), querySelect,
  ]);
  const source = element('p', { className: 'readout', dataset: { role: `${name}-steps-source` } });
  const stale = element('p', { className: 'note note-warning', dataset: { role: `${name}-steps-stale` } });
  stale.hidden = true;
  const stepButtons = ROW_STEPS.map((step, index) => element('button', {
    type: 'button', className: 'button button-quiet row-steps-step', dataset: { step, action: `${name}-steps-${step}` },
  }));
  const list = element('ol', { className: 'row-steps-list' }, stepButtons.map((button) => element('li', {}, [button])));
  const prev = element('button', { type: 'button', className: 'button', dataset: { action: `${name}-steps-prev`, i18n: 'steps.prev' } });
  const next = element('button', { type: 'button', className: 'button', dataset: { action: `${name}-steps-next`, i18n: 'steps.next' } });
  const title = element('h4', { className: 'row-steps-title', dataset: { role: `${name}-steps-title` } });
  const formulaHost = element('div', { className: 'formula-strip' });
  const formula = createFormula(formulaHost);
  const valueFormula = createFormula(formulaHost);
  const matrixHost = element('div', { className: 'row-steps-scroll' });
  // Where the cells are too small for their numbers (a GRU's 32-d
  // vectors), a cell pointed at or reached by the arrow keys says its
  // number below the matrix, and the colour scale beside it says what the
  // colours mean.
  const hoverReadout = element('p', { className: 'readout row-steps-hover', 'aria-live': 'polite', dataset: { role: `${name}-steps-hover` } });
  const scaleLow = element('span', { className: 'small-number' });
  const scaleHigh = element('span', { className: 'small-number' });
  const scale = element('p', { className: 'row-steps-scale', dataset: { role: `${name}-steps-scale` } }, [
    scaleLow, element('span', { className: 'row-steps-scale-bar', 'aria-hidden': 'true' }), scaleHigh,
  ]);
  let drawn = null; // what the matrix shows: { values, rowNames, colNames, cols, format }
  const matrix = createMatrix(matrixHost, {
    format: '.2f', maxCell: 46, minCell: 16, textMinCell: 30, rotateColumns: true,
    onHover(cell) {
      hoverReadout.textContent = cell && drawn
        ? `${drawn.rowNames[cell.row]} · ${drawn.colNames[cell.col]}: ${cell.masked ? drawn.maskedText : formatNumber(cell.value, drawn.format)}` : '';
      hoverReadout.dataset.value = cell && !cell.masked ? String(cell.value) : '';
    },
  });
  matrix.element.dataset.figure = `${name}-steps-matrix`;
  // The matrix, its colour scale (the domain it was drawn with: given, or
  // the finite unmasked values' range, as the matrix takes it) and the
  // names its hover read-out uses.
  function showMatrix(shownMatrix) {
    const { values, masked = null, domain = null, rowNames = [''], colNames, format: cellFormat, maskedText = '' } = shownMatrix;
    matrix.set(shownMatrix);
    drawn = { rowNames, colNames, format: cellFormat, maskedText };
    hoverReadout.textContent = '';
    let [low, high] = domain ?? [Infinity, -Infinity];
    if (!domain) {
      values.forEach((value, index) => {
        if (Number.isFinite(value) && !masked?.[index]) [low, high] = [Math.min(low, value), Math.max(high, value)];
      });
    }
    scale.hidden = !(low <= high);
    scaleLow.textContent = formatNumber(low, cellFormat);
    scaleHigh.textContent = formatNumber(high, cellFormat);
    Object.assign(scale.dataset, { low: String(low), high: String(high) });
  }
  const readout = element('p', { className: 'readout', dataset: { role: `${name}-steps-readout` } });
  const taught = element('p', { className: 'row-steps-taught', dataset: { role: `${name}-steps-taught` } });
  const body = element('div', {
    className: 'row-steps-body', 'aria-live': 'polite', dataset: { role: `${name}-steps-body` },
  }, [title, formulaHost, matrixHost, scale, hoverReadout, readout, taught]);
  const problem = element('p', { className: 'note note-warning', role: 'alert', dataset: { role: `${name}-steps-problem` } });
  problem.hidden = true;
  const details = element('details', { className: 'row-steps', dataset: { role: `${name}-row-steps` } }, [
    summary, intro, pickers, source, stale, list, body, problem,
    element('div', { className: 'player row-steps-nav' }, [prev, next]),
  ]);

  let step = 0;
  let current = null; // what the section shows: see update()
  let shown = null; // { key, steps } of the row on screen
  let choice = { head: 0, query: 0 }; // indexes into current.heads and current.queries
  let playingAt = null; // the step of a run playing past the numbers on screen, or null

  const open = () => details.open;

  function fillSelect(select, labels, selected) {
    const same = select.options.length === labels.length && labels.every((label, i) => select.options[i].textContent === label);
    if (!same) select.replaceChildren(...labels.map((label, i) => element('option', { value: String(i) }, [label])));
    select.value = String(selected);
  }

  function drawPickers() {
    if (!current) return;
    choice.head = Math.min(choice.head, current.heads.length - 1);
    choice.query = Math.min(choice.query, current.queries.length - 1);
    const headName = current.headName ?? (({ block, head }) => t('steps.headOption', { block: block + 1, head: head + 1 }));
    fillSelect(headSelect, current.heads.map(headName), choice.head);
    fillSelect(querySelect, current.queries.map((label, i) => t('steps.queryOption', { position: i, word: label })), choice.query);
  }

  // The core's steps for the row chosen, computed again only when what they depend on changed.
  function compute() {
    if (!current || current.blocked) return null;
    const { block, head } = current.heads[choice.head];
    const key = `${block} ${head} ${choice.query}`;
    if (shown && shown.model === current.model && shown.example === current.example && shown.key === key) return shown.steps;
    const steps = current.compute({ block, head, query: choice.query });
    shown = { model: current.model, example: current.example, key, steps, block, head, query: choice.query };
    return steps;
  }

  function linkTo(id) {
    const link = element('a', { href: `#${id}` });
    setRichText(link, t(SECTION_LINK_KEYS[id]));
    // Where the section is not on the page (an iframe or element showing one section), no link.
    link.hidden = !document.getElementById(id);
    return link;
  }

  function drawStep() {
    const stepName = ROW_STEPS[step];
    stepButtons.forEach((button, index) => {
      button.textContent = `${STEP_MARKS[index]} ${t(STEP_KEYS[ROW_STEPS[index]])}`;
      if (index === step) button.setAttribute('aria-current', 'step');
      else button.removeAttribute('aria-current');
    });
    prev.disabled = step === 0;
    next.disabled = step === ROW_STEPS.length - 1;
    body.dataset.step = stepName;
    title.textContent = `${STEP_MARKS[step]} ${t(STEP_KEYS[stepName])}`;
    const steps = shown?.steps;
    if (!steps) return;
    const additive = steps.scoring === 'additive';
    body.dataset.scoring = steps.scoring;
    const n = steps.keyCount;
    const keyNames = current.keyNames.slice(0, n).map((word, j) => `${j} ${word}`);
    const visible = steps.visible;
    const [top, second = top] = topTwoKeys(steps);
    const topName = keyNames[top] ?? '';
    const row = (values) => ({ values, rows: 1, cols: n, colNames: keyNames });
    const hiddenMask = Uint8Array.from(visible, (v) => (v ? 0 : 1));
    const params = {
      d: steps.queryDim, dv: steps.valueDim, key: topName, valid: steps.validLength, query: shown.query,
      word: current.queries[shown.query], block: shown.block + 1, head: shown.head + 1,
      score: formatNumber(steps.scores[top], '.3f'), weight: formatNumber(steps.weights[top], '.3f'),
      key2: keyNames[second] ?? '', score2: formatNumber(steps.scores[second], '.3f'),
      masked: n - visible.reduce((sum, v) => sum + v, 0),
    };
    const vectorRows = (first, firstName, matrixValues, count, width, names) => {
      const values = new Float64Array((count + 1) * width);
      values.set(first, 0);
      values.set(matrixValues.subarray(0, count * width), width);
      return { values, rows: count + 1, cols: width, rowNames: [firstName, ...names], colNames: Array.from({ length: width }, (_, c) => String(c + 1)) };
    };
    let texValue = '';
    let readoutKey = '';
    if (stepName === 'vectors') {
      formula.set(additive
        ? `\\mathbf q = \\mathbf s_{t'-1} \\in \\mathbb R^{${steps.queryDim}},\\quad \\mathbf k_j = \\mathbf v_j = \\mathbf h_j \\in \\mathbb R^{${steps.queryDim}}`
        : `\\mathbf q = \\mathbf W_q^{(${shown.head + 1})} \\mathbf x_{${shown.query}},\\quad \\mathbf k_j = \\mathbf W_k^{(${shown.head + 1})} \\mathbf x_j,\\quad \\mathbf v_j = \\mathbf W_v^{(${shown.head + 1})} \\mathbf x_j \\in \\mathbb R^{${steps.queryDim}}`);
      showMatrix({ ...vectorRows(steps.query, 'q', steps.keys, n, steps.queryDim, keyNames.map((k) => `k ${k}`)), format: '.2f' });
      readoutKey = additive ? 'steps.readout.vectorsAdditive' : 'steps.readout.vectorsDot';
    } else if (stepName === 'scores') {
      formula.set(additive ? ADDITIVE_TEX : DOT_TEX);
      texValue = additive
        ? `a(\\mathbf q, \\mathbf k_{${top}}) = \\mathbf w_v^\\top \\tanh(\\mathbf W_q \\mathbf q + \\mathbf W_k \\mathbf k_{${top}}) = ${texNumber(steps.scores[top])}`
        : `a(\\mathbf q, \\mathbf k_{${top}}) = \\frac{\\mathbf q^\\top \\mathbf k_{${top}}}{\\sqrt{${steps.queryDim}}} = ${texNumber(steps.scores[top])}`;
      showMatrix({ ...row(steps.scores), rowNames: ['a'], format: '.3f' });
      readoutKey = 'steps.readout.scores';
    } else if (stepName === 'mask') {
      formula.set(`\\tilde a_j = \\begin{cases} a_j & j < ${steps.validLength}${steps.causal ? `,\\ j \\le ${shown.query}` : ''} \\\\ -10^{6} & \\text{otherwise} \\end{cases}`);
      showMatrix({ ...row(steps.maskedScores), rowNames: ['ã'], masked: hiddenMask, maskedText: '−10⁶', format: '.3f' });
      readoutKey = steps.causal ? 'steps.readout.maskCausal' : 'steps.readout.mask';
    } else if (stepName === 'softmax') {
      formula.set('\\alpha_j = \\frac{\\exp(\\tilde a_j)}{\\sum_{j\'} \\exp(\\tilde a_{j\'})}');
      texValue = `\\alpha_{${top}} = ${texNumber(steps.weights[top])}`;
      showMatrix({ ...row(steps.weights), rowNames: ['α'], masked: hiddenMask, maskedText: '0', domain: [0, 1], format: '.2f' });
      readoutKey = 'steps.readout.softmax';
    } else {
      formula.set(`\\mathbf o = \\sum_j \\alpha_j \\mathbf v_j \\in \\mathbb R^{${steps.valueDim}}`);
      showMatrix({ ...vectorRows(steps.output, 'o', steps.values, n, steps.valueDim, keyNames.map((k) => `v ${k}`)), format: '.2f' });
      readoutKey = 'steps.readout.sum';
    }
    matrix.svg.setAttribute('aria-label', t('steps.matrixLabel', { title: title.textContent }));
    valueFormula.element.hidden = texValue === '';
    if (texValue) valueFormula.set(texValue);
    setRichText(readout, t(readoutKey, params));
    const links = TAUGHT_IN[stepName][steps.scoring].map(linkTo);
    taught.replaceChildren(element('span', { dataset: { i18n: 'steps.taught' } }, [t('steps.taught')]), ' ', ...links.flatMap((link, i) => (i ? [' · ', link] : [link])));
  }

  // Whose numbers these are: the model's step. A run resumed since they
  // were computed: they stay (the maps redraw a few at a time while it
  // plays), and the text says whose they are and where the run is; the
  // maps then show the run, no timeline moment.
  function drawSource() {
    const ahead = playingAt !== null && playingAt !== current.liveStep;
    source.textContent = ahead ? t(current.playingKey, { step: current.liveStep, live: playingAt }) : t('steps.source', { step: current.liveStep });
    const staleText = !ahead && current.momentStep !== current.liveStep
      ? t('steps.stale', { shown: current.momentStep, live: current.liveStep }) : null;
    stale.hidden = !staleText;
    stale.textContent = staleText ?? '';
  }

  // Everything on screen again from `current` (computing only what changed).
  function render() {
    if (!open() || !current) return;
    list.setAttribute('aria-label', t('steps.listLabel'));
    drawPickers();
    drawSource();
    problem.hidden = true;
    if (current.blocked) {
      problem.hidden = false;
      problem.textContent = current.blocked;
      body.hidden = true;
      return;
    }
    body.hidden = false;
    try {
      compute();
    } catch (error) {
      problem.hidden = false;
      problem.textContent = error.message;
      return;
    }
    details.dataset.block = String(shown.block);
    details.dataset.head = String(shown.head);
    details.dataset.query = String(shown.query);
    drawStep();
  }

  function goTo(index) {
    step = Math.max(0, Math.min(ROW_STEPS.length - 1, index));
    render();
  }

  stepButtons.forEach((button, index) => button.addEventListener('click', () => goTo(index)));
  prev.addEventListener('click', () => goTo(step - 1));
  next.addEventListener('click', () => goTo(step + 1));
  // Left and right arrows move through the steps from anywhere in the list.
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    goTo(step + (event.key === 'ArrowRight' ? 1 : -1));
    stepButtons[step].focus();
  });
  headSelect.addEventListener('change', () => {
    choice.head = Number(headSelect.value);
    render();
  });
  querySelect.addEventListener('change', () => {
    choice.query = Number(querySelect.value);
    render();
  });
  details.addEventListener('toggle', render);

  return {
    element: details,
    // What the section shows: { model, example (what identifies the batch
    // and item), compute({block, head, query}) -> the core's steps, blocks
    // and heads of the maps, queries: [label per query position], keyNames,
    // liveStep (the step `model` is at), momentStep (the step of the maps
    // on screen, when the timeline shows an earlier one), blocked (null, or
    // why there is no row to take apart), headName({block, head}) (the
    // picker's name of a head, when "block b · head h" does not fit the
    // model), playingKey (the text, {step} and {live}, for numbers a
    // playing run has gone past) }. `frozen`: a run is playing; the
    // numbers on screen stay until it pauses, the texts follow it.
    update({ blocks, heads, liveStep, momentStep = liveStep, ...next }, { frozen = false } = {}) {
      if (frozen && shown && current) {
        playingAt = liveStep;
        if (open()) drawSource();
        return;
      }
      playingAt = null;
      current = {
        ...next,
        heads: Array.from({ length: blocks * heads }, (_, i) => ({ block: Math.floor(i / heads), head: i % heads })),
        liveStep,
        momentStep,
      };
      render();
    },
    // The row on screen, read-only, for the exercise: the core's steps and
    // which row they are; null while the panel is closed or has none.
    rowSteps() {
      if (!open() || !current || current.blocked || !shown) return null;
      return { steps: shown.steps, block: shown.block, head: shown.head, query: shown.query, keyNames: current.keyNames };
    },
    // The page's language changed: every text again.
    relabel() {
      translateTree(details);
      list.setAttribute('aria-label', t('steps.listLabel'));
      render();
    },
    forget() {
      current = null;
      shown = null;
      playingAt = null;
    },
  };
}
