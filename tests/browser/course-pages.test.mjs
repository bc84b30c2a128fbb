// What a teacher embedding one section controls: the lab's section number
// (hidden with hide=numbers, or by a heading of the course's own; a lab of
// one section never refers to another), the section's title in the
// course's own words (heading),
// and a lab showing one section fills its studies at once, without waiting
// for the reader to scroll to them.
import { test } from 'node:test';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import {
  useBrowser, openPage, setLanguage, setState, elementsReady, screenshot, shownText, serveDistGzipped, offlineWorkerActive, DIST,
} from './harness.mjs';
import { SECTION_IDS } from '../../web/src/sections/registry.js';

const web = useBrowser();

const visibleNumbers = (page) => page.locator('.section-number').evaluateAll((nodes) =>
  nodes.filter((node) => node.getClientRects().length > 0).map((node) => node.textContent));

test('the full page numbers its sections in the registry\'s order, and references quote the numbers', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  const numbers = await page.locator('main > section').evaluateAll((sections) =>
    sections.map((section) => [section.id, section.querySelector('h2 .section-number')?.textContent]));
  assert.deepEqual(numbers, SECTION_IDS.map((id, index) => [id, `${index + 1} · `]));
  const poolingNumber = SECTION_IDS.indexOf('pooling') + 1;
  const settings = page.locator('#heatmap [data-role="settings"]');
  assert.match(await shownText(settings), new RegExp(`set in section ${poolingNumber}\\)`));
  await setLanguage(page, 'zh');
  assert.match(await shownText(settings), new RegExp(`在第 ${poolingNumber} 节中设置`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('an iframe with hide=numbers and heading= shows the course\'s title, no number, no reference to another section', async () => {
  const heading = 'Part 2: what each query weighs';
  const url = `${web.server.origin}/index.html#embed=heatmap&hide=numbers&heading=${encodeURIComponent(heading)}&w=2`;
  const { page, context, problems } = await openPage(web.browser, url);
  assert.equal(await shownText(page.locator('#heatmap h2')), heading);
  assert.deepEqual(await visibleNumbers(page), [], 'no section number shows');
  const settings = page.locator('#heatmap [data-role="settings"]');
  assert.match(await shownText(settings), /w = 2, the width set for this figure\.$/);
  assert.doesNotMatch(await shownText(page.locator('#heatmap')), /section \d/);
  await screenshot(page, 'course-heading-en', '#heatmap');

  // The course's words stay in either language; the lab's text follows it.
  // (An embed has no language switch of its own: the course sets it.)
  await setState(page, { language: 'zh' });
  assert.equal(await shownText(page.locator('#heatmap h2')), heading);
  assert.match(await shownText(settings), /w = 2，即为本图设置的宽度。$/);
  // A change of state rewrites the hash: the heading and the hidden numbers stay in it.
  await setState(page, { query: 3 });
  await page.waitForFunction(() => location.hash.includes('query=3'));
  const hash = decodeURIComponent(await page.evaluate(() => location.hash));
  assert.ok(hash.includes(`heading=${heading}`), hash);
  assert.ok(hash.includes('hide=numbers'), hash);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await shownText(page.locator('#heatmap h2')), heading, 'the heading survives a reload');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a heading replaces the section number too, with no hide=numbers; without one the number stays', async () => {
  const heading = 'Part 2: the weights';
  const { page, context, problems } = await openPage(web.browser,
    `${web.server.origin}/index.html#embed=heatmap&heading=${encodeURIComponent(heading)}`);
  assert.equal(await shownText(page.locator('#heatmap h2')), heading);
  assert.deepEqual(await visibleNumbers(page), []);
  assert.deepEqual(problems, []);
  await context.close();
  const plain = await openPage(web.browser, `${web.server.origin}/index.html#embed=heatmap`);
  assert.deepEqual(await visibleNumbers(plain.page), [`${SECTION_IDS.indexOf('heatmap') + 1} · `]);
  assert.deepEqual(plain.problems, []);
  await plain.context.close();
});

test('a hostile heading is plain text, cut to 120 characters, without control characters', async () => {
  const hostile = `<img src=x onerror="window.pwned=1">\u0007${'x'.repeat(300)}`;
  const { page, context, problems } = await openPage(web.browser,
    `${web.server.origin}/index.html#embed=pooling&heading=${encodeURIComponent(hostile)}`);
  const title = await page.locator('#pooling h2 .section-heading').textContent();
  assert.equal([...title].length, 120);
  assert.ok(title.startsWith('<img src=x onerror="window.pwned=1"> xxx'), title.slice(0, 60));
  assert.equal(await page.locator('#pooling h2 img').count(), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, []);
  await context.close();

  // A blank heading keeps the lab's own title.
  const blank = await openPage(web.browser, `${web.server.origin}/index.html#embed=pooling&heading=%20%0A%20`);
  assert.match(await shownText(blank.page.locator('#pooling h2')), /^\d+ · Average pooling vs Nadaraya–Watson$/);
  assert.deepEqual(blank.problems, []);
  await blank.context.close();
});

test('a section shown alone fills its studies at once, far below the fold', async () => {
  for (const [section, status] of [['scoring', 'scaling-status'], ['pooling', 'consistency-status']]) {
    const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/index.html#embed=${section}`,
      { viewport: { width: 1000, height: 500 } });
    const top = await page.locator(`[data-role="${status}"]`).evaluate((node) => node.getBoundingClientRect().top);
    assert.ok(top > 500 + 600, `${section}: the study is ${top} px down, out of reach of a scroll trigger`);
    await page.waitForSelector(`[data-role="${status}"][data-done="true"]`, { state: 'attached', timeout: 20000 });
    assert.equal(await page.evaluate(() => scrollY), 0, 'nobody scrolled');
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the element: hide="numbers" and heading, changed live', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(page, 2);
  await page.evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.height = '3000px';
    const lab = document.createElement('attention-lab');
    lab.id = 'lab-scaling';
    lab.setAttribute('section', 'scoring');
    lab.setAttribute('hide', 'numbers');
    lab.setAttribute('heading', 'Why divide by √d');
    document.querySelector('main').append(spacer, lab);
  });
  await elementsReady(page, 3);
  const shadowText = (selector) => page.evaluate((css) => document.getElementById('lab-scaling').shadowRoot.querySelector(css)?.innerText, selector);
  assert.equal(await shadowText('h2'), 'Why divide by √d');
  // The course example's own elements hide their numbers too.
  for (const id of ['lab-pooling', 'lab-heatmap', 'lab-scaling']) {
    assert.equal(await page.evaluate((host) => document.getElementById(host).shadowRoot.querySelector('.section-number').getClientRects().length, id), 0, id);
  }
  await page.waitForFunction(() => document.getElementById('lab-scaling').shadowRoot
    .querySelector('[data-role="scaling-status"][data-done="true"]'), null, { timeout: 20000 });
  await page.evaluate(() => document.getElementById('lab-scaling').setAttribute('heading', 'Scaled scores'));
  await page.waitForFunction(() => document.getElementById('lab-scaling').shadowRoot.querySelector('h2')?.innerText === 'Scaled scores');
  await page.evaluate(() => document.getElementById('lab-scaling').removeAttribute('heading'));
  await page.waitForFunction(() => /^Additive vs scaled dot-product attention$/.test(document.getElementById('lab-scaling').shadowRoot.querySelector('h2')?.innerText ?? ''));
  assert.deepEqual(problems, []);
  await context.close();
});

// The docs' recipe for a learning platform that strips scripts: the iframe
// snippet and the table of heights (a column each of the widths below), read
// from the docs as a teacher reads them.
const COLUMNS = [800, 1280];
async function platformRecipe() {
  const docs = await readFile('docs/learning-and-teaching.md', 'utf8');
  const part = docs.slice(docs.indexOf('**A learning platform that strips `<script>`**'));
  const snippet = /```html\n\s*(<iframe[^\n]*<\/iframe>)\n/.exec(part)[1];
  const rows = [...part.matchAll(/^\s*\| `([\w-]+)` \| (\d+)px \| (\d+)px \|$/gm)];
  const heights = Object.fromEntries(COLUMNS.map((column, index) => [column,
    Object.fromEntries(rows.map((m) => [m[1], Number(m[2 + index])]))]));
  // The files it says to put on the site (a name ending in / is a folder).
  const listed = part.slice(part.indexOf('put the page\'s files ('), part.indexOf(' on the\n  site'));
  const files = [...listed.matchAll(/`([^`]+)`/g)].map(([, name]) => name);
  return { snippet, heights, files };
}

// A platform's page holding `frames` (the lab's files under lab/, as the
// recipe says), in a column of `column` px, with no script of its own.
async function platformPage(frames, column = 800) {
  const context = await web.browser.newContext({ viewport: { width: column + 100, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => { if (['error', 'warning'].includes(message.type())) problems.push(message.text()); });
  page.on('pageerror', (error) => problems.push(error.message));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 4</title>
    <meta http-equiv="Content-Security-Policy" content="default-src 'none'; frame-src 'self'; style-src 'unsafe-inline'">
    </head><body style="margin:0"><main style="width:${column}px;margin:0 auto">${frames}</main></body></html>`;
  await context.route(`${web.server.origin}/course/week4.html`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await context.route(`${web.server.origin}/course/lab/**`, async (route) => {
    const url = route.request().url().replace('/course/lab/', '/');
    await route.fulfill({ response: await route.fetch({ url }) });
  });
  // Thirteen labs load at once: on a busy machine their load takes longer than a page's usual 30 s.
  await page.goto(`${web.server.origin}/course/week4.html`, { timeout: 180000 });
  // The frames go on loading what they show later (the other language's
  // texts) after the checks: closed mid-fetch, a handler's error is no finding.
  const close = async () => {
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  };
  return { page, close, problems };
}

// Each frame's box, and its page's height and whether it drew, once the
// section is used as a learner uses it by the end of a lesson: every
// exercise answered (the first option, or 0, or nothing for a task, checked,
// then the answer shown, so the hint, the feedback and the answer all take
// their room), the width's training played, and every panel open (the epoch logs, the score editor, the
// row taken apart: each of its steps shown in turn). `content` is the
// tallest the section got along the way.
const framesDrawn = (page) => page.evaluate(() => Promise.all([...document.querySelectorAll('iframe')].map(async (frame) => {
  const inner = frame.contentDocument;
  const nextFrame = () => new Promise((resolve) => { inner.defaultView.requestAnimationFrame(resolve); });
  while (inner.documentElement.dataset.ready !== 'true') await nextFrame();
  const exercises = [...inner.querySelectorAll('.exercise')];
  // An exercise drawn by its section's first draw (not yet: "–" in its question) waits for it.
  while (exercises.some((node) => node.querySelector('.exercise-question').textContent.trim() === '')) await nextFrame();
  // The bottom of its last box: the height it needs (the document is never shorter than its frame).
  const bottom = () => Math.ceil(Math.max(...[...inner.body.children].filter((node) => node.getClientRects().length > 0)
    .map((node) => node.getBoundingClientRect().bottom + inner.defaultView.scrollY + parseFloat(inner.defaultView.getComputedStyle(node).marginBottom))));
  const redrawn = async () => {
    await nextFrame();
    await nextFrame();
    await inner.defaultView.attentionLab?.drawn();
  };
  for (const exercise of exercises) {
    exercise.querySelector('input[type="radio"], input[type="checkbox"]')?.click();
    const number = exercise.querySelector('input[type="number"]');
    if (number) number.value = '0';
    exercise.querySelector('[data-action="check"]').click();
    if (!['right', 'revealed'].includes(exercise.dataset.status)) exercise.querySelector('[data-action="reveal"]').click();
  }
  // A run the learner plays: the width's training writes its epochs into
  // its log (the trained models' runs leave their sections no taller, and
  // take a minute).
  const play = inner.querySelector('[data-action="play"]');
  if (play) {
    play.click();
    const status = inner.querySelector('[data-role="status"]');
    while (status.dataset.status !== 'done') await nextFrame();
  }
  // Every panel a learner opens (not the save menus, which float over the page).
  const panels = [...inner.querySelectorAll('main details:not(.figure-export)')];
  for (const panel of panels) panel.open = true;
  await redrawn();
  // The PyTorch code shown (its view fills when opened): opened again while
  // it is empty, as it is when opened before the section had its numbers.
  const unfilled = () => panels.filter((node) => node.matches('.code-details') && node.querySelector('code').textContent === '');
  for (let tries = 0; unfilled().length > 0 && tries < 100; tries += 1) {
    for (const panel of unfilled()) panel.open = false;
    await nextFrame();
    for (const panel of panels) panel.open = true;
    await redrawn();
  }
  const emptyCode = unfilled().length;
  let content = bottom();
  for (const step of inner.querySelectorAll('.row-steps-step')) {
    step.click();
    await redrawn();
    content = Math.max(content, bottom());
  }
  const answered = exercises.filter((node) => ['right', 'revealed'].includes(node.dataset.status)).length;
  return {
    exercises: exercises.length, answered, panels: panels.length, emptyCode,
    src: frame.getAttribute('src'), width: frame.getBoundingClientRect().width, height: frame.getBoundingClientRect().height,
    content,
    scrolls: inner.documentElement.scrollHeight > inner.documentElement.clientHeight,
    title: inner.querySelector('main section:not([hidden]) h2')?.textContent,
  };
})));

test('the iframe recipe for platforms that strip scripts, as written: the section fills its frame, no script needed', async () => {
  const { snippet, heights } = await platformRecipe();
  for (const column of COLUMNS) assert.deepEqual(Object.keys(heights[column]).sort(), [...SECTION_IDS].sort(), `a height for every section at ${column} px`);
  const { page, close, problems } = await platformPage(snippet);
  const [frame] = await framesDrawn(page);
  assert.equal(frame.width, 800, 'the width of the column');
  assert.equal(frame.height, heights[800].pooling, 'the height written in the snippet');
  assert.ok(frame.exercises >= 3 && frame.answered === frame.exercises, `every exercise answered (${frame.answered} of ${frame.exercises})`);
  assert.ok(frame.content <= frame.height && !frame.scrolls, `the section (${frame.content} px) fits its frame (${frame.height} px)`);
  assert.match(frame.title, /Nadaraya/);
  await screenshot(page, 'platform-iframe-recipe');
  assert.deepEqual(problems, []);
  await close();
});

test('the recipe\'s files alone, put on a site: the frame draws, and the full lab its link opens finds every file it asks for', async () => {
  const { snippet, files } = await platformRecipe();
  assert.ok(files.includes('index.html') && files.length >= 10, `the files listed: ${files}`);
  // A site holding the course page and, under lab/, the listed files only.
  const site = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-site-'));
  for (const name of files) await cp(path.join(DIST, name), path.join(site, 'lab', name), { recursive: true });
  await writeFile(path.join(site, 'week4.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 4</title>
    <link rel="icon" href="data:,"></head><body style="margin:0"><main style="width:800px;margin:0 auto">${snippet}</main></body></html>`);
  const server = await serveDistGzipped(site);
  const context = await web.browser.newContext({ viewport: { width: 900, height: 900 } });
  const problems = [];
  const missing = [];
  context.on('console', (message) => { if (['error', 'warning'].includes(message.type())) problems.push(message.text()); });
  context.on('weberror', (error) => problems.push(error.error().message));
  context.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  context.on('response', (response) => { if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`); });
  const page = await context.newPage();
  await page.goto(`${server.origin}/week4.html`);
  const frame = page.frameLocator('iframe');
  await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 30000 });
  const href = await frame.locator('a.embed-open').evaluate((link) => link.href);
  assert.match(href, /\/lab\/index\.html#/);
  // The link opens the full lab at the top of its window: its modules, its
  // app manifest and icons, and its service worker, which fetches the rest.
  const full = await context.newPage();
  await full.goto(href);
  await full.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 30000 });
  await full.waitForSelector('html[data-offline="registered"], html[data-offline="failed"]', { state: 'attached', timeout: 30000 });
  assert.equal(await full.locator('html').getAttribute('data-offline'), 'registered', `the service worker (missing: ${missing})`);
  await offlineWorkerActive(full);
  const icons = await full.evaluate(async () => {
    const manifest = await (await fetch(document.querySelector('link[rel="manifest"]').href)).json();
    return Promise.all(manifest.icons.map(async ({ src }) => (await fetch(new URL(src, document.baseURI))).status));
  });
  assert.ok(icons.length > 0 && icons.every((status) => status === 200), `the manifest's icons: ${icons}`);
  assert.deepEqual(missing, [], 'no file the page asks for is missing from the recipe');
  assert.deepEqual(problems, []);
  await context.close();
  await server.close();
  await rm(site, { recursive: true, force: true });
});

// In both languages: the English texts run longer at 800 px, the Chinese
// ones may elsewhere; the table holds the taller.
for (const column of COLUMNS) {
  for (const language of ['en', 'zh']) {
    test(`every section, its exercises answered and its panels open, fits the height the recipe's table gives it at ${column} px, in ${language}`, async () => {
      const { snippet, heights } = await platformRecipe();
      const markup = SECTION_IDS.map((id) => snippet.replace('embed=pooling', `embed=${id}&language=${language}`)
        .replace(/height:\d+px/, `height:${heights[column][id]}px`)).join('\n');
      const { page, close, problems } = await platformPage(markup, column);
      const frames = await framesDrawn(page);
      // The heights measured, for the table when a section changes.
      console.log(`content at ${column} px in ${language}: ${frames.map(({ src, content }) => `${/embed=([\w-]+)/.exec(src)[1]} ${content}`).join(', ')}`);
      const panels = Object.fromEntries(frames.map(({ src, panels: count }) => [/embed=([\w-]+)/.exec(src)[1], count]));
      assert.ok(panels.translation >= 1 && panels['attention-training'] >= 1, `the row taken apart opened in both trained sections: ${JSON.stringify(panels)}`);
      for (const frame of frames) {
        assert.equal(frame.width, column);
        assert.equal(frame.answered, frame.exercises, `${frame.src}: every exercise answered`);
        assert.equal(frame.emptyCode, 0, `${frame.src}: its PyTorch code shown`);
        assert.ok(frame.content <= frame.height && !frame.scrolls, `${frame.src}: ${frame.content} px in a frame of ${frame.height}`);
        assert.ok(frame.height <= Math.max(frame.content * 1.3, frame.content + 300),
          `${frame.src}: ${frame.height} px for ${frame.content} px of section: the table wastes room`);
      }
      assert.deepEqual(problems, []);
      await close();
    });
  }
}
