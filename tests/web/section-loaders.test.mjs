// The page's lazy list of sections (web/src/sections/section-loaders.js)
// against the registry: the same sections in the same order, each loader
// resolving to the very declaration the registry holds; and each loading
// its folder's declaration (<id>/<id>.js) and a catalogue part named by its
// id in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { SECTION_IDS, SECTION_LOADERS, sectionNumber } from '../../web/src/sections/section-loaders.js';
import { CATALOGUE_PARTS, SHARED_PARTS } from '../../web/src/i18n/catalogue-parts.js';

test('every section of the registry has its loader, in the same order, loading the same declaration', async () => {
  assert.deepEqual(SECTION_LOADERS.map(({ id }) => id), SECTIONS.map(({ id }) => id));
  for (const [index, { id, load }] of SECTION_LOADERS.entries()) {
    assert.equal(await load(), SECTIONS[index], `${id}: the registry's declaration`);
    assert.equal(sectionNumber(id), index + 1, `${id}: numbered by its place`);
  }
});

test('each loader loads its folder\'s declaration, and its catalogue part in both languages, all named by its id; the other parts are shared', () => {
  for (const { id, load } of SECTION_LOADERS) {
    assert.match(String(load), new RegExp(`import\\(['"]\\.\\./sections/${id}/${id}\\.js['"]\\)`), `${id}: loads ${id}/${id}.js`);
    for (const language of ['en', 'zh']) {
      assert.match(String(CATALOGUE_PARTS[language][id]), new RegExp(`\\.\\./i18n/${language}/${id}\\.js`), `${id}: ${language}/${id}.js`);
    }
  }
  for (const language of ['en', 'zh']) {
    assert.deepEqual(Object.keys(CATALOGUE_PARTS[language]), [...SHARED_PARTS, ...SECTION_IDS],
      `${language}: the shared parts, then a part per section in the page's order`);
  }
});
