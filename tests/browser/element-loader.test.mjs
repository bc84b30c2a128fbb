// The element's loader (dist/attention-lab-element-loader.js) on a course
// page over http: each element holds its section's place with a placeholder
// that says what is coming and is as tall as the section will be, keeps that
// height until the section is drawn, asks only for what the page's elements
// need, and says so on the placeholder when the element cannot be loaded.
// The docs' recipe for a plain HTML page, as written, over http and from disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PLACEHOLDER_BANDS } from '../../web/src/element-placeholder.js';
import { ELEMENT_HEIGHTS } from '../../web/src/element-heights.js';
import { SECTION_IDS } from '../../web/src/sections/section-loaders.js';
import { useBrowser, openPage, elementsReady, serveDistGzipped, DIST } from './harness.mjs';
import { LANGUAGES, measureElementHeights } from './element-heights.mjs';

const web = useBrowser();
const catalogue = async (language, part) => (await import(`../../web/src/i18n/${language}/${part}.js`)).default;

// A course page served at /course.html (its <html lang> English), with `body`.
const coursePage = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 4</title>
<script src="attention-lab-element-loader.js" defer></script></head><body style="margin:8px">${body}<p id="after">The course goes on.</p></body></html>`;
const servedAt = (html, more = async () => {}) => async (context) => {
  await context.route('**/course.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await more(context);
};
// The band a width falls in: the narrowest whose maxWidth it does not pass.
const bandOf = (width) => PLACEHOLDER_BANDS.findLastIndex(({ maxWidth }) => maxWidth === null || width <= maxWidth);

test('each placeholder says what is coming, is as tall as its section, and holds that height until the section is drawn', async () => {
  let release;
  const held = new Promise((resolve) => {
    release = resolve;
  });
  const html = coursePage(`<div style="width:1000px"><attention-lab id="a"></attention-lab></div>
<div style="width:360px"><attention-lab id="b" section="attention-training"></attention-lab></div>
<div style="width:800px"><attention-lab id="c" section="heatmap"></attention-lab></div>`);
  // The element's module waits for the test's word, so the placeholders can be read.
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course.html`, {
    ready: 'attention-lab',
    routes: servedAt(html, (served) => served.route('**/page/element-*.js', async (route) => {
      await held;
      await route.continue();
    })),
  });
  const expected = [['a', 'pooling', 'en', 1000], ['b', 'attention-training', 'en', 360], ['c', 'heatmap', 'en', 800]];
  await page.waitForFunction(() => document.adoptedStyleSheets.length > 0);
  const placeholders = await page.evaluate((ids) => ids.map((id) => {
    const lab = document.getElementById(id);
    return { defined: lab.matches(':defined'), content: getComputedStyle(lab, '::before').content, height: lab.getBoundingClientRect().height };
  }), expected.map(([id]) => id));
  for (const [index, [id, section, language, width]] of expected.entries()) {
    const { defined, content, height } = placeholders[index];
    assert.equal(defined, false, `${id}: not defined yet`);
    const shared = await catalogue(language, 'shared');
    for (const words of [shared['app.title'], (await catalogue(language, section))[`${section}.title`], shared['app.loading']]) {
      assert.ok(content.includes(words), `${id}: the placeholder says "${words}" (${content})`);
    }
    assert.ok(Math.abs(height - ELEMENT_HEIGHTS[section][language][bandOf(width)]) <= 1, `${id}: ${height} px, the table's height at ${width} px`);
  }

  // From now until each element is drawn, the smallest height it had at any frame.
  await page.evaluate((ids) => {
    window.smallest = Object.fromEntries(ids.map((id) => [id, Infinity]));
    const loading = () => ids.filter((id) => !document.getElementById(id).hasAttribute('data-ready'));
    const sample = () => {
      for (const id of loading()) window.smallest[id] = Math.min(window.smallest[id], document.getElementById(id).getBoundingClientRect().height);
      if (loading().length > 0) requestAnimationFrame(sample);
    };
    sample();
  }, expected.map(([id]) => id));
  release();
  await elementsReady(page, 3);
  const smallest = await page.evaluate(() => window.smallest);
  const drawn = await page.evaluate((ids) => ids.map((id) => [document.getElementById(id).getBoundingClientRect().height,
    document.getElementById(id).style.minHeight]), expected.map(([id]) => id));
  for (const [index, [id]] of expected.entries()) {
    const { height } = placeholders[index];
    assert.ok(smallest[id] >= height - 1, `${id}: never shorter than its placeholder while loading (${smallest[id]} < ${height})`);
    assert.equal(drawn[index][1], '', `${id}: the held height is let go of once drawn`);
    assert.ok(Math.abs(drawn[index][0] - height) <= 0.15 * drawn[index][0], `${id}: drawn ${drawn[index][0]} px, held ${height} px`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

// The table the placeholders are sized by against the sections as drawn now:
// within 15 % (text wraps a little differently from one browser build to the next).
test('every section\'s placeholder height, in both languages and every band, is within 15 % of the section as drawn', async () => {
  const measured = await measureElementHeights(web.browser, web.server.origin);
  for (const id of SECTION_IDS) {
    for (const language of LANGUAGES) {
      PLACEHOLDER_BANDS.forEach(({ measuredAt }, band) => {
        const [table, drawn] = [ELEMENT_HEIGHTS[id][language][band], measured[id][language][band]];
        assert.ok(Math.abs(table - drawn) <= 0.15 * drawn,
          `${id} (${language}, ${measuredAt} px): drawn ${drawn} px, the table says ${table} px; write it again (node tests/browser/element-heights.mjs --write)`);
      });
    }
  }
});

test('over http the loader asks for the element\'s modules and what its sections need, not the one-script element', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, `${web.server.origin}/course.html`, {
    ready: 'attention-lab', routes: servedAt(coursePage('<attention-lab section="pooling"></attention-lab>')),
  });
  await elementsReady(page, 1);
  const files = requests.map((url) => new URL(url).pathname);
  assert.ok(files.some((file) => /^\/page\/element-\w+\.js$/.test(file)), 'the element\'s module');
  assert.ok(files.some((file) => /^\/page\/pooling-\w+\.js$/.test(file)), 'the section\'s code');
  assert.ok(files.includes('/attention-core-basics.wasm'), 'the core\'s first part');
  for (const unneeded of ['/attention-lab-element.js', '/app-disk.js', '/attention-core-models.wasm', '/attention-core-basics-wasm.js']) {
    assert.ok(!files.includes(unneeded), `${unneeded} is not asked for`);
  }
  assert.ok(!files.some((file) => /^\/page\/(attention-training|translation)-\w+\.js$/.test(file)), 'no other section\'s code');
  assert.deepEqual(problems, []);
  await context.close();
});

// (In Chinese: an element's language attribute speaks for its placeholder too.)
test('an element that cannot be loaded says so on its placeholder, and the console names it', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course.html`, {
    ready: 'attention-lab',
    routes: servedAt(coursePage('<div style="width:600px"><attention-lab section="masking" language="zh"></attention-lab></div>'),
      (served) => served.route('**/page/element-*.js', (route) => route.abort())),
  });
  await page.waitForSelector('attention-lab[data-load-failed]', { state: 'attached' });
  const { content, height } = await page.evaluate(() => {
    const lab = document.querySelector('attention-lab');
    return { content: getComputedStyle(lab, '::before').content, height: lab.getBoundingClientRect().height };
  });
  const shared = await catalogue('zh', 'shared');
  assert.ok(content.includes(shared['app.loadFailed']) && content.includes((await catalogue('zh', 'masking'))['masking.title']), content);
  const said = await page.evaluate(() => document.querySelector('attention-lab').getAttribute('data-load-failed'));
  assert.match(said, /element-\w+\.js/, 'the failure names the module (it follows the words on the placeholder)');
  assert.ok(Math.abs(height - ELEMENT_HEIGHTS.masking.zh[bandOf(600)]) <= 1, `${height} px`);
  assert.ok(problems.some((problem) => /console error: <attention-lab>:/.test(problem)), problems.join('\n'));
  await context.close();
});

// The recipe "A plain HTML page" of docs/learning-and-teaching.md: the files
// it says to copy into lab/, and its snippet.
async function plainPageRecipe() {
  const docs = await readFile('docs/learning-and-teaching.md', 'utf8');
  const part = docs.slice(docs.indexOf('- **A plain HTML page**'));
  const listed = part.slice(part.indexOf('into a folder `lab/` beside the page:'), part.indexOf('Then write:'));
  const files = [...listed.matchAll(/`([^`]+)`/g)].map(([, name]) => name).filter((name) => name !== 'lab/');
  const snippet = /```html\n([\s\S]*?)\n\s*```/.exec(part)[1].replace(/^\s+/gm, '');
  return { files, snippet };
}

test('the recipe for a plain HTML page, as written: its files alone, under lab/, draw the section over http and from disk', async () => {
  const { files, snippet } = await plainPageRecipe();
  assert.ok(files.includes('attention-lab-element-loader.js') && files.includes('attention-lab-element.js'), `the files listed: ${files}`);
  assert.match(snippet, /<script src="lab\/attention-lab-element-loader\.js" defer><\/script>/);
  const site = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-course-'));
  for (const name of files) await cp(path.join(DIST, name), path.join(site, 'lab', name), { recursive: true });
  await writeFile(path.join(site, 'week4.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 4</title>
<link rel="icon" href="data:,"></head><body><main style="width:800px">${snippet}</main></body></html>`);
  const server = await serveDistGzipped(site);
  for (const url of [`${server.origin}/week4.html`, pathToFileURL(path.join(site, 'week4.html')).href]) {
    const { page, context, problems, requests } = await openPage(web.browser, url, { ready: 'attention-lab' });
    await elementsReady(page, 1);
    assert.equal(await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-section-shown]')?.dataset.sectionShown), 'masking');
    const oneScript = requests.some((asked) => asked.endsWith('/lab/attention-lab-element.js'));
    assert.equal(oneScript, url.startsWith('file:'), `${url}: the one-script element only from disk`);
    assert.deepEqual(problems, [], url);
    await context.close();
  }
  await server.close();
  await rm(site, { recursive: true, force: true });
});
