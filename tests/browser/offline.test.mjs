// The service worker (web/src/offline/): over http a second visit comes from
// the cache of the build the page started with, and works with the network
// off; a new build on the host never mixes with the old one in a page (it
// takes over, whole, on the next load); a host that opts out removes the
// worker; and the pages that never register one (the element and the
// iframe mode of the course page, #embed=, file://, the SCORM package, the
// notebook) do not. The page has an app manifest with icons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFile, cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { useBrowser, openPage, serveDistGzipped, elementsReady, offlineWorkerActive, DIST, FILE_URL } from './harness.mjs';
import { offlineBuild, writeOfflineWorker, OFFLINE_WORKER } from '../../web/build-steps/offline-worker.mjs';
import { launchPage, SCORM_FOLDER, SCORM_SCRIPT } from '../../web/build-steps/scorm-package.mjs';
import { SECTION_IDS } from '../../web/src/sections/section-loaders.js';

const web = useBrowser({ serve: serveDistGzipped });
const copies = {};
before(async () => {
  copies.folder = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-builds-'));
});
after(() => rm(copies.folder, { recursive: true, force: true }));

// Once a new build's worker is installed and waits.
async function workerWaiting(page) {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    while (registration.waiting?.state !== 'installed') {
      await new Promise((resolve) => {
        registration.addEventListener('updatefound', resolve, { once: true });
        registration.installing?.addEventListener('statechange', resolve, { once: true });
      });
    }
  });
}

async function reloaded(page) {
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
}

// The version of the build whose worker controls the page, or null.
const controllingBuild = (page) => page.evaluate(() => new Promise((resolve) => {
  const worker = navigator.serviceWorker.controller;
  if (!worker) resolve(null);
  const channel = new MessageChannel();
  channel.port1.onmessage = ({ data }) => resolve(data);
  worker.postMessage('version', [channel.port2]);
}));

// Every section drawn: its title and a figure.
async function assertEverySectionDrawn(page, label) {
  const drawn = await page.evaluate((ids) => ids.map((id) => {
    const section = document.getElementById(id);
    return [id, Boolean(section?.querySelector('.section-title')?.textContent.trim()), Boolean(section?.querySelector('svg:not(.logo), canvas'))];
  }), SECTION_IDS);
  for (const [id, titled, figured] of drawn) assert.ok(titled && figured, `${label}: ${id} is drawn (title ${titled}, figure ${figured})`);
  assert.equal(await page.locator('#loading').isVisible(), false, `${label}: the loading line is gone`);
}

test('a second visit comes from the service worker, and works with the network off', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  await offlineWorkerActive(page);
  assert.equal(await controllingBuild(page), null, 'the first visit stays with the network: no worker takes it over half-way');
  await reloaded(page);
  const { version } = await offlineBuild(DIST);
  assert.equal(await controllingBuild(page), version, 'the second visit: the worker of this build controls the page');

  const responses = [];
  page.on('response', (response) => responses.push(response));
  await context.setOffline(true);
  await reloaded(page);
  await assertEverySectionDrawn(page, 'offline');
  // Still answering: a control redraws from the core.
  const formula = page.locator('[data-role="query-formula"]');
  const was = await formula.textContent();
  await page.evaluate(() => window.attentionLab.set({ w: 3.5 }));
  await page.waitForFunction((old) => document.querySelector('[data-role="query-formula"]').textContent !== old, was);
  const own = responses.filter((response) => response.url().startsWith(web.server.origin));
  assert.ok(own.length > 20, `the page's files were asked for (${own.length})`);
  assert.deepEqual(own.filter((response) => !response.fromServiceWorker()).map((response) => response.url()), [], 'every file from the worker');
  assert.deepEqual(problems, [], 'no console error, no failed request');
  await context.close();
});

// A copy of dist/ changed in `change` and made a build of its own (its worker's version and files).
async function buildCopy(name, change) {
  const folder = path.join(copies.folder, name);
  await cp(DIST, folder, { recursive: true });
  await change(folder);
  return { folder, ...(await writeOfflineWorker(folder)) };
}

// Another build: the page's HTML, its CSS and its entry module changed, as a new release changes them.
const marked = (label) => async (folder) => {
  const entry = (await readdir(path.join(folder, 'page'))).find((name) => /^page-\w+\.js$/.test(name));
  await appendFile(path.join(folder, 'index.html'), `<!-- build ${label} -->\n`);
  await appendFile(path.join(folder, 'app.css'), `:root{--build:"${label}"}\n`);
  await appendFile(path.join(folder, 'page', entry), `// build ${label}\n`);
};

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// Every file the page now shows came, byte for byte, from `build`: the
// document and each resource it loaded (the last response for each address).
async function assertRunsOneBuild(page, responses, build, label) {
  const origin = new URL(page.url()).origin;
  const loaded = await page.evaluate(() => [location.href.split('#')[0], ...performance.getEntriesByType('resource').map(({ name }) => name)]);
  const expected = new Map(build.files.map(({ file, sha256: hash }) => [`${origin}/${file}`, hash]));
  expected.set(`${origin}/`, expected.get(`${origin}/index.html`));
  const last = new Map(responses.map((response) => [response.url(), response]));
  const ours = loaded.filter((url) => expected.has(url));
  assert.ok(ours.length > 20, `${label}: the page's files were loaded (${ours.length})`);
  for (const url of ours) {
    const response = last.get(url);
    assert.ok(response, `${label}: ${url} was answered`);
    assert.equal(sha256(await response.body()), expected.get(url), `${label}: ${url} is the file of build ${build.version}`);
  }
  const marker = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--build').trim());
  return marker;
}

test('an update between two builds: a page runs one build whole, the new one takes over on the next load', async () => {
  const a = await buildCopy('a', marked('A'));
  const b = await buildCopy('b', marked('B'));
  assert.notEqual(a.version, b.version);
  let serving = a.folder;
  const server = await serveDistGzipped(() => serving);
  const { page, context, problems } = await openPage(web.browser, `${server.origin}/`);
  const responses = [];
  page.on('response', (response) => responses.push(response));
  try {
    await offlineWorkerActive(page);
    await reloaded(page);
    assert.equal(await controllingBuild(page), a.version, 'build A\'s worker controls the page');

    // The host puts build B in place. The next load is still build A, whole, from its cache;
    // build B's worker installs beside it and waits.
    serving = b.folder;
    responses.length = 0;
    await reloaded(page);
    assert.equal(await assertRunsOneBuild(page, responses, a, 'the load after the host changed'), '"A"');
    await workerWaiting(page);
    assert.equal(await controllingBuild(page), a.version, 'build A\'s worker still controls the page');

    // The next load: build B's worker takes over before the page runs, and the page is build B's, whole.
    responses.length = 0;
    const requested = [];
    const record = (request) => requested.push(request);
    page.on('request', record);
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === 'true' &&
      getComputedStyle(document.documentElement).getPropertyValue('--build').trim() !== '"A"', null, { timeout: 60000 });
    page.off('request', record);
    // Until B's page is asked for, build A's page asks for nothing past its
    // first files: a request reaching A's worker then would keep it running,
    // and B's from taking over, for minutes (Chromium activates B when A idles).
    const navigations = requested.flatMap((request, index) => (request.isNavigationRequest() ? [index] : []));
    assert.equal(navigations.length, 2, 'two loads: build A\'s page, then build B\'s');
    const askedByA = requested.slice(navigations[0] + 1, navigations[1]).map((request) => new URL(request.url()).pathname);
    assert.deepEqual(askedByA.filter((file) => /\.(wasm|mjs)$|^\/page\//.test(file)), [],
      `build A's page waits for the take-over before its modules and wasm (it asked for ${askedByA.join(', ')})`);
    assert.equal(await controllingBuild(page), b.version, 'build B\'s worker controls the page');
    assert.equal(await assertRunsOneBuild(page, responses, b, 'the next load'), '"B"');
    assert.deepEqual(await page.evaluate(() => caches.keys()), [`attention-lab-${b.version}`], 'build A\'s cache is gone');
    await assertEverySectionDrawn(page, 'build B');

    // The host opts out (build C: B with the meta off): once C runs, the worker and its caches are removed.
    const c = await buildCopy('c', async (folder) => {
      const html = await readFile(path.join(folder, 'index.html'), 'utf8');
      await writeFile(path.join(folder, 'index.html'), html.replace('name="attention-lab:offline" content="on"', 'name="attention-lab:offline" content="off"'));
    });
    serving = c.folder;
    await reloaded(page);
    await workerWaiting(page);
    await page.reload();
    await page.waitForSelector('html[data-offline="host-opted-out"]', { state: 'attached', timeout: 60000 });
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0, 'no worker is left');
    assert.deepEqual(await page.evaluate(() => caches.keys()), [], 'no cache of the lab is left');
    // A take-over reloads the page while its first load may still fetch the
    // sections' code: those requests are cancelled, as on any reload.
    const cancelledByReload = (problem) => /^request failed: .*\(net::ERR_ABORTED\)$/.test(problem);
    assert.deepEqual(problems.filter((problem) => !cancelledByReload(problem)), [], 'no console error, no failed request');
  } finally {
    await context.close();
    await server.close();
  }
});

test('a build whose files do not match its worker (a host half-way through an update) is never installed', async () => {
  const a = await buildCopy('half-a', marked('A'));
  const b = await buildCopy('half-b', marked('B'));
  // B's worker, with build A's files beside it: the install finds A's bytes and fails; the page keeps A.
  const half = path.join(copies.folder, 'half');
  await cp(a.folder, half, { recursive: true });
  await cp(path.join(b.folder, OFFLINE_WORKER), path.join(half, OFFLINE_WORKER));
  let serving = a.folder;
  const server = await serveDistGzipped(() => serving);
  const { page, context } = await openPage(web.browser, `${server.origin}/`);
  try {
    await offlineWorkerActive(page);
    serving = half;
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      window.installFailed = new Promise((resolve) => {
        registration.addEventListener('updatefound', () => {
          const worker = registration.installing;
          worker.addEventListener('statechange', () => worker.state === 'redundant' && resolve(true));
        });
      });
      await registration.update().catch(() => {});
    });
    assert.equal(await page.evaluate(() => window.installFailed), true, 'build B\'s worker became redundant');
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).active.scriptURL.endsWith('/offline-worker.js')), true);
    assert.deepEqual(await page.evaluate(() => caches.keys()), [`attention-lab-${a.version}`], 'only build A\'s cache, nothing half-filled');
    await reloaded(page);
    assert.equal(await controllingBuild(page), a.version, 'build A still controls the page');
  } finally {
    await context.close();
    await server.close();
  }
});

test('the element and the iframe mode, #embed= and file:// register no worker', async () => {
  const course = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(course.page, 2);
  const frame = course.page.frameLocator('iframe').first();
  await frame.locator('html[data-offline]').waitFor({ state: 'attached', timeout: 30000 });
  assert.equal(await frame.locator('html').getAttribute('data-offline'), 'framed', 'the iframe of the lab refuses');
  assert.deepEqual(await course.page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0, 'the course page: none');
  assert.deepEqual(course.requests.filter((url) => url.endsWith(OFFLINE_WORKER)), []);
  assert.deepEqual(course.problems, []);
  await course.context.close();

  const embed = await openPage(web.browser, `${web.server.origin}/#embed=pooling`);
  await embed.page.waitForSelector('html[data-offline]', { state: 'attached' });
  assert.equal(await embed.page.locator('html').getAttribute('data-offline'), 'embedded');
  assert.equal(await embed.page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0, '#embed=: none');
  assert.deepEqual(embed.requests.filter((url) => url.endsWith(OFFLINE_WORKER)), []);
  await embed.context.close();

  const disk = await openPage(web.browser, FILE_URL);
  assert.equal(await disk.page.locator('html').getAttribute('data-offline'), null, 'from disk the question is not even asked');
  assert.deepEqual(disk.requests.filter((url) => url.endsWith(OFFLINE_WORKER)), []);
  await disk.context.close();
});

test('the element, the notebook, the disk page and the SCORM package carry no worker', async () => {
  const scripts = ['attention-lab-element.js', 'app-disk.js', path.join(SCORM_FOLDER, SCORM_SCRIPT),
    path.join('python', 'attention_lab', 'attention-lab-element.js')];
  for (const file of scripts) {
    const code = await readFile(path.join(DIST, file), 'utf8').catch(() => null);
    assert.ok(code, `${file} is built`);
    assert.doesNotMatch(code, /serviceWorker/, `${file}: no service worker`);
  }
  const launch = launchPage(await readFile(path.join(DIST, 'index.html'), 'utf8'), { version: '1.2', sectionIds: SECTION_IDS });
  assert.doesNotMatch(launch, /attention-lab:offline|rel="manifest"/, 'the SCORM page: no opt-in, no manifest');
});

test('installable as an app: the browser reads the manifest; its icons are PNGs of the sizes it names', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  await offlineWorkerActive(page);
  const devtools = await context.newCDPSession(page);
  const { errors, data } = await devtools.send('Page.getAppManifest');
  assert.deepEqual(errors, [], 'the manifest parses');
  const manifest = JSON.parse(data);
  assert.equal(manifest.name, 'Attention Lab');
  assert.equal(manifest.display, 'standalone');
  assert.equal(new URL(manifest.start_url, page.url()).href, `${web.server.origin}/`, 'it starts at the page');
  for (const { src, sizes, type } of manifest.icons.filter((icon) => icon.type === 'image/png')) {
    const png = await readFile(path.join(DIST, src));
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.equal(`${width}x${height}`, sizes, `${src}: its size`);
    assert.equal(type, 'image/png');
  }
  assert.deepEqual(problems, []);
  await context.close();
});
