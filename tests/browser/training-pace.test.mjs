// The pace of the trained sections (run/run-view.js): at the default
// settings "Watch it learn" pauses by itself soon after its held-out
// accuracy has plateaued, says so in both languages, and Play goes on to
// the end; the time to 99 % and the run's length at the defaults go to
// test-results/training-pace.json. After a run ends, Play says it plays
// the run again and Step is off (the translator's, in both languages).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { PLATEAU } from '../../web/src/sections/attention-training/attention-training.js';
import { EVAL_EVERY } from '../../web/src/sections/attention-training/setup.js';
import { defaultState } from '../../web/src/state.js';
import { useBrowser, openPage, settled, setState, setLanguage, shownText } from './harness.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
const opening = (language, key) => catalogues[language][key].split(/[{$]/)[0].trim();
const figures = {};
const web = useBrowser({ report: ['training-pace.json', figures] });

test('at the defaults, Watch it learn pauses by itself soon after 99 %, says so, and Play goes on', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  const root = page.locator('#attention-training');
  await root.scrollIntoViewIfNeeded();
  const defaults = defaultState();
  // From the click: the step and time the accuracy on screen first reached 99 %, and where the run paused.
  const run = await page.evaluate(() => new Promise((resolve) => {
    const section = document.getElementById('attention-training');
    const value = (role) => section.querySelector(`[data-role="${role}"]`).dataset.value;
    const status = section.querySelector('[data-role="at-status"]');
    const started = performance.now();
    let reached = null;
    section.querySelector('[data-action="at-play"]').click();
    const watch = () => {
      if (reached === null && value('at-accuracy') !== '' && Number(value('at-accuracy')) >= 0.99) {
        reached = { ms: performance.now() - started, step: Number(value('at-step')) };
      }
      if (status.dataset.status === 'playing') requestAnimationFrame(watch);
      else resolve({ reached, ms: performance.now() - started, step: Number(value('at-step')), status: status.dataset.status });
    };
    requestAnimationFrame(watch);
  }));
  await settled(page);
  assert.ok(run.reached, 'reached 99 % held out');
  assert.equal(run.status, 'paused', 'it paused by itself');
  assert.ok(run.step < defaults.atSteps, `before the ${defaults.atSteps} steps set: at ${run.step}`);
  // Plateaued: the last evaluations within half a point, the pause right after the one that showed it.
  const accuracies = await page.evaluate(() => Number(document.querySelector('#attention-training [data-role="at-accuracy"]').dataset.value));
  assert.ok(accuracies >= 0.99, `paused at ${accuracies}`);
  assert.equal(run.step % EVAL_EVERY, 0, 'at an evaluation');
  assert.ok(run.step - run.reached.step <= (PLATEAU.evaluations + 1) * EVAL_EVERY, `${run.step - run.reached.step} steps after 99 %`);
  Object.assign(figures, {
    defaults: { steps: defaults.atSteps, stepsPerSecond: defaults.atSpeed },
    msTo99: Math.round(run.reached.ms), stepTo99: run.reached.step, pausedAtStep: run.step, msToPause: Math.round(run.ms),
  });
  console.log('Watch it learn at the defaults:', JSON.stringify(figures));

  // The timeline keeps the step where the run paused: its last moment, the one on screen.
  const timelineStep = root.locator('[data-role="at-timeline-step"]');
  assert.equal(await timelineStep.getAttribute('data-step'), String(run.step), 'the timeline ends where the run paused');
  const status = root.locator('[data-role="at-status"]');
  assert.equal(await status.getAttribute('data-plateau'), '');
  for (const language of ['en', 'zh']) {
    await setLanguage(page, language);
    const text = await shownText(status);
    assert.ok(text.startsWith(opening(language, 'attention-training.status.plateau')), `${language}: ${text}`);
    assert.ok(text.includes(String(run.step)) && text.includes(String(defaults.atSteps)), 'names the step and where Play goes on to');
    assert.equal(await shownText(root.locator('[data-action="at-play"]')), catalogues[language]['player.play']);
  }
  // The timeline also keeps where a Step from there leaves it.
  await root.locator('[data-action="at-step"]').click();
  await page.waitForFunction((after) => document.querySelector('#attention-training [data-role="at-step"]').dataset.value === String(after), run.step + 1);
  await settled(page);
  assert.equal(await timelineStep.getAttribute('data-step'), String(run.step + 1), 'the timeline ends at the step stepped to');
  // Play goes on (no second pause though the accuracy stays flat), to a
  // nearer end at full speed to keep the test short.
  const end = run.step + 4 * EVAL_EVERY;
  await setState(page, { atSpeed: 1000, atSteps: end });
  await root.locator('[data-action="at-play"]').click();
  await page.waitForSelector('#attention-training [data-role="at-status"][data-status="done"]', { timeout: 60000 });
  assert.equal(await root.locator('[data-role="at-step"]').getAttribute('data-value'), String(end));
  assert.equal(await status.getAttribute('data-plateau'), null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('after a run ends Play says it plays the run again and Step is off; Play again starts from step 0, in both languages', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  await page.locator('#translation').scrollIntoViewIfNeeded();
  await setState(page, { trSteps: 50, trSpeed: 1000 });
  const play = page.locator('#translation [data-action="tr-play"]');
  const step = page.locator('#translation [data-action="tr-step"]');
  await play.click();
  await page.waitForSelector('#translation [data-role="tr-status"][data-status="done"]', { timeout: 60000 });
  await settled(page);
  for (const language of ['en', 'zh']) {
    await setLanguage(page, language);
    assert.equal(await shownText(play), catalogues[language]['player.playAgain']);
    assert.equal(await play.isDisabled(), false);
    assert.equal(await step.isDisabled(), true, 'nothing left to step');
  }
  await play.click();
  await page.waitForFunction(() => Number(document.querySelector('#translation [data-role="tr-step"]').dataset.value) < 50
    || document.querySelector('#translation [data-role="tr-status"]').dataset.status === 'playing');
  await page.waitForSelector('#translation [data-role="tr-status"][data-status="done"]', { timeout: 60000 });
  assert.equal(await page.locator('#translation [data-role="tr-step"]').getAttribute('data-value'), '50', 'played again to its end');
  assert.deepEqual(problems, []);
  await context.close();
});
