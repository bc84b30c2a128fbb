// The consistency panel of the pooling section: it fills in once scrolled
// to, its table and curves are the core's consistencyStudy for the page's
// noise, seed and width, the growing width's error keeps falling while the
// fixed width's stalls, a change of w or noise measures again, and it speaks
// both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, settled, typeInto, usePage, shownText } from './harness.mjs';
import { pathSegments } from './figure-readers.mjs';

let page;
let problems;
usePage({ section: '#pooling [data-role="consistency-panel"]', directCore: true, opened: (lab) => ({ page, problems } = lab) });

const panel = (css = '') => page.locator(`#pooling [data-role="consistency-panel"] ${css}`);

// A change is drawn at the next frame, which starts the study again: until
// then the status still says the last study is done.
async function finished() {
  await settled(page);
  await page.waitForSelector('#pooling [data-role="consistency-status"][data-done="true"]', { timeout: 30000 });
  await settled(page);
}

// The table's rows as the page wrote them (the core's numbers, in data attributes).
const shownRows = () => panel('[data-role="consistency-table"] tbody tr').evaluateAll((rows) => rows.map((row) => ({
  n: Number(row.dataset.n), fixedError: Number(row.dataset.fixedError), growingW: Number(row.dataset.growingW),
  growingError: Number(row.dataset.growingError),
})));
const coreRows = (options) => page.evaluate((o) => window.directCore.consistencyStudy({ repeats: 20, ...o }), options);

test('the panel shows the core\'s study for the page\'s noise, seed and width', async () => {
  await finished();
  const rows = await shownRows();
  assert.deepEqual(rows, await coreRows({ w: 1, noise: 0.5, seed: 0 }));
  assert.equal(rows.length, 8);
  assert.equal(rows[0].n, 10);
  assert.equal(rows[7].n, 2000);
  // The teaching point, in the numbers drawn: the growing width keeps lowering the error, the fixed one stalls.
  for (let k = 1; k < rows.length; k += 1) assert.ok(rows[k].growingError < rows[k - 1].growingError, `n = ${rows[k].n}`);
  assert.ok(rows[7].fixedError > 3 * rows[7].growingError);
  // One point per n on each curve, and the verdict quotes the first and last errors.
  for (const layer of ['fixed', 'growing']) {
    const segments = pathSegments(await panel(`[data-figure="consistency"] .layer-${layer} path`).getAttribute('d'));
    assert.equal(segments.reduce((count, segment) => count + segment.length, 0), 8, `${layer}: a point per size`);
    assert.equal(await panel(`[data-figure="consistency"] .layer-${layer}Dots circle`).count(), 8, `${layer}: a dot per size`);
  }
  // The error axis reads as numbers, not SI prefixes.
  const ticks = await panel('[data-figure="consistency"] .axis-y .tick text').allTextContents();
  assert.ok(ticks.includes('0.1') && ticks.every((tick) => !/m$/.test(tick)), ticks.join(' '));
  const verdict = await shownText(panel('[data-role="consistency-verdict"]'));
  assert.match(verdict, new RegExp(`from ${rows[0].fixedError.toFixed(3)} to ${rows[7].fixedError.toFixed(3)}`));
  assert.match(verdict, new RegExp(`from ${rows[0].growingError.toFixed(3)} to ${rows[7].growingError.toFixed(3)}`));
  await screenshot(page, 'consistency', '#pooling [data-role="consistency-panel"]');
});

test('a new width or noise measures again', async () => {
  await typeInto(page, 'w', 3);
  await typeInto(page, 'noise', 1);
  await finished();
  const rows = await shownRows();
  assert.deepEqual(rows, await coreRows({ w: 3, noise: 1, seed: 0 }));
  assert.ok(Math.abs(rows[2].growingW - 3) < 1e-12, 'at n = 50 the growing width is w');
});

test('in Chinese', async () => {
  await page.evaluate(() => window.attentionLab.set({ language: 'zh' }));
  await finished();
  assert.equal(await shownText(panel('.subsection-title')), '数据越多，越接近真相：一致性');
  assert.match(await shownText(panel('[data-role="consistency-verdict"]')), /宽度固定时误差从/);
  await page.evaluate(() => window.attentionLab.set({ language: 'en' }));
  await settled(page);
  assert.deepEqual(problems, []);
});
