// Phones and narrow columns: on a 360 px phone the controls follow the
// figures in a sheet pinned to the bottom of the screen (a quarter of it at
// most, scrolling within; phone-layout.test.mjs folds and docks it), so the
// figure a slider changes stays in view while the slider is dragged; in an 860 px
// course column (the page's width or an <attention-lab> element's) the
// controls sit beside the figures, so Play shows the charts moving; a
// formula wider than its box scrolls and shows it can. Screenshots at 360,
// 768 and 1280 px in both languages go to test-results/screenshots/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, openPage, settled, elementsReady, COURSE_FILE_URL, SCREENSHOTS } from './harness.mjs';

const web = useBrowser();

// The part of `selector`'s box a reader sees: inside the viewport and not
// under the controls sheet (its top edge, when pinned).
async function visibleHeight(page, selector, sheetSelector) {
  return page.evaluate(({ selector, sheetSelector }) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    const sheet = sheetSelector ? document.querySelector(sheetSelector).getBoundingClientRect() : null;
    const bottom = Math.min(window.innerHeight, sheet && sheet.top < window.innerHeight ? sheet.top : Infinity, box.bottom);
    return Math.max(0, bottom - Math.max(0, box.top));
  }, { selector, sheetSelector });
}

// The element a reader's finger would land on at the centre of `selector`.
// Whether the control is on top at its centre, within two seconds: a sheet
// pins itself from an observer's callback, a frame or more after a scroll.
const onTop = (page, selector) => page.waitForFunction((s) => {
  const target = document.querySelector(s);
  const box = target.getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return hit === target || target.contains(hit);
}, selector, { timeout: 2000 }).then(() => true, () => false);

// What is drawn at the control's centre instead of it, and where both are: for a failure's message.
const coveredBy = (page, selector) => page.evaluate((s) => {
  const box = document.querySelector(s).getBoundingClientRect();
  const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return `${hit?.outerHTML.slice(0, 160) ?? 'nothing'} at ${JSON.stringify(box)}, scrollY ${window.scrollY}`;
}, selector);

// As a learner's finger scrolls: its touch first (which ends the page's
// landing on a #section= link, offscreen-sections.js), then the scroll.
async function scrollToTop(page, selector) {
  await page.evaluate((s) => {
    window.dispatchEvent(new Event('touchstart'));
    const top = document.querySelector(s).getBoundingClientRect().top + window.scrollY;
    window.scrollTo({ top: top - 60, behavior: 'instant' });
  }, selector);
  await settled(page);
}

test('on a 360 px phone the width slider and the figure it changes are on screen together', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`, {
    viewport: { width: 360, height: 740 }, touch: true,
  });
  const plot = '#pooling [data-figure="pooling"]';
  const sheet = '#pooling .controls-panel';
  const slider = '#pooling [data-param="w"] input[type="range"]';
  await scrollToTop(page, plot);
  const sheetBox = await page.locator(sheet).boundingBox();
  assert.ok(sheetBox.y + sheetBox.height <= 740 + 1 && sheetBox.height <= 740 * 0.25 + 1,
    `the controls sheet is pinned to the bottom, at most a quarter of the screen: ${JSON.stringify(sheetBox)}`);
  await page.locator(slider).evaluate((node) => node.scrollIntoView({ block: 'nearest', behavior: 'instant' })); // within the sheet
  assert.ok(await onTop(page, slider), 'the slider is on top, not covered');
  const seen = await visibleHeight(page, plot, sheet);
  assert.ok(seen >= 180, `${seen} px of the plot visible above the sheet`);
  // Dragging the slider redraws the plot, which stays in view the whole time.
  const before = await page.locator(`${plot} .layer-prediction path`).getAttribute('d');
  const box = await page.locator(slider).boundingBox();
  await page.mouse.move(box.x + 4, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 6 });
  assert.ok(await visibleHeight(page, plot, sheet) >= 180, 'the plot is still in view mid-drag');
  await page.mouse.up();
  await settled(page);
  assert.notEqual(await page.locator(`${plot} .layer-prediction path`).getAttribute('d'), before, 'the plot changed');
  // At the end of its section the sheet lets go: it does not cover the next section.
  await scrollToTop(page, '#heatmap');
  const next = await page.locator(sheet).boundingBox();
  assert.ok(next.y + next.height <= 60 + 1, `the pooling sheet scrolled away with its section: ${JSON.stringify(next)}`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, 'nothing sticks out sideways');
  assert.deepEqual(problems, []);
  await context.close();
});

test('in an 860 px column the controls sit beside the figures: Play shows the loss falling', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#lr=0.2&epochs=40`, {
    viewport: { width: 860, height: 800 },
  });
  const panel = await page.locator('#training .controls-panel').boundingBox();
  const figures = await page.locator('#training .figures').boundingBox();
  assert.ok(panel.x + panel.width <= figures.x, 'the panel is left of the figures');
  // Scrolled to the loss curve (the section's prediction stands above the figures), Play is beside it.
  await scrollToTop(page, '#training [data-figure="loss"]');
  await page.locator('#training [data-action="play"]').click();
  assert.ok(await onTop(page, '#training [data-action="play"]'));
  const loss = '#training [data-figure="loss"]';
  assert.ok(await visibleHeight(page, loss, null) >= 150, 'the loss curve is on screen beside Play');
  await page.waitForSelector('#training [data-role="status"][data-status="done"]', { timeout: 60000 });
  assert.ok(await page.locator(`${loss} .layer-loss path`).getAttribute('d'));
  assert.deepEqual(problems, []);
  await context.close();

  // The same in a course page: an <attention-lab> element 860 px wide.
  const course = await openPage(web.browser, COURSE_FILE_URL, { viewport: { width: 1200, height: 800 }, ready: null });
  await elementsReady(course.page, 2);
  const layout = await course.page.evaluate(() => {
    const lab = document.getElementById('lab-pooling');
    lab.style.width = '860px';
    lab.style.maxWidth = 'none';
    lab.style.boxSizing = 'border-box';
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
      const root = lab.shadowRoot;
      const a = root.querySelector('.controls-panel').getBoundingClientRect();
      const b = root.querySelector('.figures').getBoundingClientRect();
      resolve({ width: lab.getBoundingClientRect().width, panelRight: a.right, figuresLeft: b.left });
    })));
  });
  assert.equal(layout.width, 860);
  assert.ok(layout.panelRight <= layout.figuresLeft, `beside: ${JSON.stringify(layout)}`);
  assert.deepEqual(course.problems, []);
  await course.context.close();
});

test('a formula wider than a phone scrolls inside its box, with a shadow where more of it is', async () => {
  const { page, context } = await openPage(web.browser, `${web.server.origin}/`, { viewport: { width: 360, height: 740 } });
  const formulas = await page.evaluate(() => [...document.querySelectorAll('main .formula')].filter((node) => node.getClientRects().length > 0)
    .map((node) => ({
      section: node.closest('.lab-section')?.id,
      wide: node.scrollWidth > node.clientWidth + 1,
      overflow: getComputedStyle(node).overflowX,
      cue: getComputedStyle(node).backgroundImage,
      right: node.closest('table') ? 0 : node.getBoundingClientRect().right, // a table scrolls as a whole
    })));
  const wide = formulas.filter(({ wide }) => wide);
  assert.ok(wide.length >= 3, `${wide.length} formulas wider than their box at 360 px`);
  for (const formula of wide) {
    assert.equal(formula.overflow, 'auto', `${formula.section}: scrolls`);
    assert.equal((formula.cue.match(/radial-gradient/g) ?? []).length, 2, `${formula.section}: a shadow for each edge`);
  }
  assert.deepEqual(formulas.filter(({ right }) => right > 360), [], 'every formula box within the screen');
  // The masked softmax's fraction: scrolled to its end, its end is in view, and the left shadow's cover has gone.
  const ending = await page.evaluate(() => {
    const node = [...document.querySelectorAll('#masking .formula')].find((f) => f.scrollWidth > f.clientWidth + 1);
    if (!node) return null;
    node.scrollLeft = node.scrollWidth;
    const last = [...node.querySelectorAll('.katex-html *')].filter((n) => n.children.length === 0 && n.textContent.trim()).at(-1);
    const box = node.getBoundingClientRect();
    const end = last.getBoundingClientRect();
    return { endInside: end.right <= box.right + 1 && end.left >= box.left - 1, scrolled: node.scrollLeft > 0 };
  });
  assert.ok(ending, 'the masked softmax has a formula wider than a phone');
  assert.deepEqual(ending, { endInside: true, scrolled: true });
  await context.close();
});

test('screenshots at 360, 768 and 1280 px in both languages: a slider and its figure', async () => {
  for (const language of ['en', 'zh']) {
    for (const width of [360, 768, 1280]) {
      const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#language=${language}`, {
        viewport: { width, height: width === 360 ? 740 : 900 }, locale: language === 'zh' ? 'zh-CN' : 'en-US',
      });
      await scrollToTop(page, '#pooling [data-figure="pooling"]');
      const slider = '#pooling [data-param="w"] input[type="range"]';
      // On a phone the sheet is a quarter of the screen: the slider is scrolled to within it.
      if (width <= 700) await page.locator(slider).evaluate((node) => node.scrollIntoView({ block: 'nearest', behavior: 'instant' }));
      assert.ok(await onTop(page, slider) || width > 700, `${width} px: the slider is reachable with its figure`);
      if (width > 700) await page.locator(slider).scrollIntoViewIfNeeded();
      assert.ok(await visibleHeight(page, '#pooling [data-figure="pooling"]', width <= 700 ? '#pooling .controls-panel' : null) >= 150,
        `${width} px, ${language}: the figure in view with its slider`);
      // The screen as the reader has it (a full page at 360 px is over 40,000 px tall).
      const file = path.join(SCREENSHOTS, `narrow-${width}-${language}.png`);
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: file });
      console.log(`screenshot: ${file}`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

test('on a 360 px phone, watching attention learn: Play in the pinned sheet, on screen with the maps and the curves', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#atSteps=300&atSpeed=1000&section=attention-training`, {
    viewport: { width: 360, height: 740 }, touch: true,
  });
  const sheet = '#attention-training .controls-panel';
  const play = '#attention-training [data-action="at-play"]';
  for (const figure of ['#attention-training [data-figure="at-heads"]', '#attention-training [data-figure="at-loss"]']) {
    await scrollToTop(page, figure);
    const box = await page.locator(sheet).boundingBox();
    assert.ok(box.y + box.height <= 740 + 1 && box.height <= 740 * 0.25 + 1,
      `the controls sheet is pinned to the bottom, at most a quarter of the screen: ${JSON.stringify(box)}`);
    assert.ok(await onTop(page, play), `Play is on screen, not covered: ${await coveredBy(page, play)}`);
    assert.ok(await visibleHeight(page, figure, sheet) >= 120, `${figure} is in view above the sheet`);
  }
  await page.locator(play).tap();
  await page.waitForSelector('#attention-training [data-role="at-status"][data-status="done"]', { timeout: 60000 });
  await scrollToTop(page, '#attention-training [data-figure="at-heads"]');
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'narrow-attention-training-360.png') });
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, 'nothing sticks out sideways');
  assert.deepEqual(problems, []);
  await context.close();
});
