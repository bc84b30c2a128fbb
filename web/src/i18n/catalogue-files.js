// The catalogues' files: the page's shared strings and one file per section,
// in the page's order, each in English (en/) and Chinese (zh/) with the same
// keys. i18n/index.js assembles each language's catalogue from them; a key
// lives in one file only (tests/web/catalogues.test.mjs checks both).
import en from './catalogue-en.js';
import zh from './catalogue-zh.js';

export const CATALOGUE_FILES = Object.freeze(Object.fromEntries(Object.keys(en).map((name) => [name, { en: en[name], zh: zh[name] }])));

// One language's catalogue: every file's keys together.
export const assembleCatalogue = (language) =>
  Object.assign({}, ...Object.values(CATALOGUE_FILES).map((file) => file[language]));
