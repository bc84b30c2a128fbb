// Queries (volitional cues), keys (nonvolitional cues) and values
// (sensory inputs), the chapter's first heatmap (the identity matrix) and
// its exercise 2 (the softmax of each row of a random matrix).
import { element } from '../../dom.js';
import { createHeatmap } from '../../figures/heatmap.js';
import { figureCell, note } from '../shared/frame.js';
import { createCuesPicture } from './picture.js';
import { createStreetPicture } from './street-picture.js';
import { t } from '../../i18n/index.js';
import { CUE_SIZE, identityMatrix, randomSoftmax } from './matrices.js';
import { CUES_EXERCISES } from './exercises.js';
import { bookSubsection } from '../../book-links.js';


function box(kind, titleKey, cueKey) {
  return element('div', { className: `cue-box cue-${kind}` }, [
    element('strong', { dataset: { i18n: titleKey } }),
    element('span', { dataset: { i18n: cueKey } }),
  ]);
}

function create({ frame, core }) {
  createCuesPicture(figureCell(frame.figures, { captionKey: 'cues.pictureCaption', className: 'cell-wide cell-cues-picture' }));
  createStreetPicture(figureCell(frame.figures, { captionKey: 'cues.street.caption', className: 'cell-street-picture' }));
  const diagram = element('div', { className: 'cue-diagram', role: 'img', dataset: { i18nAria: 'cues.diagramLabel' } }, [
    box('query', 'cues.query', 'cues.queryCue'),
    element('div', { className: 'cue-pairs' }, [
      box('key', 'cues.keys', 'cues.keysCue'),
      box('value', 'cues.values', 'cues.valuesCue'),
    ]),
    element('span', { className: 'cue-arrow', 'aria-hidden': 'true' }, ['→']),
    element('div', { className: 'cue-box cue-pooling' }, [element('strong', { dataset: { i18n: 'cues.pooling' } })]),
    element('span', { className: 'cue-arrow', 'aria-hidden': 'true' }, ['→']),
    element('div', { className: 'cue-box cue-output' }, [element('strong', { dataset: { i18n: 'cues.output' } })]),
  ]);
  figureCell(frame.figures, { captionKey: 'cues.diagramCaption', className: 'cell-diagram' }).append(diagram);

  const heatmapBody = figureCell(frame.figures, { captionKey: 'cues.heatmapCaption', className: 'cell-identity' });
  const readout = element('p', { className: 'readout', 'aria-live': 'polite' });
  // Both heatmaps of the section: queries by keys, indexed from 0 as
  // torch.eye(10)'s are (and as the read-out gives them).
  const layout = {
    labels: { x: 'cues.axisKeys', y: 'cues.axisQueries' }, colorLabelKey: 'heatmap.colorbar', aspect: 0.85, maxHeight: 320, firstIndex: 0,
  };
  const heatmap = createHeatmap(heatmapBody, {
    ...layout,
    ariaKey: 'cues.heatmapLabel',
    onHover: (cell) => {
      readout.textContent = cell ? t('cues.readout', { query: cell.row, key: cell.col, weight: cell.value }) : '';
    },
  });
  heatmap.element.dataset.figure = 'identity-heatmap';
  heatmapBody.append(readout);

  heatmap.setMatrix({ values: identityMatrix(), rows: CUE_SIZE, cols: CUE_SIZE, domain: [0, 1] });

  // d2l 10.1's exercise 2: the softmax of each row of a random matrix. The
  // exercise that asks about it draws the matrix anew for each instance.
  const randomBody = figureCell(frame.figures, { captionKey: 'cues.random.caption', className: 'cell-random-softmax' });
  const randomHeatmap = createHeatmap(randomBody, { ...layout, ariaKey: 'cues.random.label' });
  randomHeatmap.element.dataset.figure = 'random-softmax';
  const showRandom = (weights) => randomHeatmap.setMatrix({ values: weights, rows: CUE_SIZE, cols: CUE_SIZE });
  showRandom(randomSoftmax(core, 0).weights);
  note(frame.figures, { key: 'cues.whyQuery', className: 'note note-callout' });

  // What the exercises point at: a query's row of the identity, the random matrix drawn.
  return {
    markIdentityRow: (query) => heatmap.setRowMarker(query === null ? null : query + 0.5),
    showRandom,
  };
}

// No parameters: the section is drawn once, when built (the random matrix
// by the core), and its exercises redraw the random matrix they ask about.
export const cuesSection = {
  id: 'cues',
  order: 10,
  book: {
    en: bookSubsection('queries-keys-values', null, '11.1', 'Queries, Keys, and Values'),
    zh: bookSubsection('attention-cues', null, '10.1', '注意力提示'),
  },
  frame: { titleKey: 'cues.title', leadKeys: ['cues.lead1', 'cues.lead2'], controls: false },
  corePart: 'cues', // averagePool, maskedSoftmax, batchMatrixProduct, randomUniform: the page's first screen waits for them alone
  create,
  exercises: CUES_EXERCISES,
  teacherNoteKey: 'cues.ex.teacherNote',
};
