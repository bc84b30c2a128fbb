// Embedding: the iframe mode (index.html#embed=<section>&hide=...)
// shows one section and posts its height to the parent; the
// <attention-lab> element renders in Shadow DOM from one script, maps its
// attributes through the parameter table, keeps CSS from leaking either
// way, and several elements share one wasm instance. The course example
// shows both, over http and from file://, with no request to another host.
// (The same pages under a strict CSP header: csp.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, settled, screenshot, elementsReady, foreignRequests, COURSE_FILE_URL, shownText } from './harness.mjs';
import { paintedPointCount } from './figure-readers.mjs';
import { parameters } from '../../web/src/state.js';

const web = useBrowser();

// Counts WebAssembly compilations in the top page, and records the height
// messages it receives (init script: runs before the page's own scripts).
function watchTopPage() {
  if (window !== window.top) return;
  window.__wasmCompiles = 0;
  window.__heights = [];
  for (const name of ['instantiate', 'instantiateStreaming', 'compile', 'compileStreaming']) {
    const original = WebAssembly[name];
    if (!original) continue;
    WebAssembly[name] = function counted(...args) {
      if (!(args[0] instanceof WebAssembly.Module)) window.__wasmCompiles += 1;
      return original.apply(this, args);
    };
  }
  window.addEventListener('message', (event) => {
    if (event.data?.type === 'attention-lab:height') window.__heights.push(event.data);
  });
}

const shadow = (page, id, css) => page.evaluate(([host, selector]) => {
  const node = document.getElementById(host).shadowRoot.querySelector(selector);
  return node ? { text: node.textContent, style: { ...Object.fromEntries(['color', 'fontFamily', 'textTransform', 'backgroundColor', 'letterSpacing'].map((p) => [p, getComputedStyle(node)[p]])) } } : null;
}, [id, css]);
// Waits until the text of `css` in element `id`'s shadow root matches `pattern`
// (a new language's catalogue parts arrive as modules over http).
const shadowTextMatches = (page, id, css, pattern) => page.waitForFunction(([host, selector, source]) => {
  const node = document.getElementById(host).shadowRoot.querySelector(selector);
  return node !== null && new RegExp(source).test(node.textContent);
}, [id, css, pattern.source]);

test('iframe mode shows one section, hides the chosen controls and applies the state', async () => {
  const { page, context, problems } = await openPage(web.browser,
    `${web.server.origin}/index.html#embed=pooling&hide=kernel,w,export&estimator=nadaraya-watson&n=80&kernel=triangular`);
  await settled(page);
  const layout = await page.evaluate(() => ({
    embed: document.documentElement.dataset.embed,
    shown: [...document.querySelectorAll('main > section')].filter((s) => !s.hidden && s.offsetHeight > 0).map((s) => s.id),
    masthead: document.querySelector('.masthead').offsetHeight,
    toc: document.querySelector('.toc').offsetHeight,
    otherContent: [...document.querySelectorAll('main > section:not(#pooling)')].reduce((sum, s) => sum + s.childElementCount, 0),
  }));
  assert.equal(layout.embed, 'pooling');
  assert.deepEqual(layout.shown, ['pooling']);
  assert.equal(layout.masthead, 0, 'no masthead');
  assert.equal(layout.toc, 0, 'no table of contents');
  assert.equal(layout.otherContent, 0, 'the other sections are not even built');
  assert.equal(await page.locator('[data-param="kernel"]').isVisible(), false, 'kernel hidden');
  assert.equal(await page.locator('[data-param="w"]').isVisible(), false, 'w hidden');
  assert.equal(await page.locator('[data-param="estimator"]').isVisible(), true, 'the rest stays');
  assert.equal(await page.locator('.figure-export').first().isVisible(), false, 'export menus hidden');
  assert.equal(await paintedPointCount(page.locator('[data-figure="pooling"]')), 80);
  const state = await page.evaluate(() => window.attentionLab.state);
  assert.equal(state.kernel, 'triangular', 'a hidden control still takes its value from the hash');
  // The link to the full lab carries the state, not the embedding.
  const href = await page.locator('.embed-open').evaluate((link) => {
    link.dispatchEvent(new Event('focus'));
    return link.getAttribute('href');
  });
  assert.match(href, /^index\.html#.*kernel=triangular/);
  assert.doesNotMatch(href, /embed=|hide=/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a host that edits #embed= in its iframe\'s hash gets the section it asked for, as a first load would give it', async () => {
  // The training worker's first script is held until the hash is edited, so the
  // reload always cancels a request in flight (as on a loaded machine): the new
  // document must load its own and nothing may fail.
  let releaseWorker;
  const workerHeld = new Promise((resolve) => { releaseWorker = resolve; });
  let workerAsked;
  const workerRequested = new Promise((resolve) => { workerAsked = resolve; });
  let held = false;
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/index.html#embed=translation`, {
    routes: (target) => target.route('**/training-worker.js', async (route) => {
      if (!held) {
        held = true;
        workerAsked();
        await workerHeld;
      }
      await route.continue().catch(() => {}); // the held one was cancelled by the reload
    }),
  });
  await settled(page);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.embed), 'translation');
  await workerRequested;
  const workerLoaded = page.waitForEvent('requestfinished', { predicate: (request) => request.url().endsWith('/training-worker.js') });
  // Only the hash changes: the same document, as a host's iframe.src = '…#embed=attention-training' does.
  await page.evaluate(() => {
    location.hash = '#embed=attention-training';
  });
  await page.waitForFunction(() => document.documentElement.dataset.embed === 'attention-training'
    && document.documentElement.dataset.ready === 'true');
  releaseWorker();
  await workerLoaded;
  const shown = await page.evaluate(() => ({
    hash: location.hash,
    sections: [...document.querySelectorAll('main > section')].filter((s) => !s.hidden && s.offsetHeight > 0).map((s) => s.id),
  }));
  assert.match(shown.hash, /embed=attention-training/, 'the hash keeps what the host wrote');
  assert.doesNotMatch(shown.hash, /embed=translation/);
  assert.deepEqual(shown.sections, ['attention-training']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the course page over http: elements in Shadow DOM, iframe sized by its height message, one wasm instance', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, `${web.server.origin}/course-example.html`,
    { ready: 'attention-lab', init: watchTopPage });
  await elementsReady(page, 2);
  // The iframe reports its height; the element script sizes the frame to it.
  await page.waitForFunction(() => window.__heights.some((m) => m.section === 'training'), null, { timeout: 30000 });
  await page.waitForFunction(() => {
    const frame = document.getElementById('frame-training');
    const inner = frame.contentDocument?.documentElement.getBoundingClientRect().height;
    return inner && Math.abs(frame.getBoundingClientRect().height - 2 - inner) <= 2; // 2: the frame's border
  }, null, { timeout: 30000 });
  const message = await page.evaluate(() => window.__heights.at(-1));
  assert.deepEqual(Object.keys(message).sort(), ['height', 'section', 'type']);
  assert.equal(message.type, 'attention-lab:height');
  assert.ok(Number.isInteger(message.height) && message.height > 300, `height ${message.height}`);

  // Rendered inside shadow roots, nothing in the page's own DOM.
  assert.equal(await page.evaluate(() => document.querySelectorAll('.lab-section, .figure-cell').length), 0);
  const counts = await page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((lab) => ({
    id: lab.id, figures: lab.shadowRoot.querySelectorAll('.figure-cell').length,
  })));
  assert.ok(counts.every((c) => c.figures > 0), JSON.stringify(counts));

  // Attributes went through the parameter table.
  const states = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('attention-lab')].map((lab) => [lab.id, lab.state])));
  assert.equal(states['lab-pooling'].kernel, 'boxcar');
  assert.equal(states['lab-pooling'].w, 2);
  assert.equal(states['lab-heatmap'].n, 100);
  assert.equal(states['lab-heatmap'].query, 1.5);
  assert.equal(await page.evaluate(() => document.getElementById('lab-heatmap').shadowRoot.querySelector('.heatmap-canvas').width), 100);

  // One wasm instance for both elements (the iframe is its own page).
  assert.equal(await page.evaluate(() => window.__wasmCompiles), 1, 'the core was compiled once');
  // Each element remembers its own calls (core-memo.js wraps the core); what
  // it does not remember, memoryStats, is the one core's own function.
  assert.ok(await page.evaluate(() => {
    const [a, b] = document.querySelectorAll('attention-lab');
    return a.core !== null && a.core.memoryStats === b.core.memoryStats;
  }), 'both elements call the same core instance');

  assert.deepEqual(foreignRequests(requests, web.server.origin), []);
  assert.deepEqual(problems, []);
  console.log(`screenshot: ${await screenshot(page, 'course-example')}`);
  await context.close();
});

test('attributes change the element\'s state through the table: clamped, or the default when malformed or removed', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(page, 2);
  const set = (name, value) => page.evaluate(([n, v]) => {
    const lab = document.getElementById('lab-pooling');
    if (v === null) lab.removeAttribute(n);
    else lab.setAttribute(n, v);
    return lab.state;
  }, [name, value]);
  assert.equal((await set('w', '1e9')).w, parameters.w.max, 'clamped');
  assert.equal((await set('w', 'NaN')).w, parameters.w.default, 'malformed: the default, as in a hash');
  assert.equal((await set('kernel', '<img src=x onerror=alert(1)>')).kernel, parameters.kernel.default,
    'not an option: the default');
  assert.equal(problems.length, 2, 'the console names each malformed attribute');
  assert.match(problems[0], /w="NaN" is not a value of w/);
  assert.match(problems[1], /kernel="<img src=x onerror=alert\(1\)>" is not a value of kernel/);
  problems.length = 0;
  assert.equal((await set('kernel', 'epanechnikov')).kernel, 'epanechnikov');
  assert.equal((await set('kernel', null)).kernel, parameters.kernel.default, 'removed: the default');
  assert.equal((await set('leave-one-out', 'false')).leaveOneOut, false, 'kebab case, the documented spelling');
  assert.equal((await set('leave-one-out', null)).leaveOneOut, true, 'removed: the default');
  assert.equal((await set('leaveoneout', 'false')).leaveOneOut, false, 'lower case, an alias');
  assert.equal((await set('leaveoneout', null)).leaveOneOut, true);
  // (Both spellings at once: element.test.mjs.)
  await settled(page);
  const checked = await page.evaluate(() => document.getElementById('lab-pooling').shadowRoot
    .querySelector('[data-param="kernel"] [aria-checked="true"]').dataset.value);
  assert.equal(checked, 'gaussian', 'the controls show it');
  // A new section: the element rebuilds itself.
  await page.evaluate(() => document.getElementById('lab-pooling').setAttribute('section', 'data'));
  await page.waitForFunction(() => document.getElementById('lab-pooling').shadowRoot.querySelector('[data-figure="data"]'));
  await elementsReady(page, 2);
  // The language: one for all the elements of the page.
  await page.evaluate(() => document.getElementById('lab-heatmap').setAttribute('language', 'zh'));
  await shadowTextMatches(page, 'lab-pooling', 'h2', /一个玩具回归问题/);
  await shadowTextMatches(page, 'lab-heatmap', 'h2', /注意力权重/);
  assert.equal(await page.evaluate(() => document.getElementById('lab-heatmap').shadowRoot.querySelector('.lab-root').lang), 'zh-CN');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the host page keeps its own language');
  assert.match(await page.title(), /^Week 4/, 'and its title');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lab of one section refers to no other: the heatmap says its width is set for this figure', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(page, 2);
  const settings = await shadow(page, 'lab-heatmap', '[data-role="settings"]');
  assert.match(settings.text, /w = [\d.]+, the width set for this figure\.$/);
  const texts = await page.evaluate(() => [...document.querySelectorAll('attention-lab')]
    .map((lab) => lab.shadowRoot.querySelector('.lab-root').textContent));
  for (const text of texts) assert.doesNotMatch(text, /\bsection \d+\b|第 ?\d+ ?节/, 'no section number of the lab');
  await page.evaluate(() => document.getElementById('lab-heatmap').setAttribute('language', 'zh'));
  await shadowTextMatches(page, 'lab-heatmap', '[data-role="settings"]', /即为本图设置的宽度/);
  await context.close();
  // The iframe mode too.
  const frame = await openPage(web.browser, `${web.server.origin}/index.html#embed=heatmap`);
  await settled(frame.page);
  assert.match(await shownText(frame.page.locator('#heatmap [data-role="settings"]')), /the width set for this figure/);
  await frame.context.close();
  // The whole page still points at the section that sets it (out of view: its text, not rendered).
  const full = await openPage(web.browser, `${web.server.origin}/index.html`);
  assert.match(await full.page.locator('#heatmap [data-role="settings"]').textContent(), /\(set in section 3\)/);
  await full.context.close();
  assert.deepEqual([...problems, ...frame.problems, ...full.problems], []);
});

// What a printed element shows, read as the browser prints it (page.pdf
// fires beforeprint and afterprint around it): in each shadow root, the
// heatmap's scale to the paper and the plots' points as SVG circles.
// Listened to once the elements are drawn, after their own listeners: what
// they made ready.
function watchPrinting() {
  window.__printed = [];
  const read = () => [...document.querySelectorAll('attention-lab')].map((lab) => {
    const root = lab.shadowRoot;
    const heatmap = root.querySelector('.heatmap');
    return {
      id: lab.id,
      printScale: heatmap ? Number(heatmap.style.getPropertyValue('--print-scale')) : null,
      circles: [...root.querySelectorAll('[data-canvas-layers] .layer-points')].map((layer) => layer.querySelectorAll('circle').length),
      painted: [...root.querySelectorAll('[data-canvas-layers] .plot-canvas')].map((canvas) => Number(canvas.dataset.points)),
    };
  });
  addEventListener('beforeprint', () => window.__printed.push({ when: 'before', labs: read() }));
  addEventListener('afterprint', () => window.__printed.push({ when: 'after', labs: read() }));
}

test('printed, an element scales its heatmap to the paper and draws its points as vectors, as the page does', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course-example.html`,
    { ready: 'attention-lab' });
  await elementsReady(page, 2);
  await page.evaluate(watchPrinting);
  await page.pdf({ format: 'A4' });
  const printed = await page.evaluate(() => window.__printed);
  assert.deepEqual(printed.map(({ when }) => when), ['before', 'after']);
  const [before, after] = printed.map(({ labs }) => Object.fromEntries(labs.map((lab) => [lab.id, lab])));
  const scale = before['lab-heatmap'].printScale;
  assert.ok(scale > 0 && scale <= 1, `the heatmap's print scale: ${scale}`);
  const pooling = before['lab-pooling'];
  assert.ok(pooling.circles.length > 0, 'the pooling plots have points on canvas');
  assert.deepEqual(pooling.circles, pooling.painted, 'printed, each plot draws as circles the points its canvas paints');
  assert.ok(after['lab-pooling'].circles.every((count) => count === 0), 'back on screen, the points are on the canvas again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('no CSS leaks into or out of the element', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(page, 2);
  // The host page's loud rules (serif body, uppercase dark-red h2 and .section-title) stay outside.
  const title = await shadow(page, 'lab-pooling', '.section-title');
  assert.equal(title.style.textTransform, 'none');
  assert.doesNotMatch(title.style.fontFamily, /Georgia|Times/);
  assert.notEqual(title.style.color, 'rgb(140, 45, 25)');
  assert.equal((await shadow(page, 'lab-pooling', '.prose p')).style.letterSpacing, 'normal', 'even * { letter-spacing } stops at the shadow root');
  const panel = await shadow(page, 'lab-pooling', '.panel');
  assert.equal(panel.style.backgroundColor, 'rgb(245, 246, 249)', 'the lab\'s .panel, not the page\'s');
  // ... and the lab's rules stay inside: the page's own .panel keeps its look.
  const pagePanel = await page.evaluate(() => getComputedStyle(document.querySelector('p.panel')).backgroundColor);
  assert.equal(pagePanel, 'rgb(255, 233, 168)');
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).fontFamily.includes('Georgia')), true);
  // What the element adds to the document is font faces (KaTeX's), and the
  // loader's placeholders, which style only an <attention-lab> not yet defined.
  const documentRules = await page.evaluate(() => {
    const flat = (rules) => [...rules].flatMap((rule) => (rule instanceof CSSConditionRule ? flat(rule.cssRules) : [rule]));
    return document.adoptedStyleSheets.flatMap((sheet) => flat(sheet.cssRules)).map((rule) => rule.selectorText ?? rule.constructor.name);
  });
  assert.ok(documentRules.includes('CSSFontFaceRule'), documentRules.join());
  assert.ok(documentRules.some((rule) => rule.includes('attention-lab')), documentRules.join());
  for (const rule of documentRules) assert.match(rule, /^CSSFontFaceRule$|^attention-lab\b.*:not\(:defined\)(\[data-load-failed\])?(::before)?$/);
  // KaTeX really renders with its fonts inside the shadow root.
  const katexFont = await page.evaluate(async () => {
    await document.fonts.ready;
    const node = document.getElementById('lab-pooling').shadowRoot.querySelector('.katex .mathnormal');
    return { family: getComputedStyle(node).fontFamily, loaded: document.fonts.check('16px KaTeX_Math') };
  });
  assert.match(katexFont.family, /KaTeX_Math/);
  assert.equal(katexFont.loaded, true);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the course page from file://: both kinds of embedding work with no request off the disk', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, COURSE_FILE_URL, { ready: 'attention-lab', init: watchTopPage });
  await elementsReady(page, 2);
  await page.waitForFunction(() => window.__heights.some((m) => m.section === 'training' && m.height > 300), null, { timeout: 30000 });
  await page.waitForFunction(() => document.getElementById('frame-training').getBoundingClientRect().height > 300);
  assert.equal(await page.evaluate(() => window.__wasmCompiles), 1);
  const frame = page.frameLocator('#frame-training');
  await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached' });
  assert.equal(await frame.locator('#training [data-action="play"]').isVisible(), true);
  assert.equal(await frame.locator('[data-param="seed"]').count() > 0 && await frame.locator('[data-param="seed"]').first().isVisible(), false, 'seed hidden by hide=');
  assert.deepEqual(foreignRequests(requests, null), [], 'nothing but files and inline data');
  assert.ok(requests.some((url) => url.endsWith('/dist/attention-lab-element.js')), 'the element script came from disk');
  assert.deepEqual(problems, []);
  await context.close();
});
