// Text the reader must read is whole and large enough at a laptop's width
// (1280 px), in both languages: the typed scores show what the core uses, the
// query plane's text is at least 11 px with no label over another, no Save
// button wraps, and the sticky table of contents is one row with all thirteen
// sections in view (narrower, it scrolls and shows a shadow at the edge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, usePage, screenshot, setState as setPageState, setLanguage as setPageLanguage } from './harness.mjs';

let page;
usePage({ opened: (lab) => ({ page } = lab) });

const setState = (patch) => setPageState(page, patch);
const setLanguage = (language) => setPageLanguage(page, language);
const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('the score boxes show whole values, and a typed score exactly as the core uses it', async () => {
  await page.locator('#masking .score-editor summary').click();
  const boxes = page.locator('#masking .score-input');
  const cut = await boxes.evaluateAll((inputs) =>
    inputs.filter((input) => input.scrollWidth > input.clientWidth).map((input) => input.value));
  assert.deepEqual(cut, [], 'every drawn score fits its box');
  await boxes.nth(0).fill('-0.0193');
  await boxes.nth(0).press('Enter');
  await boxes.nth(1).fill('15');
  await boxes.nth(1).press('Enter');
  await page.locator('#masking .score-editor summary').focus(); // out of the boxes: they show what was taken
  await settled(page);
  assert.equal(await boxes.nth(0).inputValue(), '-0.0193', 'not rounded to -0.019');
  assert.equal(await boxes.nth(0).getAttribute('title'), '-0.0193');
  assert.equal(await boxes.nth(1).inputValue(), '10', 'clamped into [-10, 10], as the core gets it');
  // The score matrix shows the typed score (two decimals) where it was typed.
  const firstCell = await page.locator('[data-figure="mask-scores"] .cell text').first().textContent();
  assert.equal(firstCell.replace('−', '-'), '-0.02');
  await page.locator('#masking [data-action="mask-undo-edits"]').click();
  await settled(page);
});

for (const language of ['en', 'zh']) {
  test(`the query plane's text is at least 11 px and its key labels do not overlap (${language})`, async () => {
    await setLanguage(language);
    for (const [seed, keys] of [[0, 5], [1, 8], [2, 8], [3, 6]]) {
      await setState({ pipelineSeed: seed, pipelineKeys: keys });
      const { sizes, labels } = await page.evaluate(() => {
        const svg = document.querySelector('#pipeline .plane-svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return {
          sizes: [...svg.querySelectorAll('text')].filter((text) => text.textContent !== '').map((text) => parseFloat(getComputedStyle(text).fontSize) * scale),
          labels: [...svg.querySelectorAll('.plane-key-label')].map((text) => {
            const { left, right, top, bottom } = text.getBoundingClientRect();
            return { text: text.textContent, left, right, top, bottom };
          }),
        };
      });
      assert.ok(Math.min(...sizes) >= 11, `seed ${seed}: smallest text ${Math.min(...sizes).toFixed(1)} px`);
      assert.equal(labels.length, keys);
      for (let i = 0; i < labels.length; i += 1) {
        for (let j = i + 1; j < labels.length; j += 1) {
          assert.ok(!overlaps(labels[i], labels[j]), `seed ${seed}: ${labels[i].text} and ${labels[j].text} overlap`);
        }
      }
    }
    await setState({ pipelineSeed: 0, pipelineKeys: 5 });
    await page.locator('#pipeline').scrollIntoViewIfNeeded();
    await screenshot(page, `pipeline-plane-${language}`);
  });

  test(`every matrix's row and column names lie inside their figure (${language})`, async () => {
    await setLanguage(language);
    const cut = await page.locator('text.matrix-label').evaluateAll((labels) => labels
      .filter((label) => label.getClientRects().length > 0 && label.textContent !== '')
      .filter((label) => {
        const box = label.getBoundingClientRect();
        const svg = label.ownerSVGElement.getBoundingClientRect();
        return box.left < svg.left - 0.5 || box.right > svg.right + 0.5 || box.top < svg.top - 0.5;
      })
      .map((label) => `${label.closest('[data-figure]')?.dataset.figure}: ${label.textContent}`));
    assert.deepEqual(cut, [], 'names cut at their figure\'s edge');
  });

  test(`no Save button wraps and the contents bar is one row at 1280 px (${language})`, async () => {
    await setLanguage(language);
    const heights = await page.locator('.figure-export summary').evaluateAll((nodes) =>
      nodes.filter((node) => node.getClientRects().length > 0).map((node) => node.getBoundingClientRect().height));
    assert.ok(heights.length > 10, `${heights.length} Save buttons seen`);
    const lineHeight = Math.min(...heights);
    assert.ok(Math.max(...heights) < lineHeight * 1.5, `Save buttons ${Math.min(...heights)}..${Math.max(...heights)} px high`);
    const rows = await page.locator('.toc a').evaluateAll((links) =>
      new Set(links.map((link) => Math.round(link.getBoundingClientRect().top))).size);
    assert.equal(rows, 1, 'the contents bar is one row');
    // All thirteen sections at a glance: every link inside the bar, unscrolled.
    const outside = await page.locator('.toc-inner').evaluate((bar) => {
      const box = bar.getBoundingClientRect();
      return [...bar.children].filter((link) => link.getBoundingClientRect().right > box.right + 0.5)
        .map((link) => link.textContent);
    });
    assert.deepEqual(outside, [], 'every section is in view in the contents bar');
    assert.equal(await page.locator('.toc a').count(), 13);
    // What does not fit is reached by scrolling the bar, not cut away.
    const lastReachable = await page.locator('.toc-inner').evaluate((bar) => {
      bar.scrollLeft = bar.scrollWidth;
      const last = bar.lastElementChild.getBoundingClientRect();
      const box = bar.getBoundingClientRect();
      return last.right <= box.right + 1;
    });
    assert.ok(lastReachable);
    await page.locator('.toc-inner').evaluate((bar) => { bar.scrollLeft = 0; });
  });
}

test('a contents bar too wide for its screen shows a shadow at the edge with more', async () => {
  await page.setViewportSize({ width: 768, height: 900 });
  const bar = page.locator('.toc-inner');
  const { scrolls, background } = await bar.evaluate((node) => ({
    scrolls: node.scrollWidth > node.clientWidth, background: getComputedStyle(node).backgroundImage,
  }));
  assert.ok(scrolls, 'at 768 px the bar scrolls');
  assert.equal((background.match(/radial-gradient/g) ?? []).length, 2, 'the scroll cue, on both edges');
  await screenshot(page, 'contents-bar-768', '.toc');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('back to English', async () => {
  await setLanguage('en');
});
