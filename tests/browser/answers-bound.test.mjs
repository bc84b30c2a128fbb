// An answer stays with its question (web/src/exercises/exercise-block.js,
// given-settings.js): once checked or shown, a card moved off its settings
// by a control keeps its question, verdict and answer, says which settings
// it was answered for, and offers to try the question at the current ones;
// that binding and a prediction committed before its run both survive a
// reload. In both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import {
  useBrowser, openPage, settled, setState, shownText,
} from './harness.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// A catalogue text up to its first placeholder, without its bold marks.
const opening = (language, key) => catalogues[language][key].split('{')[0].replace(/\*\*/g, '').trim();

const web = useBrowser();
const open = (hash = '') => openPage(web.browser, `${web.server.origin}/${hash}`, { predictions: 'open' });

function cardOf(page, name) {
  const card = page.locator(`[data-exercise="${name}"]`);
  return {
    card,
    question: () => shownText(card.locator('legend')),
    verdict: () => shownText(card.locator('.exercise-verdict')),
    answer: () => shownText(card.locator('.exercise-answer')),
    status: () => card.getAttribute('data-status'),
    bound: async () => (await card.getAttribute('data-bound')) !== null,
    note: () => shownText(card.locator('[data-role="exercise-bound"] .exercise-bound-note')),
  };
}

async function sees(card) {
  return { question: await card.question(), verdict: await card.verdict(), answer: await card.answer(), status: await card.status() };
}

for (const language of ['en', 'zh']) {
  test(`${language}: a prediction answered at w = 1 keeps its question, verdict and answer when w moves, and starts again at the new w on request`, async () => {
    const { page, context, problems } = await open(`#language=${language}&section=pooling`);
    const narrower = cardOf(page, 'pooling.narrower-kernel');
    await narrower.card.scrollIntoViewIfNeeded();
    await narrower.card.locator('input[value="up"]').check();
    await narrower.card.locator('[data-action="check"]').click();
    await settled(page);
    const answered = await sees(narrower);
    assert.equal(answered.status, 'revealed', 'a wrong prediction is answered at once');
    assert.equal(await narrower.bound(), false, 'at its own settings the card is not marked');

    await setState(page, { w: 20 });
    assert.deepEqual(await sees(narrower), answered, 'the card still says what it said for w = 1');
    assert.equal(await narrower.bound(), true);
    const note = await narrower.note();
    assert.ok(note.startsWith(opening(language, 'exercises.answeredFor')), note);
    assert.ok(/\b1\b/.test(note) && /\b20\b/.test(note), `the note names both widths: ${note}`);
    assert.equal(await narrower.card.locator('[data-action="check"]').getAttribute('aria-disabled'), 'true');

    // Back at w = 1 the card is its own again; at w = 20 it can start afresh.
    await setState(page, { w: 1 });
    assert.equal(await narrower.bound(), false);
    await setState(page, { w: 20 });
    await narrower.card.locator('[data-action="retry-here"]').click();
    await settled(page);
    assert.equal(await narrower.status(), 'open');
    assert.equal(await narrower.bound(), false);
    assert.notEqual(await narrower.question(), answered.question, 'the question now asks about w = 20');
    assert.equal(await narrower.card.locator('input:checked').count(), 0, 'nothing chosen');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${language}: a positional answer stays bound to d through another setting, the 2-D masks and a reload`, async (t) => {
    const { page, context, problems } = await open(`#language=${language}&section=positional`);
    const entry = cardOf(page, 'positional.entry-value');
    await entry.card.scrollIntoViewIfNeeded();
    await entry.card.locator('[data-action="reveal"]').click();
    await settled(page);
    const shown = await sees(entry);
    assert.equal(shown.status, 'revealed');

    await setState(page, { peDim: 48 });
    assert.deepEqual(await sees(entry), shown, 'P[row, column] and its value as they were for d = 32');
    assert.equal(await entry.bound(), true);
    t.diagnostic(`positional: ${await entry.note()}`);
    // The stored entry holds the settings, so a reload at d = 48 (the hash
    // keeps it, once written) keeps the card as it was.
    await page.waitForFunction(() => /[#&]peDim=48(&|$)/.test(location.hash));
    await page.reload();
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    await entry.card.scrollIntoViewIfNeeded();
    await settled(page);
    assert.equal(await page.evaluate(() => window.attentionLab.state.peDim), 48, 'reloaded at d = 48');
    assert.deepEqual(await sees(entry), shown, 'after a reload');
    assert.equal(await entry.bound(), true);
    // Try another is a fresh start too: the next instance, at d = 48.
    await entry.card.locator('[data-action="another"]').click();
    await settled(page);
    assert.equal(await entry.status(), 'open');
    assert.equal(await entry.bound(), false);
    assert.equal(await entry.card.locator('input[type="number"]').isEnabled(), true);

    // The masking section: an answer given for 1-D valid lengths stays with them.
    const zeros = cardOf(page, 'masking.zero-weights');
    await zeros.card.scrollIntoViewIfNeeded();
    await zeros.card.locator('[data-action="reveal"]').click();
    await settled(page);
    const masked = await sees(zeros);
    await setState(page, { maskMode: '2d' });
    assert.deepEqual(await sees(zeros), masked, 'still the 1-D question and answer');
    assert.equal(await zeros.bound(), true);
    t.diagnostic(`masking: ${await zeros.note()}`);
    // At the current settings the card asks or answers something else.
    await zeros.card.locator('[data-action="retry-here"]').click();
    await settled(page);
    await zeros.card.locator('[data-action="reveal"]').click();
    await settled(page);
    const now = await sees(zeros);
    assert.ok(now.question !== masked.question || now.answer !== masked.answer, `${now.question} ${now.answer}`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${language}: a prediction committed before its run survives a reload, and the run then does not skip it`, async () => {
    const { page, context, problems } = await open(`#language=${language}&section=translation&trArchitecture=bigru`);
    const eight = cardOf(page, 'translation.where-eight-looks');
    await eight.card.scrollIntoViewIfNeeded();
    const [first] = await eight.card.locator('input[type="radio"]').evaluateAll((boxes) => boxes.map((box) => box.value));
    await eight.card.locator(`input[value="${first}"]`).check();
    await eight.card.locator('[data-action="check"]').click();
    await settled(page);
    assert.equal(await eight.card.getAttribute('data-committed'), '', 'committed before the run');

    await page.reload();
    await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
    await eight.card.scrollIntoViewIfNeeded();
    await settled(page);
    assert.equal(await eight.card.getAttribute('data-committed'), '', 'still committed after a reload');
    assert.equal(await eight.card.locator(`input[value="${first}"]`).isChecked(), true, 'the choice made');
    assert.ok((await eight.verdict()).startsWith(opening(language, 'exercises.committedKept')));
    assert.equal(await page.locator('#translation [data-figure="tr-maps"]').first().getAttribute('data-covered'), null, 'the maps shown');
    await page.locator('#translation [data-action="tr-play"]').click();
    await settled(page);
    assert.equal(await eight.card.getAttribute('data-skipped'), null, 'Play does not skip a committed prediction');
    assert.equal(await eight.status(), 'open');
    await page.locator('#translation [data-action="tr-play"]').click(); // pause
    assert.deepEqual(problems, []);
    await context.close();
  });
}
