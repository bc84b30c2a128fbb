// The page's lazy list of sections (web/src/sections/section-loaders.js)
// against the registry: the same sections in the same order, each loader
// resolving to the very declaration the registry holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { SECTION_LOADERS, sectionNumber } from '../../web/src/sections/section-loaders.js';

test('every section of the registry has its loader, in the same order, loading the same declaration', async () => {
  assert.deepEqual(SECTION_LOADERS.map(({ id }) => id), SECTIONS.map(({ id }) => id));
  for (const [index, { id, load }] of SECTION_LOADERS.entries()) {
    assert.equal(await load(), SECTIONS[index], `${id}: the registry's declaration`);
    assert.equal(sectionNumber(id), index + 1, `${id}: numbered by its place`);
  }
});
