// dist/ as an npm package for course sites (`npm pack ./dist`): the JS API
// (`attention-lab`), the element (`attention-lab/element`), their
// TypeScript declarations, the page's files for the iframe mode, and the
// licences of what the bundles carry. Name, version, licence and
// description are the repository's own package.json's.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { elementTypes } from './element-types.mjs';
import { CORE_PAGE_FILES } from '../src/core-files.js';
import { MANIFEST_FILE, ICON_FOLDER } from './app-manifest.mjs';
import { OFFLINE_WORKER } from './offline-worker.mjs';

// The page's files, exported so that a course site can copy them from node_modules for the iframe mode
// (and its modules, page/: app.js starts them over http; from disk it loads app-disk.js), with what
// the full page the frame's "Open in the full Attention Lab" link opens asks for too: its service
// worker, the app manifest and its icons. The docs' iframe recipe lists these (tests/web/docs-facts).
export const PAGE_FILES = Object.freeze(['index.html', 'app.js', 'app-disk.js', 'app.css', 'katex.css', ...CORE_PAGE_FILES,
  OFFLINE_WORKER, MANIFEST_FILE]);
const PAGE_FOLDER = 'page';
export const PAGE_FOLDERS = Object.freeze([PAGE_FOLDER, ICON_FOLDER]);

export function manifest(repository) {
  return {
    name: repository.name,
    version: repository.version,
    description: repository.description,
    license: repository.license,
    type: 'module',
    main: './attention-core.mjs',
    types: './attention-core.d.ts',
    exports: {
      '.': { types: './attention-core.d.ts', default: './attention-core.mjs' },
      './element': { types: './attention-lab-element.d.ts', default: './attention-lab-element.js' },
      ...Object.fromEntries(PAGE_FILES.map((file) => [`./${file}`, `./${file}`])),
      ...Object.fromEntries(PAGE_FOLDERS.map((folder) => [`./${folder}/*`, `./${folder}/*`])),
      './package.json': './package.json',
    },
    // The element defines <attention-lab> when it runs: a bundler must keep it, though nothing is imported from it.
    sideEffects: ['./attention-lab-element.js'],
    files: [
      'attention-core.mjs', 'attention-core.d.ts', 'attention-lab-element.js', 'attention-lab-element.d.ts',
      ...PAGE_FILES, ...PAGE_FOLDERS.map((folder) => `${folder}/`), 'README.md', 'LICENSE', 'THIRD-PARTY-LICENSES.txt',
    ],
    engines: { node: '>=18' },
  };
}

// The npm packages a bundle carries, from esbuild's metafile.
export function bundledPackages(metafile) {
  const names = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (match) names.add(match[1]);
  }
  return [...names].sort();
}

export async function writePackage(out, { metafile }) {
  const repository = JSON.parse(await readFile('package.json', 'utf8'));
  await writeFile(path.join(out, 'package.json'), `${JSON.stringify(manifest(repository), null, 2)}\n`);
  await copyFile('wasm/attention-core.d.ts', path.join(out, 'attention-core.d.ts'));
  await writeFile(path.join(out, 'attention-lab-element.d.ts'), elementTypes());
  await copyFile('web/package-readme.md', path.join(out, 'README.md'));
  await copyFile('LICENSE', path.join(out, 'LICENSE'));
  const licences = [];
  for (const name of bundledPackages(metafile)) {
    const own = JSON.parse(await readFile(path.join('node_modules', name, 'package.json'), 'utf8'));
    const text = await readFile(path.join('node_modules', name, 'LICENSE'), 'utf8');
    licences.push(`${name} ${own.version} (${own.license})\n\n${text.trim()}\n`);
  }
  await writeFile(path.join(out, 'THIRD-PARTY-LICENSES.txt'),
    `The bundles of this package carry code of these npm packages, under these licences.\n\n${licences.join('\n----\n\n')}`);
}
