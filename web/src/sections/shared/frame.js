// The skeleton every section shares: a numbered title, lead paragraphs, a
// controls panel (unless `controls: false`: the figures take the full
// width), a figures area, notes, and a slot for errors no control owns.
// The number is the section's place in the registry, not part of its title:
// a course page hides it (hide=numbers), or gives the title its own words
// (`heading`), which replace the number too (a course numbers its own
// parts); the catalogue's titles stay words alone.
import { element } from '../../dom.js';
import { createControlSheet } from '../../control-sheet.js';

/**
 * @param {HTMLElement} root
 * @param {{ titleKey: string, leadKeys?: string[], controls?: boolean }} frame
 * @param {{ number?: number, heading?: string | null }} [place]
 */
export function createSectionFrame(root, { titleKey, leadKeys = [], controls = true }, { number, heading = null } = {}) {
  root.classList.add('lab-section');
  root.classList.toggle('section-no-controls', !controls);
  const controlsPanel = element('div', { className: 'panel controls-panel' });
  const sheet = controls ? createControlSheet(controlsPanel) : null; // the panel on a phone
  const figures = element('div', { className: 'figures' });
  const errorSlot = element('p', { className: 'section-error', role: 'alert' });
  errorSlot.hidden = true;
  root.replaceChildren(
    element('h2', { className: 'section-title' }, [
      element('span', { className: 'section-number', hidden: Boolean(heading) }, [`${number} · `]),
      heading ? element('span', { className: 'section-heading' }, [heading])
        : element('span', { className: 'section-heading', dataset: { i18n: titleKey } }),
    ]),
    element('div', { className: 'prose' }, leadKeys.map((key) => element('p', { dataset: { i18nRich: key } }))),
    element('div', { className: 'section-body' }, controls ? [controlsPanel, figures] : [figures]),
    errorSlot,
  );
  return { root, controlsPanel, sheet, figures, errorSlot };
}

// A captioned figure cell inside a section's figures area.
/**
 * @param {HTMLElement} parent
 * @param {{ captionKey?: string, className?: string }} [options]
 */
export function figureCell(parent, { captionKey, className = '' } = {}) {
  const body = element('div', { className: 'figure-body' });
  const cell = element('figure', { className: `figure-cell ${className}`.trim() }, [body]);
  if (captionKey) cell.append(element('figcaption', { dataset: { i18nRich: captionKey } }));
  parent.append(cell);
  return body;
}

// A panel inside a section (a study, a widget): its title, its lead
// paragraphs, then what the caller appends. `role` names it for tests.
export function subsection(parent, { role, titleKey, leadKeys = [], className = '' }) {
  const block = element('div', { className: `subsection ${className}`.trim(), dataset: { role } }, [
    element('h3', { className: 'subsection-title', dataset: { i18n: titleKey } }),
    element('div', { className: 'prose' }, leadKeys.map((key) => element('p', { dataset: { i18nRich: key } }))),
  ]);
  parent.append(block);
  return block;
}

/**
 * @param {HTMLElement} parent
 * @param {{ key?: string, className?: string }} options
 */
export function note(parent, { key, className = 'note' }) {
  const node = element('p', { className, dataset: key ? { i18nRich: key } : {} });
  parent.append(node);
  return node;
}
