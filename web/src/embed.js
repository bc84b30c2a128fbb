// Embedding: the iframe mode of the page (index.html#embed=<section>&...)
// and what it shares with the <attention-lab> element: which sections to
// build, which controls to hide, and the height message to the parent page.
//
// The message an embedded page posts to its parent whenever its height
// changes (documented in docs/learning-and-teaching.md):
//   { type: 'attention-lab:height', section: 'pooling', height: 812 }
// height: the content's height in CSS pixels (a whole number).
// And, whenever an exercise's progress changes, the progress event's
// detail (progress-events.js) with its type:
//   { type: 'attention-lab:progress', section, exercise, status, attempts, score }
import { t, useSectionAlone } from './i18n/index.js';
import { formatHash, parseHash } from './url-state.js';

export const HEIGHT_MESSAGE = 'attention-lab:height';
export const PROGRESS_MESSAGE = 'attention-lab:progress';
const MAX_FRAME_HEIGHT = 20000;

// `hide` tokens -> CSS rules. Tokens are checked by url-state's parseHideList
// (a letter, then letters, digits, '_' or '-'), so they cannot break out of
// the quoted attribute selectors. CSS rather than hiding elements one by one:
// controls a section builds later are hidden too.
export function hideRules(hide) {
  const rules = [];
  for (const token of hide) {
    if (!/^[A-Za-z][\w-]*$/.test(token)) continue;
    if (token === 'controls') {
      rules.push('.controls-panel { display: none !important; }',
        '.section-body { grid-template-columns: minmax(0, 1fr) !important; }');
    } else if (token === 'export') {
      rules.push('.figure-export, .section-tools { display: none !important; }');
    } else if (token === 'text') {
      rules.push('.prose { display: none !important; }');
    } else if (token === 'numbers') {
      rules.push('.section-number { display: none !important; }');
    } else {
      rules.push(`[data-param="${token}"], [data-action="${token}"] { display: none !important; }`);
    }
  }
  return rules;
}

// The rules as a constructed stylesheet (no <style> element: nothing for a
// strict style-src policy to refuse), or null when nothing is hidden.
export function hideSheet(hide) {
  const rules = hideRules(hide);
  if (rules.length === 0) return null;
  const sheet = new CSSStyleSheet();
  for (const rule of rules) sheet.insertRule(rule, sheet.cssRules.length);
  return sheet;
}

// Adds the rules to a document or shadow root.
export function applyHide(root, hide) {
  const sheet = hideSheet(hide);
  if (sheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

// The page in iframe mode: only the embedded section, no masthead, table
// of contents or footer, a link to the full lab with the same state, and
// the height posted to the parent.
export function startEmbedMode({ view, store }) {
  followEditedEmbedding(view);
  if (!view.embed) return;
  const html = document.documentElement;
  html.dataset.embed = view.embed;
  for (const section of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('main > [data-section]'))) {
    if (section.dataset.section !== view.embed) {
      section.hidden = true;
      section.replaceChildren();
    }
  }
  applyHide(document, view.hide);
  useSectionAlone(true);
  // The masthead (and its h1) is hidden: the page keeps a title for screen readers.
  const heading = document.createElement('h1');
  heading.className = 'visually-hidden';
  heading.dataset.i18n = 'app.title';
  heading.textContent = t('app.title');
  document.getElementById('main')?.prepend(heading);

  const link = document.createElement('a');
  link.className = 'embed-open';
  link.target = '_blank';
  link.rel = 'noopener';
  link.dataset.i18n = 'embed.openFull';
  link.textContent = t('embed.openFull');
  const fullHref = () => `${location.pathname.split('/').pop() || 'index.html'}#${formatHash(store.get(), { section: view.embed })}`;
  link.href = fullHref();
  link.addEventListener('click', () => {
    link.href = fullHref();
  });
  link.addEventListener('focus', () => {
    link.href = fullHref();
  });
  const footer = document.createElement('p');
  footer.className = 'embed-footer';
  footer.append(link);
  document.getElementById('main')?.append(footer);

  reportHeight(view.embed);
}

// What a hash asks of the embedding: the section, the hidden controls, the
// heading (read in embed mode only: the whole page ignores the other two).
const embeddingOf = ({ embed, hide, heading }) => (embed ? JSON.stringify([embed, hide, heading]) : 'the whole page');

// A host that edits the embedding in its iframe's hash (#embed=translation
// -> #embed=attention-training, the same document) gets the page a first
// load of that hash would give: the other sections were never built here,
// so the page loads again. Registered before the hash sync (url-state.js),
// whose handler would otherwise write the old embedding back into the hash
// before the reload takes it.
function followEditedEmbedding(view) {
  const shown = embeddingOf(view);
  // The page's sections, as index.html lists them (embed mode empties the others but keeps them).
  const sectionIds = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('main > [data-section]'))].map((section) => section.dataset.section);
  window.addEventListener('hashchange', (event) => {
    if (location.hash.length <= 1) return;
    const asked = parseHash(location.hash, sectionIds);
    if (asked.anchor !== null || embeddingOf(asked) === shown) return;
    event.stopImmediatePropagation();
    location.reload();
  });
}

export function reportHeight(section) {
  if (window.parent === window) return;
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // '*': the height is no secret, and a parent opened from file:// has no origin to name.
    window.parent.postMessage({ type: HEIGHT_MESSAGE, section, height }, '*');
  };
  // Measured in the next frame, not in the observer's callback: a layout
  // forced there could resize the body (shallower than the figures' rulers
  // reported with it), which WebKit reports as a ResizeObserver loop.
  let frame = 0;
  new ResizeObserver(() => {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      post();
    });
  }).observe(document.body);
  // A frame of another origin (any, from file://) gets no rendering while it
  // is off screen, so no ResizeObserver callback either: a timer, which
  // still runs there, catches the height the first drawing gave it.
  setInterval(post, 1000);
  post();
}

// To the parent, as the height: an exercise's status and a section's
// score are no secret ('*'), and never carry an answer.
export function postProgress(detail) {
  if (window.parent === window) return;
  window.parent.postMessage({ type: PROGRESS_MESSAGE, ...detail }, '*');
}

// The parent's side, run by the element script (attention-lab-element.js):
// an <iframe data-attention-lab> takes the height its page reports.
export function listenForFrameHeights() {
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || typeof data !== 'object' || data.type !== HEIGHT_MESSAGE) return;
    if (typeof data.height !== 'number' || !Number.isFinite(data.height)) return;
    const height = Math.min(MAX_FRAME_HEIGHT, Math.max(0, Math.round(data.height)));
    for (const frame of /** @type {NodeListOf<HTMLIFrameElement>} */ (document.querySelectorAll('iframe[data-attention-lab]'))) {
      if (frame.contentWindow === event.source) frame.style.height = `${height}px`;
    }
  });
}
