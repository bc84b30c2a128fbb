// "Copy as PyTorch" for each shown section that declares a snippet
// (sections/registry.js), with the code also shown on request, for a
// browser that refuses the clipboard.
import { t } from '../i18n/index.js';
import { element } from '../dom.js';
import { copyText } from './download.js';
import { labelled, statusLine } from './menu-elements.js';

// getComputations: () => the computations once the core is loaded.
export function attachSectionTools({ sections, store, getComputations }) {
  for (const { id, root, declarations } of sections) {
    if (!declarations?.pytorch) continue;
    const snippet = () => {
      const computations = getComputations();
      return computations ? declarations.pytorch(store.get(), computations, id) : '';
    };
    const status = statusLine();
    const copy = labelled('button', 'export.pytorch', {
      type: 'button', className: 'button button-quiet', dataset: { action: 'copy-pytorch' },
    });
    const code = element('code');
    const pre = element('pre', { className: 'code-view', tabindex: '0' }, [code]);
    const details = element('details', { className: 'code-details' }, [labelled('summary', 'export.pytorchShow'), pre]);
    const refresh = () => {
      if (details.open) code.textContent = snippet();
    };
    details.addEventListener('toggle', refresh);
    store.subscribe(refresh);
    copy.addEventListener('click', async () => {
      const text = snippet();
      if (!text) return;
      code.textContent = text;
      const copied = await copyText(text, copy);
      status.textContent = t(copied ? 'export.copied' : 'export.copyFailed');
      if (!copied) details.open = true;
    });
    const tools = element('div', { className: 'section-tools' }, [copy, status, details]);
    const body = root.querySelector('.section-body');
    if (body) body.after(tools);
    else root.append(tools);
  }
}
