// What every browser test needs: Debian's Chromium driven by playwright-core,
// dist/ served over http by esbuild's own server, and a page whose console
// errors and requests are recorded from the first byte.
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import * as esbuild from 'esbuild';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { STORAGE_KEY, VERSION } from '../../web/src/exercises/progress-store.js';

export const DIST = path.resolve('dist');
export const FILE_URL = pathToFileURL(path.join(DIST, 'index.html')).href;
// The course page with two <attention-lab> elements and an iframe of the lab.
export const COURSE_FILE_URL = pathToFileURL(path.join(DIST, 'course-example.html')).href;
export const SCREENSHOTS = path.resolve('test-results', 'screenshots');

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run', '--disable-sync'],
  });
}

// Serves dist/ (or another build's folder) on a free port of the loopback interface.
export async function serveDist(folder = DIST) {
  const context = await esbuild.context({ logLevel: 'silent' });
  const { port } = await context.serve({ servedir: folder, host: '127.0.0.1', port: 0 });
  return { origin: `http://127.0.0.1:${port}`, close: () => context.dispose() };
}

// Serves dist/ as a real host does: gzipped (level 9, as the docs' sizes are
// measured) to a browser that accepts it, with each file's content type.
// esbuild's server sends no Content-Encoding, so the bytes a learner
// downloads are measured here (load-performance.test.mjs). `folder` may be
// a function giving the folder to serve now: a host that puts a new build
// in place (offline.test.mjs).
const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json',
};
export async function serveDistGzipped(folder = DIST) {
  const gzipped = new Map(); // file -> its gzipped bytes, made once
  const server = http.createServer(async (request, response) => {
    const name = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const root = typeof folder === 'function' ? folder() : folder;
    const file = path.join(root, name.endsWith('/') ? `${name}index.html` : name);
    if (!file.startsWith(`${root}${path.sep}`)) {
      response.writeHead(403).end();
      return;
    }
    let body;
    try {
      body = await readFile(file);
    } catch {
      response.writeHead(404).end();
      return;
    }
    const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    const headers = { 'content-type': type, 'cache-control': 'no-cache' };
    if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '') && type !== 'application/octet-stream') {
      if (!gzipped.has(file)) gzipped.set(file, gzipSync(body, { level: 9 }));
      body = gzipped.get(file);
      headers['content-encoding'] = 'gzip';
      headers.vary = 'Accept-Encoding';
    }
    response.writeHead(200, { ...headers, 'content-length': body.length }).end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      origin: `http://127.0.0.1:${server.address().port}`,
      close: () => new Promise((done) => {
        server.closeAllConnections();
        server.close(done);
      }),
    }));
  });
}

// Every prediction of the lab ("<section>.<id>"), and the page's progress
// with each of them made (its answer shown), written before the page runs
// unless the page already keeps progress (a reload keeps what a test did).
const PREDICTIONS = SECTIONS.flatMap(({ id, exercises = [] }) =>
  exercises.filter(({ kind }) => kind === 'predict').map((exercise) => `${id}.${exercise.id}`));

function predictionsMade({ key, version, names }) {
  try {
    if (localStorage.getItem(key) !== null) return;
    const made = Object.fromEntries(names.map((name) => [name, { status: 'revealed', attempts: 0, instance: 0 }]));
    localStorage.setItem(key, JSON.stringify({ version, exercises: made }));
  } catch {
    // No storage (a sandboxed frame): the predictions stay open there.
  }
}

// A page or context whose pages open with every prediction made.
export const makePredictions = (target) =>
  target.addInitScript(predictionsMade, { key: STORAGE_KEY, version: VERSION, names: PREDICTIONS });

// Opens a page in a fresh context and waits for `ready` (the page's
// html[data-ready]: the core is loaded and everything is drawn; the course
// page passes its elements' selector). `problems` collects console errors
// and warnings, uncaught exceptions and failed requests; `requests` every URL
// the page asked for; `dialogs` the message of every dialog (dismissed).
// `init`: a script run in the page before its own. `touch`: a phone's
// touch screen (touch events, mobile viewport and zoom) instead of a mouse.
// `cpuThrottle`: the CPU slowed down that many times (a school laptop's).
// `network`: { latency (ms), download, upload (bytes a second) }, a slow
// network emulated by DevTools (the latency added to every request).
// `predictions`: 'made' (the default) opens the page as a learner who has
// made every prediction, so no figure is covered and the figure tests see
// the figures; 'open' as a first visit, predictions open and their figures
// covered (the exercise tests).
export async function openPage(browser, url, {
  locale = 'en-US', viewport = { width: 1280, height: 900 }, colorScheme = 'light', permissions = [],
  ready = 'html[data-ready="true"]', init = null, touch = false, cpuThrottle = 1, predictions = 'made', network = null,
  routes = null,
} = {}) {
  const context = await browser.newContext({
    locale, viewport, colorScheme, acceptDownloads: true, hasTouch: touch, isMobile: touch,
  });
  if (permissions.length > 0) await context.grantPermissions(permissions);
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  const dialogs = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // A request the document's own reload or navigation cancels (net::ERR_ABORTED
  // for a request issued before that navigation began) is the browser's
  // housekeeping, not a failure: the new document asks again what it needs.
  let navigations = 0;
  const issuedAt = new WeakMap();
  page.on('request', (request) => {
    requests.push(request.url());
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations += 1;
    else issuedAt.set(request, navigations);
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText;
    const issued = issuedAt.get(request);
    if (error === 'net::ERR_ABORTED' && issued !== undefined && issued < navigations) return;
    problems.push(`request failed: ${request.url().slice(0, 120)} (${error})`);
  });
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  if (predictions === 'made') await makePredictions(page);
  if (init) await page.addInitScript(init);
  if (routes) await routes(context); // what the test serves in place of the server's
  if (cpuThrottle !== 1 || network) {
    const devtools = await context.newCDPSession(page);
    if (cpuThrottle !== 1) await devtools.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle });
    if (network) {
      await devtools.send('Network.enable');
      await devtools.send('Network.emulateNetworkConditions', {
        offline: false, latency: network.latency, downloadThroughput: network.download, uploadThroughput: network.upload,
      });
    }
  }
  await page.goto(url);
  if (ready) await page.waitForSelector(ready, { timeout: 30000, state: 'attached' });
  return { page, context, problems, requests, dialogs };
}

// The whole page, or only the element `selector` names (a new piece of a section).
export async function screenshot(page, name, selector = null) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
  return file;
}

// The state as the page's API sets it (as the URL would), then its redraw.
export async function setState(page, patch) {
  await page.evaluate((p) => window.attentionLab.set(p), patch);
  await settled(page);
}

// A language as the language buttons pick it.
export async function setLanguage(page, language) {
  await page.locator(`[data-param="language"] [data-value="${language}"]`).click();
  await settled(page);
}

// Sets a control's number box as a user would: type, then commit with Enter.
export async function typeInto(page, parameter, value) {
  const box = page.locator(`[data-param="${parameter}"] input[type="number"]`);
  await box.fill(String(value));
  await box.press('Enter');
}

// The value a control's number box shows.
export async function numberValue(page, parameter) {
  return Number(await page.locator(`[data-param="${parameter}"] input[type="number"]`).inputValue());
}

// Scrolls `locator`'s element into view and waits until the browser renders
// it: a section out of view is skipped (content-visibility: auto), and its
// text (innerText) and layout are there from the frame after it comes near.
export async function scrollToRendered(locator) {
  await locator.scrollIntoViewIfNeeded();
  const node = await locator.elementHandle();
  await locator.page().waitForFunction((element) => element.checkVisibility({ contentVisibilityAuto: true }), node);
  await node.dispose();
}

// The text of `locator`'s element as the learner reads it (innerText): a
// section out of view is not rendered (content-visibility: auto) and its
// innerText is empty, so an element skipped there is scrolled into view and
// read once drawn. An element hidden otherwise is read as it is.
export async function shownText(locator) {
  return (await locator.evaluate(readShownTexts))[0];
}

// The same for every element `locator` matches, in order.
export function shownTexts(locator) {
  return locator.evaluateAll(readShownTexts);
}

// Runs in the page: one node or an array of them.
async function readShownTexts(nodeOrNodes) {
  const nodes = [].concat(nodeOrNodes);
  const skipped = () => nodes.some((node) => node.checkVisibility() && !node.checkVisibility({ contentVisibilityAuto: true }));
  if (skipped()) nodes[0].scrollIntoView({ block: 'center', behavior: 'instant' });
  while (skipped()) await new Promise((resolve) => requestAnimationFrame(resolve));
  return nodes.map((node) => node.innerText);
}

// The text of `locator`'s element as shownText reads it, leaving out the
// parts `outside` (a selector) matches (a prediction's card, its covers):
// what a learner reads around them. `phrases` (optional) are looked for:
// for each found, where it shows, the catalogue key (data-i18n,
// data-i18n-rich, data-says) or role of the smallest shown elements
// saying it. Returns { text, found: { phrase: [places] } }.
export function shownTextOutside(locator, outside, phrases = []) {
  return locator.evaluate(readShownTextOutside, { outside, phrases });
}

// Runs in the page.
async function readShownTextOutside(node, { outside, phrases }) {
  const skipped = () => node.checkVisibility() && !node.checkVisibility({ contentVisibilityAuto: true });
  if (skipped()) node.scrollIntoView({ block: 'center', behavior: 'instant' });
  while (skipped()) await new Promise((resolve) => requestAnimationFrame(resolve));
  const left = [...node.querySelectorAll(outside)];
  const kept = left.map((part) => [part, part.style.getPropertyValue('display'), part.style.getPropertyPriority('display')]);
  for (const part of left) part.style.setProperty('display', 'none', 'important');
  try {
    const text = node.innerText;
    const found = {};
    const lower = text.toLowerCase();
    for (const phrase of phrases) {
      if (!lower.includes(phrase.toLowerCase())) continue;
      const sayers = [...node.querySelectorAll('[data-i18n], [data-i18n-rich], [data-says], [data-role], [data-figure], p, li, figcaption, td')]
        .filter((element) => element.innerText?.toLowerCase().includes(phrase.toLowerCase()));
      const smallest = sayers.filter((element) => !sayers.some((other) => other !== element && element.contains(other)));
      found[phrase] = smallest.map((element) => {
        const named = element.closest('[data-i18n], [data-i18n-rich], [data-says], [data-role], [data-figure]');
        const { i18n, i18nRich, says, role, figure } = named?.dataset ?? {};
        return i18n ?? i18nRich ?? says ?? (role && `role ${role}`) ?? (figure && `figure ${figure}`) ?? element.tagName.toLowerCase();
      });
    }
    return { text, found };
  } finally {
    for (const [part, value, priority] of kept) {
      if (value) part.style.setProperty('display', value, priority);
      else part.style.removeProperty('display');
    }
  }
}

// Resolves after the next redraw of the page has finished: two frames (the
// page draws in the first; the second starts after it), then the sections
// out of sight, which the page draws after the frame (attentionLab.drawn()).
export async function settled(page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    .then(() => window.attentionLab?.drawn()));
}

// Resolves once the studies the page has started (those near the screen)
// are done: a study's table and verdict change its panel's height, moving
// whatever is below it, so a click aimed meanwhile can land elsewhere.
// Two frames first: the panels' visibility is reported after a frame.
export async function studiesDone(page) {
  await settled(page);
  await page.evaluate(() => window.attentionLab.studiesDone());
}

// Resolves once the page's scroll is at rest: the same position over three
// frames. The page scrolls smoothly (scroll-behavior: smooth), so a focus or
// a jump moves it for a while, and a click aimed meanwhile can land elsewhere.
export async function scrollAtRest(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let still = 0;
    let last = window.scrollY;
    while (still < 3) {
      await frame();
      still = window.scrollY === last ? still + 1 : 0;
      last = window.scrollY;
    }
  });
}

// Resolves after `count` more animation frames of the page: a wait counted in
// the frames a run advances by or a transition draws in, never in wall time.
export async function afterFrames(page, count) {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
  }, count);
}

// The page's service worker is registered and activated (web/src/offline/).
export async function offlineWorkerActive(page) {
  await page.waitForSelector('html[data-offline="registered"]', { state: 'attached' });
  await page.evaluate(async () => {
    const worker = (await navigator.serviceWorker.ready).active;
    const activated = new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
    if (worker.state !== 'activated') await activated;
  });
}

// Every <attention-lab> of the page has drawn.
export async function elementsReady(page, count) {
  await page.waitForFunction((n) => {
    const labs = document.querySelectorAll('attention-lab');
    return labs.length >= n && [...labs].every((lab) => lab.hasAttribute('data-ready'));
  }, count, { timeout: 30000 });
}

// Requests that left the page's own place: not the serving origin (or the
// file system), not inline data, not the page's own blob: downloads.
export function foreignRequests(requests, origin) {
  return requests.filter((url) => !(origin ? url.startsWith(`${origin}/`) : url.startsWith('file://')) &&
    !url.startsWith('data:') && !url.startsWith('blob:'));
}

// Loads the core API straight from dist/ into the page (http only) as
// window.directCore, a second instance beside the page's own, to compare what
// the page shows with a direct call.
export async function loadDirectCore(page) {
  await page.evaluate(async () => {
    const { loadAttentionCore } = await import('/attention-core.mjs');
    window.directCore = await loadAttentionCore();
  });
}

// One browser and server for a whole test file: `serve` starts the server
// (dist/ by default); `opened` is awaited with { browser, server } before the
// first test (node:test may start a file's other top-level `before` hooks
// without waiting for this one); `report`, a [file name, object] pair, is
// written to test-results/ after the last test (ctest hides the output of
// passing tests).
export function useBrowser({ serve = serveDist, opened = () => {}, report = null } = {}) {
  const shared = {};
  before(async () => {
    shared.browser = await launchBrowser();
    shared.server = await serve();
    await opened(shared);
  });
  after(async () => {
    await shared.browser?.close();
    await shared.server?.close();
    if (report) {
      const [name, figures] = report;
      await mkdir('test-results', { recursive: true });
      await writeFile(path.join('test-results', name), `${JSON.stringify(figures, null, 2)}\n`);
    }
  });
  return shared;
}

// One browser, server and page for a whole test file: opened before its first
// test, closed after its last. `section`: scrolled into view; `directCore`:
// the page also gets its own core instance for direct comparisons; `opened`
// receives { page, problems, ... } (node:test may start a file's other
// top-level `before` hooks without waiting for this one); `predictions` as
// openPage's.
export function usePage({ section = null, directCore = false, predictions = 'made', opened = () => {} } = {}) {
  const lab = {};
  before(async () => {
    lab.browser = await launchBrowser();
    lab.server = await serveDist();
    Object.assign(lab, await openPage(lab.browser, `${lab.server.origin}/`, { predictions }));
    if (directCore) await loadDirectCore(lab.page);
    if (section) {
      await lab.page.locator(section).scrollIntoViewIfNeeded();
      await studiesDone(lab.page);
    }
    opened(lab);
  });
  after(async () => {
    await lab.context?.close();
    await lab.browser?.close();
    await lab.server?.close();
  });
  return lab;
}

// An init script (before the page's own): counts the animation frames the
// top page asks for in window.__frames; window.__uncountedFrame is the
// test's own clock, which the count leaves out.
export function countFrames() {
  if (window !== window.top) return;
  window.__frames = 0;
  const request = window.requestAnimationFrame.bind(window);
  window.__uncountedFrame = request;
  window.requestAnimationFrame = (callback) => {
    window.__frames += 1;
    return request(callback);
  };
}
