// Self-attention and multi-head attention (d2l 10.5-10.6). A
// six-token sentence with seeded random embeddings X (1, 6, H) attends to
// itself (queries = keys = values = X) through seeded random projections
// W_q, W_k, W_v, W_o (H x H). Per-head attention maps side by side (the
// book's exercise), a heads slider over the head counts the core accepts for
// H (state.js offeredHeads: divisors of H within its batch limit), a switch per head
// that scales its output by 0 before W_o (the core's headMask), the output
// with all heads, the share of the switched-off heads and what is left, and
// the transpose_qkv reshaping with the live shapes. Nothing is trained, so the
// heads' patterns are arbitrary; the lead says so and links to the section
// where heads are trained (attention-training), when that section is on the page.
import { createMatrix } from '../../figures/matrix.js';
import { createHeatmap } from '../../figures/heatmap.js';
import { createFormula } from '../../figures/formula.js';
import { element } from '../../dom.js';
import { t, getLanguage } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { figureCell, note } from '../shared/frame.js';
import { createReshapeDiagram, headColour } from '../shared/reshape-diagram.js';
import { multiHeadSnippet } from './pytorch.js';
import { offeredHeads, mostHeads, MHA_SWITCHES } from '../../state.js';
import { TOKEN_COUNT, headMaskOf, headsAttention, layerArguments } from './setup.js';
import { MULTI_HEAD_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';

export { TOKEN_COUNT };

const DETAILED_HEADS = 8; // up to this many heads, each map writes its numbers
const TRAINING_SECTION = 'attention-training'; // where heads are trained (sections/attention-training/attention-training.js)

function create({ frame, store, controls, core }) {
  const panel = frame.controlsPanel;

  // Heads: a slider over the offered head counts (so every position is
  // valid) beside the table's number box, whose value the store moves to the
  // nearest offered count (state.js constraints).
  const headsControl = controls.numberControl('mhaHeads', { labelKey: 'multihead.heads', hintKey: 'multihead.headsHint', slider: false });
  const headsSlider = element('input', {
    type: 'range', min: 0, max: 1, step: 1, className: 'slider', 'aria-labelledby': 'mhaHeads-label', dataset: { role: 'heads-slider' },
  });
  headsControl.querySelector('.control-row').prepend(headsSlider);
  let divisors = [1];
  headsSlider.addEventListener('input', () => {
    store.set({ mhaHeads: divisors[Number(headsSlider.value)], mhaHeadsOff: 0 });
  });
  const divisorList = element('span', { className: 'control-hint', dataset: { role: 'divisors' } });
  headsControl.append(divisorList);

  const newProjections = controls.nextSeedButton('mhaSeed', { labelKey: 'multihead.newDraw', action: 'mha-new-draw' });
  const allOn = controls.button({
    labelKey: 'multihead.allOn', className: 'button button-quiet', action: 'mha-all-on',
    onClick: () => store.set({ mhaHeadsOff: 0 }),
  });
  panel.append(
    controls.numberControl('mhaHidden', { labelKey: 'multihead.hidden', hintKey: 'multihead.hiddenHint' }),
    headsControl,
    controls.numberControl('mhaSeed', { labelKey: 'multihead.seed', slider: false }),
    newProjections,
    allOn,
  );
  note(panel, { key: 'multihead.sentenceNote', className: 'note note-muted' });

  // After the lead: where heads learn patterns that mean something. Shown
  // only where that section is on the page (not in an iframe or element
  // showing this section alone); the link is an in-page link (url-state.js).
  const linkSpace = document.createTextNode(' '); // none in Chinese
  const trainingLink = element('p', { dataset: { role: 'mha-training-link' } }, [
    element('span', { dataset: { i18nRich: 'multihead.trainBefore' } }), linkSpace,
    element('a', { href: `#${TRAINING_SECTION}`, dataset: { i18n: 'attention-training.title' } }),
    element('span', { dataset: { i18nRich: 'multihead.trainAfter' } }),
  ]);
  trainingLink.hidden = true;
  (frame.root.querySelector('.prose') ?? frame.figures).append(trainingLink);

  const formulas = element('div', { className: 'formula-strip' });
  frame.figures.append(formulas);
  createFormula(formulas).set('\\operatorname{MultiHead}(\\mathbf Q, \\mathbf K, \\mathbf V) = \\operatorname{Concat}(\\mathbf h_1, \\dots, \\mathbf h_{n_h})\\, \\mathbf W_o^\\top');
  const headFormula = createFormula(formulas);

  const diagramBody = figureCell(frame.figures, { captionKey: 'multihead.reshapeCaption', className: 'cell-reshape' });
  const diagram = createReshapeDiagram(diagramBody);

  const headsBody = figureCell(frame.figures, { captionKey: 'multihead.headsCaption', className: 'cell-heads' });
  const headsGrid = element('div', { className: 'head-grid', dataset: { figure: 'mha-heads' } });
  const headReadout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'mha-readout' } });
  const limitNote = element('p', { className: 'note note-muted', dataset: { role: 'toggle-limit', i18n: 'multihead.toggleLimit' } });
  limitNote.hidden = true;
  headsBody.append(headsGrid, headReadout, limitNote);

  const outputGrid = element('div', { className: 'figure-grid output-grid' });
  frame.figures.append(outputGrid);
  const outputReadout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'mha-output-readout' } });
  let outputs = null;
  const outputHover = (kind) => (cell) => {
    if (!cell || !outputs?.[kind]) {
      outputReadout.textContent = t('multihead.outputHint');
      return;
    }
    outputReadout.textContent = t('multihead.outputReadout', {
      token: tokens()[cell.row], dim: cell.col + 1, value: formatNumber(cell.value, '.4~f'), which: t(`multihead.output.${kind}`),
    });
  };
  const outputFigure = (kind) => {
    const body = figureCell(outputGrid, { captionKey: `multihead.output.${kind}Caption` });
    const heatmap = createHeatmap(body, {
      labels: { x: 'multihead.axisHidden', y: 'multihead.axisTokens' }, colorLabelKey: 'multihead.axisValue', ariaKey: `multihead.output.${kind}Label`,
      aspect: 0.22, minHeight: 130, maxHeight: 190, onHover: outputHover(kind),
    });
    heatmap.element.dataset.figure = `mha-output-${kind}`;
    return { body: body.closest('figure'), heatmap };
  };
  const outputFull = outputFigure('full');
  const outputDropped = outputFigure('dropped');
  const outputKept = outputFigure('kept');
  frame.figures.append(outputReadout);
  const offNote = note(frame.figures, { key: 'multihead.offHint', className: 'note note-callout' });
  offNote.dataset.role = 'mha-off-note';

  const tokens = () => t('multihead.tokens').split(' ').slice(0, TOKEN_COUNT);

  let cards = [];
  let cardsDetailed = null;
  let markedHead = null; // the head an exercise asks about: its card outlined
  const applyMark = () => cards.forEach((card, i) => card.card.classList.toggle('is-marked', i === markedHead));
  let lastWeights = null;

  function makeCard(i, detailed) {
    const toggle = element('input', { type: 'checkbox', role: 'switch', className: 'switch-input', dataset: { head: i } });
    toggle.disabled = i >= MHA_SWITCHES;
    toggle.addEventListener('change', () => {
      const { mhaHeadsOff } = store.get();
      // Bit i of mhaHeadsOff is head i + 1 switched off.
      store.set({ mhaHeadsOff: (mhaHeadsOff ^ (1 << i)) >>> 0 });
    });
    const title = element('span', { className: 'head-title' });
    const header = element('label', { className: 'switch head-header' }, [
      toggle, element('span', { className: 'switch-track', 'aria-hidden': 'true' }), title,
    ]);
    const body = element('div', { className: 'head-body' });
    const card = element('div', { className: `head-card${detailed ? '' : ' is-compact'}`, dataset: { head: i } }, [header, body]);
    card.style.setProperty('--head-colour', headColour(i));
    headsGrid.append(card);
    const matrix = createMatrix(body, {
      format: '.2f', maxCell: detailed ? 40 : 12, minCell: detailed ? 16 : 6, textMinCell: detailed ? 27 : 999,
      labelWidth: detailed ? null : 2, rotateColumns: detailed, canvasCells: !detailed,
      onHover: (cell) => {
        if (!cell || !lastWeights) {
          headReadout.textContent = t('multihead.hoverHint');
          return;
        }
        const names = tokens();
        headReadout.textContent = t('multihead.readout', {
          head: i + 1, query: names[cell.row], key: names[cell.col], weight: formatNumber(cell.value, '.4~f'),
        });
      },
    });
    matrix.element.dataset.figure = `mha-head-${i + 1}`;
    return { card, toggle, title, matrix };
  }

  // One card per head: kept when the number of heads changes (only the
  // difference is built or removed), rebuilt when they switch between the
  // detailed maps (with numbers) and the compact ones. (Cards kept out of
  // the grid for a later count would hold nodes and listeners that grow
  // with the counts a learner has tried: the soak test counts them.)
  function buildCards(heads, detailed) {
    if (cardsDetailed !== detailed) {
      headsGrid.replaceChildren();
      cards = [];
      cardsDetailed = detailed;
    }
    while (cards.length > heads) cards.pop().card.remove();
    while (cards.length < heads) cards.push(makeCard(cards.length, detailed));
  }

  return {
    markHead(head) {
      markedHead = head;
      applyMark();
    },
    draw(result, inputs, changed) {
      const target = frame.root.getRootNode().getElementById?.(TRAINING_SECTION);
      trainingLink.hidden = !target || target.hidden;
      linkSpace.data = getLanguage() === 'zh' ? '' : ' ';
      const hidden = inputs.mhaHidden;
      divisors = offeredHeads(hidden, core.limits);
      headsSlider.max = String(divisors.length - 1);
      const index = divisors.indexOf(inputs.mhaHeads);
      if (index >= 0) headsSlider.value = String(index);
      headsSlider.setAttribute('aria-valuetext', String(inputs.mhaHeads));
      divisorList.textContent = t('multihead.divisors', { hidden, list: divisors.join(', '), most: mostHeads(core.limits) });

      const heads = inputs.mhaHeads;
      // The core accepted the pair: the heads divide H.
      const headSize = hidden / heads;
      headFormula.set(`\\mathbf h_i = \\operatorname{softmax}\\!\\Big(\\frac{\\mathbf Q_i \\mathbf K_i^\\top}{\\sqrt{${headSize}}}\\Big)\\mathbf V_i,\\quad \\mathbf Q_i, \\mathbf K_i, \\mathbf V_i \\in \\mathbb R^{${TOKEN_COUNT} \\times ${headSize}},\\quad n_h = ${heads}`);
      diagram.set({ batch: 1, tokens: TOKEN_COUNT, hidden, heads });

      const names = tokens();
      const detailed = heads <= DETAILED_HEADS;
      buildCards(heads, detailed);
      limitNote.hidden = heads <= MHA_SWITCHES;
      lastWeights = result.full.weights;
      const cellsPerHead = TOKEN_COUNT * TOKEN_COUNT;
      cards.forEach((card, i) => {
        const on = result.mask[i] !== 0;
        card.toggle.checked = on;
        card.card.classList.toggle('is-off', !on);
        card.title.textContent = t(on ? 'multihead.head' : 'multihead.headOff', { head: i + 1 });
        card.matrix.svg.setAttribute('aria-label', t('multihead.headLabel', { head: i + 1 }));
        card.matrix.set({
          values: result.full.weights.subarray(i * cellsPerHead, (i + 1) * cellsPerHead),
          rows: TOKEN_COUNT, cols: TOKEN_COUNT, domain: [0, 1],
          rowNames: detailed ? names : names.map(() => ''), colNames: detailed ? names : names.map(() => ''),
        });
      });
      applyMark();
      if (!headReadout.textContent || changed.has('language')) headReadout.textContent = t('multihead.hoverHint');

      const anyOff = result.dropped !== null;
      outputs = { full: result.full.output, dropped: result.dropped?.output, kept: result.kept.output };
      let low = Infinity;
      let high = -Infinity;
      for (const value of result.full.output) {
        if (value < low) low = value;
        if (value > high) high = value;
      }
      const domain = [low, high > low ? high : low + 1];
      const shape = { rows: TOKEN_COUNT, cols: hidden, domain };
      outputFull.heatmap.setMatrix({ ...shape, values: result.full.output });
      outputDropped.body.hidden = !anyOff;
      outputKept.body.hidden = !anyOff;
      if (anyOff) {
        outputDropped.heatmap.setMatrix({ ...shape, values: result.dropped.output });
        outputKept.heatmap.setMatrix({ ...shape, values: result.kept.output });
      }
      offNote.hidden = anyOff;
      if (!outputReadout.textContent || changed.has('language')) outputReadout.textContent = t('multihead.outputHint');
    },
  };
}

// Six tokens with seeded random embeddings X (1, 6, H) attend to themselves
// through seeded random projections (H x H). The output is linear in the
// head mask: all heads = the kept heads + the switched-off ones, both from
// the core with complementary masks.
function compute(core, inputs) {
  const drawn = layerArguments(core, inputs);
  const call = (headMask) => headsAttention(core, inputs, headMask, drawn);
  const mask = headMaskOf(inputs);
  const full = call(null);
  if (!mask.includes(0)) return { full, kept: full, dropped: null, mask };
  return { full, kept: call(mask), dropped: call(mask.map((factor) => (factor === 0 ? 1 : 0))), mask };
}

export const multiheadSection = {
  id: 'multihead',
  order: 110,
  book: {
    en: bookSubsection('multihead-attention', null, '11.5', 'Multi-Head Attention'),
    zh: bookSubsection('multihead-attention', null, '10.5', '多头注意力'),
  },
  corePart: 'models', // an exercise counts the projections' parameters in the encoder's own layer
  frame: { titleKey: 'multihead.title', leadKeys: ['multihead.lead1', 'multihead.lead2'] },
  inputs: ['mhaHidden', 'mhaHeads', 'mhaHeadsOff', 'mhaSeed'],
  arguments: {
    heads: 'mhaHeads', 'shape.heads': 'mhaHeads', 'shape.hidden': 'mhaHidden', hidden: 'mhaHidden',
    headMask: 'mhaHeadsOff', seed: 'mhaSeed',
  },
  // The core's refusal of a head count, in the page's language, with the
  // counts it would take (the store never hands it one; a test may).
  explain(error, { mhaHidden, mhaHeads }, core) {
    if (error?.argument !== 'shape.heads') return undefined;
    return t('multihead.headsRefused', {
      heads: mhaHeads, hidden: mhaHidden, most: mostHeads(core.limits),
      list: offeredHeads(mhaHidden, core.limits).join(', '),
    });
  },
  create,
  compute,
  draw: (view, result, inputs, changed) => view.draw(result, inputs, changed),
  pytorch: multiHeadSnippet,
  exercises: MULTI_HEAD_EXERCISES,
  teacherNoteKey: 'multihead.ex.teacherNote',
};
