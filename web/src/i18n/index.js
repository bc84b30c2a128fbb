// t(key) over one catalogue per language, assembled from its parts: the
// page's shared strings and one part per section (catalogue-parts.js).
// Elements built by the sections name their text by key (data-i18n*), so a
// language switch re-labels the page without rebuilding it.
//
// Each part is a module of its own, loaded when asked for (loadCatalogue):
// the page loads the shared parts and those of the sections it shows in
// the language it shows, the rest while the learner reads. t() reads what
// is loaded; a redraw waits for the parts it needs (mount.js).
import { setRichText } from './rich-text.js';
import { CATALOGUE_PARTS } from './catalogue-parts.js';

export { detectLanguage } from './detect-language.js';
export { SHARED_PARTS } from './catalogue-parts.js';

export const catalogues = {}; // language -> the keys of its parts loaded so far
const eachLanguage = (make) => Object.fromEntries(Object.keys(CATALOGUE_PARTS).map((language) => [language, make()]));
const loading = eachLanguage(() => new Map()); // language -> part -> the promise of its keys
const loaded = eachLanguage(() => new Set()); // language -> the parts in catalogues[language]
let current = 'en';

const known = (language) => (Object.hasOwn(CATALOGUE_PARTS, language) ? language : 'en');
const allParts = (language) => Object.keys(CATALOGUE_PARTS[language]);

// Resolves once `parts` of `language`'s catalogue (every part unless
// named; an unknown language: English's) are loaded.
/** @param {any} language any value; not a language: English @param {readonly string[]} [parts] @returns {Promise<void>} */
export function loadCatalogue(language, parts = allParts(known(language))) {
  const lang = known(language);
  return Promise.all(parts.map((part) => {
    if (!loading[lang].has(part)) {
      loading[lang].set(part, CATALOGUE_PARTS[lang][part]().then(({ default: keys }) => {
        catalogues[lang] = Object.freeze({ ...catalogues[lang], ...keys });
        loaded[lang].add(part);
      }));
    }
    return loading[lang].get(part);
  })).then(() => {});
}

/** @type {(language: any, parts?: readonly string[]) => boolean} */
export const hasCatalogue = (language, parts = allParts(known(language))) => parts.every((part) => loaded[known(language)].has(part));

export function setLanguage(language) {
  current = known(language);
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
  current = known(language);
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

// Own keys only: a key named like a member of Object.prototype
// ("constructor", "toString") is a missing key, not that member.
const ownText = (catalogue, key) => (catalogue && Object.hasOwn(catalogue, key) ? catalogue[key] : undefined);

function template(key) {
  return ownText(catalogues[current], key) ?? ownText(catalogues.en, key);
}

// A missing key shows itself (and the catalogue test fails), never a blank.
export function t(key, params = {}) {
  const own = template(key) ?? key;
  const text = alone && own.includes('{§') ? template(`${key}.alone`) ?? own : own;
  return text
    .replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole))
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
