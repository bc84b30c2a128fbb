// The core's parts on the page: the cues' part comes first and the first
// screen is usable with it alone; the basics and the models are asked for
// after the first screen is up, and the sections that declare them
// (corePart) are built once they are here (the sections before them are not
// held back). Over http (each part's wasm a file) and from file:// (each
// part in a classic script).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, typeInto, foreignRequests, makePredictions, afterFrames, FILE_URL, shownText } from './harness.mjs';
import { SECTIONS } from '../../web/src/sections/registry.js';

const web = useBrowser();

const NEEDS_MODELS = SECTIONS.filter((section) => section.corePart === 'models').map(({ id }) => id);
const FIRST_NEEDING = SECTIONS.findIndex((section) => section.corePart === 'models');
const ON_CUES = SECTIONS.filter((section) => section.corePart === 'cues').map(({ id }) => id);
// When the page asked for a file, or null (a resource entry appears once its response is complete).
const requestedAt = (page, file) => page.evaluate((name) => performance.getEntriesByType('resource')
  .find((entry) => entry.name.endsWith(`/${name}`))?.startTime ?? null, file);
const firstScreenBuilt = (page) => page.evaluate(() => (([entry]) => entry.startTime + entry.duration)(
  performance.getEntriesByName('attention-lab:first-sections-built')));
const BEFORE_MODELS = SECTIONS.slice(0, FIRST_NEEDING).map(({ id }) => id);
const builtSections = (page) => page.evaluate(() => [...document.querySelectorAll('main > section')]
  .filter((section) => section.querySelector('.section-title')).map((section) => section.id));

test('the sections that need the models are the translator, the encoder and multi-head attention\'s parameter count', () => {
  assert.deepEqual(NEEDS_MODELS, ['translation', 'multihead', 'attention-training']);
  assert.ok(BEFORE_MODELS.length >= 5, 'the first screen needs none of them');
});

// The page opened over http with one part's wasm held back until release()
// is called; once the page is interactive: whether that part was asked for
// (asked()), and the page's errors (problems).
async function openHoldingBack(part, height) {
  const context = await web.browser.newContext({ viewport: { width: 1280, height } });
  const page = await context.newPage();
  await makePredictions(page); // no figure covered by an open prediction
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  let release;
  const released = new Promise((resolve) => {
    release = resolve;
  });
  let asked = false;
  await page.route(new RegExp(`attention-core-${part}\\.wasm$`), async (route) => {
    asked = true;
    await released;
    await route.continue();
  });
  await page.goto(`${web.server.origin}/`);
  await page.waitForSelector('body.is-ready');
  await page.waitForFunction(() => performance.getEntriesByName('attention-lab:interactive').length > 0);
  return { context, page, problems, release, asked: () => asked };
}

test('the first section alone computes with the cues\' part', () => {
  assert.deepEqual(ON_CUES, [SECTIONS[0].id]);
});

test('over http: the first screen waits for the cues\' part alone; the basics are fetched after it, then the rest is built', async () => {
  const { context, page, problems, release, asked } = await openHoldingBack('basics', 800);
  assert.deepEqual(await builtSections(page), ON_CUES, 'the first screen is the cues section, built while the basics are held back');
  assert.ok(asked(), 'the basics were asked for while the learner reads');
  const cuesAt = await requestedAt(page, 'attention-core-cues.wasm');
  assert.ok(cuesAt !== null, 'the cues\' part was loaded');

  // The first screen answers from the cues' part: another random matrix, drawn by it (random draws, softmax).
  const exercise = '[data-exercise="cues.random-softmax"]';
  const before = await page.locator(exercise).innerHTML();
  await page.locator(`${exercise} [data-action="another"]`).click();
  await page.waitForFunction(([selector, old]) => document.querySelector(selector).innerHTML !== old, [exercise, before]);

  release();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
  const basicsAt = await requestedAt(page, 'attention-core-basics.wasm');
  const firstScreen = await firstScreenBuilt(page);
  assert.ok(basicsAt >= firstScreen, `the basics were fetched at ${basicsAt.toFixed(0)} ms, after the first screen was built (${firstScreen.toFixed(0)} ms)`);
  assert.deepEqual(await builtSections(page), SECTIONS.map(({ id }) => id), 'every section is built once the parts are here');
  assert.ok(await page.locator('#pooling svg').count() > 0, 'the pooling section draws from the basics');
  assert.deepEqual(problems, []);
  await context.close();
});

test('over http: usable with the basics alone; the models are fetched after the first screen and then built', async () => {
  // The models' wasm is held back until the test lets it through.
  const { context, page, problems, release, asked } = await openHoldingBack('models', 900);

  // Every section before the first that needs the models gets built and drawn meanwhile.
  await page.waitForFunction((ids) => ids.every((id) => document.querySelector(`#${id} .section-title`)), BEFORE_MODELS);
  await afterFrames(page, 20); // frames enough for any section to be built that should not be
  const built = await builtSections(page);
  for (const id of NEEDS_MODELS) assert.ok(!built.includes(id), `${id} waits for the models`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.ready), undefined, 'not every section is ready');
  assert.ok(asked(), 'the models were asked for while the learner reads');

  // The first screen answers: a new kernel width is drawn with the basics alone.
  const formula = page.locator('[data-role="query-formula"]');
  const before = await formula.getAttribute('data-prediction');
  await typeInto(page, 'w', 5);
  await page.waitForFunction((old) => document.querySelector('[data-role="query-formula"]')
    .getAttribute('data-prediction') !== old, before);

  // The models' wasm was asked for after the first screen was built.
  release();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 60000 });
  const modelsStart = await requestedAt(page, 'attention-core-models.wasm');
  const firstScreen = await firstScreenBuilt(page);
  assert.ok(modelsStart >= firstScreen,
    `the models were fetched at ${modelsStart.toFixed(0)} ms, after the first screen was built (${firstScreen.toFixed(0)} ms)`);

  // Now the sections that need the models are built and drawn from them.
  const after = await builtSections(page);
  for (const id of NEEDS_MODELS) assert.ok(after.includes(id), `${id} is built once the models are here`);
  assert.ok(await page.locator('#translation svg').count() > 0, 'the translator draws');
  assert.ok(await page.locator('#attention-training svg').count() > 0, 'the encoder\'s run draws');
  await page.locator('#attention-training [data-action="at-play"]').click();
  await page.waitForFunction(() => Number(document.querySelector('#attention-training [data-role="at-step"]').dataset.value) >= 5,
    null, { timeout: 30000 }); // the encoder trains, step by step
  assert.deepEqual(problems, []);
  await context.close();
});

test('a page of one section that needs the models (#embed) loads both parts and draws it', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, `${web.server.origin}/#embed=translation`);
  assert.deepEqual(await builtSections(page), ['translation']);
  assert.ok(await page.locator('#translation svg').count() > 0, 'the translator draws');
  for (const file of ['attention-core-basics.wasm', 'attention-core-models.wasm']) {
    assert.ok(requests.includes(`${web.server.origin}/${file}`), `${file} was loaded`);
  }
  assert.ok(!requests.includes(`${web.server.origin}/attention-core-cues.wasm`), 'the cues\' part, which it does not need, was not');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a failed models part is named on the page; the first screen stays usable', async () => {
  const context = await web.browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route(/attention-core-models(\.wasm|-wasm\.js)$/, (route) => route.fulfill({ status: 404, body: 'not here' }));
  await page.goto(`${web.server.origin}/`);
  await page.waitForSelector('#loading[data-state="failed"]');
  assert.match(await shownText(page.locator('[data-role="load-error"]')), /attention-core-models\.wasm could not be loaded/);
  const built = await builtSections(page);
  for (const id of BEFORE_MODELS) assert.ok(built.includes(id), `${id} is built`);
  for (const id of NEEDS_MODELS) assert.ok(!built.includes(id), `${id} is not`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('from file://: every part comes in its script beside the page, every section is built', async () => {
  const { page, context, problems, requests } = await openPage(web.browser, FILE_URL);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreignRequests(requests, null), [], 'nothing but files and inline data');
  for (const file of ['attention-core-cues-wasm.js', 'attention-core-basics-wasm.js', 'attention-core-models-wasm.js']) {
    assert.ok(requests.some((url) => url.endsWith(`/dist/${file}`)), `${file} was loaded`);
  }
  assert.deepEqual(await builtSections(page), SECTIONS.map(({ id }) => id));
  assert.ok(await page.locator('#translation svg').count() > 0, 'the translator draws');
  await context.close();
});
