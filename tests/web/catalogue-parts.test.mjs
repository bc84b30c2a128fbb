// The page loads its catalogue in parts (web/src/i18n/catalogue-parts.js):
// the shared parts first, then each section's with its code. A string a
// section's code names from another section's part would show as its key
// until that part arrived, or for good where nothing redraws it. So the
// page is cut into modules as the build cuts it (esbuild, splitting), and
// the keys named in the code each module loads with it (its static
// imports, all the way down) must come from the shared parts, or the
// section's own part.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { build } from 'esbuild';
import { CATALOGUE_FILES } from '../../web/src/i18n/catalogue-files.js';
import { SHARED_PARTS } from '../../web/src/i18n/catalogue-parts.js';
import { SECTION_LOADERS } from '../../web/src/sections/section-loaders.js';

const partOfKey = new Map(Object.entries(CATALOGUE_FILES).flatMap(([part, { en }]) => Object.keys(en).map((key) => [key, part])));

const { metafile, outputFiles } = await build({
  entryPoints: ['web/src/page-entry.js'],
  bundle: true,
  splitting: true,
  format: 'esm',
  outdir: 'page',
  write: false,
  metafile: true,
  logLevel: 'silent',
  loader: { '.css': 'empty' },
  external: ['attention-core-cues-wasm', 'attention-core-basics-wasm', 'attention-core-models-wasm'], // the wasm: no text of the page
});
const textOf = new Map(outputFiles.map((file) => [path.relative(process.cwd(), file.path), file.text])); // by the metafile's names
const outputOf = (source) => Object.keys(metafile.outputs).find((output) => metafile.outputs[output].entryPoint === source);
const staticImports = (output, found = new Set()) => {
  if (found.has(output)) return found;
  found.add(output);
  for (const { path: imported, kind, external } of metafile.outputs[output].imports) {
    if (kind === 'import-statement' && !external) staticImports(imported, found);
  }
  return found;
};
// Every string literal of the modules `source` loads with it that is a catalogue key.
const keysNamedBy = (source) => new Set([...staticImports(outputOf(source))].flatMap((output) =>
  [...textOf.get(output).matchAll(/["'`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)["'`]/g)].map(([, key]) => key).filter((key) => partOfKey.has(key))));
const outsideOf = (keys, parts) => [...keys].filter((key) => !parts.includes(partOfKey.get(key))).map((key) => `${key} (${partOfKey.get(key)})`);

test('the page\'s own code names only keys of the shared parts', () => {
  const keys = keysNamedBy('web/src/page-entry.js');
  assert.ok(keys.has('app.title'), 'the keys are found');
  assert.deepEqual(outsideOf(keys, SHARED_PARTS), []);
});

test('each section\'s code names only keys of the shared parts and of its own', () => {
  for (const { id } of SECTION_LOADERS) {
    const keys = keysNamedBy(`web/src/sections/${id}/${id}.js`);
    assert.ok([...keys].some((key) => partOfKey.get(key) === id), `${id}: its own keys are found`);
    assert.deepEqual(outsideOf(keys, [...SHARED_PARTS, id]), [], id);
  }
});
