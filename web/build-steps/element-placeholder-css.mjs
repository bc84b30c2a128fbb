// The CSS of the element's placeholders (web/src/element-placeholder.js),
// in the loader's script: each section's title in each language, from the
// catalogues, and its measured heights (web/src/element-heights.js).
import { placeholderCss } from '../src/element-placeholder.js';
import { ELEMENT_HEIGHTS } from '../src/element-heights.js';
import { CATALOGUE_PARTS } from '../src/i18n/catalogue-parts.js';
import { SECTION_IDS } from '../src/sections/section-loaders.js';

const catalogue = async (language, part) => (await import(`../src/i18n/${language}/${part}.js`)).default;

export async function elementPlaceholderCss() {
  const languages = Object.keys(CATALOGUE_PARTS);
  const titles = {};
  for (const id of SECTION_IDS) {
    titles[id] = {};
    for (const language of languages) titles[id][language] = (await catalogue(language, id))[`${id}.title`];
  }
  const words = {};
  for (const language of languages) {
    const shared = await catalogue(language, 'shared');
    words[language] = { name: shared['app.title'], loading: shared['app.loading'], failed: shared['app.loadFailed'] };
  }
  return placeholderCss({ languages, titles, heights: ELEMENT_HEIGHTS, words });
}
