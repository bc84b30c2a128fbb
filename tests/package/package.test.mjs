// The npm package as a course site gets it: packed by the `npm pack` command
// that docs/learning-and-teaching.md ("For course authors") gives, read from
// that page and run as written (`npm pack ./dist`), with no network; installed
// from the tarball into a scratch project with no network, imported from
// Node, type-checked with tsc (a consumer example, and the calls that must
// not type-check), bundled into a page by esbuild and opened in Chromium,
// where the element draws its section with the attributes given.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { exec, execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { loadAttentionCore } from '../../dist/attention-core.mjs';

const run = promisify(execFile);
const shell = promisify(exec);
const DIST = path.resolve('dist');
const TSC = path.resolve('node_modules/typescript/bin/tsc');
const HERE = path.dirname(new URL(import.meta.url).pathname);

let scratch;
let packed;

// The course authors' recipe as the docs write it: the one `npm pack ...`
// command of that section (inline code), and the tarball name it promises.
async function documentedRecipe() {
  const page = await readFile(new URL('../../docs/learning-and-teaching.md', import.meta.url), 'utf8');
  const start = page.indexOf('\n## For course authors\n');
  assert.ok(start >= 0, 'docs/learning-and-teaching.md has a "For course authors" section');
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const commands = [...section.matchAll(/`(npm pack [^`]+)`/g)].map((match) => match[1]);
  assert.equal(commands.length, 1, `one npm pack command in "For course authors", found ${JSON.stringify(commands)}`);
  assert.match(section, /`attention-lab-<version>\.tgz`/);
  return commands[0];
}

// The regular files of a .tgz as npm pack writes it (ustar: a 512-byte
// header per entry with its name and octal size, then the data in 512-byte
// blocks), with npm's leading package/ taken off.
function tarballFiles(tgz) {
  const tar = gunzipSync(tgz);
  const files = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (from, to) => header.toString('utf8', from, to).replace(/\0[\s\S]*$/, '');
    const prefix = field(345, 500);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 136).trim() || '0', 8);
    if (['0', ''].includes(field(156, 157))) files.push({ path: name.replace(/^package\//, ''), size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

before(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-course-site-'));
  // Run where the recipe runs it, a directory holding dist/ as the repository
  // root does (the tarball lands there, not in the working tree), offline: a
  // command npm would read as a registry package fails instead of fetching.
  const command = await documentedRecipe();
  const repository = path.join(scratch, 'repository');
  await mkdir(repository);
  await symlink(DIST, path.join(repository, 'dist'), 'dir');
  const { stdout } = await shell(command, { cwd: repository, env: { ...process.env, npm_config_offline: 'true' } })
    .catch((error) => assert.fail(`${command} (the docs' recipe) failed:\n${error.stderr}`));
  const filename = stdout.trim().split('\n').at(-1);
  const { version } = JSON.parse(await readFile('package.json', 'utf8'));
  assert.equal(filename, `attention-lab-${version}.tgz`, `${command} makes attention-lab-<version>.tgz`);
  const tarball = path.join(repository, filename);
  const files = tarballFiles(await readFile(tarball));
  packed = {
    filename, files, size: (await stat(tarball)).size, unpackedSize: files.reduce((sum, file) => sum + file.size, 0),
  };
  await writeFile(path.join(scratch, 'package.json'), JSON.stringify({ name: 'course-site', private: true, type: 'module' }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: scratch });
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

test('the package: named, versioned, licensed, with the files its manifest lists', async () => {
  const manifest = JSON.parse(await readFile(path.join(scratch, 'node_modules/attention-lab/package.json'), 'utf8'));
  const repository = JSON.parse(await readFile('package.json', 'utf8'));
  assert.equal(manifest.name, 'attention-lab');
  assert.equal(manifest.version, repository.version);
  assert.equal(manifest.license, 'MIT');
  // A folder of the manifest (the page's modules, page/) stands for every file in it, and holds some.
  const folders = manifest.files.filter((name) => name.endsWith('/'));
  const paths = packed.files.map((file) => file.path);
  for (const folder of folders) assert.ok(paths.some((name) => name.startsWith(folder)), `${folder} is packed`);
  assert.deepEqual(paths.filter((name) => !folders.some((folder) => name.startsWith(folder))).sort(),
    [...manifest.files.filter((name) => !name.endsWith('/')), 'package.json'].sort());
  const licences = await readFile(path.join(scratch, 'node_modules/attention-lab/THIRD-PARTY-LICENSES.txt'), 'utf8');
  for (const bundled of ['katex', 'd3-scale', 'd3-selection']) assert.match(licences, new RegExp(`^${bundled} [0-9.]+ \\(`, 'm'));
  console.log(`package ${packed.filename}: ${(packed.size / 1024).toFixed(0)} KB packed, ` +
    `${(packed.unpackedSize / 1024).toFixed(0)} KB installed, ${packed.files.length} files`);
});

// The sizes the docs give the package ("about 2.8 MB packed and 8.7 MB
// installed", 1 MB = 1,000,000 bytes), within a tenth of the tarball's.
test('the package is the size the docs say', async () => {
  const page = (await readFile(new URL('../../docs/learning-and-teaching.md', import.meta.url), 'utf8')).replace(/\s+/g, ' ');
  const [, packedMB, installedMB] = /It is about ([\d.]+) MB packed and ([\d.]+) MB installed \(1 MB = 1,000,000 bytes\)/.exec(page) ?? [];
  assert.ok(packedMB && installedMB, 'the docs give the package\'s sizes');
  for (const [said, bytes, what] of [[packedMB, packed.size, 'packed'], [installedMB, packed.unpackedSize, 'installed']]) {
    assert.ok(Math.abs(Number(said) * 1e6 - bytes) <= 0.1 * bytes, `${what}: ${bytes} bytes, the docs say about ${said} MB`);
  }
});

test('imported from Node by its name, the JS API computes what dist/ computes', async () => {
  const script = `
    import { loadAttentionCore } from 'attention-lab';
    const core = await loadAttentionCore();
    const { x, y } = core.makeDataset({ n: 20, seed: 3 });
    const yHat = core.nadarayaWatson([0.5, 2.5], x, y, { kernel: 'boxcar', w: 2 });
    console.log(JSON.stringify({ yHat: [...yHat], element: import.meta.resolve('attention-lab/element') }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: scratch });
  const installed = JSON.parse(stdout);
  const core = await loadAttentionCore();
  const { x, y } = core.makeDataset({ n: 20, seed: 3 });
  assert.deepEqual(installed.yHat, [...core.nadarayaWatson([0.5, 2.5], x, y, { kernel: 'boxcar', w: 2 })]);
  assert.match(installed.element, /node_modules\/attention-lab\/attention-lab-element\.js$/);
});

async function typeCheck(file) {
  await writeFile(path.join(scratch, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: 'es2022', module: 'preserve', moduleResolution: 'bundler',
      lib: ['es2022', 'dom'], types: [],
    },
    files: [file],
  }));
  return run(process.execPath, [TSC, '-p', scratch]).then(() => ({ ok: true, output: '' }),
    (error) => ({ ok: false, output: `${error.stdout}${error.stderr}` }));
}

test('types: the consumer example type-checks, and each call marked as wrong fails without its marker', async () => {
  const started = performance.now();
  await copyFile(path.join(HERE, 'consumer.ts'), path.join(scratch, 'consumer.ts'));
  const checked = await typeCheck('consumer.ts');
  assert.ok(checked.ok, checked.output);
  console.log(`tsc --noEmit (strict) on the consumer example: no error, ${(performance.now() - started).toFixed(0)} ms`);

  // Without the markers, every marked line must be an error of its own.
  const source = await readFile(path.join(HERE, 'consumer.ts'), 'utf8');
  const markers = source.match(/^\s*\/\/ @ts-expect-error/gm).length;
  await writeFile(path.join(scratch, 'unmarked.ts'), source.replace(/\/\/ @ts-expect-error[^\n]*\n/g, ''));
  const unmarked = await typeCheck('unmarked.ts');
  assert.equal(unmarked.ok, false);
  const errors = unmarked.output.match(/error TS\d+/g) ?? [];
  assert.equal(errors.length, markers, unmarked.output);
});

test('bundled by esbuild into a course page, the element draws its section in Chromium', async () => {
  const site = path.join(scratch, 'site');
  await mkdir(site);
  await writeFile(path.join(scratch, 'page.js'), `
    import 'attention-lab/element';
    import { loadAttentionCore } from 'attention-lab';
    window.limits = loadAttentionCore().then((core) => core.limits);`);
  const bundled = await esbuild.build({
    absWorkingDir: scratch, entryPoints: ['page.js'], bundle: true, format: 'esm', outfile: path.join(site, 'page.js'),
    logLevel: 'silent',
  });
  assert.deepEqual(bundled.warnings, []);
  await writeFile(path.join(site, 'index.html'), `<!doctype html><html lang="en"><meta charset="utf-8"><title>A course</title>
    <script type="module" src="page.js"></script>
    <h1>Part 2: the weights</h1>
    <attention-lab section="pooling" kernel="boxcar" w="2" n="30" hide="estimator"></attention-lab>`);
  const server = await esbuild.context({ logLevel: 'silent' });
  const { port } = await server.serve({ servedir: site, host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForSelector('attention-lab[data-ready]', { state: 'attached', timeout: 30000 });
    const shown = await page.evaluate(async () => {
      const lab = document.querySelector('attention-lab');
      return {
        state: { kernel: lab.state.kernel, w: lab.state.w, n: lab.state.n },
        points: Number(lab.shadowRoot.querySelector('[data-figure="pooling"] .plot-canvas')?.dataset.points),
        estimatorHidden: lab.shadowRoot.querySelector('[data-param="estimator"]')?.checkVisibility() === false,
        maxPoints: (await window.limits).maxPoints,
      };
    });
    assert.deepEqual(shown, { state: { kernel: 'boxcar', w: 2, n: 30 }, points: 30, estimatorHidden: true, maxPoints: 10000 });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.dispose();
  }
});
