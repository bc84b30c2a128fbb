// Training w on the page: the loss falls, every number shown is the core's
// trainKernelWidth, reset returns to the same w0, and the leave-one-out
// switch changes the outcome the way the book says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeInto, settled, usePage, afterFrames, shownText } from './harness.mjs';
import { pathSegments } from './figure-readers.mjs';

let page;
let problems;
usePage({ section: '#training', directCore: true, opened: (lab) => ({ page, problems } = lab) });

const section = (css) => page.locator(`#training ${css}`);

// What the page shows: the epoch log (full precision in data attributes, and
// as text) and the read-out of the current w.
async function shownRun() {
  const rows = await section('.epoch-log tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    epoch: Number(tr.dataset.epoch),
    loss: Number(tr.dataset.loss),
    w: Number(tr.dataset.w),
    text: [...tr.cells].map((td) => td.textContent),
  })));
  const w = Number(await section('[data-role="w"]').getAttribute('data-value'));
  return { rows, w, wText: await shownText(section('[data-role="w"]')) };
}

async function coreRun(options) {
  return page.evaluate((opts) => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const run = window.directCore.trainKernelWidth(x, y, opts);
    return { w: Array.from(run.w), loss: Array.from(run.loss), stopReason: run.stopReason };
  }, options);
}

async function playToTheEnd() {
  await section('[data-action="play"]').click();
  await page.waitForSelector('#training [data-role="status"][data-status="done"]', { timeout: 60000 });
  await settled(page);
}

// d3-format's '.6~g' with a true minus sign, as the page formats w and the loss.
const sixDigits = (value) => Number(value.toPrecision(6)).toString().replace('-', '−');

test('a training run lowers the loss and moves w exactly as trainKernelWidth says', async () => {
  const dotBefore = await section('[data-figure="landscape"] .layer-current circle').getAttribute('cx');
  await playToTheEnd();
  const shown = await shownRun();
  const expected = await coreRun({ w0: 1, lr: 0.5, epochs: 5, leaveOneOut: true });
  assert.equal(expected.stopReason, null);
  assert.equal(shown.rows.length, 5, 'one row per epoch');
  shown.rows.forEach((row, i) => {
    assert.equal(row.epoch, i + 1);
    assert.equal(row.loss, expected.loss[i], `loss of epoch ${i + 1}`);
    assert.equal(row.w, expected.w[i + 1], `w after epoch ${i + 1}`);
    assert.deepEqual(row.text, [String(i + 1), sixDigits(expected.loss[i]), sixDigits(expected.w[i + 1])]);
  });
  assert.equal(shown.w, expected.w[5]);
  assert.equal(shown.wText, sixDigits(expected.w[5]));
  assert.ok(expected.loss[4] < expected.loss[0], 'the loss went down');

  // The loss curve has one point per epoch and falls; the current w moved on the landscape.
  const [curve] = pathSegments(await section('[data-figure="loss"] .layer-loss path').getAttribute('d'));
  assert.equal(curve.length, 5);
  assert.ok(curve[4][1] > curve[0][1], 'the last loss is drawn lower than the first (SVG y grows downwards)');
  assert.notEqual(await section('[data-figure="landscape"] .layer-current circle').getAttribute('cx'), dotBefore);
  assert.equal(await section('[data-figure="landscape"] .layer-steps circle').count(), 5);
});

test('the prediction and the heatmap sharpen with the trained w', async () => {
  const { w } = await shownRun();
  const direct = await page.evaluate((trained) => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const queries = Array.from({ length: 50 }, (_, i) => i * 0.1);
    const weights = window.directCore.attentionWeights(queries, x, { kernel: 'gaussian', w: trained });
    return { top: Math.max(...weights), first: window.directCore.nadarayaWatson([0], x, y, { kernel: 'gaussian', w: trained })[0] };
  }, w);
  const colourbarTop = await section('[data-figure="training-heatmap"] .colorbar .tick:last-of-type text').textContent();
  assert.ok(Number(colourbarTop) <= direct.top && Number(colourbarTop) > direct.top / 2,
    `the colour bar reaches the largest weight (${direct.top}), top tick ${colourbarTop}`);
  assert.ok(direct.top > 0.3, 'with w ≈ 10 a query puts most of its weight on a few keys');
  const prediction = pathSegments(await section('[data-figure="training-prediction"] .layer-prediction path').getAttribute('d'))[0];
  const start = pathSegments(await section('[data-figure="training-prediction"] .layer-start path').getAttribute('d'))[0];
  assert.notDeepEqual(prediction, start, 'the prediction moved away from the one with w0');
});

test('reset keeps the same initial w, step advances one epoch', async () => {
  await section('[data-action="reset"]').click();
  await settled(page);
  let shown = await shownRun();
  assert.equal(shown.rows.length, 0);
  assert.equal(shown.w, 1, 'back to w0 = 1');
  await section('[data-action="step"]').click();
  await section('[data-action="step"]').click();
  await settled(page);
  shown = await shownRun();
  const expected = await coreRun({ w0: 1, lr: 0.5, epochs: 2, leaveOneOut: true });
  assert.deepEqual(shown.rows.map((row) => row.w), expected.w.slice(1));
  assert.equal(await section('[data-role="status"]').getAttribute('data-status'), 'paused');
  await section('[data-action="reset"]').click();
  await playToTheEnd();
  const again = await shownRun();
  const fresh = await coreRun({ w0: 1, lr: 0.5, epochs: 5, leaveOneOut: true });
  assert.equal(again.w, fresh.w[5], 'the same run again from the same w0');
});

test('without leave-one-out w runs away and the training loss falls lower', async () => {
  const withLoo = await shownRun();
  await section('[data-param="leaveOneOut"] .switch').click();
  await settled(page);
  assert.equal(await section('[data-role="loo-off"]').isVisible(), true, 'the page says what is going on');
  assert.equal((await shownRun()).rows.length, 0, 'switching starts a fresh run');
  await playToTheEnd();
  const withoutLoo = await shownRun();
  const expected = await coreRun({ w0: 1, lr: 0.5, epochs: 5, leaveOneOut: false });
  assert.deepEqual(withoutLoo.rows.map((row) => row.w), expected.w.slice(1));
  assert.deepEqual(withoutLoo.rows.map((row) => row.loss), expected.loss);
  assert.ok(withoutLoo.w > withLoo.w, `w grows further without leave-one-out: ${withoutLoo.w} vs ${withLoo.w}`);
  assert.ok(withoutLoo.rows[4].loss < withLoo.rows[4].loss, 'and the loss it reports is lower: it sees the answers');
  // Both landscapes are drawn; the one in use is solid.
  assert.equal(await section('[data-figure="landscape"] .layer-landscape path').getAttribute('class'), 'landscape-noloo');

  await section('[data-param="leaveOneOut"] .switch').click();
  await settled(page);
  assert.equal(await section('[data-role="loo-off"]').isVisible(), false);
});

test('w0 is drawn from U[0, 1) by the core, and a new w0 starts a new run', async () => {
  await section('[data-action="draw-w0"]').click();
  await settled(page);
  const drawn = Number(await page.locator('[data-param="w0"] input[type="number"]').inputValue());
  const fromCore = await page.evaluate(() => window.directCore.makeDataset({ n: 1, seed: 1, noise: 0, xMax: 1 }).x[0]);
  assert.ok(drawn >= 0 && drawn < 1);
  assert.equal(drawn, Number(fromCore.toFixed(3)), 'the core\'s draw, on the w0 step of 0.001');
  assert.equal(Number(await section('[data-role="w"]').getAttribute('data-value')), drawn);
  await typeInto(page, 'w0', 1);
  await settled(page);
});

test('a long run advances frame by frame, pauses and resumes, and stays exact', async () => {
  await typeInto(page, 'epochs', 200);
  await section('[data-action="reset"]').click();
  await section('[data-action="play"]').click();
  // While it plays, the page still answers: the status text changes between frames.
  await page.waitForFunction(() => Number(document.querySelector('#training progress').value) > 5);
  await section('[data-action="play"]').click(); // now labelled Pause
  await settled(page);
  assert.equal(await section('[data-role="status"]').getAttribute('data-status'), 'paused');
  const paused = (await shownRun()).rows.length;
  assert.ok(paused > 5 && paused < 200, `paused midway, at epoch ${paused}`);
  await afterFrames(page, 20); // a playing run adds epochs every frame
  assert.equal((await shownRun()).rows.length, paused, 'nothing runs while paused');
  await section('[data-action="play"]').click();
  await page.waitForSelector('#training [data-role="status"][data-status="done"]', { timeout: 60000 });
  const shown = await shownRun();
  const expected = await coreRun({ w0: 1, lr: 0.5, epochs: 200, leaveOneOut: true });
  assert.equal(shown.rows.length, 200);
  assert.equal(shown.w, expected.w[200], 'chunked training gives the numbers of one call');
  assert.equal(shown.rows[199].loss, expected.loss[199]);
  assert.deepEqual(problems, []);
});
