// t(key) over one catalogue per language. Elements built by the sections name
// their text by key (data-i18n*), so a language switch re-labels the page
// without rebuilding it.
import en from './en.js';
import zh from './zh.js';
import { setRichText } from './rich-text.js';

export const catalogues = { en, zh };
let current = 'en';

// zh, zh-CN, zh-Hans... -> Chinese; anything else -> English.
export function detectLanguage(preferred = globalThis.navigator?.languages ?? []) {
  const first = [...preferred].find((tag) => typeof tag === 'string' && tag.length > 0) ?? 'en';
  return first.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function setLanguage(language) {
  current = language in catalogues ? language : 'en';
  if (globalThis.document) {
    document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
    document.title = t('app.documentTitle');
  }
}

// The language of t() alone, for a lab inside another page (the
// <attention-lab> element): the host page's <html lang> and title stay its own.
export function useLanguage(language) {
  current = language in catalogues ? language : 'en';
}

export function getLanguage() {
  return current;
}

// A missing key shows itself (and the catalogue test fails), never a blank.
export function t(key, params = {}) {
  const template = catalogues[current][key] ?? catalogues.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function translateTree(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-rich]')) setRichText(element, t(element.dataset.i18nRich));
  for (const element of root.querySelectorAll('[data-i18n-aria]')) {
    element.setAttribute('aria-label', t(element.dataset.i18nAria));
  }
  for (const element of root.querySelectorAll('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle);
}
