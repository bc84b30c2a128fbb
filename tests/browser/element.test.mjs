// The <attention-lab> element over its life in a course page: attribute
// changes keep what the learner did (only a parameter's own attribute moves
// that parameter), a parameter named by two spellings of its attribute is
// reported and the documented one wins, and removing the element stops what
// it runs and lets go of its lab, which comes back when it is put back.
// (Embedding itself, Shadow DOM and CSS isolation: embed.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, elementsReady } from './harness.mjs';

const web = useBrowser();

// The course page with one more element, `id`, made from `attributes`; resolves once it is drawn.
async function courseWithElement(id, attributes) {
  const opened = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(opened.page, 2);
  await opened.page.evaluate(([name, pairs]) => {
    const lab = document.createElement('attention-lab');
    lab.id = name;
    for (const [key, value] of pairs) lab.setAttribute(key, value);
    document.querySelector('main').append(lab);
  }, [id, Object.entries(attributes)]);
  await elementsReady(opened.page, 3);
  return opened;
}

const stateOf = (page, id) => page.evaluate((name) => document.getElementById(name).state, id);
const setAttribute = (page, id, name, value) => page.evaluate(([host, key, text]) => {
  document.getElementById(host).setAttribute(key, text);
}, [id, name, value]);
// Resolves after the element's next drawing (two animation frames).
const drawn = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

test('hide and section changes keep the learner\'s state; a parameter attribute moves only its parameter', async () => {
  const { page, context, problems } = await courseWithElement('lab-train', { section: 'training', hide: 'draw-w0', epochs: '7' });
  const lab = page.locator('#lab-train');
  const box = (name) => lab.locator(`[data-param="${name}"] input[type="number"]`);
  await box('lr').fill('2.5');
  await box('lr').press('Enter');
  await box('w0').fill('3');
  await box('w0').press('Enter');
  assert.equal((await stateOf(page, 'lab-train')).lr, 2.5);

  // hide: other controls hidden, nothing else changes.
  await setAttribute(page, 'lab-train', 'hide', 'w0,w');
  await drawn(page);
  let state = await stateOf(page, 'lab-train');
  assert.equal(state.lr, 2.5, 'a new hide list keeps the learning rate the learner set');
  assert.equal(state.w0, 3);
  assert.equal(state.epochs, 7);
  assert.equal(await box('lr').inputValue(), '2.5', 'and the control shows it');
  assert.equal(await lab.locator('[data-param="w0"]').isVisible(), false, 'w0 hidden now');
  assert.equal(await lab.locator('[data-action="draw-w0"]').isVisible(), true, 'draw-w0 no longer hidden');

  // section: another section of the same state, and back.
  await setAttribute(page, 'lab-train', 'section', 'pooling');
  await page.waitForFunction(() => document.getElementById('lab-train').shadowRoot.querySelector('[data-figure="pooling"]'));
  await elementsReady(page, 3);
  assert.equal((await stateOf(page, 'lab-train')).lr, 2.5, 'a new section keeps the state');
  assert.equal((await stateOf(page, 'lab-train')).w0, 3);
  assert.equal(await lab.locator('[data-param="w"]').isVisible(), false, 'the hide list still applies');
  assert.equal(await lab.locator('[data-param="kernel"]').isVisible(), true);
  await setAttribute(page, 'lab-train', 'section', 'training');
  await page.waitForFunction(() => document.getElementById('lab-train').shadowRoot.querySelector('[data-figure="loss"]'));
  await elementsReady(page, 3);
  assert.equal(await box('lr').inputValue(), '2.5');
  assert.equal(await box('w0').inputValue(), '3');

  // A parameter's attribute: that parameter, and only it.
  await setAttribute(page, 'lab-train', 'epochs', '9');
  state = await stateOf(page, 'lab-train');
  assert.equal(state.epochs, 9);
  assert.equal(state.lr, 2.5);
  assert.equal(state.w0, 3);
  await drawn(page);
  assert.equal(await box('epochs').inputValue(), '9');
  assert.equal(await page.locator('#lab-train').locator('.section-title').count(), 1, 'one section, not two');
  assert.deepEqual(problems, []);
  await context.close();
});
