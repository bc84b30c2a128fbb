// The page loads over http and straight from disk (file://), with no console
// error and no request to any other host; screenshots in both languages.
// (How long it takes: redraw-performance.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, screenshot, foreignRequests, FILE_URL, shownText } from './harness.mjs';
import sharedEn from '../../web/src/i18n/en/shared.js';
import sharedZh from '../../web/src/i18n/zh/shared.js';
import cuesEn from '../../web/src/i18n/en/cues.js';
import attentionTrainingEn from '../../web/src/i18n/en/attention-training.js';

const web = useBrowser();

async function assertLoaded(page) {
  assert.equal(await page.locator('#loading').isVisible(), false, 'the loading indicator is gone');
  for (const id of ['cues', 'data', 'pooling', 'heatmap', 'training']) {
    // Out of view (not rendered): the title's text, not its rendered text.
    assert.ok((await page.locator(`#${id} h2`).textContent()).length > 3, `section ${id} has its title`);
  }
}

test('over http: no console error, every request to the serving host', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, `${web.server.origin}/`);
  await assertLoaded(page);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, web.server.origin), [], 'no request to any other host');
  for (const file of ['/', '/app.js', '/app.css', '/attention-core-basics.wasm', '/attention-core-models.wasm']) {
    assert.ok(requests.includes(`${web.server.origin}${file}`), `${file} was loaded`);
  }
  assert.ok(!requests.some((url) => url.endsWith('-wasm.js')), 'the wasm streamed, not its copies for disks');
  // Over http app.js imports the page's modules; the one-script page for disks is not loaded.
  assert.ok(requests.some((url) => /\/page\/page-\w+\.js$/.test(url)), 'the page\'s entry module was loaded');
  assert.ok(!requests.some((url) => url.endsWith('/app-disk.js')), 'not the page as one script');
  await context.close();
});

// The catalogue comes in parts: until the first screen is built the page
// asks for its shared texts and its first section's, in the learner's
// language, and no other (they follow while the learner reads).
test('over http the first screen waits only for its own texts: the shared ones and its first section\'s, in one language', async () => {
  const { page, context } = await openPage(web.browser, `${web.server.origin}/#language=en`);
  const early = await page.evaluate(async () => {
    const [built] = performance.getEntriesByName('attention-lab:first-sections-built');
    const asked = performance.getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/page/') && entry.startTime < built.startTime + built.duration).map((entry) => entry.name);
    return Promise.all(asked.map(async (url) => (await fetch(url)).text()));
  });
  const loaded = (text) => early.some((module) => module.includes(JSON.stringify(text)));
  assert.ok(loaded(sharedEn['app.subtitle']), 'the English shared texts');
  assert.ok(loaded(cuesEn['cues.title']), 'the first section\'s English texts');
  assert.ok(!loaded(sharedZh['app.subtitle']), 'not the Chinese ones');
  assert.ok(!loaded(attentionTrainingEn['attention-training.lead1']), 'not the last section\'s');
  await context.close();
});

// A server may not say application/wasm (the wasm is then compiled from its
// bytes, not as it streams), or a course may have copied app.js without the
// wasm: the loading line then says which file is missing.
test('the wasm served as octet-stream still loads; a missing wasm is named on the page', async () => {
  for (const [label, respond, expectLoaded] of [
    ['octet-stream', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
    }, true],
    ['missing', (route) => route.fulfill({ status: 404, body: 'not here' }), false],
  ]) {
    const context = await web.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route(/attention-core-basics(\.wasm|-wasm\.js)$/, respond);
    await page.goto(`${web.server.origin}/`);
    if (expectLoaded) {
      await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
      assert.ok((await page.locator('#pooling h2').textContent()).length > 3, `${label}: drawn`);
    } else {
      await page.waitForSelector('#loading[data-state="failed"]');
      assert.match(await shownText(page.locator('[data-role="load-error"]')), /attention-core-basics\.wasm could not be loaded/, label);
    }
    assert.deepEqual(errors, [], `${label}: no page error`);
    await context.close();
  }
});

test('from file://: no console error, no request off the disk', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, FILE_URL);
  await assertLoaded(page);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, null), [], 'nothing but files and inline data');
  assert.ok(requests.some((url) => url.endsWith('/dist/app.js')), 'the script came from disk');
  assert.ok(requests.some((url) => url.endsWith('/dist/app-disk.js')), 'which loaded the page as one script');
  assert.ok(!requests.some((url) => url.includes('/dist/page/')), 'and no module');
  assert.ok(requests.some((url) => url.endsWith('/dist/attention-core-basics-wasm.js')), 'and the wasm in the script beside it');
  await context.close();
});

test('the language follows the browser and the switch changes it', async () => {
  const { page, context, problems } = await openPage(web.browser, FILE_URL, { locale: 'zh-CN' });
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.equal(await shownText(page.locator('h1')), '注意力实验室');
  assert.match(await page.locator('#heatmap .heatmap-svg').first().innerHTML(), /排序后的训练输入/);
  const file = await screenshot(page, 'page-zh');
  console.log(`screenshot: ${file}`);

  await page.locator('[data-param="language"] [data-value="en"]').click();
  await page.waitForFunction(() => document.querySelector('h1').textContent === 'Attention Lab');
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  assert.match(await page.locator('#heatmap .heatmap-svg').first().innerHTML(), /Sorted training inputs/);
  assert.equal((await page.locator('[data-action="play"]').textContent()).trim(), 'Play');
  assert.deepEqual(problems, []);
  await context.close();
});

// The first screenful of sections is built at once and can be used; the
// rest are built after, a few per task. A change made in between reaches them.
test('the first sections can be used before the rest are built, and a change made then reaches the rest', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`, { ready: null });
  const atInteractive = await page.evaluate(() => new Promise((resolve) => {
    const check = () => {
      if (!document.body.classList.contains('is-ready')) {
        requestAnimationFrame(check);
        return;
      }
      const sections = [...document.querySelectorAll('main > section')];
      const built = sections.filter((section) => section.querySelector('.section-title')).length;
      const allReady = document.documentElement.dataset.ready === 'true';
      document.querySelector('[data-param="language"] [data-value="zh"]').click();
      resolve({ built, total: sections.length, allReady });
    };
    check();
  }));
  assert.ok(atInteractive.built >= 1, 'the first section is there when the page is interactive');
  assert.ok(atInteractive.built < atInteractive.total, `${atInteractive.built} of ${atInteractive.total} sections built at first`);
  assert.equal(atInteractive.allReady, false, 'the page is not yet marked ready');
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.equal(await page.locator('#attention-training .section-title').textContent().then((text) => /[\u4e00-\u9fff]/.test(text)), true,
    'the last section, built after the switch, speaks Chinese');
  assert.match(await page.locator('#heatmap .heatmap-svg').first().innerHTML(), /排序后的训练输入/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('screenshots: desktop in English, a phone in Chinese', async () => {
  const desktop = await openPage(web.browser, FILE_URL, { locale: 'en-GB' });
  assert.equal(await shownText(desktop.page.locator('h1')), 'Attention Lab');
  console.log(`screenshot: ${await screenshot(desktop.page, 'page-en')}`);
  await desktop.context.close();

  const phone = await openPage(web.browser, FILE_URL, { locale: 'zh-TW', viewport: { width: 375, height: 800 } });
  // Nothing may stick out sideways on a phone.
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than a 375 px phone`);
  console.log(`screenshot: ${await screenshot(phone.page, 'page-zh-phone')}`);
  assert.deepEqual(phone.problems, []);
  await phone.context.close();
});

// The build cuts KaTeX's fonts down to the characters the page's TeX can draw
// and gives each the unicode-range of what it keeps. A character outside it
// would be drawn by some other font on the learner's machine: wrong shape, wrong metrics.
test('every glyph of every formula comes from a font the page carries, within its unicode-range', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  const fonts = await page.evaluate(async () => {
    await document.fonts.ready;
    // U+200B: KaTeX's zero-width struts, never drawn; CJK: no KaTeX font has it, the page's own fonts draw it.
    const undrawn = /[\u200b\u2e80-\u9fff\uff00-\uffef]/u;
    const carried = new Map([...document.fonts].map((face) => [`${face.family.replaceAll('"', '')} ${face.weight} ${face.style}`, face.unicodeRange]));
    const inRange = (range, point) => range.split(',').some((part) => {
      const [first, last = first] = part.trim().replace(/^U\+/i, '').split('-').map((hex) => parseInt(hex, 16));
      return point >= first && point <= last;
    });
    const drawn = new Set();
    const outside = new Set();
    for (const node of document.querySelectorAll('main .katex-html *')) {
      const text = [...node.childNodes].filter((child) => child.nodeType === Node.TEXT_NODE).map((child) => child.textContent).join('');
      if (!text.trim()) continue;
      const style = getComputedStyle(node);
      const font = `${style.fontFamily.split(',')[0].trim().replaceAll('"', '')} ${style.fontWeight} ${style.fontStyle}`;
      drawn.add(font);
      const range = carried.get(font);
      for (const character of text) {
        if (range !== undefined && !undrawn.test(character) && !inRange(range, character.codePointAt(0))) outside.add(`${character} in ${font}`);
      }
    }
    return { carried: [...carried.keys()], drawn: [...drawn], outside: [...outside] };
  });
  assert.ok(fonts.drawn.length >= 6, `formulas drawn in ${fonts.drawn.join(', ')}`);
  for (const needed of ['KaTeX_Main 400 normal', 'KaTeX_Math 400 italic', 'KaTeX_Main 700 normal', 'KaTeX_AMS 400 normal', 'KaTeX_Typewriter 400 normal']) {
    assert.ok(fonts.drawn.includes(needed), `${needed} drawn`);
  }
  assert.deepEqual(fonts.drawn.filter((font) => !fonts.carried.includes(font)), [], `carried: ${fonts.carried.join(', ')}`);
  assert.deepEqual(fonts.outside, [], 'characters outside their font\'s unicode-range');
  assert.deepEqual(problems, []);
  await context.close();
});
