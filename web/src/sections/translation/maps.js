// The translation section's maps: the decoder's attention over the source
// for one pair, target words down and source words across, with the words as
// labels and the weights as probabilities; for the Transformer every
// block's and head's encoder-decoder (cross) attention and the decoder's
// masked self-attention; the task's ideal alignment beside them; a read-out
// of the cell under the pointer.
// Block b, head h of item `item` in a batch of `batch` is the core's
// crossWeights[b][item][h] (blocks x batch x heads x T x S; Bahdanau's one
// block of one head), selfWeights likewise (T x T).
import { positionLabels } from '../shared/axis-labels.js';
import { element } from '../../dom.js';
import { t, translateTree } from '../../i18n/index.js';
import { formatNumber } from '../../format.js';
import { markLanguage } from './setup.js';
import { createCardPainter, createHeadCard, mapsView } from '../shared/trained-model-maps.js';

export function createTranslationMaps() {
  const title = element('p', { className: 'readout tr-maps-title', dataset: { role: 'tr-maps-title' } });
  const grid = element('div', { className: 'head-grid tr-head-grid', dataset: { figure: 'tr-maps' } });
  const selfTitle = element('p', { className: 'readout', dataset: { role: 'tr-self-title', i18n: 'translation.selfTitle' } });
  const selfGrid = element('div', { className: 'head-grid tr-head-grid', dataset: { figure: 'tr-self-maps' } });
  const readout = element('p', { className: 'readout', 'aria-live': 'polite', dataset: { role: 'tr-maps-readout' } });
  let cards = []; // { card, title, matrix, kind: 'cross' | 'self' | 'ideal', block, head }
  let shape = null; // { blocks, heads, self } the cards were built for
  let shown = null; // the maps on screen (see draw)
  const paint = createCardPainter({ grid, readout, hintKey: 'translation.mapsHint' });

  function hover(card) {
    return (cell) => {
      if (!cell || !shown) {
        readout.textContent = t('translation.mapsHint');
        return;
      }
      const targetWord = shown.targetWords[cell.row] ?? '·';
      const keyWord = card.kind === 'self' ? (shown.selfKeyWords[cell.col] ?? '·') : (shown.sourceWords[cell.col] ?? '·');
      const values = { target: targetWord, source: keyWord, weight: formatNumber(cell.value, '.4~f'), block: card.block + 1, head: card.head + 1 };
      const key = { ideal: 'translation.readoutIdeal', self: 'translation.readoutSelf', cross: shape.blocks === 1 && shape.heads === 1 ? 'translation.readoutOne' : 'translation.readout' }[card.kind];
      readout.textContent = t(key, values);
    };
  }

  function makeCard(parent, { kind, block = 0, head = 0 }) {
    const ideal = kind === 'ideal';
    return createHeadCard(parent, {
      ideal, head, fields: { kind, block }, dataset: ideal ? { ideal: 'true' } : { kind, block, head },
      figure: ideal ? 'tr-ideal' : `tr-${kind}-b${block + 1}-h${head + 1}`,
      // Source words are whole words ("thousand"): slanted above their columns.
      matrix: {
        maxCell: 30, minCell: 14, rotateColumns: true, rowTitleKey: 'translation.axisTarget',
        colTitleKey: kind === 'self' ? 'translation.axisTargetSoFar' : 'translation.axisSource',
      },
      hover,
    });
  }

  function buildCards(blocks, heads, withSelf) {
    if (shape && shape.blocks === blocks && shape.heads === heads && shape.self === withSelf) return;
    grid.replaceChildren();
    selfGrid.replaceChildren();
    cards = [];
    for (let block = 0; block < blocks; block += 1) {
      for (let head = 0; head < heads; head += 1) cards.push(makeCard(grid, { kind: 'cross', block, head }));
    }
    cards.push(makeCard(grid, { kind: 'ideal' }));
    if (withSelf) {
      for (let block = 0; block < blocks; block += 1) {
        for (let head = 0; head < heads; head += 1) cards.push(makeCard(selfGrid, { kind: 'self', block, head }));
      }
    }
    selfTitle.hidden = !withSelf;
    selfGrid.hidden = !withSelf;
    shape = { blocks, heads, self: withSelf };
    translateTree(grid);
    translateTree(selfGrid);
  }

  // `maps`: { cross, self (or null), blocks, heads, batch, item, rows (T),
  // cols (S), targetWords, sourceWords, selfKeyWords, targetLen, sourceLen,
  // ideal (T x S, or null) }.
  function draw(maps, { partial, typed }) {
    buildCards(maps.blocks, maps.heads, maps.self !== null);
    shown = maps;
    const { rows, cols } = maps;
    const label = (words, count, length) => positionLabels(words, count, length);
    const rowNames = label(maps.targetWords, maps.targetLen, rows);
    const colNames = label(maps.sourceWords, maps.sourceLen, cols);
    const selfNames = label(maps.selfKeyWords, maps.targetLen, rows);
    // Past a pair's lengths (padding): hatched, as the masks hide them; the
    // decoder's self-attention also hides later positions (causal).
    const crossMasked = Uint8Array.from({ length: rows * cols }, (_, index) => {
      const row = Math.floor(index / cols);
      return row >= maps.targetLen || index % cols >= maps.sourceLen ? 1 : 0;
    });
    const selfMasked = Uint8Array.from({ length: rows * rows }, (_, index) => {
      const row = Math.floor(index / rows);
      const col = index % rows;
      return row >= maps.targetLen || col > row ? 1 : 0;
    });
    const one = maps.blocks === 1 && maps.heads === 1;
    const drawCard = (card) => {
      if (card.kind === 'ideal') {
        card.card.hidden = maps.ideal === null;
        card.title.textContent = t('translation.idealTitle');
        card.matrix.svg.setAttribute('aria-label', t('translation.idealLabel'));
        if (maps.ideal) card.matrix.set({ values: maps.ideal, rows, cols, domain: [0, 1], rowNames, colNames, masked: crossMasked, maskedText: '' });
        labelLanguages(card, false);
        return;
      }
      const self = card.kind === 'self';
      const width = self ? rows : cols;
      const cells = rows * width;
      const offset = ((card.block * maps.batch + maps.item) * maps.heads + card.head) * cells;
      const names = { block: card.block + 1, head: card.head + 1 };
      card.title.textContent = self ? t('translation.selfHeadTitle', names) : one ? t('translation.crossOneTitle') : t('translation.crossHeadTitle', names);
      card.matrix.svg.setAttribute('aria-label', self ? t('translation.selfHeadLabel', names) : one ? t('translation.crossOneLabel') : t('translation.crossHeadLabel', names));
      card.matrix.set({
        values: (self ? maps.self : maps.cross).subarray(offset, offset + cells), rows, cols: width, domain: [0, 1],
        rowNames, colNames: self ? selfNames : colNames, masked: self ? selfMasked : crossMasked, maskedText: '',
      });
      labelLanguages(card, self);
    };
    // The labels are the task's words: marked with their language.
    const labelLanguages = (card, self) => {
      markLanguage(card.matrix.svg.querySelector('.matrix-row-labels'), maps.languages?.target);
      markLanguage(card.matrix.svg.querySelector('.matrix-col-labels'), self ? maps.languages?.target : maps.languages?.source);
    };
    paint(cards, drawCard, { partial, typed, item: maps.item });
  }

  return mapsView({
    nodes: [title, grid, selfTitle, selfGrid, readout], draw, title, readout, hintKey: 'translation.mapsHint',
    forget() {
      shown = null;
    },
  });
}
