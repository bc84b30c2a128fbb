// The page's list of sections, derived from the sections themselves: a
// section is a folder web/src/sections/<id>/ whose module <id>.js exports
// its declaration (id, order, book, corePart, exercises...), with its
// catalogue part in each language, web/src/i18n/<language>/<id>.js. This
// writes web/src/generated/ (not kept in git) before anything is bundled:
//   catalogue-parts.js     each section's catalogue part, by language;
//   section-loaders.js     each section's code, loaded when needed, in order,
//                          with the part of the core it computes with;
//   section-list.js        every declaration, imported at once, in order
//                          (the element, SCORM's launch, Node).
// The page's nav and <section> elements come from the same list (build.mjs).
// Usage: node web/build-steps/section-list.mjs (build.mjs runs it first).
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CORE_PARTS } from '../src/core-files.js';

const WEB_SRC = fileURLToPath(new URL('../src/', import.meta.url));
const SECTIONS_DIR = path.join(WEB_SRC, 'sections');
export const GENERATED_DIR = path.join(WEB_SRC, 'generated');
// The page's languages: a folder of catalogue parts each (web/src/i18n/<language>/).
const LANGUAGES = (await readdir(path.join(WEB_SRC, 'i18n'), { withFileTypes: true }))
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();

const HEADER = '// Written by web/build-steps/section-list.mjs from the sections\' own folders\n'
  + '// (web/src/sections/<id>/<id>.js): do not edit, the build writes it again.\n';

const exists = (file) => stat(file).then(() => true, () => false);

// The folders holding a module of their own name: the sections, by id.
async function sectionFolders() {
  const entries = await readdir(SECTIONS_DIR, { withFileTypes: true });
  const ids = [];
  for (const entry of entries) {
    if (entry.isDirectory() && await exists(path.join(SECTIONS_DIR, entry.name, `${entry.name}.js`))) ids.push(entry.name);
  }
  return ids.sort();
}

// Written only when changed, so a build that changes nothing rebuilds nothing.
async function writeIfChanged(file, text) {
  if (await readFile(file, 'utf8').catch(() => null) === text) return;
  await writeFile(file, text);
}

const quote = (text) => `'${text}'`;

// The catalogue parts, in the page's order: a declaration's modules read
// texts through i18n/index.js, which needs them, so they are written in the
// folders' order before any declaration is imported, then in the page's.
function catalogueParts(ids) {
  const language = (lang) => `  ${lang}: Object.freeze({\n${ids.map((id) => `    ${quote(id)}: () => import('../i18n/${lang}/${id}.js'),\n`).join('')}  }),\n`;
  return `${HEADER}export const SECTION_CATALOGUE_PARTS = Object.freeze({\n${LANGUAGES.map(language).join('')}});\n`;
}

// Each folder's declaration: the export whose id is the folder's name.
async function declarations(ids) {
  const found = [];
  for (const id of ids) {
    const module = await import(pathToFileURL(path.join(SECTIONS_DIR, id, `${id}.js`)).href);
    const exports = Object.entries(module).filter(([, value]) => value && typeof value === 'object' && value.id === id);
    if (exports.length !== 1) throw new Error(`web/src/sections/${id}/${id}.js: expected one export declaring the section with id '${id}', found ${exports.length}`);
    const [[name, declaration]] = exports;
    if (!Number.isFinite(declaration.order)) throw new Error(`section ${id}: order must be a number (its place in the page, in the book's order)`);
    if (declaration.corePart !== undefined && !CORE_PARTS.includes(declaration.corePart)) {
      throw new Error(`section ${id}: corePart must be one of ${CORE_PARTS.join(', ')} (web/src/core-files.js), not ${JSON.stringify(declaration.corePart)}`);
    }
    for (const language of LANGUAGES) {
      if (!await exists(path.join(WEB_SRC, 'i18n', language, `${id}.js`))) throw new Error(`section ${id}: its catalogue part web/src/i18n/${language}/${id}.js is missing`);
    }
    found.push({ id, name, order: declaration.order, corePart: declaration.corePart });
  }
  found.sort((a, b) => a.order - b.order);
  const twice = found.find((section, index) => index > 0 && section.order === found[index - 1].order);
  if (twice) throw new Error(`sections ${found[found.indexOf(twice) - 1].id} and ${twice.id} have the same order ${twice.order}`);
  return found;
}

const moduleOf = (id) => `../sections/${id}/${id}.js`;

const sectionLoaders = (sections) => `${HEADER}export const SECTION_LOADERS = Object.freeze([\n${sections.map(({ id, name, corePart }) =>
  `  { id: ${quote(id)}, ${corePart ? `corePart: ${quote(corePart)}, ` : ''}load: () => import('${moduleOf(id)}').then((module) => module.${name}) },\n`).join('')}]);\n`;

const sectionList = (sections) => `${HEADER}${sections.map(({ id, name }) => `import { ${name} } from '${moduleOf(id)}';\n`).join('')}\n`
  + `export const SECTIONS = Object.freeze([\n${sections.map(({ name }) => `  ${name},\n`).join('')}]);\n`;

// Writes web/src/generated/ and returns the sections' ids in the page's order.
export async function writeSectionList() {
  await mkdir(GENERATED_DIR, { recursive: true });
  const ids = await sectionFolders();
  await writeIfChanged(path.join(GENERATED_DIR, 'catalogue-parts.js'), catalogueParts(ids));
  // The loaders' module is read (through i18n/index.js) by modules a
  // declaration imports: a first build gives it the folders' order until
  // the declarations have said theirs.
  const loaders = path.join(GENERATED_DIR, 'section-loaders.js');
  if (!await exists(loaders)) await writeFile(loaders, sectionLoaders(ids.map((id) => ({ id, name: 'default' }))));
  const sections = await declarations(ids);
  const ordered = sections.map(({ id }) => id);
  await writeIfChanged(path.join(GENERATED_DIR, 'catalogue-parts.js'), catalogueParts(ordered));
  await writeIfChanged(loaders, sectionLoaders(sections));
  await writeIfChanged(path.join(GENERATED_DIR, 'section-list.js'), sectionList(sections));
  return ordered;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(`sections: ${(await writeSectionList()).join(', ')}`);
}
