// Strict Content-Security-Policy: dist/ served by a plain HTTP
// server that sends the policy below as a header (the way a host would
// serve the site), with the pages' own meta policies left in place (both
// apply: a load must pass each). Every section is exercised through its
// controls and buttons, a training run is played, every figure kind is
// exported (PNG, SVG, CSV) and the PyTorch snippets copied and shown, the
// language switched, the iframe mode and the course page (the
// <attention-lab> element in Shadow DOM and an iframe) used the same way.
// No securitypolicyviolation event may fire in any frame, and no console
// error or warning appear. Last checks prove the watch works: script text and
// HTML from strings (Trusted Types), eval and new Function (script-src, in a
// page of the site's own), and an inline style attribute in a shadow root
// are refused and reported; wasm still compiles.
// Static checks: the shipped meta policies allow no eval, no inline code and
// no HTML from strings, and the HTML and the bundles hold no eval or inline code;
// the header docs/learning-and-teaching.md tells a host to send is this one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, DIST, elementsReady, makePredictions, offlineWorkerActive, afterFrames, scrollToRendered } from './harness.mjs';
import { downloadOf } from './downloads.mjs';

// The header: the policy docs/learning-and-teaching.md ("Hosting: the
// Content-Security-Policy") tells a host to send, and nothing else allowed
// either. data: only for what is inlined (the element's wasm, fetched by
// Emscripten's loader; KaTeX's fonts) or made in the page (figure export
// draws an SVG data: image); connect-src 'self' for the page's own wasm file.
// Trusted Types on top: no string becomes HTML or script, and each policy
// allowed makes one script URL only: attention-lab-core the wasm's copy for
// a page opened from disk, attention-lab-boot the page as one script from
// disk or, over http, the service worker's (registered once the page is
// drawn: the test waits for it). manifest-src 'self': the app manifest.
const BASE_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  'font-src data:',
  'img-src data:',
  "connect-src 'self' data:",
  "manifest-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
];
const TRUSTED_TYPES = ["require-trusted-types-for 'script'", 'trusted-types attention-lab-core attention-lab-boot'];
const POLICY = [...BASE_POLICY, ...TRUSTED_TYPES].join('; ');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm',
};

// A script of the site's own origin, loaded by a page of its own, that tries
// eval and new Function (the watch's control: both must be refused and
// reported).
const PROBE = `window.__probe = {};
for (const [kind, run] of [['eval', () => eval('1 + 1')], ['Function', () => new Function('return 1')()]]) {
  try { run(); window.__probe[kind] = 'ran'; } catch (error) { window.__probe[kind] = error.name; }
}`;

// dist/ over HTTP with the policy on every response (and the probe script).
function serveWithPolicy() {
  const server = http.createServer(async (request, response) => {
    const name = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    if (name === '/__csp-probe.js' || name === '/__csp-probe.html') {
      const html = name.endsWith('.html');
      // Without Trusted Types, which would refuse eval first: script-src must refuse it by itself.
      response.writeHead(200, { 'content-type': html ? 'text/html' : 'text/javascript', 'content-security-policy': BASE_POLICY.join('; ') })
        .end(html ? '<!doctype html><title>probe</title><script src="/__csp-probe.js"></script>' : PROBE);
      return;
    }
    const file = path.join(DIST, name.endsWith('/') ? `${name}index.html` : name);
    if (!file.startsWith(`${DIST}${path.sep}`)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-security-policy': POLICY,
        'x-content-type-options': 'nosniff',
      });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-security-policy': POLICY }).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      origin: `http://127.0.0.1:${server.address().port}`,
      close: () => new Promise((done) => server.close(done)),
    }));
  });
}

const web = useBrowser({ serve: serveWithPolicy });

// Runs in every frame before the page's own scripts: records each violation
// (composed events: those from shadow roots reach the document too).
function watchViolations() {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__violations.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
  }, true);
}

async function openStrict(url, ready) {
  const context = await web.browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.server.origin });
  await context.addInitScript(watchViolations);
  await makePredictions(context); // every figure in view, none covered by an open prediction
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url().slice(0, 100)}`));
  const response = await page.goto(`${web.server.origin}${url}`);
  assert.equal(response.headers()['content-security-policy'], POLICY, `${url} is served with the policy`);
  await page.waitForSelector(ready, { state: 'attached', timeout: 30000 });
  return { context, page, problems };
}

// Every frame's violations (the course page's iframe is a document of its own).
async function violations(page) {
  const all = [];
  for (const frame of page.frames()) {
    const list = await frame.evaluate(() => window.__violations ?? ['(no watch in this frame)']).catch(() => []);
    all.push(...list.map((entry) => `${frame.url().replace(web.server.origin, '')}: ${entry}`));
  }
  return all;
}

// In the page (or a shadow root of it): every control of `root` changed once
// as a user would (slider to a new position, each choice, each switch, a
// number box), every button but Play and the copy ones clicked, one frame
// after each.
async function exerciseControls(page, hostId = null) {
  return page.evaluate(async (host) => {
    const root = host ? document.getElementById(host).shadowRoot : document;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const actions = {};
    const count = (node, n = 1) => {
      const id = node.closest('section')?.id ?? 'page';
      actions[id] = (actions[id] ?? 0) + n;
    };
    const usable = (node) => !node.closest('[inert], .is-disabled') && !node.disabled && node.getClientRects().length > 0;
    for (const control of root.querySelectorAll('[data-param]')) {
      if (!usable(control)) continue;
      for (const range of control.querySelectorAll('input[type="range"]')) {
        for (const position of [Number(range.max), Number(range.min), Math.round((Number(range.max) + Number(range.min)) / 3)]) {
          range.value = String(position);
          range.dispatchEvent(new Event('input', { bubbles: true }));
          count(control);
          await frame();
        }
      }
      for (const button of control.querySelectorAll('[role="radio"]')) {
        if (!usable(button)) continue;
        button.click();
        count(control);
        await frame();
      }
      const toggle = control.querySelector('input[type="checkbox"]');
      if (toggle && usable(toggle)) {
        toggle.click();
        await frame();
        toggle.click();
        count(control, 2);
        await frame();
      }
      const box = control.querySelector('input[type="number"]');
      if (box && !control.querySelector('input[type="range"]') && usable(box)) {
        box.value = String(Number(box.value) + 1);
        box.dispatchEvent(new Event('change', { bubbles: true }));
        count(control);
        await frame();
      }
    }
    // (An exercise's "Try another" would leave a prediction open, its figures
    // covered for the export below; its Show answer, clicked, uncovers them.)
    for (const button of root.querySelectorAll('button[data-action]')) {
      if (['play', 'copy-pytorch', 'another'].includes(button.dataset.action) || !usable(button)) continue;
      button.click();
      count(button);
      await frame();
    }
    // The heads' own switches, and a few scores typed into masked softmax's editor.
    for (const input of root.querySelectorAll('.head-card input[type="checkbox"]')) {
      if (!usable(input)) continue;
      input.click();
      count(input);
      await frame();
    }
    for (const details of root.querySelectorAll('details.score-editor')) details.open = true;
    for (const input of [...root.querySelectorAll('.score-input')].slice(0, 3)) {
      input.value = '2.5';
      input.dispatchEvent(new Event('change', { bubbles: true }));
      count(input);
      await frame();
    }
    return actions;
  }, hostId);
}

// Hovers over every canvas heatmap and plane of the view (readouts, markers).
async function hoverFigures(page, scope) {
  const targets = scope.locator('canvas, [data-figure="pipeline-plane"] svg');
  const count = await targets.count();
  for (let i = 0; i < count; i += 1) {
    const target = targets.nth(i);
    if (!(await target.isVisible())) continue;
    await scrollToRendered(target);
    const box = await target.boundingBox();
    if (box) await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
  }
  await page.mouse.move(0, 0);
}

// PNG, SVG and CSV (where offered) of the first figure of each section in
// `scope`: line plots, canvas heatmaps, matrices, the pipeline's plane.
async function exportEachSection(page, scope) {
  const saved = [];
  const sections = scope.locator('section');
  for (let i = 0; i < await sections.count(); i += 1) {
    // A covered figure's menu is under its cover (a prediction): the first uncovered one.
    const figure = sections.nth(i).locator('[data-exportable]:not([data-covered]):not(:has([data-covered])):not([data-covered] *)').first();
    if ((await figure.count()) === 0 || !(await figure.isVisible())) continue;
    await figure.scrollIntoViewIfNeeded();
    const menu = figure.locator('.figure-export').first();
    for (const format of ['png', 'svg', 'csv']) {
      const button = menu.locator(`[data-export="${format}"]`);
      if ((await button.count()) === 0) continue;
      if (!(await menu.evaluate((details) => details.open))) await menu.locator('summary').click();
      const { name, bytes } = await downloadOf(page, button);
      assert.ok(bytes.length > 0, `${name} is not empty`);
      saved.push(name);
    }
    await menu.locator('summary').click(); // closed again
  }
  return saved;
}

async function playTraining(scope) {
  await scope.locator('#training [data-action="play"]').click();
  await scope.locator('#training [data-role="status"][data-status="done"]').waitFor({ state: 'attached', timeout: 60000 });
}

test('the lab under the strict policy header: every section, training, export, copy and language, with no violation', async () => {
  const { context, page, problems } = await openStrict('/', 'html[data-ready="true"]');
  // The service worker registers under the header; the page is used as its worker serves it (the worker's responses keep the header).
  await offlineWorkerActive(page);
  assert.deepEqual(await violations(page), [], 'no violation registering the worker');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 30000 });
  assert.equal(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), true, 'the page comes from its worker');
  // Each section seen once (the scaling study starts when its panel is).
  for (const id of await page.locator('main > section').evaluateAll((nodes) => nodes.map((node) => node.id))) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  }
  const actions = await exerciseControls(page);
  for (const id of ['data', 'pooling', 'heatmap', 'training', 'pipeline', 'masking', 'scoring', 'multihead', 'positional']) {
    assert.ok(actions[id] >= 3, `${id}: ${actions[id]} actions`);
  }
  await page.locator('#scoring').scrollIntoViewIfNeeded();
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { state: 'attached', timeout: 60000 });
  await page.locator('#training').scrollIntoViewIfNeeded();
  await page.locator('#training [data-action="reset"]').click();
  await playTraining(page);
  await hoverFigures(page, page.locator('main'));
  const saved = await exportEachSection(page, page.locator('main'));
  assert.ok(saved.some((name) => name.endsWith('.png')) && saved.some((name) => name.endsWith('.csv')), saved.join(', '));
  // Copy as PyTorch (the clipboard) and the code shown on request.
  for (const section of ['pooling', 'training']) {
    await page.locator(`#${section} [data-action="copy-pytorch"]`).click();
    await page.locator(`#${section} .code-details summary`).click();
  }
  assert.match(await page.evaluate(() => navigator.clipboard.readText()), /import torch/);
  // Both languages (KaTeX in the translated prose), then back.
  await page.locator('header [data-param="language"] [data-value="zh"]').click();
  await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'));
  await page.locator('header [data-param="language"] [data-value="en"]').click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  console.log(`lab page: ${JSON.stringify(actions)} control changes and clicks per section; ${saved.length} files exported (${saved.join(', ')})`);
  assert.deepEqual(await violations(page), [], 'no violation');
  assert.deepEqual(problems, [], 'no console error or warning');

  // The watch itself works: script text and HTML from strings are refused
  // (Trusted Types) and reported; WebAssembly compiles ('wasm-unsafe-eval').
  const control = await page.evaluate(async () => {
    window.__violations.length = 0;
    const refused = (run) => {
      try {
        run();
        return false;
      } catch (error) {
        return error instanceof TypeError;
      }
    };
    const inline = document.createElement('script');
    const inlineText = refused(() => { inline.textContent = 'window.__inlineRan = true;'; });
    const html = refused(() => { document.createElement('div').innerHTML = '<b>markup</b>'; });
    const wasm = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => true, () => false);
    // Violation events are queued: both refusals' reports arrived.
    while (window.__violations.length < 2) await new Promise((resolve) => requestAnimationFrame(resolve));
    return { inlineText, html, wasm, reported: [...new Set(window.__violations.map((v) => v.split(' ')[0]))].sort() };
  });
  // A script of the site's own, loaded by a page of it, tries eval.
  await page.goto(`${web.server.origin}/__csp-probe.html`);
  await page.waitForFunction(() => window.__probe?.Function);
  await page.waitForFunction(() => window.__violations.some((v) => v.startsWith('script-src '))); // its report, queued
  control.probe = await page.evaluate(() => window.__probe);
  control.probeReported = [...new Set(await page.evaluate(() => window.__violations.map((v) => v.split(' ')[0])))];
  assert.equal(control.inlineText, true, 'script text from a string is refused (Trusted Types)');
  assert.equal(control.html, true, 'an HTML string is refused (Trusted Types)');
  assert.deepEqual(control.probe, { eval: 'EvalError', Function: 'EvalError' }, 'eval and new Function are refused');
  assert.equal(control.wasm, true, 'WebAssembly compiles');
  assert.deepEqual(control.reported, ['require-trusted-types-for'], 'and reported');
  assert.deepEqual(control.probeReported, ['script-src'], 'and reported');
  problems.length = 0; // the refusals' console errors were the point
  await context.close();
});

test('the iframe mode under the strict policy header: embedded sections, training and export, with no violation', async () => {
  for (const view of ['training&hide=seed&epochs=8', 'multihead', 'masking']) {
    const { context, page, problems } = await openStrict(`/index.html#embed=${view}`, 'html[data-ready="true"]');
    const id = view.split('&')[0];
    assert.ok((await exerciseControls(page))[id] >= 3, `${view}: exercised`);
    if (id === 'training') {
      await page.locator('#training [data-action="reset"]').click();
      await playTraining(page);
    }
    await hoverFigures(page, page.locator(`#${id}`));
    const saved = await exportEachSection(page, page.locator('main'));
    assert.ok(saved.length >= 2, `${view}: ${saved.join(', ')}`);
    assert.deepEqual(await violations(page), [], `${view}: no violation`);
    assert.deepEqual(problems, [], `${view}: no console error or warning`);
    await context.close();
  }
});

test('the course page under the strict policy header: elements in Shadow DOM and the iframe, with no violation', async () => {
  const { context, page, problems } = await openStrict('/course-example.html', 'attention-lab');
  await elementsReady(page, 2);
  for (const id of ['lab-pooling', 'lab-heatmap']) {
    const actions = await exerciseControls(page, id);
    assert.ok(Object.values(actions).reduce((a, b) => a + b, 0) >= 3, `${id}: ${JSON.stringify(actions)}`);
    await hoverFigures(page, page.locator(`#${id}`));
    const saved = await exportEachSection(page, page.locator(`#${id}`));
    assert.ok(saved.length >= 2, `${id}: ${saved.join(', ')}`);
  }
  // An element switching section and language rebuilds in its shadow root.
  await page.evaluate(() => document.getElementById('lab-pooling').setAttribute('section', 'positional'));
  await page.waitForFunction(() => document.getElementById('lab-pooling').shadowRoot.querySelector('[data-figure="pe-heatmap"], canvas'));
  await page.evaluate(() => document.getElementById('lab-heatmap').setAttribute('language', 'zh'));
  await elementsReady(page, 2);
  // The iframe: the lab's own page, embedded; train in it.
  const frame = page.frameLocator('#frame-training');
  await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30000 });
  await frame.locator('#training [data-action="reset"]').click();
  await playTraining(frame);
  await afterFrames(page, 10); // a violation's report is queued as a task
  const found = await violations(page);
  assert.equal(page.frames().length, 2, 'the page and its iframe were both watched');
  assert.deepEqual(found, [], 'no violation in the page, its shadow roots or its iframe');
  assert.deepEqual(problems, [], 'no console error or warning');
  // The watch sees into shadow roots: an inline style attribute there is refused and reported.
  const reported = await page.evaluate(async () => {
    document.getElementById('lab-heatmap').shadowRoot.querySelector('h2').setAttribute('style', 'color: red');
    // Reported once by each policy (queued events): both arrived, then ten frames for any other.
    while (window.__violations.length < 2) await new Promise((resolve) => requestAnimationFrame(resolve));
    for (let i = 0; i < 10; i += 1) await new Promise((resolve) => requestAnimationFrame(resolve));
    return window.__violations.map((v) => v.split(' ')[0]);
  });
  assert.deepEqual(reported, ['style-src-attr', 'style-src-attr'], 'once by each policy: the header and the page\'s meta');
  await context.close();
});

test('the header the hosting docs tell a host to send is the policy tested here', async () => {
  const page = await readFile(new URL('../../docs/learning-and-teaching.md', import.meta.url), 'utf8');
  const documented = [...page.matchAll(/^Content-Security-Policy: (.+)$/gm)].map((match) => match[1]);
  assert.deepEqual(documented, [POLICY]);
});

test('the shipped pages: meta policies with no eval and no inline code, and none in the HTML or the bundles', async () => {
  const files = await readdir(DIST);
  const pages = files.filter((file) => file.endsWith('.html'));
  assert.ok(pages.includes('index.html') && pages.includes('course-example.html'));
  for (const file of pages) {
    const html = await readFile(path.join(DIST, file), 'utf8');
    const metas = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/g)];
    assert.equal(metas.length, 1, `${file}: one meta policy`);
    const directives = Object.fromEntries(metas[0][1].split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
    assert.deepEqual(directives['default-src'], ["'none'"], `${file}: default-src 'none'`);
    assert.deepEqual([...directives['script-src']].sort(), ["'self'", "'wasm-unsafe-eval'", 'file:'].sort(), `${file}: script-src`);
    assert.deepEqual([...directives['style-src']].sort(), ["'self'", 'file:'].sort(), `${file}: style-src, no 'unsafe-inline'`);
    assert.deepEqual(directives['require-trusted-types-for'], ["'script'"], `${file}: Trusted Types`);
    // Script URLs for a page opened from disk (the page, or the element, as one classic script;
    // the wasm's copy; the training worker's blob: URL) and the service worker's.
    assert.deepEqual(directives['trusted-types'], ['attention-lab-core', 'attention-lab-boot'], `${file}: the policies allowed`);
    // The training worker beside the page, or from a blob: URL (made from its text), and no other blob: source.
    assert.deepEqual(directives['worker-src'], ["'self'", 'blob:'], `${file}: worker-src`);
    for (const [name, sources] of Object.entries(directives)) {
      for (const source of sources) {
        assert.doesNotMatch(source, /^'unsafe-|^\*|^https?:/, `${file}: ${name} ${source}`);
        if (source === 'blob:') assert.equal(name, 'worker-src', `${file}: blob: only for the training worker (${name})`);
        if (source === 'data:') assert.ok(['font-src', 'img-src', 'connect-src'].includes(name), `${file}: data: only for fonts, images and the wasm (${name})`);
      }
    }
    // No inline script, event handler attribute or style attribute.
    for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
      assert.match(attributes, /\ssrc=/, `${file}: every script has a src`);
      assert.equal(body.trim(), '', `${file}: no inline script`);
    }
    assert.doesNotMatch(html.replace(/<pre>[\s\S]*?<\/pre>/g, ''), /\son[a-z]+=|\sstyle=/i, `${file}: no inline handlers or styles`);
  }
  // Nothing in the bundles that needs 'unsafe-eval' (Embind is built with -sDYNAMIC_EXECUTION=0).
  const modules = (await readdir(path.join(DIST, 'page'))).map((name) => path.join('page', name));
  assert.ok(modules.length > 10, 'the page\'s modules are there');
  for (const file of [...files, ...modules].filter((name) => /\.m?js$/.test(name))) {
    const code = await readFile(path.join(DIST, file), 'utf8');
    assert.doesNotMatch(code, /\bnew Function\b|(?<![\w.$])Function\(|(?<![\w.$])eval\(|set(?:Timeout|Interval)\(\s*["'`]/, `${file}: no eval`);
  }
});
