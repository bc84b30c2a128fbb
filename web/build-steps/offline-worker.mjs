// The page's service worker, dist/offline-worker.js (web/src/offline/worker.js),
// given the build it keeps: every file the page loads over http (index.html,
// app.js, the CSS, page/'s modules, the core's two wasm files, the app
// manifest and its icons) with its SHA-256, and the build's version, a hash
// of them all. Run after everything else of the page is written; run again
// on a changed copy of dist/, it makes that copy a build of its own (the
// update test does).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { coreWasmFile, CORE_PARTS, TRAINING_WORKER_FILE } from '../src/core-files.js';
import { MANIFEST_FILE } from './app-manifest.mjs';

export const OFFLINE_WORKER = 'offline-worker.js';
const PAGE_FILES = ['index.html', 'app.js', 'app.css', 'katex.css', MANIFEST_FILE, ...CORE_PARTS.map(coreWasmFile), TRAINING_WORKER_FILE];
const FOLDERS = ['page', 'icons']; // every file in them

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// The build's files, [{ file, sha256 }] sorted by name, and its version.
export async function offlineBuild(out) {
  const inFolders = await Promise.all(FOLDERS.map(async (folder) =>
    (await readdir(path.join(out, folder))).map((name) => `${folder}/${name}`)));
  const names = [...PAGE_FILES, ...inFolders.flat()].sort();
  const files = await Promise.all(names.map(async (file) => ({ file, sha256: sha256(await readFile(path.join(out, file))) })));
  const version = sha256(files.map(({ file, sha256: hash }) => `${file} ${hash}\n`).join('')).slice(0, 16);
  return { version, files };
}

export async function writeOfflineWorker(out) {
  const offline = await offlineBuild(out);
  await build({
    entryPoints: ['web/src/offline/worker.js'],
    outfile: path.join(out, OFFLINE_WORKER),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome100', 'firefox102', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    define: { OFFLINE_BUILD: JSON.stringify(offline) },
  });
  return offline;
}
