// The page in Chinese: every data-i18n* key on the live page exists in
// both catalogues, and the Chinese page (loaded in Chinese, switched to it,
// the iframe mode, or an element set to it) shows no untranslated English:
// no text node, label, title or alt text with English words, formulas, code
// and numbers aside, and words marked as another language's (lang="en": the
// translator's English source or target words, which are data). (The catalogues themselves, without a browser:
// tests/web/catalogues.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { useBrowser, openPage, settled, elementsReady } from './harness.mjs';

const en = assembleCatalogue('en');
const zh = assembleCatalogue('zh');

const web = useBrowser();

// Names, units and symbols that stay as they are in Chinese text.
const ALLOWED = new Set(['Nadaraya', 'Watson', 'Epanechnikov', 'Epanechikov', 'epanechikov', 'English', 'PyTorch',
  'WebAssembly', 'JavaScript', 'xtensor', 'softmax', 'Softmax', 'Home', 'Page', 'Down', 'torch', 'tanh', 'Bahdanau',
  'Transformer', 'Vaswani', 'Dive', 'into', 'Deep', 'Learning', 'sqrt', 'query', 'keys', 'values', 'heads',
  'Adam']); // an optimiser's name, as SGD (too short to count as a word here)

// Text the learner reads (and labels a screen reader reads), minus formulas,
// code, axis numbers and hidden parts; English words left in it.
// hosts: a selector of elements whose shadow roots alone are read (the
// course page's <attention-lab> elements: the page around them is the teacher's).
async function untranslated(page, hosts = null) {
  return page.evaluate(([allowed, hostSelector]) => {
    const skip = (node) => node.closest?.('.katex, script, style, noscript, code, pre, .axis, [aria-hidden="true"], [hidden], :not(html)[lang="en"]');
    // A text with Chinese in it is translated (it may quote code: valid_lens,
    // arange, epoch); a text without any, but with English words, is not.
    const cjk = /[\u3400-\u9fff\uf900-\ufaff]/;
    const words = (text) => (cjk.test(text) ? [] : (text.replace(/[\w.]*[_\d][\w.]*/g, ' ').match(/[A-Za-z][A-Za-z'’]{3,}/g) ?? [])
      .filter((word) => !allowed.includes(word)));
    const block = (node) => node.closest('p, li, figcaption, button, label, summary, h1, h2, h3, td, th, legend, .control-label, .readout') ?? node;
    const found = [];
    const visit = (root) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node = walker.currentNode; node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          if (!parent || skip(parent)) continue;
          const bad = words(node.textContent).length > 0 && words(block(parent).textContent).length > 0;
          if (bad) found.push(`text "${node.textContent.trim().slice(0, 80)}" in ${parent.localName}.${String(parent.className?.baseVal ?? parent.className).split(' ')[0]}`);
        } else if (node.nodeType === Node.ELEMENT_NODE) {
          if (skip(node)) continue;
          for (const attribute of ['aria-label', 'title', 'alt', 'placeholder', 'aria-valuetext', 'aria-roledescription']) {
            const value = node.getAttribute(attribute);
            if (value && words(value).length > 0) found.push(`${attribute} "${value.slice(0, 80)}" on ${node.localName}`);
          }
          if (node.shadowRoot) visit(node.shadowRoot);
        }
      }
    };
    if (hostSelector) {
      for (const host of document.querySelectorAll(hostSelector)) visit(host.shadowRoot);
      return found;
    }
    visit(document.body);
    const title = document.title;
    if (document.documentElement.lang.startsWith('zh') && words(title).length > 0) found.push(`title "${title}"`);
    return found;
  }, [[...ALLOWED], hosts]);
}

async function liveKeys(page) {
  return page.evaluate(() => {
    const keys = new Set();
    const visit = (root) => {
      for (const node of root.querySelectorAll('[data-i18n], [data-i18n-rich], [data-i18n-aria], [data-i18n-title]')) {
        for (const name of ['i18n', 'i18nRich', 'i18nAria', 'i18nTitle']) if (node.dataset[name]) keys.add(node.dataset[name]);
      }
      for (const host of root.querySelectorAll('*')) if (host.shadowRoot) visit(host.shadowRoot);
    };
    visit(document);
    return [...keys];
  });
}

test('the Chinese page has no English left, loaded in Chinese or switched to it', async () => {
  const loaded = await openPage(web.browser, `${web.server.origin}/`, { locale: 'zh-CN' });
  await settled(loaded.page);
  const keys = await liveKeys(loaded.page);
  assert.ok(keys.length > 150, `${keys.length} keys on the page`);
  assert.deepEqual(keys.filter((key) => !(key in en) || !(key in zh)), [], 'every key on the page is in both catalogues');
  assert.deepEqual(await untranslated(loaded.page), [], 'loaded in Chinese');
  // The scan does find English: a probe paragraph and label are reported.
  await loaded.page.evaluate(() => {
    const probe = document.createElement('p');
    probe.id = 'probe';
    probe.textContent = 'Untranslated sentence';
    probe.setAttribute('aria-label', 'Untranslated label');
    document.querySelector('main').append(probe);
  });
  assert.equal((await untranslated(loaded.page)).length, 2, 'the probe is caught');
  await loaded.page.evaluate(() => document.getElementById('probe').remove());
  // Open a save menu, the PyTorch code, and hover a heatmap: their texts too.
  await loaded.page.locator('[data-figure="data"] .figure-export summary').click();
  await loaded.page.locator('[data-figure="data"] [data-export="csv"]').click();
  await loaded.page.locator('#heatmap .heatmap-grid').focus();
  await loaded.page.keyboard.press('ArrowRight');
  assert.deepEqual(await untranslated(loaded.page), [], 'menus, statuses and read-outs');
  assert.deepEqual(loaded.problems, []);
  await loaded.context.close();

  const switched = await openPage(web.browser, `${web.server.origin}/`, { locale: 'en-US' });
  await switched.page.locator('#heatmap .heatmap-grid').focus();
  await switched.page.keyboard.press('ArrowRight');
  await switched.page.locator('[data-param="language"] [data-value="zh"]').click();
  await settled(switched.page);
  await switched.page.locator('#heatmap .heatmap-grid').focus();
  await switched.page.keyboard.press('ArrowDown');
  assert.deepEqual(await untranslated(switched.page), [], 'switched to Chinese');
  assert.deepEqual(switched.problems, []);
  await switched.context.close();
});

// A section out of view is skipped and takes the height it had when last
// shown: after a switch that must be its height in the new language, as on
// a page loaded in it, or a jump to a section below would land off.
test('after a language switch the sections out of view hold their height in the new language', async () => {
  const skippedHeights = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('.lab-section')]
    .filter((section) => !section.firstElementChild.checkVisibility({ contentVisibilityAuto: true })) // its contents skipped
    .map((section) => [section.id, Math.round(section.getBoundingClientRect().height)])));
  const loaded = await openPage(web.browser, `${web.server.origin}/`, { locale: 'zh-CN' });
  await settled(loaded.page);
  const expected = await skippedHeights(loaded.page);
  assert.ok(Object.keys(expected).length >= 8, `${Object.keys(expected).length} sections out of view are skipped`);
  const switched = await openPage(web.browser, `${web.server.origin}/`, { locale: 'en-US' });
  await settled(switched.page);
  const english = await skippedHeights(switched.page);
  await switched.page.locator('[data-param="language"] [data-value="zh"]').click();
  await settled(switched.page);
  const heights = await skippedHeights(switched.page);
  assert.deepEqual(Object.keys(heights), Object.keys(expected));
  // Within 3 % of its height: a section's height also moves by what fills in
  // when it is seen or once loaded (pooling's study, the models' part: up
  // to 64 px, 2 %); the old language's height was 6-13 % off.
  const misfits = Object.keys(expected).filter((id) => Math.abs(heights[id] - expected[id]) > 0.03 * expected[id])
    .map((id) => `${id}: ${heights[id]} px, in Chinese ${expected[id]} px (in English ${english[id]} px)`);
  assert.deepEqual(misfits, []);
  assert.ok(Object.keys(expected).some((id) => Math.abs(english[id] - expected[id]) > 50), 'the languages differ in height');
  assert.deepEqual(loaded.problems, []);
  assert.deepEqual(switched.problems, []);
  await loaded.context.close();
  await switched.context.close();
});

// The height a skipped section keeps is the one it is drawn at. A figure is
// drawn first at a provisional width, until a frame reports its real one:
// the page measures once every figure has been redrawn at its width. On a
// machine fast enough to build every section in one task (the build's time
// budget never runs out, as here with the page's clock slowed down), a
// measure taken before that frame kept multi-head 132 px too tall in
// Chinese, 144 px in English.
test('a skipped section keeps the height it is drawn at, on a machine that builds every section before a frame', async () => {
  const buildsInOneTask = () => {
    const now = performance.now.bind(performance);
    performance.now = () => now() / 1000;
  };
  for (const locale of ['zh-CN', 'en-US']) {
    const loaded = await openPage(web.browser, `${web.server.origin}/`, { locale, init: buildsInOneTask });
    await settled(loaded.page);
    const { kept, drawn } = await loaded.page.evaluate(async () => {
      const sections = [...document.querySelectorAll('.lab-section.skips-out-of-view')];
      const keptHeights = sections.map((section) => Number.parseFloat(section.style.containIntrinsicSize.replace('auto', '')));
      // Every section shown, its figures at their widths: two frames reported and drawn.
      for (const section of sections) section.classList.remove('skips-out-of-view');
      for (let frames = 0; frames < 2; frames += 1) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const contentHeight = (section) => {
        const box = getComputedStyle(section);
        return section.getBoundingClientRect().height - ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth']
          .reduce((sum, name) => sum + Number.parseFloat(box[name]), 0);
      };
      return {
        kept: Object.fromEntries(sections.map((section, index) => [section.id, Math.round(keptHeights[index])])),
        drawn: Object.fromEntries(sections.map((section) => [section.id, Math.round(contentHeight(section))])),
      };
    });
    assert.ok(Object.keys(kept).length >= 8, `${locale}: ${Object.keys(kept).length} sections skipped`);
    // Within 1 %: what fills in once loaded (pooling's study) may still come after the measure.
    const misfits = Object.keys(kept).filter((id) => Math.abs(kept[id] - drawn[id]) > 0.01 * drawn[id])
      .map((id) => `${id}: kept ${kept[id]} px, drawn ${drawn[id]} px`);
    assert.deepEqual(misfits, [], locale);
    assert.deepEqual(loaded.problems, []);
    await loaded.context.close();
  }
});

test('the embedded section and the element in Chinese', async () => {
  const embedded = await openPage(web.browser, `${web.server.origin}/index.html#embed=training&language=zh`, { locale: 'en-US' });
  assert.deepEqual(await untranslated(embedded.page), [], 'iframe mode');
  await embedded.context.close();
  // #lang=zh too, as the element's lang attribute.
  const short = await openPage(web.browser, `${web.server.origin}/index.html#embed=pooling&lang=zh`, { locale: 'en-US' });
  assert.equal(await short.page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.deepEqual(await untranslated(short.page), [], 'iframe mode from #lang=zh');
  assert.deepEqual(short.problems, []);
  await short.context.close();

  const course = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(course.page, 2);
  await course.page.evaluate(() => document.querySelector('attention-lab').setAttribute('language', 'zh'));
  await settled(course.page);
  await settled(course.page);
  const languages = await course.page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((lab) => lab.shadowRoot.querySelector('.lab-root').lang));
  assert.deepEqual(languages, ['zh-CN', 'zh-CN'], 'one language attribute switched both elements');
  const keys = await liveKeys(course.page);
  assert.deepEqual(keys.filter((key) => !(key in zh)), []);
  assert.deepEqual(await untranslated(course.page, 'attention-lab'), [], 'the elements speak Chinese');
  assert.deepEqual(course.problems, []);
  await course.context.close();
});
