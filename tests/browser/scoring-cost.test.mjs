// The dot product is cheaper than additive attention, measured: the panel
// times the core's two scoring layers in the browser, and its table holds
// real medians (positive, growing with the size) with additive the slower.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePage, setLanguage, screenshot, shownTexts } from './harness.mjs';

let page;
usePage({ section: '#scoring [data-role="cost-panel"]', opened: (lab) => ({ page } = lab) });

const rows = async () => {
  const trs = page.locator('[data-role="cost-table"] tbody tr');
  const texts = await shownTexts(trs);
  const data = await trs.evaluateAll((nodes) => nodes.map((tr) => ({ size: Number(tr.dataset.size), additive: Number(tr.dataset.additive), dot: Number(tr.dataset.dot) })));
  return data.map((row, index) => ({ ...row, text: texts[index] }));
};

test('both layers timed at every size: positive medians that grow with the size, additive slower at the largest', async () => {
  await page.waitForSelector('[data-role="cost-status"][data-done="true"]', { state: 'attached', timeout: 60000 });
  const table = await rows();
  assert.deepEqual(table.map((row) => row.size), [8, 32, 128]);
  for (const row of table) {
    assert.ok(Number.isFinite(row.additive) && row.additive > 0, `additive at ${row.size}: ${row.additive}`);
    assert.ok(Number.isFinite(row.dot) && row.dot > 0, `dot at ${row.size}: ${row.dot}`);
    assert.match(row.text, /×$/m);
  }
  const [small, , large] = table;
  // 256 times the pairs: the calls really ran (no cached answer takes longer with size).
  assert.ok(large.additive > 10 * small.additive, `additive ${small.additive} -> ${large.additive} ms`);
  assert.ok(large.additive > large.dot, `at 128 x 128 additive ${large.additive} ms, dot ${large.dot} ms`);
  console.log(`scoring cost (ms, median of 9): ${table.map((row) => `${row.size}: additive ${row.additive.toFixed(3)}, dot ${row.dot.toFixed(3)}, ratio ${(row.additive / row.dot).toFixed(1)}`).join('; ')}`);
  await screenshot(page, 'scoring-cost-en', '[data-role="cost-panel"]');
});

test('measure again, and in Chinese', async () => {
  await page.locator('[data-action="cost-measure"]').click();
  await page.waitForSelector('[data-role="cost-status"][data-done="true"]', { state: 'attached', timeout: 60000 });
  assert.equal((await rows()).length, 3);
  await setLanguage(page, 'zh');
  // The switch scrolled to the top: the panel is out of view (not rendered), its text is read.
  assert.match(await page.locator('[data-role="cost-panel"] .subsection-title').textContent(), /哪个更省/);
  assert.match(await page.locator('[data-role="cost-status"]').textContent(), /中位数/);
  await screenshot(page, 'scoring-cost-zh', '[data-role="cost-panel"]');
  await setLanguage(page, 'en');
});
