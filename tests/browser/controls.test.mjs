// Controls clamp to the parameter table's bounds; a core error appears next
// to the control that caused it and the page keeps working; the data
// controls redraw the same picture for the same seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, shownText } from './harness.mjs';
import { drawnPoints, paintedPointCount } from './figure-readers.mjs';

let page;
let problems;
usePage({ opened: (lab) => ({ page, problems } = lab) });

const numberBox = (parameter) => page.locator(`[data-param="${parameter}"] input[type="number"]`);
const dataPlot = () => page.locator('[data-figure="data"]');
const pointPositions = async () => (await drawnPoints(dataPlot())).map(({ cx, cy }) => `${cx},${cy}`);

// (Every bound and step of the table: tests/web/state.test.mjs.)
test('a typed value is clamped and snapped, shown so in its box and drawn so', async () => {
  await typeInto(page, 'noise', 0.333);
  await settled(page);
  assert.equal(await numberBox('noise').inputValue(), '0.35', 'snapped to the step of 0.05');
  await typeInto(page, 'n', -3);
  await settled(page);
  assert.equal(await numberBox('n').inputValue(), '2', 'clamped to the bound');
  assert.equal(await paintedPointCount(dataPlot()), 2, 'the clamped value is the one drawn');
  await typeInto(page, 'n', 50);
  await typeInto(page, 'noise', 0.5);
  await settled(page);
  assert.equal(await paintedPointCount(dataPlot()), 50);
});

test('the slider and the number box show the same value', async () => {
  const slider = page.locator('[data-param="noise"] input[type="range"]');
  await slider.focus();
  await page.keyboard.press('End');
  await settled(page);
  assert.equal(await numberBox('noise').inputValue(), '2');
  await page.keyboard.press('Home');
  await settled(page);
  assert.equal(await numberBox('noise').inputValue(), '0');
  await typeInto(page, 'noise', 0.5);
  await settled(page);
  assert.equal(await slider.inputValue(), '250', 'noise 0.5 of [0, 2] sits at a quarter of the slider');
});

test('same seed, same picture; a new sample is a new seed', async () => {
  const first = await pointPositions();
  await page.locator('[data-action="new-sample"]').click();
  await settled(page);
  assert.equal(await numberBox('seed').inputValue(), '1');
  const second = await pointPositions();
  assert.notDeepEqual(second, first);
  await typeInto(page, 'seed', 0);
  await settled(page);
  assert.deepEqual(await pointPositions(), first, 'seed 0 again draws exactly the same points');
});

test('a core error shows next to the control that caused it, and the page keeps working', async () => {
  const before = await pointPositions();
  // The bounds never let noise = -1 through; this puts it past them to reach the core.
  await page.evaluate(() => window.attentionLab.setUnchecked({ noise: -1 }));
  await settled(page);
  const error = page.locator('[data-error-for="noise"]');
  assert.equal(await error.isVisible(), true);
  assert.match(await shownText(error), /noise/, 'the core names the argument');
  assert.equal(await page.locator('[data-error-for="n"]').isVisible(), false, 'only the guilty control');
  assert.deepEqual(await pointPositions(), before, 'the last good drawing stays');

  await typeInto(page, 'noise', 0.3);
  await settled(page);
  assert.equal(await error.isVisible(), false, 'a good value clears the error');
  const after = await pointPositions();
  assert.equal(after.length, 50);
  assert.notDeepEqual(after, before, 'and the page draws again');
  await typeInto(page, 'noise', 0.5);
  await settled(page);
  assert.deepEqual(problems, []);
});

test('going back to the values last drawn after a refusal clears the error and the out-of-date mark', async () => {
  const figures = page.locator('#data .figures');
  const error = page.locator('[data-error-for="noise"]');
  await page.evaluate(() => window.attentionLab.setUnchecked({ noise: -1 }));
  await settled(page);
  assert.equal(await error.isVisible(), true);
  assert.match(await figures.getAttribute('class'), /is-stale/, 'marked: the figures are of the last good values');
  // Exactly the values drawn before: nothing new to compute. (Through the page's API: the number box
  // never showed -1, so typing 0.5 into it changes nothing.)
  await page.evaluate(() => window.attentionLab.set({ noise: 0.5 }));
  await settled(page);
  assert.equal(await error.isVisible(), false, 'the error is gone');
  assert.doesNotMatch(await figures.getAttribute('class'), /is-stale/, 'and so is the mark');
  assert.equal(await page.locator('#data .figures > .stale-note').count(), 0);
});

test('a disabled kernel choice under average pooling', async () => {
  await page.locator('[data-param="estimator"] [data-value="average"]').click();
  await settled(page);
  assert.match(await page.locator('[data-param="kernel"]').getAttribute('class'), /is-disabled/);
  await page.locator('[data-param="estimator"] [data-value="nadaraya-watson"]').click();
  await settled(page);
  assert.doesNotMatch(await page.locator('[data-param="kernel"]').getAttribute('class'), /is-disabled/);
});
