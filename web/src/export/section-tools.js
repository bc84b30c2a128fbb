// "Copy as PyTorch" for each shown section that declares a snippet
// (sections/registry.js), with the code also shown on request, for a
// browser that refuses the clipboard; beside it, the section's subsection
// in both books of d2l (book-links.js).
import { t } from '../i18n/index.js';
import { element } from '../dom.js';
import { bookAddress } from '../book-links.js';
import { copyText } from './download.js';
import { labelled, statusLine } from './menu-elements.js';

// "In the book: d2l.ai 11.3.2.1 Masked Softmax Operation · zh.d2l.ai 10.3 注意力评分函数",
// each link in its book's language, from the declaration's `book`.
function bookLinks(subsections) {
  const links = ['en', 'zh'].map((book) => {
    const { number, title } = subsections[book];
    const host = new URL(bookAddress(subsections[book], book)).host;
    return element('a', {
      href: bookAddress(subsections[book], book), hreflang: book, lang: book, target: '_blank', rel: 'noopener',
      dataset: { role: 'book-link', book },
    }, [`${host} ${number} ${title}`]);
  });
  return element('p', { className: 'book-links', dataset: { role: 'book-links' } }, [
    labelled('span', 'export.book'), ' ', links[0], ' · ', links[1],
  ]);
}

// getComputations: () => the computations once the core is loaded.
export function attachSectionTools({ sections, store, getComputations }) {
  for (const { id, root, book: subsections, declarations } of sections) {
    const book = bookLinks(subsections);
    if (!declarations?.pytorch) {
      place(root, element('div', { className: 'section-tools' }, [book]));
      continue;
    }
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
    place(root, element('div', { className: 'section-tools' }, [copy, status, book, details]));
  }
}

function place(root, tools) {
  const body = root.querySelector('.section-body');
  if (body) body.after(tools);
  else root.append(tools);
}
