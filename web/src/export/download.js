// Getting a file or a text out of the page with no request anywhere:
// downloads are blob: links, text goes to the clipboard.
import { element } from '../dom.js';

// Inside the <attention-lab> element the helper nodes go into its shadow
// root, next to the control that asked: the host page's body is not ours.
const rootOf = (near) => (near?.getRootNode?.() instanceof ShadowRoot ? near.getRootNode() : document.body);

export function download(blob, filename, near) {
  const url = URL.createObjectURL(blob);
  const link = element('a', { href: url, download: filename, hidden: true });
  rootOf(near).append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// Resolves to whether the text reached the clipboard.
export async function copyText(text, near) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No permission (or no secure context): the old way, through a selection.
    const area = element('textarea', { className: 'visually-hidden', readonly: true, 'aria-hidden': 'true', tabindex: '-1' });
    area.value = text;
    rootOf(near).append(area);
    area.select();
    let copied = false;
    try {
      copied = document.execCommand('copy');
    } catch {
      copied = false;
    }
    area.remove();
    return copied;
  }
}
