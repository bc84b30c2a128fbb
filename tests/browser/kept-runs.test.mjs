// Keep a run, compare it with the next, reload (run/run-comparison.js,
// run/kept-runs.js), in the attention-training section: a run kept at its
// end stands in the comparison with the figures the run showed and its map
// of the first example; the next run, with another setting, shows where it
// differs; both survive a reload, and the learner can remove them; storage
// tampered with brings nothing and breaks nothing; the comparison reads at
// 360 px and in Chinese.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, usePage, shownText, openPage } from './harness.mjs';
import { KEPT_STORAGE_KEY } from '../../web/src/run/kept-runs.js';

let page;
let problems;
const lab = usePage({ section: '#attention-training', opened: (opened) => ({ page, problems } = opened) });

const section = (css) => page.locator(`#attention-training ${css}`);
const readout = (role) => section(`[data-role="${role}"]`).getAttribute('data-value');
const compare = () => section('[data-figure="at-compare"]');
const rows = () => section('[data-role="at-compare-table"] tbody tr');

async function setState(patch) {
  await page.evaluate((p) => window.attentionLab.set(p), patch);
  await settled(page);
}

// Plays the run to its end (100 steps, as fast as the machine allows).
async function playToTheEnd() {
  await section('[data-action="at-play"]').click();
  await page.waitForFunction(() => document.querySelector('#attention-training [data-role="at-status"]')?.dataset.status === 'done');
  await settled(page);
}

// The figures of a row of the comparison's table: steps, accuracy, steps to 95 %.
async function rowFigures(index) {
  const cells = rows().nth(index).locator('td[data-value]');
  return { steps: await cells.nth(0).getAttribute('data-value'), accuracy: await cells.nth(1).getAttribute('data-value'), toGoal: await cells.nth(2).getAttribute('data-value') };
}

async function reopen() {
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await section('').scrollIntoViewIfNeeded();
  await settled(page);
}

test('nothing kept: no comparison, and a run not yet trained cannot be kept', async () => {
  await setState({ atSteps: 100, atSpeed: 1000, atPositional: 'sinusoidal' });
  assert.equal(await compare().isHidden(), true);
  assert.equal(await section('[data-action="at-keep"]').isDisabled(), true, 'step 0: nothing to keep');
});

test('a run kept at its end stands beside the next, with the figures it showed and where the next differs', async () => {
  await playToTheEnd();
  const shown = { steps: await readout('at-step'), accuracy: await readout('at-accuracy') };
  await section('[data-action="at-keep"]').click();
  await compare().waitFor({ state: 'visible' });
  assert.equal(await rows().count(), 2, 'this run and the kept one');
  const kept = await rowFigures(1);
  assert.equal(kept.steps, shown.steps);
  assert.equal(kept.accuracy, shown.accuracy, 'the held-out accuracy the run showed');
  assert.match(await shownText(section('[data-role="at-keep-note"]')), /Kept as run 1/);
  assert.match(await shownText(rows().nth(1).locator('td').first()), /the same settings/);
  // Its map: block 1, head 1 of the first example, as the maps drew it at the end.
  assert.match(await shownText(section('.runs-map[data-run="1"] .runs-map-title')), /Run 1, step 100:/);

  await setState({ atPositional: 'learned' });
  assert.equal(await rows().count(), 2);
  const differs = await shownText(rows().nth(1).locator('td').first());
  assert.match(differs, /Positions/, 'it names the setting');
  assert.match(differs, /Sinusoidal/, 'and the kept run\'s value');
  assert.equal((await rowFigures(0)).steps, '0', 'the new run starts');
  await playToTheEnd();
  const live = await rowFigures(0);
  assert.equal(live.steps, '100');
  assert.equal(live.accuracy, await readout('at-accuracy'), 'the live row is the run on screen');
  // Steps to 95 %: an evaluation step (every 50) or none, as the curves say.
  for (const figures of [live, await rowFigures(1)]) assert.ok(['', '50', '100'].includes(figures.toGoal), figures.toGoal);
  assert.equal(await section('[data-figure="at-compare-curves"] path.run-kept-1').count(), 1, 'the kept curve');
  assert.equal(await section('[data-figure="at-compare-curves"] path.run-live').count(), 1, 'this run\'s curve');
  assert.deepEqual(problems, []);
});

test('kept runs survive a reload, read in Chinese, fit 360 px, and can be removed', async () => {
  const before = await rowFigures(1);
  await reopen();
  await compare().waitFor({ state: 'visible' });
  assert.deepEqual(await rowFigures(1), before, 'the same figures after the reload');

  await page.evaluate(() => window.attentionLab.set({ language: 'zh' }));
  await settled(page);
  assert.match(await shownText(section('[data-role="at-compare-table"] thead')), /达到 95 % 的步数/);
  assert.match(await shownText(rows().nth(1).locator('th')), /第 1 次/);
  await page.evaluate(() => window.attentionLab.set({ language: 'en' }));
  await settled(page);

  await page.setViewportSize({ width: 360, height: 800 });
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px at 360 px`);
  assert.equal(await compare().isVisible(), true);
  await page.setViewportSize({ width: 1280, height: 900 });

  await section('[data-action="at-remove-1"]').click();
  await compare().waitFor({ state: 'hidden' });
  await reopen();
  assert.equal(await compare().isHidden(), true, 'removed for good');
  assert.deepEqual(problems, []);
});

test('tampered storage brings no run and breaks nothing', async () => {
  // An accuracy of 7 and no map: no run the lab could have kept.
  const stored = JSON.stringify({
    version: 1, sections: { 'attention-training': [{ given: {}, step: 100, loss: 0.1, msPerStep: 1, evaluatedAt: [50, 100], accuracy: [0.5, 7], map: null }] },
  });
  const tampered = await openPage(lab.browser, `${lab.server.origin}/`, {
    init: { content: `localStorage.setItem(${JSON.stringify(KEPT_STORAGE_KEY)}, ${JSON.stringify(stored)});` },
  });
  try {
    const root = tampered.page.locator('#attention-training');
    await root.scrollIntoViewIfNeeded();
    await settled(tampered.page);
    assert.equal(await root.locator('[data-figure="at-compare"]').isHidden(), true);
    assert.equal(await root.locator('[data-role="at-status"]').getAttribute('data-status'), 'ready', 'the section works');
    assert.deepEqual(tampered.problems, []);
  } finally {
    await tampered.context.close();
  }
});

test('the translator keeps its runs too: its cross-attention map of the first pair, target words down and source words across', async () => {
  const translation = (css) => page.locator(`#translation ${css}`);
  await translation('').scrollIntoViewIfNeeded();
  await setState({ trSteps: 50 });
  await translation('[data-action="tr-play"]').click();
  await page.waitForFunction(() => document.querySelector('#translation [data-role="tr-status"]')?.dataset.status === 'done', null, { timeout: 120000 });
  await settled(page);
  await translation('[data-action="tr-keep"]').click();
  await translation('[data-figure="tr-compare"]').waitFor({ state: 'visible' });
  const cells = translation('[data-role="tr-compare-table"] tbody tr').nth(1).locator('td[data-value]');
  assert.equal(await cells.nth(0).getAttribute('data-value'), '50');
  assert.equal(await cells.nth(1).getAttribute('data-value'), await translation('[data-role="tr-accuracy"]').getAttribute('data-value'));
  // The map's title names the first pair's source words, as its examples' table writes them.
  const title = await shownText(translation('.runs-map[data-run="1"] .runs-map-title'));
  const firstSource = await shownText(translation('[data-role="tr-examples"] tbody tr').first().locator('td').nth(1));
  for (const word of firstSource.split(/\s+/).filter((w) => /^[a-z]+$/.test(w))) assert.ok(title.includes(word), `${word} in "${title}"`);
  assert.equal(await section('[data-figure="at-compare"]').isHidden(), true, 'each section keeps its own');
  await translation('[data-action="tr-remove-1"]').click();
  assert.deepEqual(problems, []);
});
