// Where the models train: in a Web Worker (web/src/run/training-worker.js),
// so that no frame waits for a training step, and on the page's thread where
// the worker is refused, as a strict host's Content-Security-Policy refuses
// it (worker-src 'none'). The same run in both gives the same numbers, bit
// for bit: the readouts, every curve's last point and every map's cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, setState, settled } from './harness.mjs';
import { matrixCells, values } from './figure-readers.mjs';

const shared = useBrowser();

// The page's own policy with workers refused, as a host's stricter one would.
async function refusingWorkers(context) {
  await context.route(/\/(index\.html)?$/, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/(http-equiv="Content-Security-Policy" content="[^"]*)"/, '$1; worker-src \'none\'"');
    await route.fulfill({ response, body: html });
  });
}

// A short run of the attention-training section, played to its end: where it
// trained, its readouts and every head's map.
async function playedRun({ refuse }) {
  const { page, context, problems } = await openPage(shared.browser, `${shared.server.origin}/`, {
    routes: refuse ? refusingWorkers : null,
  });
  await page.locator('#attention-training').scrollIntoViewIfNeeded();
  await page.waitForSelector('#attention-training [data-action="at-play"]');
  await setState(page, { atSteps: 300, atSpeed: 1000, atHeads: 2 });
  await page.locator('[data-action="at-play"]').click();
  await page.waitForFunction(() => document.querySelector('[data-role="at-status"]')?.dataset.status === 'done', null, { timeout: 120000 });
  await settled(page);
  const status = page.locator('[data-role="at-status"]');
  const readout = (role) => page.locator(`[data-role="${role}"]`).getAttribute('data-value');
  const run = {
    thread: await status.getAttribute('data-thread'),
    step: await readout('at-step'), loss: await readout('at-loss'), accuracy: await readout('at-accuracy'),
    maps: [values(await matrixCells(page, 'at-map-b1-h1')), values(await matrixCells(page, 'at-map-b1-h2'))],
    problems,
  };
  await context.close();
  return run;
}

test('a run trains in the worker, and where a policy refuses the worker, on the page, with the same numbers bit for bit', { timeout: 300000 }, async () => {
  const inWorker = await playedRun({ refuse: false });
  assert.equal(inWorker.thread, 'worker', 'trained off the page\'s thread');
  assert.deepEqual(inWorker.problems, [], 'nothing went wrong');
  const onPage = await playedRun({ refuse: true });
  assert.equal(onPage.thread, 'page', 'the worker refused, the page trained');
  assert.ok(onPage.problems.every((problem) => /worker|Content Security Policy/i.test(problem)), onPage.problems.join('\n'));
  assert.equal(inWorker.step, '300');
  for (const name of ['step', 'loss', 'accuracy']) assert.equal(onPage[name], inWorker[name], name);
  assert.deepEqual(onPage.maps, inWorker.maps, 'every cell of both heads\' maps');
  assert.ok(inWorker.maps[0].length > 0);
});
