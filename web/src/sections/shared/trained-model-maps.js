// What the attention maps of both sections that train a model in the page
// (attention-training, translation) are drawn with: a card per head (its
// title, its matrix, the head's colour), the cards painted all at once or,
// while a run plays, a few a frame round the grid, and the maps' view the
// section holds (title, read-out hint, forgetting what is shown).
import { createMatrix } from '../../figures/matrix.js';
import { element } from '../../dom.js';
import { t } from '../../i18n/index.js';
import { headColour } from './reshape-diagram.js';

// A playing run redraws the cards round the grid for about MAPS_FRAME_MS a frame.
const MAPS_FRAME_MS = 5;

// One map's card in `parent`: { card, title, matrix, ...fields }. `ideal`:
// the task's ideal map (no head colour); `dataset` marks the card, `figure`
// names its matrix; `matrix`: the matrix's own options; `hover(entry)`
// gives its onHover.
export function createHeadCard(parent, { ideal = false, head = 0, fields, dataset, figure, matrix, hover }) {
  const title = element('span', { className: 'head-title' });
  const body = element('div', { className: 'head-body' });
  const card = element('div', { className: `head-card${ideal ? ' is-ideal' : ''}`, dataset }, [element('div', { className: 'head-header' }, [title]), body]);
  if (!ideal) card.style.setProperty('--head-colour', headColour(head));
  parent.append(card);
  const entry = { card, title, head, ...fields };
  entry.matrix = createMatrix(body, { format: '.2f', textMinCell: 999, canvasCells: true, ...matrix, onHover: hover(entry) });
  entry.matrix.element.dataset.figure = figure;
  return entry;
}

// Paints cards with drawCard(card): all of them, or (`partial`, a run
// playing) for about MAPS_FRAME_MS, going on next frame where it stopped.
// Then marks the grid with the item shown and whether it is the learner's,
// and puts the read-out's hint (hintKey) where the read-out is empty.
export function createCardPainter({ grid, readout, hintKey }) {
  let cursor = 0; // the next card a playing run redraws
  return (cards, drawCard, { partial, typed, item }) => {
    if (partial) {
      const started = performance.now();
      for (let count = 0; count < cards.length; count += 1) {
        drawCard(cards[cursor % cards.length]);
        cursor = (cursor + 1) % cards.length;
        if (performance.now() - started >= MAPS_FRAME_MS) break;
      }
    } else {
      cards.forEach(drawCard);
      cursor = 0;
    }
    grid.dataset.item = String(item);
    grid.dataset.typed = String(Boolean(typed));
    if (!readout.textContent) readout.textContent = t(hintKey);
  };
}

// The maps as the section holds them: `nodes` to place, draw, the title
// above them (which sequence they show), the read-out's hint again in the
// page's language, and forget() (what is shown is let go).
export function mapsView({ nodes, draw, title, readout, hintKey, forget }) {
  return {
    nodes,
    draw,
    setTitle(text) {
      title.textContent = text;
    },
    relabel() {
      readout.textContent = t(hintKey);
    },
    forget,
  };
}
