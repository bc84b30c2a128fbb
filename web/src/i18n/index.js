// t(key) over one catalogue per language, assembled from a file per section
// and one of the page's shared strings (catalogue-en.js, catalogue-zh.js). Elements
// built by the sections name their text by key (data-i18n*), so a language
// switch re-labels the page without rebuilding it.
//
// Each language is a module of its own, loaded when asked for
// (loadCatalogue): the page loads the language it shows first, and the
// other one while the learner reads. t() reads what is loaded; a switch
// waits for its language (mount.js).
import { setRichText } from './rich-text.js';

export { detectLanguage } from './detect-language.js';

const LANGUAGES = Object.freeze({
  en: () => import('./catalogue-en.js'),
  zh: () => import('./catalogue-zh.js'),
});
export const catalogues = {}; // language -> its catalogue, once loaded
const loading = new Map(); // language -> the promise of its catalogue
let current = 'en';

// Resolves once `language`'s catalogue is loaded (an unknown language: English's).
export function loadCatalogue(language) {
  const known = Object.hasOwn(LANGUAGES, language) ? language : 'en';
  if (!loading.has(known)) {
    loading.set(known, LANGUAGES[known]().then(({ default: files }) => {
      catalogues[known] = Object.freeze(Object.assign({}, ...Object.values(files)));
    }));
  }
  return loading.get(known);
}

export const hasCatalogue = (language) => Object.hasOwn(catalogues, language);

export function setLanguage(language) {
  current = Object.hasOwn(LANGUAGES, language) ? language : 'en';
  if (globalThis.document) {
    // Only a real change: every redraw calls this, and even an equal write
    // of lang makes the browser restyle the whole page.
    const lang = current === 'zh' ? 'zh-CN' : 'en';
    if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
    if (document.title !== t('app.documentTitle')) document.title = t('app.documentTitle');
  }
}

// The language of t() alone, for a lab inside another page (the
// <attention-lab> element): the host page's <html lang> and title stay its own.
export function useLanguage(language) {
  current = Object.hasOwn(LANGUAGES, language) ? language : 'en';
}

export function getLanguage() {
  return current;
}

// Cross-references between sections: `{§pooling}` in a catalogue string
// reads "section 3". Numbers follow the registry's order, which registers
// itself here, so a new section renumbers every reference.
const sectionNumbers = new Map(); // id -> number

export function registerSections(sections) {
  sections.forEach(({ id }, index) => sectionNumbers.set(id, index + 1));
}

// A lab of one section (an element, an iframe) shows no other section to
// refer to: a string that refers to one is then read in its twin
// `<key>.alone`, which says in words where a value comes from ("w = 1, the
// width set for this figure"). The whole page is the only lab of many.
// One choice per page, like the language (the elements of a page share t()).
let alone = false;
export function useSectionAlone(on) {
  alone = on;
}
const REFERENCE = /\{§([\w-]+)\}/g;

function sectionReference(whole, id) {
  const number = sectionNumbers.get(id);
  return number === undefined ? whole : t('ref.numbered', { number });
}

function template(key) {
  return catalogues[current]?.[key] ?? catalogues.en?.[key];
}

// A missing key shows itself (and the catalogue test fails), never a blank.
export function t(key, params = {}) {
  const own = template(key) ?? key;
  const text = alone && own.includes('{§') ? template(`${key}.alone`) ?? own : own;
  return text
    .replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole))
    .replace(REFERENCE, sectionReference);
}

export function translateTree(root) {
  for (const element of root.querySelectorAll('[data-i18n]')) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll('[data-i18n-rich]')) setRichText(element, t(element.dataset.i18nRich));
  for (const element of root.querySelectorAll('[data-i18n-aria]')) {
    element.setAttribute('aria-label', t(element.dataset.i18nAria));
  }
  for (const element of root.querySelectorAll('[data-i18n-title]')) element.title = t(element.dataset.i18nTitle);
}
