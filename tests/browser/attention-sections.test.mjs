// The six attention sections (the scoring framework to positional encoding) as a whole:
// in the book's order after the pooling and training sections, in the
// navigation, in both languages (a switch re-labels them and keeps every
// number), on a phone without sideways overflow, and a screenshot of each in
// English and Chinese (test-results/screenshots/section-<id>-<language>.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, openPage, settled, SCREENSHOTS, FILE_URL, shownText } from './harness.mjs';
import { matrixCells, values } from './figure-readers.mjs';

const IDS = ['pipeline', 'masking', 'scoring', 'self-attention', 'translation', 'multihead', 'positional'];
const web = useBrowser({ opened: () => mkdir(SCREENSHOTS, { recursive: true }) });

async function shoot(page, language) {
  // The sticky navigation would cover the top of each section's picture.
  // (A constructed stylesheet: the page's policy refuses inline <style>.)
  await page.evaluate(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.toc { position: static !important; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  });
  for (const id of IDS) {
    const section = page.locator(`#${id}`);
    await section.scrollIntoViewIfNeeded();
    await settled(page);
    const file = path.join(SCREENSHOTS, `section-${id}-${language}.png`);
    await section.screenshot({ path: file });
    console.log(`screenshot: ${file}`);
  }
}

test('the attention sections follow the training section, in the book\'s order, each drawn and titled', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  const order = await page.locator('main > section').evaluateAll((sections) => sections.map((s) => s.id));
  assert.deepEqual(order.slice(order.indexOf('training') + 1, order.indexOf('training') + 1 + IDS.length), IDS);
  // Out of view (not rendered): the titles' text, not their rendered text.
  const titles = await Promise.all(IDS.map((id) => page.locator(`#${id} h2`).textContent()));
  assert.deepEqual(titles.map((title) => title.split(' · ')[0]), ['6', '7', '8', '9', '10', '11', '12']);
  for (const id of IDS) {
    assert.equal(await page.locator(`.toc a[href="#${id}"]`).count(), 1, `${id} is in the navigation`);
    // The translator's section has no formula: its figures are the words and the weights.
    if (id !== 'translation') assert.ok(await page.locator(`#${id} .katex`).count() > 0, `${id} has its formulas rendered by KaTeX`);
    assert.deepEqual(await page.locator(`#${id} .section-error, #${id} .control-error`).evaluateAll((nodes) => nodes.filter((n) => !n.hidden).map((n) => n.textContent)), [], `${id} shows no error`);
  }
  // Waiting for the scaling study keeps its frames out of the screenshots.
  await page.locator('#scoring [data-role="scaling-panel"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { timeout: 60000 });
  await shoot(page, 'en');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese: every visible word of the attention sections from the catalogue; a switch keeps the numbers', async () => {
  const { page, context, problems } = await openPage(web.browser, FILE_URL, { locale: 'zh-CN' });
  assert.match(await page.locator('#masking h2').textContent(), /掩蔽 softmax/);
  assert.match(await page.locator('#multihead h2').textContent(), /多头注意力/);
  const tokens = await page.locator('[data-figure="mha-head-1"] .matrix-col-labels text').allTextContents();
  assert.deepEqual(tokens, ['她', '正在', '吃', '一个', '绿色的', '苹果']);
  assert.match(await page.locator('[data-figure="pe-heatmap"] svg').first().innerHTML(), /行（位置）/);
  const weightsZh = values(await matrixCells(page, 'mha-head-1'));
  const maskZh = values(await matrixCells(page, 'mask-weights'));
  await page.locator('#scoring [data-role="scaling-panel"]').scrollIntoViewIfNeeded();
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { timeout: 60000 });
  assert.match(await shownText(page.locator('#scoring [data-role="scaling-status"]')), /完成/);
  await shoot(page, 'zh');

  await page.locator('[data-param="language"] [data-value="en"]').click();
  await page.waitForFunction(() => document.querySelector('#multihead h2').textContent.includes('Self-attention'));
  await settled(page);
  assert.deepEqual(await page.locator('[data-figure="mha-head-1"] .matrix-col-labels text').allTextContents(),
    ['she', 'is', 'eating', 'a', 'green', 'apple']);
  assert.deepEqual(values(await matrixCells(page, 'mha-head-1')), weightsZh, 'the same numbers in both languages');
  assert.deepEqual(values(await matrixCells(page, 'mask-weights')), maskZh);
  assert.match(await page.locator('#scoring [data-role="scaling-status"]').textContent(), /^Done/);
  assert.match(await page.locator('#masking .matrix-row-labels').first().textContent(), /b1 · q1/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 375 px phone the attention sections stay within the screen', async () => {
  const { page, context, problems } = await openPage(web.browser, FILE_URL, { locale: 'zh-CN', viewport: { width: 375, height: 800 } });
  for (const id of IDS) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await settled(page);
    const box = await page.locator(`#${id}`).boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 375 + 0.5, `${id} spans ${box.x}..${box.x + box.width}`);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
  const file = path.join(SCREENSHOTS, 'section-multihead-zh-phone.png');
  await page.locator('#multihead').screenshot({ path: file });
  console.log(`screenshot: ${file}`);
  assert.deepEqual(problems, []);
  await context.close();
});
