// Builds dist/ with esbuild:
//   dist/attention-core.mjs  the JS API as one ES module (wasm inlined), for Node and course pages;
//   dist/index.html, app.js, page/ (ES modules), app.css, katex.css and the core's
//     three parts, attention-core-{cues,basics,models}.wasm: the page; app.js
//     (web/src/boot.js) starts page/ over http, and from file://
//     loads app-disk.js, the same page as one classic script (the wasm then
//     comes from attention-core-<part>-wasm.js);
//   dist/attention-lab-element-loader.js: the <attention-lab> element for course
//     pages, a small script loading the element's modules (in page/, shared with
//     the page) and the wasm from beside it; dist/attention-lab-element.js: the
//     element as one classic script with the core, the code and its CSS inlined
//     (for hosts that take one file, and the loader's way from file://);
//   dist/course-example.html: a course page showing the element and the iframe mode;
//   dist/package.json, the declarations and licences: dist/ is also the npm package;
//   dist/python/attention_lab/: show() for Jupyter notebooks, with the element's script;
//   dist/scorm/: the SCORM 1.2 and 2004 packages of the lab, and the script they launch;
//   dist/offline-worker.js, manifest.webmanifest, icons/: over http the page keeps
//     its build for a second visit and offline, and installs as an app.
// Usage: node web/build.mjs --wasm-cues <build>/wasm/attention-core-cues-wasm.mjs
//          --wasm-basics <build>/wasm/attention-core-basics-wasm.mjs
//          --wasm-models <build>/wasm/attention-core-models-wasm.mjs --out dist
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fontSubsetter } from './build-steps/font-subsets.mjs';
import { texCharacters } from './build-steps/tex-characters.mjs';
import { writeCoreParts } from './build-steps/core-parts.mjs';
import { writeAppManifest } from './build-steps/app-manifest.mjs';
import { OFFLINE_WORKER, writeOfflineWorker } from './build-steps/offline-worker.mjs';
import { CORE_PARTS, TRAINING_WORKER_FILE, coreWasmFile, firstCorePart } from './src/core-files.js';

// First the lists of sections, derived from their folders (web/src/generated/),
// in a process of its own: it imports the declarations, which read the lists
// it writes. What reads them is imported after.
execFileSync(process.execPath, [new URL('./build-steps/section-list.mjs', import.meta.url).pathname], { stdio: 'inherit' });
const { writePackage } = await import('./build-steps/npm-package.mjs');
const { writeNotebookPackage } = await import('./build-steps/notebook-package.mjs');
const { SCORM_FOLDER, SCORM_SCRIPT, writeScormPackages } = await import('./build-steps/scorm-package.mjs');
const { writePageHtml } = await import('./build-steps/page-html.mjs');
const { elementPlaceholderCss } = await import('./build-steps/element-placeholder-css.mjs');
const { SECTION_LOADERS } = await import('./src/sections/section-loaders.js');
const { CATALOGUE_PARTS, SHARED_PARTS } = await import('./src/i18n/catalogue-parts.js');

const LANGUAGES = Object.keys(CATALOGUE_PARTS);

const { values: args } = parseArgs({
  options: {
    'wasm-cues': { type: 'string' }, 'wasm-basics': { type: 'string' }, 'wasm-models': { type: 'string' },
    out: { type: 'string', default: 'dist' },
  },
});
for (const part of CORE_PARTS) {
  if (!args[`wasm-${part}`]) throw new Error(`--wasm-${part}: expected the path of attention-core-${part}-wasm.mjs`);
}
const out = path.resolve(args.out);
await mkdir(out, { recursive: true });

// The core's parts: their wasm files for the page, written to out/.
const { apiAliases, corePartsPlugin } = await writeCoreParts(out,
  Object.fromEntries(CORE_PARTS.map((part) => [part, path.resolve(args[`wasm-${part}`])])));

const common = {
  bundle: true,
  alias: apiAliases,
  logLevel: 'warning',
  legalComments: 'none',
};

await build({
  ...common,
  entryPoints: ['wasm/attention-core.mjs'],
  outfile: path.join(out, 'attention-core.mjs'),
  format: 'esm',
  platform: 'neutral',
});

// KaTeX's stylesheet names each font three times (woff2, woff, ttf). Every
// browser that runs WebAssembly reads woff2, so only woff2 is kept, inlined
// as data: URLs that also load from file://. Each font is cut down to the
// characters the page's TeX can draw in it, with the unicode-range of what
// it keeps; a font the page's TeX never reaches (\mathfrak, \mathsf, ...) is
// dropped (tests/browser/page-load.test.mjs checks both against what is drawn).
const KATEX_CSS = 'node_modules/katex/dist/katex.css';
const texFonts = await texCharacters('web/src', await readFile(KATEX_CSS, 'utf8'));
const subsetFont = fontSubsetter();
async function keptFontFace(rule, folder) {
  const family = rule.match(/font-family:\s*"?([\w]+)/)[1];
  const weight = /font-weight:\s*bold/.test(rule) ? 700 : 400;
  const style = /font-style:\s*italic/.test(rule) ? 'italic' : 'normal';
  const codePoints = texFonts.get(`${family} ${weight} ${style}`);
  if (!codePoints) return '';
  const woff2 = rule.match(/url\(([^)]*\.woff2)\)/)[1];
  const { bytes, unicodeRange } = await subsetFont(path.join(folder, woff2), codePoints);
  return rule
    .replace(/src:[^;}]*/, `src:url(data:font/woff2;base64,${bytes.toString('base64')}) format("woff2")`)
    .replace(/\s*\}$/, `\n  unicode-range: ${unicodeRange};\n}`);
}
const katexFonts = {
  name: 'katex-fonts',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /katex[\\/]dist[\\/]katex(\.min)?\.css$/ }, async (file) => {
      const css = await readFile(file.path, 'utf8');
      const rules = css.match(/@font-face\s*\{[^}]*\}/g);
      const kept = await Promise.all(rules.map((rule) => keptFontFace(rule, path.dirname(file.path))));
      let index = 0;
      return {
        contents: css.replace(/@font-face\s*\{[^}]*\}/g, () => kept[index++]),
        loader: 'css',
        resolveDir: path.dirname(file.path),
      };
    });
  },
};

// The element's CSS as text for its shadow root. :root becomes :host (the
// custom properties and the dark theme hang on the element). @font-face
// rules do nothing inside a shadow root, so they are split off: the element
// adds them (only they) to the document.
const elementCss = await build({
  ...common,
  entryPoints: ['web/styles/element.css'],
  outfile: 'element.css',
  write: false,
  minify: true,
  plugins: [katexFonts],
});
const cssText = elementCss.outputFiles.find((file) => file.path.endsWith('.css')).text;
const fontFaces = cssText.match(/@font-face\{[^}]*\}/g) ?? [];
const shadowCss = cssText.replace(/@font-face\{[^}]*\}/g, '').replace(/:root\b/g, ':host');
const elementCssModule = {
  name: 'attention-lab-css',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^attention-lab:css$/ }, () => ({ path: 'css', namespace: 'attention-lab-css' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'attention-lab-css' }, () => ({
      contents: `export const shadowCss = ${JSON.stringify(shadowCss)};\nexport const documentCss = ${JSON.stringify(fontFaces.join('\n'))};`,
      loader: 'js',
    }));
  },
};

// The page. A classic script (IIFE), not a module: module scripts do not load
// from file://, and the page must work opened straight from disk.
const page = {
  ...common,
  alias: {},
  format: 'iife',
  platform: 'browser',
  target: ['chrome100', 'firefox102', 'safari16'], // 'wasm-unsafe-eval' in the page's CSP needs these
  minify: true,
  // Emscripten's glue reads import.meta.url to find a .wasm file; given the
  // wasm's instance it needs no location at all.
  define: { 'import.meta.url': 'undefined' },
  plugins: [corePartsPlugin()],
};
// Over http the page is ES modules cut in chunks (dist/page/), started by
// app.js, a small classic script (web/src/boot.js) that asks at once for
// what the first screen needs: the entry's modules, the learner's
// language, the first section and the wasm. From disk app.js loads
// app-disk.js, the same page as one classic script.
const PAGE_FOLDER = 'page';
// The element as one classic script (everything inlined), and its small loader.
const ELEMENT_SCRIPT = 'attention-lab-element.js';
const ELEMENT_LOADER = 'attention-lab-element-loader.js';
const DISK_SCRIPT = 'app-disk.js';
// The worker the models train in (web/src/run/training-worker.js), beside
// app.js; the page from disk and the element carry its text instead.
await build({ ...page, entryPoints: ['web/src/run/training-worker.js'], outfile: path.join(out, TRAINING_WORKER_FILE) });
const trainingWorkerSource = await readFile(path.join(out, TRAINING_WORKER_FILE), 'utf8');
await build({
  ...page, entryPoints: ['web/src/page-entry.js'], outfile: path.join(out, DISK_SCRIPT),
  plugins: [corePartsPlugin({ workerSource: trainingWorkerSource })],
});
await rm(path.join(out, PAGE_FOLDER), { recursive: true, force: true }); // the last build's chunks
// The element's modules (element.js) are cut from the same build, so the
// element and the page share their chunks.
const modules = await build({
  ...page,
  format: 'esm',
  splitting: true,
  entryPoints: { page: 'web/src/page-entry.js', element: 'web/src/element.js' },
  plugins: [corePartsPlugin(), elementCssModule],
  outdir: path.join(out, PAGE_FOLDER),
  chunkNames: '[name]-[hash]',
  entryNames: '[name]-[hash]',
  // Modules are always read as UTF-8: the Chinese catalogue as written is
  // 5 KB smaller gzipped than as \u escapes. (Classic scripts keep the
  // escapes: a course page may declare another charset.)
  charset: 'utf8',
  metafile: true,
});
// The wasm a mount loads first, by the section it starts with (core-files.js: firstCorePart).
const firstWasm = Object.fromEntries(SECTION_LOADERS.map((section) => [section.id, coreWasmFile(firstCorePart(section))]));
await writeFile(path.join(out, 'app.js'), (await build({
  ...common,
  entryPoints: ['web/src/boot.js'],
  write: false,
  format: 'iife',
  platform: 'browser',
  target: page.target,
  minify: true,
  define: {
    ATTENTION_LAB_PAGE: JSON.stringify({
      ...modulePreloads(modules.metafile, 'web/src/page-entry.js'), disk: DISK_SCRIPT, wasm: firstWasm, worker: OFFLINE_WORKER,
    }),
  },
})).outputFiles[0].contents);

// The module files a chunk of the page needs with it (its static imports,
// all the way down), relative to dist/: the entry's (the page's or the
// element's), each language's shared catalogue parts' and each section's
// code and catalogue part (sections/section-loaders.js, i18n/catalogue-parts.js).
function modulePreloads(metafile, entrySource) {
  const relative = (output) => path.relative(out, path.resolve(output)).split(path.sep).join('/');
  const outputOf = (source) => Object.keys(metafile.outputs).find((output) => metafile.outputs[output].entryPoint === source);
  const withImports = (output, found = new Set()) => {
    if (found.has(output)) return found;
    found.add(output);
    for (const { path: imported, kind } of metafile.outputs[output].imports) {
      if (kind === 'import-statement') withImports(imported, found);
    }
    return found;
  };
  const needs = (source) => [...withImports(outputOf(source))].map(relative);
  const entry = outputOf(entrySource);
  const part = (language, name) => needs(`web/src/i18n/${language}/${name}.js`);
  const eachLanguage = (pick) => Object.fromEntries(LANGUAGES.map((language) => [language, pick(language)]));
  return {
    entry: relative(entry),
    preloads: {
      entry: needs(entrySource),
      // Each language's shared catalogue parts, and each section's module with its part in each language.
      languages: eachLanguage((language) => SHARED_PARTS.flatMap((name) => part(language, name))),
      sections: Object.fromEntries(SECTION_LOADERS.map(({ id }) => [id, {
        code: needs(`web/src/sections/${id}/${id}.js`),
        texts: eachLanguage((language) => part(language, id)),
      }])),
    },
  };
}

// The page's CSS: web/styles/page.css, one file per concept; KaTeX's in a
// file of its own, katex.css, loaded with KaTeX (web/src/figures/tex.js).
await build({
  ...common,
  entryPoints: ['web/styles/page.css'],
  outfile: path.join(out, 'app.css'),
  minify: true,
});
await build({
  ...common,
  entryPoints: ['web/styles/katex.css'],
  outfile: path.join(out, 'katex.css'),
  minify: true,
  plugins: [katexFonts],
});

// The element: a classic script too, so a course page opened from disk works.
const element = await build({
  ...common,
  entryPoints: ['web/src/element.js'],
  alias: {}, // the core's parts through corePartsPlugin, not as the JS API has them
  outfile: path.join(out, ELEMENT_SCRIPT),
  format: 'iife',
  platform: 'browser',
  target: ['chrome105', 'firefox110', 'safari16'], // container queries in the shadow root
  minify: true,
  define: { 'import.meta.url': 'undefined' },
  plugins: [elementCssModule, corePartsPlugin({ inlined: true, workerSource: trainingWorkerSource })],
  metafile: true, // which npm packages it carries: their licences go into the package
});

// The element's loader (element-loader.js): a small classic script that
// shows each element's placeholder, then loads the element's modules over
// http, or the one-script element from disk.
await build({
  ...common,
  entryPoints: ['web/src/element-loader.js'],
  outfile: path.join(out, ELEMENT_LOADER),
  format: 'iife',
  platform: 'browser',
  target: page.target,
  minify: true,
  define: {
    ATTENTION_LAB_ELEMENT: JSON.stringify({
      ...modulePreloads(modules.metafile, 'web/src/element.js'),
      bundle: ELEMENT_SCRIPT, wasm: firstWasm, placeholderCss: await elementPlaceholderCss(),
    }),
  },
});

await writePageHtml(path.join(out, 'index.html'));
await writeAppManifest(out);
await copyFile('web/course-example.html', path.join(out, 'course-example.html'));
await copyFile('web/course-example.css', path.join(out, 'course-example.css'));

await writePackage(out, { metafile: element.metafile });
await writeNotebookPackage(out);

// The SCORM packages of the whole lab (dist/scorm/): the page with the
// SCORM launch's script in place of app.js (web/src/scorm/launch.js), kept
// in dist/scorm/ for `npm run scorm`, which packages chosen sections.
await build({
  ...page, entryPoints: ['web/src/scorm/launch.js'], outfile: path.join(out, SCORM_FOLDER, SCORM_SCRIPT),
  plugins: [corePartsPlugin({ workerSource: trainingWorkerSource })], // a package opened from disk trains in a worker too
});
await writeScormPackages(out);

// Last: the worker keeps every file of the page as written above.
await writeOfflineWorker(out);
