// The transpose_qkv reshaping of d2l 10.5 as a diagram with the live
// shapes: (B, n, H) -> reshape (B, n, n_h, H/n_h) -> permute (B, n_h, n, H/n_h)
// -> reshape (B*n_h, n, H/n_h). The hidden columns are coloured by the head
// they go to, so the learner sees the same colours move from side by side
// (columns of one matrix) to on top of each other (a batch of small problems).
import { select } from 'd3-selection';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';

// Okabe-Ito, then lighter and darker turns of it: distinct for the first
// eight heads under the common colour-vision deficiencies, cycled after that.
const PALETTE = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#000000'];
export const headColour = (i) => PALETTE[i % PALETTE.length];

const SHOWN_BLOCKS = 8; // blocks drawn before "..." when there are many heads
const BOX = { width: 104, row: 7, gap: 3 };

function stage(codeKey) {
  const svg = select(document.createElementNS('http://www.w3.org/2000/svg', 'svg')).attr('class', 'reshape-svg').attr('aria-hidden', 'true');
  const shape = element('code', { className: 'reshape-shape' });
  const note = element('span', { className: 'reshape-note', dataset: { i18n: codeKey } });
  const node = element('div', { className: 'reshape-stage' }, [svg.node(), shape, note]);
  return { node, svg, shape };
}

function arrow(code) {
  return element('div', { className: 'reshape-arrow', 'aria-hidden': 'true' }, [element('code', {}, [code]), element('span', {}, ['→'])]);
}

export function createReshapeDiagram(container) {
  const stages = [stage('multihead.reshape.projected'), stage('multihead.reshape.split'), stage('multihead.reshape.permuted'), stage('multihead.reshape.batched')];
  const codes = [arrow('reshape'), arrow('permute(0, 2, 1, 3)'), arrow('reshape')];
  const summary = element('p', { className: 'reshape-summary', dataset: { role: 'reshape-summary' } });
  container.append(
    element('div', { className: 'reshape-diagram', role: 'img', dataset: { figure: 'mha-reshape', i18nAria: 'multihead.reshapeLabel' } }, [
      stages[0].node, codes[0], stages[1].node, codes[1], stages[2].node, codes[2], stages[3].node,
    ]),
    summary,
  );

  // Side by side: one n x H matrix whose columns are coloured by head; split: the same with gaps.
  function sideBySide(svg, tokens, heads, gaps) {
    const shown = Math.min(heads, 32);
    const gap = gaps ? 2 : 0;
    const width = (BOX.width - gap * (shown - 1)) / shown;
    const height = tokens * BOX.row;
    svg.attr('width', BOX.width).attr('height', height + 2).attr('viewBox', `0 0 ${BOX.width} ${height + 2}`);
    svg.selectAll('rect').data(Array.from({ length: shown }, (_, i) => i)).join('rect')
      .attr('x', (i) => i * (width + gap)).attr('y', 1).attr('width', Math.max(1, width)).attr('height', height)
      .attr('fill', headColour).attr('class', 'reshape-block');
    svg.selectAll('line').data(gaps ? [] : Array.from({ length: tokens - 1 }, (_, r) => r + 1)).join('line')
      .attr('x1', 0).attr('x2', BOX.width).attr('y1', (r) => 1 + r * BOX.row).attr('y2', (r) => 1 + r * BOX.row)
      .attr('class', 'reshape-rowline');
    svg.selectAll('text').remove();
  }

  // Stacked: n_h blocks of n x H/n_h, one per head (the first few, then "...").
  function stacked(svg, tokens, heads) {
    const shown = Math.min(heads, SHOWN_BLOCKS);
    const width = Math.max(18, BOX.width / Math.min(heads, 6));
    const blockHeight = tokens * 3;
    const more = heads > shown ? 14 : 0;
    const height = shown * (blockHeight + BOX.gap) + more;
    svg.attr('width', BOX.width).attr('height', height).attr('viewBox', `0 0 ${BOX.width} ${height}`);
    const x = (BOX.width - width) / 2;
    svg.selectAll('rect').data(Array.from({ length: shown }, (_, i) => i)).join('rect')
      .attr('x', x).attr('y', (i) => i * (blockHeight + BOX.gap)).attr('width', width).attr('height', blockHeight)
      .attr('fill', headColour).attr('class', 'reshape-block');
    svg.selectAll('line').remove();
    svg.selectAll('text').data(more ? [heads - shown] : []).join('text')
      .attr('x', BOX.width / 2).attr('y', height - 3).attr('text-anchor', 'middle').attr('class', 'reshape-more')
      .text((count) => `+ ${count} …`);
  }

  return {
    // heads divides hidden: the section draws only pairs the core accepted.
    set({ batch, tokens, hidden, heads }) {
      const size = hidden / heads;
      const shapes = [
        `(${batch}, ${tokens}, ${hidden})`,
        `(${batch}, ${tokens}, ${heads}, ${size})`,
        `(${batch}, ${heads}, ${tokens}, ${size})`,
        `(${batch * heads}, ${tokens}, ${size})`,
      ];
      stages.forEach((s, i) => {
        s.shape.textContent = shapes[i];
      });
      sideBySide(stages[0].svg, tokens, heads, false);
      sideBySide(stages[1].svg, tokens, heads, true);
      stacked(stages[2].svg, tokens, heads);
      stacked(stages[3].svg, tokens, heads);
      summary.textContent = t(heads === 1 ? 'multihead.reshapeSummaryOneHead' : 'multihead.reshapeSummary', { heads, tokens, size, hidden });
      summary.dataset.shapes = shapes.join(' ');
    },
  };
}
