// Where the models train: in a Web Worker (web/src/run/training-worker.js),
// so that no frame waits for a training step, and on the page's thread where
// the worker is refused, as a strict host's Content-Security-Policy refuses
// it (worker-src 'none'). The same run in both gives the same numbers, bit
// for bit: the readouts and every map's cells. From disk and in the
// <attention-lab> element, the worker is made from the text its bundle
// carries, and trains the same run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, setState, settled, elementsReady, FILE_URL, COURSE_FILE_URL } from './harness.mjs';
import { matrixCells, values } from './figure-readers.mjs';

const shared = useBrowser();

// The page's own policy with workers refused, as a host's stricter one would.
async function refusingWorkers(context) {
  await context.route(/\/(index\.html)?$/, async (route) => {
    const response = await route.fetch();
    const page = await response.text();
    // In the meta policy itself (the page's comments name worker-src too).
    const html = page.replace(/(http-equiv="Content-Security-Policy" content="[^"]*?)worker-src [^;"]*/, '$1worker-src \'none\'');
    if (html === page) throw new Error('the page\'s policy names no worker-src to refuse');
    await route.fulfill({ response, body: html });
  });
}

// The attention-training section in an <attention-lab> element, added to the
// course page, set as playedRun sets the page's.
async function addTrainingElement(page) {
  await elementsReady(page, 2);
  await page.evaluate(() => {
    const element = document.createElement('attention-lab');
    element.id = 'lab-attention';
    element.setAttribute('section', 'attention-training');
    element.setAttribute('at-steps', '300');
    element.setAttribute('at-speed', '1000');
    element.setAttribute('at-heads', '2');
    document.querySelector('main').append(element);
  });
  await elementsReady(page, 3);
  return page.locator('#lab-attention');
}

// Where a run is played: the page over http, the same with workers refused,
// the page opened from disk, and the element on the course page over http
// and from disk (the last three make the worker from its text, a blob: URL).
const PLACES = {
  page: { url: (origin) => `${origin}/` },
  refused: { url: (origin) => `${origin}/`, routes: refusingWorkers },
  disk: { url: () => FILE_URL },
  element: { url: (origin) => `${origin}/course-example.html`, element: true },
  'element from disk': { url: () => COURSE_FILE_URL, element: true },
};

// A short run of the attention-training section, played to its end: where it
// trained, its readouts and every head's map.
async function playedRun(place) {
  const { url, routes = null, element = false } = PLACES[place];
  const { page, context, problems } = await openPage(shared.browser, url(shared.server.origin), {
    routes, ready: element ? 'attention-lab' : undefined,
  });
  const section = element ? await addTrainingElement(page) : page.locator('#attention-training');
  await section.scrollIntoViewIfNeeded();
  await section.locator('[data-action="at-play"]').waitFor();
  if (!element) await setState(page, { atSteps: 300, atSpeed: 1000, atHeads: 2 });
  await settled(page);
  const status = section.locator('[data-role="at-status"]');
  await section.locator('[data-action="at-play"]').click();
  await status.and(section.locator('[data-status="done"]')).waitFor({ timeout: 120000 });
  await settled(page);
  const readout = (role) => section.locator(`[data-role="${role}"]`).getAttribute('data-value');
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
  const inWorker = await playedRun('page');
  assert.equal(inWorker.thread, 'worker', 'trained off the page\'s thread');
  assert.deepEqual(inWorker.problems, [], 'nothing went wrong');
  const onPage = await playedRun('refused');
  assert.equal(onPage.thread, 'page', 'the worker refused, the page trained');
  assert.ok(onPage.problems.every((problem) => /worker|Content Security Policy/i.test(problem)), onPage.problems.join('\n'));
  assert.equal(inWorker.step, '300');
  for (const name of ['step', 'loss', 'accuracy']) assert.equal(onPage[name], inWorker[name], name);
  assert.deepEqual(onPage.maps, inWorker.maps, 'every cell of both heads\' maps');
  assert.ok(inWorker.maps[0].length > 0);

  // Opened from disk, and in the element (over http and from disk), the
  // worker is made from its text: the same run, in a worker, bit for bit.
  for (const place of ['disk', 'element', 'element from disk']) {
    const run = await playedRun(place);
    assert.equal(run.thread, 'worker', `${place}: trained off the page's thread`);
    assert.deepEqual(run.problems, [], `${place}: nothing went wrong`);
    for (const name of ['step', 'loss', 'accuracy']) assert.equal(run[name], inWorker[name], `${place}: ${name}`);
    assert.deepEqual(run.maps, inWorker.maps, `${place}: every cell of both heads' maps`);
  }
});
