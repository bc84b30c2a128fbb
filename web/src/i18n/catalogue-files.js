// The catalogues' parts (catalogue-parts.js), every one loaded, for what
// reads whole catalogues in Node: the tests and the SCORM build (the page
// assembles its catalogue from the same parts as they arrive, i18n/index.js).
// A key lives in one part only (tests/web/catalogues.test.mjs checks both).
import { CATALOGUE_PARTS } from './catalogue-parts.js';

const loadParts = async (language) => Object.fromEntries(await Promise.all(
  Object.entries(CATALOGUE_PARTS[language]).map(async ([name, load]) => [name, (await load()).default])));
const [en, zh] = await Promise.all([loadParts('en'), loadParts('zh')]);

export const CATALOGUE_FILES = Object.freeze(Object.fromEntries(Object.keys(en).map((name) => [name, { en: en[name], zh: zh[name] }])));

// One language's catalogue: every part's keys together.
export const assembleCatalogue = (language) =>
  Object.assign({}, ...Object.values(CATALOGUE_FILES).map((file) => file[language]));
