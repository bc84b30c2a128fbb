// Queries (volitional cues), keys (nonvolitional cues) and values
// (sensory inputs), and the chapter's first heatmap: the identity matrix.
import { element } from '../dom.js';
import { createHeatmap } from '../figures/heatmap.js';
import { figureCell, note } from './frame.js';
import { createCuesPicture } from './cues-picture.js';
import { createStreetPicture } from './street-picture.js';
import { t } from '../i18n/index.js';

const SIZE = 10; // the book's torch.eye(10)

function box(kind, titleKey, cueKey) {
  return element('div', { className: `cue-box cue-${kind}` }, [
    element('strong', { dataset: { i18n: titleKey } }),
    element('span', { dataset: { i18n: cueKey } }),
  ]);
}

function create({ frame }) {
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
  const heatmap = createHeatmap(heatmapBody, {
    labels: { x: 'cues.axisKeys', y: 'cues.axisQueries' },
    colorLabelKey: 'heatmap.colorbar',
    ariaKey: 'cues.heatmapLabel',
    aspect: 0.85,
    maxHeight: 320,
    firstIndex: 0, // torch.eye(10)'s indices, as the read-out gives them
    onHover: (cell) => {
      readout.textContent = cell ? t('cues.readout', { query: cell.row, key: cell.col, weight: cell.value }) : '';
    },
  });
  heatmap.element.dataset.figure = 'identity-heatmap';
  heatmapBody.append(readout);

  // The identity matrix is data, not a computation: query i attends to key i only.
  const identity = new Float64Array(SIZE * SIZE);
  for (let i = 0; i < SIZE; i += 1) identity[i * SIZE + i] = 1;
  heatmap.setMatrix({ values: identity, rows: SIZE, cols: SIZE, domain: [0, 1] });
  note(frame.figures, { key: 'cues.whyQuery', className: 'note note-callout' });
}

// No parameters and no core call: the section is drawn once, when built.
export const cuesSection = {
  id: 'cues',
  frame: { titleKey: 'cues.title', leadKeys: ['cues.lead1', 'cues.lead2'], controls: false },
  create,
};
