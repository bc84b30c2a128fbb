// The attention-training section's maps: every head's attention map of one
// sequence (blocks x heads cards), the task's ideal pattern beside them, and
// a read-out of the cell under the pointer. Block b, head h of item `item` in
// a batch of `batch` is the core's weights[b][item][h] (blocks x batch x
// heads x L x L). While a run plays the cards are redrawn a few at a time.
import { element, setAttributes, setText } from '../../dom.js';
import { t, translateTree } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { AT_LENGTH } from '../../state.js';
import { positionLabels } from '../shared/axis-labels.js';
import { createCardPainter, createHeadCard, mapsView } from '../shared/trained-model-maps.js';

export function createModelMaps() {
  const title = element('p', { className: 'readout at-maps-title', dataset: { role: 'at-maps-title' } });
  const grid = element('div', { className: 'head-grid at-head-grid', dataset: { figure: 'at-heads' } });
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'at-maps-readout' } });
  let cards = []; // { card, title, matrix, block, head } per map, then the ideal's
  let shape = null; // { blocks, heads } the cards were built for
  let shown = null; // { tokens, validLen, weights, item, batch } of the maps on screen
  const paint = createCardPainter({ grid, readout, hintKey: 'attention-training.mapsHint' });

  function hover(card) {
    return (cell) => {
      if (!cell || !shown) {
        readout.textContent = t('attention-training.mapsHint');
        return;
      }
      const values = { query: cell.row, key: cell.col, qToken: shown.tokens[cell.row], kToken: shown.tokens[cell.col], weight: formatNumber(cell.value, '.4~f') };
      readout.textContent = card.ideal
        ? t('attention-training.mapsReadoutIdeal', values)
        : t('attention-training.mapsReadout', { ...values, block: card.block + 1, head: card.head + 1 });
    };
  }

  function makeCard({ block = 0, head = 0, ideal = false }) {
    return createHeadCard(grid, {
      ideal, head, fields: { block, ideal }, dataset: ideal ? { ideal: 'true' } : { block, head },
      figure: ideal ? 'at-ideal' : `at-map-b${block + 1}-h${head + 1}`,
      matrix: { maxCell: 26, minCell: 12, rowTitleKey: 'attention-training.axisQuery', colTitleKey: 'attention-training.axisKey' },
      hover,
    });
  }

  function buildCards(blocks, heads) {
    if (shape && shape.blocks === blocks && shape.heads === heads) return;
    grid.replaceChildren();
    cards = [];
    for (let block = 0; block < blocks; block += 1) {
      for (let head = 0; head < heads; head += 1) cards.push(makeCard({ block, head }));
    }
    cards.push(makeCard({ ideal: true }));
    shape = { blocks, heads };
    translateTree(grid); // the axis titles of the new maps (the page translated itself before)
  }

  // The maps of one sequence; `typed`: the learner's own.
  function draw(maps, { atBlocks: blocks, atHeads: heads, atCausal: causal }, { partial, typed }) {
    buildCards(blocks, heads);
    shown = maps;
    const cells = AT_LENGTH * AT_LENGTH;
    const names = positionLabels(maps.tokens, maps.validLen, AT_LENGTH);
    // Padding (query or key past the valid length) and, with causal masking,
    // keys after the query: hatched, as the mask hides them.
    const masked = Uint8Array.from({ length: cells }, (_, index) => {
      const row = Math.floor(index / AT_LENGTH);
      const col = index % AT_LENGTH;
      return row >= maps.validLen || col >= maps.validLen || (causal && col > row) ? 1 : 0;
    });
    const drawCard = (card) => {
      if (card.ideal) {
        card.card.hidden = maps.ideal === null;
        setText(card.title, t('attention-training.idealTitle'));
        setAttributes(card.matrix.svg, { 'aria-label': t('attention-training.idealLabel') });
        if (maps.ideal) {
          card.matrix.set({ values: maps.ideal, rows: AT_LENGTH, cols: AT_LENGTH, domain: [0, 1], rowNames: names, colNames: names, masked, maskedText: '' });
        }
        return;
      }
      const offset = ((card.block * maps.batch + maps.item) * heads + card.head) * cells;
      setText(card.title, t('attention-training.headTitle', { block: card.block + 1, head: card.head + 1 }));
      setAttributes(card.matrix.svg, { 'aria-label': t('attention-training.headLabel', { block: card.block + 1, head: card.head + 1 }) });
      card.matrix.set({
        values: maps.weights.subarray(offset, offset + cells), rows: AT_LENGTH, cols: AT_LENGTH, domain: [0, 1],
        rowNames: names, colNames: names, masked, maskedText: '',
      });
    };
    paint(cards, drawCard, { partial, typed, item: maps.item });
  }

  return mapsView({
    nodes: [title, grid, readout], draw, title, readout, hintKey: 'attention-training.mapsHint',
    forget() {
      shown = null;
    },
  });
}
