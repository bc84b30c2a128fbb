// A prediction is a moment, not a wall (web/src/exercises/exercise-block.js):
// it stands just above the figure it covers; the cover says why it is
// there and offers Reveal, in view on a phone above the controls' sheet;
// Reveal, or starting what the text says to watch (Play, Step,
// Translate), shows the figure at once and marks the prediction skipped,
// not failed; a prediction about a run, checked before the run, is
// committed and checked once trained (at the default four heads); no
// uncovered figure shows what a covered one hides (the masking row in
// d2l's heatmap); and a recognised mistake is "not yet", never close.
// In both languages where there is text; at 1280 px and 360 px where
// there is layout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { SECTIONS } from '../../web/src/sections/registry.js';
import {
  useBrowser, openPage, settled, setState, setLanguage, loadDirectCore, scrollToRendered, shownText,
} from './harness.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// A catalogue text up to its first placeholder or formula, without its bold marks: what the page must show of it.
const opening = (language, key) => catalogues[language][key].split(/[{$]/)[0].replace(/\*\*/g, '').trim();

const web = useBrowser();
const PHONE = { viewport: { width: 360, height: 740 }, touch: true };

// Every prediction that covers figures: [section, exercise, the figures it hides].
const COVERING = SECTIONS.flatMap(({ id, exercises = [] }) => exercises
  .filter(({ kind, hides }) => kind === 'predict' && hides?.length > 0)
  .map((exercise) => [id, exercise.id, exercise.hides]));

const open = (options = {}) => openPage(web.browser, `${web.server.origin}/`, { predictions: 'open', ...options });
const card = (page, section, id) => page.locator(`[data-exercise="${section}.${id}"]`);
const figure = (page, section, name) => page.locator(`#${section} [data-figure="${name}"]`).first();
const isCovered = async (page, section, name) => (await figure(page, section, name).getAttribute('data-covered')) !== null;

// Scrolled again until the figure stays there: a section out of view is drawn once it comes into
// view, and its height (kept from its last drawing, perhaps in the other language) may change then.
async function scrollToFigure(page, section, name) {
  for (let scrolled = false; !scrolled;) {
    scrolled = await page.evaluate((selector) => {
      const top = document.querySelector(selector).getBoundingClientRect().top;
      const from = window.scrollY;
      window.scrollTo({ top: top + from - 60, behavior: 'instant' });
      return Math.abs(window.scrollY - from) < 1; // there, or as far as the page scrolls
    }, `#${section} [data-figure="${name}"]`);
    await settled(page);
  }
}

test('every prediction stands just above the first figure it covers, at 1280 px and 360 px', async () => {
  assert.ok(COVERING.length >= 10, `${COVERING.length} predictions cover figures`);
  for (const options of [{}, PHONE]) {
    const { page, context, problems } = await open(options);
    for (const [section, id, hides] of COVERING) {
      await page.locator(`#${section}`).scrollIntoViewIfNeeded();
      await settled(page);
      const question = await card(page, section, id).boundingBox();
      // The figure, or where it is not drawn (the multi-head outputs
      // without a head switched off) the cell or grid that holds it.
      const covered = await figure(page, section, hides[0]).evaluate((node) => {
        const drawn = [node, node.closest('.figure-cell'), node.closest('.figure-grid')]
          .find((candidate) => candidate && candidate.getBoundingClientRect().height > 0);
        const { x, y, width, height } = drawn.getBoundingClientRect();
        return { x, y, width, height };
      });
      assert.ok(question && covered, `${section}.${id}: drawn`);
      // Predictions about the same figure stand together above it (the
      // translator's three races): each in that stack, whose last card
      // stands just above the figure.
      const stack = COVERING.filter(([other, , otherHides]) => other === section && otherHides[0] === hides[0]);
      const cards = await Promise.all(stack.map(([, other]) => card(page, section, other).boundingBox()));
      const bottom = Math.max(...cards.map((box) => box.y + box.height));
      cards.sort((a, b) => a.y - b.y);
      cards.slice(1).forEach((box, k) => assert.ok(Math.abs(box.y - (cards[k].y + cards[k].height)) < 40,
        `${section}.${id}: the predictions about ${hides[0]} stand together`));
      // Above the figure (or the grid of figures that holds it, with the
      // figures the prediction is worked out from), or beside it in a row
      // of figures: never below it, and within three quarters of a screen.
      const above = covered.y - bottom;
      const beside = Math.max(covered.x - (question.x + question.width), question.x - (covered.x + covered.width));
      const where = `${section}.${id} at ${options.viewport?.width ?? 1280} px: ${Math.round(above)} px above, ${Math.round(beside)} px beside ${hides[0]}`;
      assert.ok(question.y < covered.y + covered.height / 2, `${where}: not below it`);
      const screen = (options.viewport?.height ?? 900) * 0.75;
      assert.ok((above >= 0 && above < screen) || (beside >= 0 && beside < 100 && above < 0), where);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('at 360 px the cover says why it is there, with Reveal, above the controls\' sheet; Reveal shows the figure and marks the prediction skipped, in both languages', async () => {
  for (const language of ['en', 'zh']) {
    const { page, context, problems } = await open(PHONE);
    await setLanguage(page, language);
    for (const [section, id, [name]] of [['attention-training', 'reverse-pattern', ['at-heads']], ['masking', 'zero-weights', ['mask-masked']]]) {
      await scrollToFigure(page, section, name);
      const message = figure(page, section, name).locator('.figure-cover-message');
      assert.equal(await shownText(message), catalogues[language]['exercises.covered']);
      const reveal = figure(page, section, name).locator('[data-action="reveal-figure"]');
      assert.equal(await shownText(reveal), catalogues[language]['exercises.revealFigure']);
      // What a reader's eye and finger reach: the message and Reveal, not the sheet over them.
      for (const [what, target] of [['message', message], ['Reveal', reveal]]) {
        const onTop = await target.evaluate((node) => {
          const box = node.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return box.bottom <= window.innerHeight && (hit === node || node.contains(hit));
        });
        assert.ok(onTop, `${language} ${section}: the cover's ${what} is on screen, on top`);
      }
      await reveal.tap();
      await settled(page);
      assert.equal(await isCovered(page, section, name), false, `${section}: Reveal shows the figure`);
      const prediction = card(page, section, id);
      assert.equal(await prediction.getAttribute('data-status'), 'open', 'skipped, not failed');
      assert.equal(await prediction.getAttribute('data-skipped'), '');
      assert.ok((await shownText(prediction.locator('[data-role="exercise-skipped"]'))).startsWith(opening(language, 'exercises.skipped')));
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('Play, Step or Translate shows the maps at once and marks the prediction skipped; a new run of the page covers them again', async () => {
  const { page, context, problems } = await open();
  assert.equal(await isCovered(page, 'attention-training', 'at-heads'), true, 'covered on a first visit');
  // At once: the click's own task uncovers them, as the run starts (at the default pace, 2,000 steps).
  assert.deepEqual(await page.evaluate(() => {
    const root = document.getElementById('attention-training');
    root.querySelector('[data-action="at-play"]').click();
    return [
      root.querySelector('[data-figure="at-heads"]').hasAttribute('data-covered'),
      root.querySelector('[data-figure="at-explain"]').hasAttribute('data-covered'),
      root.querySelector('[data-role="at-status"]').dataset.status,
    ];
  }), [false, false, 'playing']);
  await page.locator('#attention-training [data-action="at-play"]').click(); // pause
  assert.equal(await card(page, 'attention-training', 'reverse-pattern').getAttribute('data-skipped'), '');
  assert.equal(await card(page, 'attention-training', 'reverse-pattern').getAttribute('data-status'), 'open');

  await setLanguage(page, 'zh');
  await setState(page, { trSteps: 100, trSpeed: 1000 });
  assert.equal(await isCovered(page, 'translation', 'tr-maps'), true);
  await page.locator('#translation [data-action="tr-step"]').click();
  await settled(page);
  assert.equal(await isCovered(page, 'translation', 'tr-maps'), false, 'Step shows the translator\'s maps');
  assert.ok((await shownText(card(page, 'translation', 'where-eight-looks').locator('[data-role="exercise-skipped"]')))
    .startsWith(opening('zh', 'exercises.skipped')));
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await isCovered(page, 'attention-training', 'at-heads'), true, 'skipped is this view\'s mark alone: a new visit predicts again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('at the default four heads the pattern prediction holds: checked before Play it is committed, the maps shown; checked after, judged', async () => {
  for (const language of ['en', 'zh']) {
    const { page, context, problems } = await open();
    await setLanguage(page, language);
    await setState(page, { atSpeed: 1000, atSteps: 100 });
    assert.equal(await page.evaluate(() => window.attentionLab.state.atHeads), 4, 'the default heads');
    const prediction = card(page, 'attention-training', 'reverse-pattern');
    await prediction.locator('input[value="antiDiagonal"]').check();
    await prediction.locator('[data-action="check"]').click();
    await settled(page);
    assert.equal(await prediction.getAttribute('data-status'), 'open', 'nothing trained: no try counted');
    assert.equal(await prediction.getAttribute('data-committed'), '', 'the prediction is committed');
    assert.ok((await shownText(prediction.locator('.exercise-verdict'))).startsWith(opening(language, 'exercises.committed')));
    assert.equal(await prediction.locator('input[value="antiDiagonal"]').isDisabled(), true, 'kept as made');
    assert.equal(await isCovered(page, 'attention-training', 'at-heads'), false, 'the maps shown to watch');
    await page.locator('#attention-training [data-action="at-play"]').click();
    await page.waitForSelector('#attention-training [data-role="at-status"][data-status="done"]', { timeout: 60000 });
    await settled(page);
    assert.equal(await prediction.getAttribute('data-skipped'), null, 'committed before Play: not skipped');
    await prediction.locator('[data-action="check"]').click();
    await settled(page);
    assert.equal(await prediction.getAttribute('data-status'), 'right', 'four heads learn the anti-diagonal');
    assert.ok((await shownText(prediction.locator('.exercise-verdict'))).includes(opening(language, 'attention-training.ex.pattern.right')));
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('no uncovered figure gives a prediction away: d2l\'s masked_softmax heatmap, the fully-masked-rows note and the hover read-out are covered with ② and ③', async () => {
  const { page, context, problems } = await open();
  for (const name of ['mask-masked', 'mask-weights', 'mask-book', 'mask-empty-rows', 'mask-readout']) {
    assert.equal(await isCovered(page, 'masking', name), true, `${name} covered while the prediction is open`);
  }
  assert.equal(await isCovered(page, 'masking', 'mask-scores'), false, 'the scores it is worked out from stay in view');
  await card(page, 'masking', 'zero-weights').locator('input[value="none"]').check();
  await card(page, 'masking', 'zero-weights').locator('[data-action="check"]').click();
  await settled(page);
  assert.equal(await isCovered(page, 'masking', 'mask-book'), false, 'shown once predicted');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a recognised mistake is "not yet" with its explanation, never close, however near: the weight ③ shows now, in both languages', async () => {
  const { page, context, problems } = await open();
  await loadDirectCore(page);
  const exercise = card(page, 'masking', 'masked-weight-value');
  // The question as it names the cell, the row's length now and the length asked about.
  const asked = async () => {
    await scrollToRendered(exercise); // read as the learner reads it
    const question = await shownText(exercise.locator('legend'));
    const [, batch, row, , length, key] = question.match(/(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+k(\d+)/).map(Number);
    return { cell: ((batch - 1) * 2 + (row - 1)) * 4 + (key - 1), length };
  };
  // The core's weight at the cell, with the row's length as it is or as asked.
  const weightAt = (cell, length) => page.evaluate(({ cell, length }) => {
    const state = window.attentionLab.state;
    const lens = state.maskMode === '1d' ? [state.maskLen1, state.maskLen2] : [state.maskLen11, state.maskLen12, state.maskLen21, state.maskLen22];
    const scores = window.directCore.randomNormal(16, { seed: state.maskSeed });
    const rows = Int32Array.from(window.directCore.maskScores(scores, [2, 2, 4], lens).rowLengths);
    if (length !== null) rows[Math.floor(cell / 4)] = length;
    return window.directCore.maskedSoftmax(scores, [2, 2, 4], rows)[cell];
  }, { cell, length });
  // A question whose shown weight is within 10 % of the right one, yet outside the tolerance (0.01): the near mistake.
  let near = null;
  for (let seed = 0; seed < 40 && !near; seed += 1) {
    await setState(page, { maskSeed: seed });
    for (let tries = 0; tries < 6 && !near; tries += 1) {
      const { cell, length } = await asked();
      const [right, shown] = [await weightAt(cell, length), await weightAt(cell, null)];
      if (Math.abs(shown - right) > 0.02 && Math.abs(shown - right) < 0.09 * right) near = { shown };
      else {
        await exercise.locator('[data-action="another"]').click();
        await settled(page);
      }
    }
  }
  assert.ok(near, 'a question whose shown weight is near the right one');
  for (const language of ['en', 'zh']) {
    await setLanguage(page, language);
    const box = exercise.locator('input[type="number"]');
    await box.fill(near.shown.toFixed(3));
    await box.press('Enter');
    await settled(page);
    assert.equal(await exercise.getAttribute('data-status'), 'wrong');
    const verdict = await shownText(exercise.locator('.exercise-verdict'));
    assert.ok(verdict.startsWith(opening(language, 'exercises.wrong')), `${language}: ${verdict}`);
    assert.ok(!verdict.includes(opening(language, 'exercises.close')), 'never "close"');
    assert.ok(verdict.includes(opening(language, 'masking.ex.weight.shown')), 'with its explanation');
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('section 5 has its moments: after "Reset my answers", Step marks the first-step prediction skipped; Play with leave-one-out off shows the landscape at once and marks "without leave-one-out" skipped, its right answer saying what the run shows, in both languages', async () => {
  for (const language of ['en', 'zh']) {
    const { page, context, problems } = await open();
    await setLanguage(page, language);
    await loadDirectCore(page);
    const training = (css) => page.locator(`#training ${css}`);
    await training('[data-action="reset-exercises"]').click();
    await settled(page);
    const firstStep = card(page, 'training', 'first-step');
    const withoutLoo = card(page, 'training', 'without-loo');
    assert.equal(await firstStep.getAttribute('data-skipped'), null, 'open before Step');

    // Step takes the step the first prediction asks about: no longer a prediction, and said so.
    await training('[data-action="step"]').click();
    await settled(page);
    assert.equal(await firstStep.getAttribute('data-status'), 'open', 'skipped, not failed');
    assert.equal(await firstStep.getAttribute('data-skipped'), '', `${language}: Step marks it skipped`);
    assert.ok((await shownText(firstStep.locator('[data-role="exercise-skipped"]'))).startsWith(opening(language, 'exercises.skipped')));
    // A run with leave-one-out on is not the run "without leave-one-out" asks about.
    assert.equal(await isCovered(page, 'training', 'landscape'), true, 'a step with leave-one-out on keeps its figure covered');
    assert.equal(await withoutLoo.getAttribute('data-skipped'), null);

    // Switched off, as its question says, then Play: the landscape at once, not after the run.
    await training('[data-param="leaveOneOut"] .switch').click();
    await settled(page);
    assert.equal(await isCovered(page, 'training', 'landscape'), true, 'switching alone starts nothing');
    assert.deepEqual(await page.evaluate(() => {
      const root = document.getElementById('training');
      root.querySelector('[data-action="play"]').click();
      return [root.querySelector('[data-figure="landscape"]').hasAttribute('data-covered'), root.querySelector('[data-role="status"]').dataset.status];
    }), [false, 'playing'], `${language}: Play with leave-one-out off shows the landscape at once`);
    assert.equal(await withoutLoo.getAttribute('data-skipped'), '');
    await page.waitForSelector('#training [data-role="status"][data-status="done"]', { timeout: 60000 });
    await settled(page);

    // The default run (5 epochs, w0 = 1, η = 0.5) as the page shows it: w up at every epoch.
    const ws = await training('.epoch-log tbody tr').evaluateAll((rows) => rows.map((row) => Number(row.dataset.w)));
    const expected = await page.evaluate(() => {
      const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
      return Array.from(window.directCore.trainKernelWidth(x, y, { w0: 1, lr: 0.5, epochs: 5, leaveOneOut: false }).w);
    });
    assert.deepEqual(ws, expected.slice(1), 'the core\'s run');
    ws.forEach((w, i) => assert.ok(i === 0 || w > ws[i - 1], `w grows at epoch ${i + 1}: ${ws.join(', ')}`));

    // Its right answer names that run: the first step's w and the last, as the read-out shows them.
    await withoutLoo.locator('input[value="grows"]').check();
    await withoutLoo.locator('[data-action="check"]').click();
    await settled(page);
    assert.equal(await withoutLoo.getAttribute('data-status'), 'right');
    const verdict = await shownText(withoutLoo.locator('.exercise-verdict'));
    const fourDigits = (value) => String(Number(value.toPrecision(4)));
    for (const w of [ws[0], ws[ws.length - 1]]) assert.ok(verdict.includes(fourDigits(w)), `${language}: the answer names w = ${fourDigits(w)}: ${verdict}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
