// The <attention-lab> element over its life in a course page: attribute
// changes keep what the learner did (only a parameter's own attribute moves
// that parameter), a parameter named by two spellings of its attribute is
// reported and the documented one wins, and removing the element stops what
// it runs and lets go of its lab, which comes back when it is put back.
// (Embedding itself, Shadow DOM and CSS isolation: embed.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, elementsReady, countFrames } from './harness.mjs';

const web = useBrowser();

// The course page with one more element, `id`, made from `attributes`; resolves once it is drawn.
async function courseWithElement(id, attributes, { init = null } = {}) {
  const opened = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab', init });
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

// Attributes named after members of Object.prototype name nothing: the
// element shows its default section, the learner's exercises, the page's
// language, and a heading is only text. Set later, the same.
test('attributes named after members of Object.prototype: the default section, the learner\'s exercises, the page\'s language', async () => {
  const { page, context, problems } = await courseWithElement('lab-proto', {
    section: '__proto__', exercises: 'constructor', hide: '__proto__,toString', language: 'valueOf', heading: 'hasOwnProperty',
  });
  const shown = () => page.evaluate(() => {
    const root = document.getElementById('lab-proto').shadowRoot;
    return {
      section: root.querySelector('.lab-root').dataset.sectionShown,
      modes: [...root.querySelectorAll('[data-role="exercises"]')].map((block) => block.dataset.mode),
      title: root.querySelector('.section-title')?.textContent,
    };
  });
  let now = await shown();
  assert.equal(now.section, 'pooling');
  assert.deepEqual(now.modes, ['on']);
  assert.match(now.title, /hasOwnProperty/, 'the heading, as text');
  assert.equal((await stateOf(page, 'lab-proto')).language, 'en');
  for (const [name, value] of [['section', 'constructor'], ['exercises', 'toString'], ['language', '__proto__'], ['section', 'valueOf']]) {
    await setAttribute(page, 'lab-proto', name, value);
    await elementsReady(page, 3);
    now = await shown();
    assert.equal(now.section, 'pooling', `${name}=${value}`);
    assert.deepEqual(now.modes, ['on'], `${name}=${value}`);
    assert.equal((await stateOf(page, 'lab-proto')).language, 'en', `${name}=${value}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});


test('removed, the element stops its training run and lets go of its lab; moved, it goes on; put back, it draws again', async () => {
  const { page, context, problems } = await courseWithElement('lab-run', { section: 'training', epochs: '1000', lr: '0.01' }, { init: countFrames });
  const lab = page.locator('#lab-run');
  const epochsLogged = () => lab.locator('.epoch-log tbody tr').count();
  const waitForEpochs = (count) => page.waitForFunction((n) => document.getElementById('lab-run').shadowRoot
    .querySelectorAll('.epoch-log tbody tr').length >= n, count, { timeout: 30000 });
  await lab.locator('[data-action="play"]').click();
  await waitForEpochs(3);
  assert.equal(await lab.locator('[data-role="status"]').getAttribute('data-status'), 'playing');

  // Moved within the page (out and in again in one task): the same lab, still training.
  const moved = await page.evaluate(() => {
    const element = document.getElementById('lab-run');
    const root = element.shadowRoot.firstElementChild;
    document.querySelector('main').prepend(element);
    return element.shadowRoot.firstElementChild === root;
  });
  assert.equal(moved, true, 'a move keeps the lab');
  const afterMove = await epochsLogged();
  await waitForEpochs(afterMove + 3);
  assert.equal(await lab.locator('[data-role="status"]').getAttribute('data-status'), 'playing', 'and the run goes on');

  // Removed: nothing of it runs any more, and what it held is let go.
  // The frames the page asks for from the removal on, over the next 60 (a second at 60 Hz):
  // a run still training would ask for one in each, a figure redrawn at its new width for one.
  const framesAfter = await page.evaluate(async () => {
    window.__removed = document.getElementById('lab-run');
    window.__removed.remove();
    await Promise.resolve(); // past its release, a microtask the removal queued
    const framesAtRemoval = window.__frames;
    for (let i = 0; i < 60; i += 1) await new Promise((resolve) => window.__uncountedFrame(resolve));
    return window.__frames - framesAtRemoval;
  });
  const released = await page.evaluate(() => ({
    children: window.__removed.shadowRoot.childElementCount,
    core: window.__removed.core,
    ready: window.__removed.hasAttribute('data-ready'),
    state: window.__removed.state,
  }));
  assert.equal(framesAfter, 0, 'no animation frame asked for in the 60 frames after removal');
  assert.equal(released.children, 0, 'its figures and controls are gone');
  assert.equal(released.core, null);
  assert.equal(released.ready, false);
  assert.equal(released.state.epochs, 1000, 'the state is kept');
  assert.equal(released.state.lr, 0.01);

  // Put back: drawn again from the same state; a new run trains.
  await page.evaluate(() => {
    window.__removed.setAttribute('epochs', '500'); // an attribute changed while out of the page still counts
    document.querySelector('main').append(window.__removed);
  });
  await elementsReady(page, 3);
  const state = await stateOf(page, 'lab-run');
  assert.equal(state.epochs, 500);
  assert.equal(state.lr, 0.01);
  assert.equal(await lab.locator('[data-role="status"]').getAttribute('data-status'), 'ready', 'a new run, from w0');
  await lab.locator('[data-action="play"]').click();
  await waitForEpochs(3);
  await lab.locator('[data-action="play"]').click(); // pause
  assert.equal(await lab.locator('[data-role="status"]').getAttribute('data-status'), 'paused');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a parameter given under both spellings: the documented one wins whatever the order, and the console names both', async () => {
  const { page, context, problems } = await courseWithElement('lab-twice', {
    section: 'training', 'leave-one-out': 'false', leaveoneout: 'true',
  });
  assert.equal((await stateOf(page, 'lab-twice')).leaveOneOut, false, 'leave-one-out, the documented spelling, wins');
  assert.equal(await page.locator('#lab-twice [data-param="leaveOneOut"] input').isChecked(), false);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^console warning: .*leave-one-out="false" and leaveoneout="true" both set the parameter leaveOneOut; the documented spelling leave-one-out is used/);

  // Changing the alias while the documented attribute is there changes nothing, and says so.
  problems.length = 0;
  await setAttribute(page, 'lab-twice', 'leaveoneout', 'TRUE');
  await setAttribute(page, 'lab-twice', 'leaveoneout', 'true');
  assert.equal((await stateOf(page, 'lab-twice')).leaveOneOut, false);
  assert.equal(problems.length, 2);
  // Without the documented attribute, the alias gives the value.
  await page.evaluate(() => document.getElementById('lab-twice').removeAttribute('leave-one-out'));
  assert.equal((await stateOf(page, 'lab-twice')).leaveOneOut, true);
  await page.evaluate(() => document.getElementById('lab-twice').removeAttribute('leaveoneout'));
  assert.equal((await stateOf(page, 'lab-twice')).leaveOneOut, true, 'neither: the default');
  await setAttribute(page, 'lab-twice', 'leaveoneout', 'false');
  assert.equal((await stateOf(page, 'lab-twice')).leaveOneOut, false, 'the alias alone is read');
  assert.equal(problems.length, 2, 'one spelling at a time: no warning');
  await context.close();
});

test('attributes with a pair the core refuses give the repaired state, drawn with no error', async () => {
  const { page, context, problems } = await courseWithElement('lab-heads', { section: 'multihead', 'mha-hidden': '97', 'mha-heads': '5' });
  const lab = page.locator('#lab-heads');
  assert.equal((await stateOf(page, 'lab-heads')).mhaHeads, 1, '97 is prime, and 97 heads are more than the core runs');
  assert.equal(await lab.locator('.head-card').count(), 1);
  assert.equal(await lab.locator('[data-error-for="mhaHeads"]').isVisible(), false);
  // A new hidden size: the heads follow to the nearest count the core accepts.
  await setAttribute(page, 'lab-heads', 'mha-hidden', '100');
  await setAttribute(page, 'lab-heads', 'mha-heads', '100');
  await drawn(page);
  assert.equal((await stateOf(page, 'lab-heads')).mhaHeads, 50);
  assert.equal(await lab.locator('.head-card').count(), 50);
  assert.equal(await lab.locator('.stale-note').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a malformed attribute gives its parameter\'s default, whatever came before, and the console says so', async () => {
  const { page, context, problems } = await courseWithElement('lab-malformed', { section: 'pooling', w: 'wide', kernel: 'boxcar' });
  assert.equal((await stateOf(page, 'lab-malformed')).w, 1, 'w="wide" at the start: the default');
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0], /^console warning: <attention-lab>: w="wide" is not a value of w; its default, 1, is used\.$/);
  // A good value, then a malformed one: the default again, not the value before.
  await setAttribute(page, 'lab-malformed', 'w', '2.5');
  assert.equal((await stateOf(page, 'lab-malformed')).w, 2.5);
  await setAttribute(page, 'lab-malformed', 'w', '2.5.1');
  await drawn(page);
  assert.equal((await stateOf(page, 'lab-malformed')).w, 1, 'the same attributes give the same state');
  assert.equal(problems.length, 2);
  assert.match(problems[1], /w="2\.5\.1" is not a value of w/);
  await setAttribute(page, 'lab-malformed', 'kernel', 'cosine');
  assert.equal((await stateOf(page, 'lab-malformed')).kernel, 'gaussian');
  await context.close();
});
