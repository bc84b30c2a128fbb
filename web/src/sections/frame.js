// The skeleton every section shares: a numbered title, lead paragraphs, a
// controls panel (unless `controls: false`: the figures take the full
// width), a figures area, notes, and a slot for errors no control owns.
import { element } from '../dom.js';

export function createSectionFrame(root, { titleKey, leadKeys = [], controls = true }) {
  root.classList.add('lab-section');
  root.classList.toggle('section-no-controls', !controls);
  const controlsPanel = element('div', { className: 'panel controls-panel' });
  const figures = element('div', { className: 'figures' });
  const errorSlot = element('p', { className: 'section-error', role: 'alert' });
  errorSlot.hidden = true;
  root.replaceChildren(
    element('h2', { className: 'section-title', dataset: { i18n: titleKey } }),
    element('div', { className: 'prose' }, leadKeys.map((key) => element('p', { dataset: { i18nRich: key } }))),
    element('div', { className: 'section-body' }, controls ? [controlsPanel, figures] : [figures]),
    errorSlot,
  );
  return { root, controlsPanel, figures, errorSlot };
}

// A captioned figure cell inside a section's figures area.
export function figureCell(parent, { captionKey, className = '' } = {}) {
  const body = element('div', { className: 'figure-body' });
  const cell = element('figure', { className: `figure-cell ${className}`.trim() }, [body]);
  if (captionKey) cell.append(element('figcaption', { dataset: { i18nRich: captionKey } }));
  parent.append(cell);
  return body;
}

export function note(parent, { key, className = 'note' }) {
  const node = element('p', { className, dataset: key ? { i18nRich: key } : {} });
  parent.append(node);
  return node;
}
