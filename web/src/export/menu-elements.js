// What the Save menus and "Copy as PyTorch" are built from: labels named by
// their catalogue key (so a language switch re-labels them) and a status
// line that screen readers announce.
import { element } from '../dom.js';
import { t } from '../i18n/index.js';

let statusCount = 0;

export function labelled(tag, key, attributes = {}) {
  const node = element(tag, { ...attributes, dataset: { ...(attributes.dataset ?? {}), i18n: key } });
  node.textContent = t(key);
  return node;
}

export function statusLine() {
  statusCount += 1;
  return element('span', { className: 'export-status', role: 'status', id: `export-status-${statusCount}` });
}
