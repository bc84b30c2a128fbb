// A change is drawn first where the learner is looking: the sections near
// the screen in the change's frame, the others in tasks after it; every
// section ends up showing the change (attentionLab.drawn() says when).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, usePage, shownText } from './harness.mjs';
import { paintedPointCount } from './figure-readers.mjs';

let page;
let problems;
usePage({ section: '#data', opened: (lab) => ({ page, problems } = lab) });

// The training section's loss landscape, which the data changes, once it
// has filled in (121 widths at these sizes, over a frame or two).
async function landscape() {
  await page.waitForFunction(() => (document.querySelector('[data-figure="landscape"] .layer-landscape path')
    ?.getAttribute('d') ?? '').split(/[LM]/).filter(Boolean).length === 121);
  return page.locator('[data-figure="landscape"] .layer-landscape path').getAttribute('d');
}

test('a noise change: the data section is drawn in its frame, the training section out of sight after it', async () => {
  const before = await landscape();
  const inFrame = await page.evaluate(async () => {
    performance.clearMeasures();
    const range = document.querySelector('[data-param="noise"] input[type="range"]');
    range.value = String(Number(range.value) === 700 ? 300 : 700);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    // Right after the frame of the change is painted (Chromium's scheduler.postTask).
    await new Promise((resolve) => requestAnimationFrame(() => scheduler.postTask(resolve, { priority: 'user-blocking' })));
    const drawn = (id) => performance.getEntriesByName(`attention-lab:draw:${id}`).length > 0;
    const result = { data: drawn('data'), training: drawn('training'), landscape: document.querySelector('[data-figure="landscape"] .layer-landscape path').getAttribute('d') };
    await window.attentionLab.drawn();
    return { ...result, trainingAfter: drawn('training') };
  });
  assert.equal(inFrame.data, true, 'the section being changed is drawn in the frame');
  assert.equal(inFrame.training, false, 'the training section, out of sight, waits');
  assert.equal(inFrame.landscape, before, 'so its landscape is still the old one in that frame');
  assert.equal(inFrame.trainingAfter, true, 'then it is drawn');
  assert.notEqual(await landscape(), before, 'and shows the new noise');
  assert.deepEqual(problems, []);
});

test('changes made while a section is out of sight all reach it, and it shows them when scrolled to', async () => {
  const state = await page.evaluate(() => window.attentionLab.state);
  await page.locator('[data-param="seed"] input[type="number"]').fill(String(state.seed + 1));
  await page.locator('[data-param="seed"] input[type="number"]').press('Enter');
  await page.locator('[data-param="n"] input[type="number"]').fill('40');
  await page.locator('[data-param="n"] input[type="number"]').press('Enter');
  await settled(page);
  await page.locator('#pooling').scrollIntoViewIfNeeded();
  assert.equal(await paintedPointCount(page.locator('[data-figure="pooling"]')), 40, 'n reached the pooling section');
  // The training section draws the same data: its landscape is that of the new seed and n.
  const drawnLandscape = await landscape();
  await page.evaluate(() => window.attentionLab.set({ seed: 0 }));
  await settled(page);
  assert.notEqual(await landscape(), drawnLandscape, 'the landscape follows the seed');
  await page.evaluate((seed) => window.attentionLab.set({ seed }), state.seed + 1);
  await settled(page);
  assert.equal(await landscape(), drawnLandscape, 'and is the same for the same seed and n, however it got there');
  assert.deepEqual(problems, []);
});

test('a width change with the pooling figures in view: the exercises below them answer after the frame, then follow', async () => {
  // The section's top at the top of the screen: its controls and figures in view, its exercises far below.
  // The page scrolls smoothly (scroll-behavior): at once here, and waited for until it is there,
  // however long a loaded machine takes.
  await page.evaluate(() => document.getElementById('pooling').scrollIntoView({ block: 'start', behavior: 'instant' }));
  await page.waitForFunction(() => {
    const { top } = document.getElementById('pooling').getBoundingClientRect();
    return top >= 0 && top < 100; // at the scroll padding, below the sticky contents
  });
  await settled(page);
  const question = '[data-exercise="pooling.narrower-kernel"] legend';
  const inView = await page.locator(question).evaluate((node) => {
    const box = node.getBoundingClientRect();
    return box.top < innerHeight * 1.5 && box.bottom > -innerHeight * 0.5;
  });
  assert.equal(inView, false, 'the set-up: the exercise is out of sight (more than half a screen away)');
  const before = await shownText(page.locator(question));
  const seen = await page.evaluate(async (selector) => {
    performance.clearMeasures();
    const range = document.querySelector('[data-param="w"] input[type="range"]');
    range.value = String(Number(range.value) === 700 ? 300 : 700);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => requestAnimationFrame(() => scheduler.postTask(resolve, { priority: 'user-blocking' })));
    const inFrame = {
      pooling: performance.getEntriesByName('attention-lab:draw:pooling').length > 0,
      question: document.querySelector(selector).textContent,
    };
    await window.attentionLab.drawn();
    return { ...inFrame, after: document.querySelector(selector).textContent, w: window.attentionLab.state.w };
  }, question);
  assert.equal(seen.pooling, true, 'the pooling figures are drawn in the frame');
  assert.equal(seen.question, before, 'the exercise out of sight still asks about the old width in that frame');
  assert.notEqual(seen.after, before, 'then it is brought up to date');
  assert.ok(seen.after.includes(String(Number(seen.w.toFixed(3)))), `it asks about the new width ${seen.w}: ${seen.after}`);
  assert.deepEqual(problems, []);
});
