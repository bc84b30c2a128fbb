// The pooling and masked-softmax sections' exercises in the page
// (web/src/exercises/, sections/pooling/exercises.js,
// sections/masking/exercises.js): each answered wrong then right, in
// English and in Chinese, the right answer computed here from a core of
// the test's own (window.directCore) for the live state; the status on the
// root (data-status), the hint after one wrong try, the answer after three,
// a new right answer for a new seed, progress kept over a reload and
// cleared by "Reset my answers", no answer in the URL hash; and the
// exercises in a sandboxed frame, where storage and forms are refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { axeViolations, describeViolations } from './axe-audit.mjs';
import {
  usePage, openPage, settled, setState, setLanguage, loadDirectCore, screenshot, elementsReady, shownText, scrollAtRest } from './harness.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// A catalogue text up to its first placeholder: what the page must show of it.
const opening = (language, key) => catalogues[language][key].split('{')[0].replace(/\*\*/g, '').trim();
const STORAGE_KEY = 'attention-lab:exercises';
const TOLERANCE = 0.1; // stated in the question

let page;
const lab = usePage({ predictions: 'open', section: '#pooling', directCore: true, opened: (opened) => ({ page } = opened) });

const exercise = (id) => page.locator(`[data-exercise="pooling.${id}"]`);
const statusOf = (id) => exercise(id).getAttribute('data-status');
const verdictOf = (id) => shownText(exercise(id).locator('.exercise-verdict'));
const hintShown = (id) => exercise(id).locator('.exercise-hint').isVisible();
const answerOf = (id) => exercise(id).locator('.exercise-answer');
const check = (id) => exercise(id).locator('[data-action="check"]').click();
const progressText = () => shownText(page.locator('#pooling [data-role="exercise-progress"]'));

async function choose(option) {
  await exercise('average-query').locator(`input[type="radio"][value="${option}"]`).check();
  await check('average-query');
}

// Typed and submitted with Enter, as a keyboard does.
async function type(value) {
  const box = exercise('read-prediction').locator('input[type="number"]');
  await box.fill(String(value));
  await box.press('Enter');
}

// The query of the compute exercise, as its question shows it.
async function queryShown() {
  const question = await shownText(exercise('read-prediction').locator('legend'));
  return Number(question.match(/x = (\d+(?:\.\d+)?)/)[1]);
}

// Nadaraya–Watson at x for the page's live data and settings, from the test's own core.
const rightAt = (x, patch = {}) => page.evaluate(({ x, patch }) => {
  const { n, noise, seed, kernel, w } = { ...window.attentionLab.state, ...patch };
  const data = window.directCore.makeDataset({ n, noise, seed, xMax: 5 });
  return window.directCore.nadarayaWatson([x], data.x, data.y, { kernel, w })[0];
}, { x, patch });

// The widest of these widths whose curve fits the points at most half as badly as the truth does, from the test's core.
const chasingWidth = () => page.evaluate(() => {
  const { n, noise, seed, kernel } = window.attentionLab.state;
  const core = window.directCore;
  const data = core.makeDataset({ n, noise, seed, xMax: 5 });
  const truth = core.truth(data.x);
  const squares = (a) => a.reduce((sum, value, i) => sum + (value - data.y[i]) ** 2, 0);
  return [2, 3, 5, 7, 10, 15, 20, 30, 50].find((w) =>
    squares(core.nadarayaWatson(data.x, data.x, data.y, { kernel, w })) <= 0.5 * squares(truth));
});

// The masked-softmax exercises (same page: every section is on it).
const maskExercise = (id) => page.locator(`[data-exercise="masking.${id}"]`);
const maskStatus = (id) => maskExercise(id).getAttribute('data-status');
const maskVerdict = (id) => shownText(maskExercise(id).locator('.exercise-verdict'));
const maskCheck = (id) => maskExercise(id).locator('[data-action="check"]').click();
const MASK_TOLERANCE = 0.01; // stated in the question

// The compute exercise's question as it names it: item, query, the row's
// valid length now, the length asked about, and the key; the cell it outlines.
async function maskQuestionShown() {
  const question = await shownText(maskExercise('masked-weight-value').locator('legend'));
  const [, batch, row, now, length, key] = question.match(/(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+k(\d+)/).map(Number);
  return { cell: ((batch - 1) * 2 + (row - 1)) * 4 + (key - 1), now, length };
}

// The masked softmax of the drawn scores at a cell for the live state, from
// the test's own core: with the row's valid length set to `length` (the
// question's), as it is now (`length: null`), or with no mask (`lengths: false`).
const maskWeightAt = (cell, { length = null, lengths = true, patch = {} } = {}) => page.evaluate(({ cell, length, lengths, patch }) => {
  const state = { ...window.attentionLab.state, ...patch };
  const lens = state.maskMode === '1d' ? [state.maskLen1, state.maskLen2]
    : [state.maskLen11, state.maskLen12, state.maskLen21, state.maskLen22];
  const scores = window.directCore.randomNormal(16, { seed: state.maskSeed });
  const rows = Int32Array.from(window.directCore.maskScores(scores, [2, 2, 4], lens).rowLengths);
  if (length !== null) rows[Math.floor(cell / 4)] = length;
  return window.directCore.maskedSoftmax(scores, [2, 2, 4], lengths ? rows : null)[cell];
}, { cell, length, lengths, patch });

const rowLengthsNow = () => page.evaluate(() => {
  const state = window.attentionLab.state;
  const scores = window.directCore.randomNormal(16, { seed: state.maskSeed });
  return Array.from(window.directCore.maskScores(scores, [2, 2, 4],
    [state.maskLen11, state.maskLen12, state.maskLen21, state.maskLen22]).rowLengths);
});

async function typeMaskWeight(value) {
  const box = maskExercise('masked-weight-value').locator('input[type="number"]');
  await box.fill(String(value));
  await box.press('Enter');
}

// The keys of a row (0..3: item 1 query 1 .. item 2 query 2) whose weight
// the core makes exactly 0 for the live lengths, from the test's own core.
const zeroKeysOf = (row) => page.evaluate((row) => {
  const state = window.attentionLab.state;
  const lens = state.maskMode === '1d' ? [state.maskLen1, state.maskLen2]
    : [state.maskLen11, state.maskLen12, state.maskLen21, state.maskLen22];
  const weights = window.directCore.maskedSoftmax(window.directCore.randomNormal(16, { seed: state.maskSeed }), [2, 2, 4], lens);
  return ['k1', 'k2', 'k3', 'k4'].filter((key, k) => weights[row * 4 + k] === 0);
}, row);

const covered = (figure) => page.locator(`#masking [data-figure="${figure}"]`).evaluate((node) => node.hasAttribute('data-covered'));

// The prediction: covered figures until it is checked, one try, then
// "Try another" covers them again for a new row.
async function predictZeroWeights(language) {
  const predict = maskExercise('zero-weights');
  const rowAsked = async () => {
    const [, batch, query] = (await shownText(predict.locator('legend'))).match(/(\d+)\D+(\d+)/).map(Number);
    return (batch - 1) * 2 + (query - 1);
  };
  const answer = async (keys) => {
    for (const box of await predict.locator('input[type="checkbox"]').all()) await box.setChecked(keys.includes(await box.getAttribute('value')));
    await maskCheck('zero-weights');
  };
  assert.deepEqual([await covered('mask-weights'), await covered('mask-masked')], [true, true], 'covered while the prediction is open');
  // No keyboard reaches into the figure: all of it is hidden (so neither focusable nor read out) but the cover, whose Reveal it may press.
  assert.deepEqual(await page.locator('#masking [data-figure="mask-weights"]').evaluate((node) => [...node.children]
    .map((child) => (child.matches('.figure-cover') ? 'cover' : getComputedStyle(child).visibility))
    .filter((state) => state !== 'hidden')), ['cover'], 'no keyboard reaches in');
  const zeros = await zeroKeysOf(await rowAsked());
  const kept = ['k1', 'k2', 'k3', 'k4'].filter((key) => !zeros.includes(key));
  // The kept keys (the mistake of counting from the wrong end), or, for a row
  // that keeps all or none, the other extreme.
  let wrong = kept;
  if (zeros.length === 0) wrong = ['k4'];
  else if (kept.length === 0) wrong = ['none'];
  await answer(wrong);
  assert.equal(await maskStatus('zero-weights'), 'revealed', 'a prediction has one try');
  assert.ok(await maskExercise('zero-weights').locator('.exercise-answer').isVisible(), 'the answer at once');
  assert.equal(await maskExercise('zero-weights').locator('.exercise-hint').isVisible(), false, 'no hint once the one try is made');
  assert.deepEqual([await covered('mask-weights'), await covered('mask-masked')], [false, false], 'uncovered once committed');
  await predict.locator('[data-action="another"]').click();
  assert.equal(await maskStatus('zero-weights'), 'open');
  assert.equal(await covered('mask-weights'), true, 'covered again for a new row');
  const right = await zeroKeysOf(await rowAsked());
  await answer(right.length > 0 ? right : ['none']);
  assert.equal(await maskStatus('zero-weights'), 'right');
  assert.ok((await maskVerdict('zero-weights')).length > opening(language, 'exercises.right').length);
  assert.equal(await covered('mask-weights'), false);
}

async function answerMaskingWrongThenRight(language) {
  await setState(page, { maskMode: '1d', maskLen1: 2, maskLen2: 3 });
  for (const id of ['masked-weight', 'zero-weights', 'masked-weight-value', 'row-lengths']) assert.equal(await maskStatus(id), 'open', `${id} starts open`);
  await predictZeroWeights(language);

  const concept = maskExercise('masked-weight');
  await concept.locator('input[type="radio"][value="leftover"]').check();
  await maskCheck('masked-weight');
  assert.equal(await maskStatus('masked-weight'), 'wrong');
  assert.ok((await maskVerdict('masked-weight')).includes(opening(language, 'masking.ex.concept.leftoverWhy')), 'the wrong option\'s own explanation');
  await concept.locator('input[type="radio"][value="zero"]').check();
  await maskCheck('masked-weight');
  assert.equal(await maskStatus('masked-weight'), 'right');

  // The weight shown now in ③ (the row's length as it is), or a softmax over
  // all four keys: wrong, and said why.
  const { cell, now, length } = await maskQuestionShown();
  const outlined = page.locator('#masking [data-figure="mask-scores"] .cell.is-marked rect');
  assert.equal(await outlined.count(), 1, 'one cell outlined in the scores');
  assert.deepEqual([Number(await outlined.getAttribute('data-row')), Number(await outlined.getAttribute('data-col'))],
    [Math.floor(cell / 4), cell % 4], 'the cell asked about');
  assert.notEqual(length, now, 'another valid length than the row has');
  const right = await maskWeightAt(cell, { length });
  const shown = await maskWeightAt(cell);
  const unmasked = await maskWeightAt(cell, { lengths: false });
  const mistakes = [[shown, 'masking.ex.weight.shown'], [unmasked, 'masking.ex.weight.unmasked']]
    .filter(([value]) => Math.abs(value - right) > 2 * MASK_TOLERANCE);
  assert.ok(mistakes.length > 0, `a mistake to make at cell ${cell}, length ${length}`);
  const [mistake, key] = mistakes[0];
  await typeMaskWeight(mistake.toFixed(3));
  assert.equal(await maskStatus('masked-weight-value'), 'wrong', 'a recognised mistake is "not yet", never close');
  assert.ok((await maskVerdict('masked-weight-value')).startsWith(opening(language, 'exercises.wrong')));
  assert.ok((await maskVerdict('masked-weight-value')).includes(opening(language, key)), `said why: ${key}`);
  await typeMaskWeight(right.toFixed(3));
  assert.equal(await maskStatus('masked-weight-value'), 'right');

  await maskCheck('row-lengths');
  assert.equal(await maskStatus('row-lengths'), 'wrong');
  assert.ok((await maskVerdict('row-lengths')).includes(opening(language, 'masking.ex.lengths.oneD')), '1-D: one length per item');
  await setState(page, { maskMode: '2d', maskLen11: 3, maskLen12: 2 });
  assert.deepEqual((await rowLengthsNow()).slice(0, 2), [3, 2], 'the core keeps three keys, then two');
  await maskCheck('row-lengths');
  assert.equal(await maskStatus('row-lengths'), 'right');
}

// axe-core over the exercise blocks as answered (feedback, hints, answers
// shown), in both themes: the page's own audit sees them only unanswered.
// Each block is audited in the middle of the screen: at its top, the sticky
// contents bar would cover some of it, as it covers anything scrolled under it.
async function auditExercises() {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    // Card by card: a block taller than the screen (a card answered for
    // other settings carries a note) has targets under the sticky bar
    // wherever it is scrolled, which is no fault of the page.
    const cards = await page.locator('#pooling [data-exercise], #masking [data-exercise]')
      .evaluateAll((nodes) => nodes.map((node) => node.dataset.exercise));
    for (const name of cards) {
      const card = `[data-exercise="${name}"]`;
      await page.locator(card).evaluate((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await scrollAtRest(page); // a target half under the sticky bar while the page moves is no fault of the page
      const violations = await axeViolations(page, { include: [card, '.toc'] });
      assert.deepEqual(violations, [], `${name}: ${describeViolations(violations)}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const storedProgress = () => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null'), STORAGE_KEY);

// Each exercise wrong, then right, in the page's language.
// What a five times narrower kernel does to the curve's squared error at
// the points, from the test's own core: 'down', 'up' or 'same'.
const narrowingOutcome = () => page.evaluate(() => {
  const { n, noise, seed, kernel, w, estimator } = window.attentionLab.state;
  const core = window.directCore;
  const data = core.makeDataset({ n, noise, seed, xMax: 5 });
  const mean = data.y.reduce((a, b) => a + b, 0) / n;
  const error = (width) => (estimator === 'average' ? data.x.map(() => mean) : core.nadarayaWatson(data.x, data.x, data.y, { kernel, w: width }))
    .reduce((sum, value, i) => sum + (value - data.y[i]) ** 2, 0);
  const before = error(w);
  const after = error(w * 5 <= 50 ? w * 5 : w / 5);
  if (Math.abs(after - before) <= 1e-9 * Math.max(1, before)) return 'same';
  return after < before ? 'down' : 'up';
});

// One exercise of each kind as the learner sees it (test-results/screenshots/).
const shoot = (id, kind, status, language) => screenshot(page, `exercise-${kind}-${status}-${language}`, `[data-exercise="pooling.${id}"]`);

async function answerEachWrongThenRight(language) {
  for (const id of ['average-query', 'narrower-kernel', 'read-prediction', 'chase-noise']) assert.equal(await statusOf(id), 'open', `${id} starts open`);
  assert.equal(await hintShown('average-query'), false, 'no hint before a try');

  await choose('nearer');
  assert.equal(await statusOf('average-query'), 'wrong');
  assert.ok((await verdictOf('average-query')).includes(opening(language, 'pooling.ex.average.nearerWhy')), 'the wrong option\'s own explanation');
  assert.ok(await hintShown('average-query'), 'a hint after one wrong try');
  await shoot('average-query', 'concept', 'wrong', language);
  await choose('ignores');
  assert.equal(await statusOf('average-query'), 'right');
  await shoot('average-query', 'concept', 'right', language);
  assert.equal(await hintShown('average-query'), false, 'no hint once right');

  const x = await queryShown();
  const right = await rightAt(x);
  assert.ok(Number.isFinite(right), `a prediction at x = ${x}`);
  await type((right + 1).toFixed(3));
  assert.equal(await statusOf('read-prediction'), 'wrong');
  assert.ok((await verdictOf('read-prediction')).includes(opening(language, 'pooling.ex.read.tooHigh')), 'says which way it is off');
  assert.ok(await hintShown('read-prediction'));
  await shoot('read-prediction', 'compute', 'wrong', language);
  await type(right.toFixed(2));
  assert.equal(await statusOf('read-prediction'), 'right');
  await shoot('read-prediction', 'compute', 'right', language);

  // The prediction about a narrower kernel: one try; a wrong one shows the
  // answer at once; "Try another" lets the learner predict anew.
  await setState(page, { w: 1 });
  const outcome = await narrowingOutcome();
  assert.equal(outcome, 'down', 'at the book\'s settings the error at the points goes down');
  await exercise('narrower-kernel').locator('input[value="up"]').check();
  await check('narrower-kernel');
  assert.equal(await statusOf('narrower-kernel'), 'revealed');
  assert.equal(await hintShown('narrower-kernel'), false, 'no hint once the one try is made');
  assert.ok((await verdictOf('narrower-kernel')).includes(opening(language, 'pooling.ex.narrow.whyDown')), 'explains what happens');
  await shoot('narrower-kernel', 'predict', 'wrong', language);
  await exercise('narrower-kernel').locator('[data-action="another"]').click();
  await setState(page, { estimator: 'average' });
  assert.equal(await narrowingOutcome(), 'same', 'average pooling: w changes nothing');
  await exercise('narrower-kernel').locator('input[value="same"]').check();
  await check('narrower-kernel');
  assert.equal(await statusOf('narrower-kernel'), 'right');
  assert.ok((await verdictOf('narrower-kernel')).includes(opening(language, 'pooling.ex.narrow.whyAverage')));
  await shoot('narrower-kernel', 'predict', 'right', language);
  await setState(page, { estimator: 'nadaraya-watson' });

  await check('chase-noise');
  assert.equal(await statusOf('chase-noise'), 'wrong', 'the book\'s width does not chase the noise');
  assert.ok((await verdictOf('chase-noise')).includes(opening(language, 'pooling.ex.chase.tooWide')), 'what too wide does');
  await shoot('chase-noise', 'achieve', 'wrong', language);
  const w = await chasingWidth();
  assert.ok(w, 'a width that chases the noise');
  await setState(page, { w });
  await check('chase-noise');
  assert.equal(await statusOf('chase-noise'), 'right', `w = ${w}`);
  assert.ok((await verdictOf('chase-noise')).includes(opening(language, 'pooling.ex.chase.right')));
  await shoot('chase-noise', 'achieve', 'right', language);
}

test('each exercise, wrong then right, in English; a new seed, a new right answer; the answer after three tries', async () => {
  assert.equal(await exercise('read-prediction').locator('[aria-live="polite"]').count(), 1, 'feedback is announced');
  assert.equal(await exercise('average-query').getAttribute('data-kind'), 'concept');
  assert.equal(await exercise('read-prediction').getAttribute('data-kind'), 'compute');
  assert.equal(await exercise('chase-noise').getAttribute('data-kind'), 'achieve');
  assert.equal(await progressText(), catalogues.en['exercises.progress'].replace('{done}', 0).replace('{total}', 4));
  await answerEachWrongThenRight('en');
  assert.equal(await progressText(), catalogues.en['exercises.progress'].replace('{done}', 4).replace('{total}', 4));
  assert.equal(await maskExercise('masked-weight-value').getAttribute('data-kind'), 'compute');
  await answerMaskingWrongThenRight('en');
  await auditExercises();

  // The masked weight: another cell, and a new seed moves its right answer.
  await maskExercise('masked-weight-value').locator('[data-action="another"]').click();
  // (The question is drawn among those the scores make telling, so a new
  // seed may ask another: the old seed's answer to the question shown is wrong.)
  let maskSeed = 0;
  let asked;
  let oldWeight;
  do {
    maskSeed += 1;
    await setState(page, { maskSeed });
    asked = await maskQuestionShown();
    oldWeight = await maskWeightAt(asked.cell, { length: asked.length, patch: { maskSeed: 0 } });
  } while (Math.abs(await maskWeightAt(asked.cell, { length: asked.length }) - oldWeight) <= 3 * MASK_TOLERANCE);
  const newWeight = await maskWeightAt(asked.cell, { length: asked.length });
  await typeMaskWeight(oldWeight.toFixed(3));
  assert.notEqual(await maskStatus('masked-weight-value'), 'right', 'the old seed\'s weight');
  await typeMaskWeight(newWeight.toFixed(3));
  assert.equal(await maskStatus('masked-weight-value'), 'right', 'the new seed\'s weight');
  await setState(page, { maskSeed: 0 });

  // Try another: a new query; the answer for seed 0 is no longer right under a new seed.
  await setState(page, { w: 1 });
  const before = await queryShown();
  await exercise('read-prediction').locator('[data-action="another"]').click();
  assert.equal(await statusOf('read-prediction'), 'open');
  const x = await queryShown();
  assert.notEqual(x, before, 'a new query');
  const oldRight = await rightAt(x);
  let seed = 1;
  while (Math.abs(await rightAt(x, { seed }) - oldRight) <= 2 * TOLERANCE) seed += 1;
  await setState(page, { seed });
  const newRight = await rightAt(x);
  assert.ok(Math.abs(newRight - oldRight) > TOLERANCE, `seed ${seed} moves the answer at x = ${x}: ${oldRight} -> ${newRight}`);
  await type(oldRight.toFixed(2));
  assert.notEqual(await statusOf('read-prediction'), 'right', 'the old seed\'s answer');
  await type(newRight.toFixed(2));
  assert.equal(await statusOf('read-prediction'), 'right', 'the new seed\'s answer');

  // Three tries that are not right: the answer, from the core, is shown.
  await exercise('read-prediction').locator('[data-action="another"]').click();
  const third = await rightAt(await queryShown());
  for (const expected of ['wrong', 'wrong', 'revealed']) {
    await type(99);
    assert.equal(await statusOf('read-prediction'), expected);
  }
  assert.ok(await answerOf('read-prediction').isVisible(), 'the answer after three tries');
  assert.ok((await shownText(answerOf('read-prediction'))).includes(third.toFixed(2).replace('-', '−')), `shows ${third}`);

  // Nothing of it in the URL: the hash carries settings, never answers.
  const hash = await page.evaluate(() => decodeURIComponent(location.hash));
  assert.ok(!/exercise|status|right|wrong|revealed|99/.test(hash), hash);
  assert.ok(!hash.includes(newRight.toFixed(2)), hash);
  const stored = await storedProgress();
  assert.equal(stored.exercises['pooling.read-prediction'].status, 'revealed');
});

test('progress survives a reload; Chinese, wrong then right; "Reset my answers" clears it', async () => {
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  await loadDirectCore(page);
  await settled(page);
  assert.equal(await statusOf('average-query'), 'right');
  assert.equal(await statusOf('chase-noise'), 'right');
  assert.equal(await statusOf('read-prediction'), 'revealed');
  assert.ok(await answerOf('read-prediction').isVisible(), 'the shown answer stays shown');

  await setLanguage(page, 'zh');
  await page.locator('#pooling [data-action="reset-exercises"]').click();
  assert.equal(await storedProgress().then((stored) => Object.keys(stored.exercises).filter((name) => name.startsWith('pooling.')).length), 0,
    'nothing of the section kept');
  assert.equal(await progressText(), `${catalogues.zh['exercises.progress'].replace('{done}', 0).replace('{total}', 4)} ${catalogues.zh['exercises.wasReset']}`);
  assert.equal(await shownText(exercise('average-query').locator('legend')), catalogues.zh['pooling.ex.average.question']);
  await answerEachWrongThenRight('zh');
  assert.equal(await progressText(), catalogues.zh['exercises.progress'].replace('{done}', 4).replace('{total}', 4));

  assert.equal(await maskStatus('row-lengths'), 'right', 'kept over the reload');
  await page.locator('#masking [data-action="reset-exercises"]').click();
  assert.equal(await shownText(maskExercise('masked-weight').locator('legend')), catalogues.zh['masking.ex.concept.question']);
  await answerMaskingWrongThenRight('zh');
  await auditExercises();
  assert.deepEqual(lab.problems, []);
});

// A learning platform's sandboxed frame (scripts, no same origin, no
// forms): reading localStorage throws there, and nothing may be submitted.
// The exercises work all the same, their progress kept in memory.
test('in a sandboxed iframe without storage or forms, an exercise is checked and counted', async () => {
  const { page: host, context, problems } = await openPage(lab.browser, `${lab.server.origin}/course-example.html`, { predictions: 'open', ready: null });
  const navigated = host.waitForEvent('framenavigated', { predicate: (candidate) => candidate.url().includes('embed=pooling') });
  await host.evaluate((src) => {
    const frame = document.getElementById('frame-training');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.src = src;
    document.body.replaceChildren(frame);
  }, `${lab.server.origin}/#embed=pooling`);
  const frame = await navigated;
  await frame.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 30000 });
  assert.equal(await frame.evaluate(() => {
    try {
      return typeof window.localStorage;
    } catch {
      return 'refused';
    }
  }), 'refused', 'the frame has no storage');
  const concept = frame.locator('[data-exercise="pooling.average-query"]');
  await concept.locator('input[value="ignores"]').check();
  await concept.locator('[data-action="check"]').click();
  assert.equal(await concept.getAttribute('data-status'), 'right');
  assert.equal(await shownText(frame.locator('[data-role="exercise-progress"]')),
    catalogues.en['exercises.progress'].replace('{done}', 1).replace('{total}', 4));
  // (The requests of the frame the sandboxed one replaced were aborted: not a problem of this one.)
  assert.deepEqual(problems.filter((problem) => /form|storage|exercise/i.test(problem) && !problem.endsWith('(net::ERR_ABORTED)')), []);
  await context.close();
});

// The teacher's screen (exercises=answers): every answer and each section's
// teacher's note shown, nothing covered; exercises=off: none, and no count
// in the contents bar. The learner's page counts answered exercises in the
// contents bar.
test('exercises=answers shows every answer and the teacher\'s notes; exercises=off hides them; the contents bar counts', async () => {
  const link = page.locator('.toc a[href="#masking"]');
  const counted = () => link.locator('[data-role="contents-progress"]').evaluate((bar) => [bar.dataset.done, bar.dataset.total, bar.style.getPropertyValue('--share')]);
  assert.deepEqual(await counted(), ['4', '4', '1'], 'masking: all four answered in the test above');
  assert.equal(await link.getAttribute('title'), catalogues.zh['nav.exercisesAnswered'].replace('{done}', 4).replace('{total}', 4), 'in words, in the page\'s language');
  await page.locator('#masking [data-action="reset-exercises"]').click();
  assert.deepEqual(await counted(), ['0', '4', '0'], 'reset: the count follows');
  assert.ok((await shownText(link)).startsWith(catalogues.zh['nav.masking']), 'the link keeps its label');

  const { page: teacher, context, problems } = await openPage(lab.browser, `${lab.server.origin}/#exercises=answers&section=masking`, { predictions: 'open' });
  const declared = await teacher.locator('[data-role="exercises"]').count();
  assert.ok(declared >= 2, 'sections with exercises');
  assert.equal(await teacher.locator('[data-role="teacher-note"]').count(), declared, 'one teacher\'s note per section');
  const answers = teacher.locator('.exercise-answer');
  const shown = await answers.evaluateAll((nodes) => nodes.filter((node) => !node.hidden && node.textContent.length > 0).length);
  assert.equal(shown, await teacher.locator('[data-exercise]').count(), 'every answer shown');
  assert.equal(await teacher.locator('[data-covered]').count(), 0, 'nothing covered on the teacher\'s screen');
  assert.equal(await shownText(teacher.locator('[data-role="teacher-note"]').first())
    .then((text) => text.startsWith(catalogues.en['exercises.teacherNote'])), true);
  assert.match(await teacher.evaluate(() => location.hash), /exercises=answers/, 'the mode stays in the link');
  await teacher.goto('about:blank');
  await teacher.goto(`${lab.server.origin}/#exercises=off`);
  await teacher.waitForSelector('html[data-ready="true"]', { state: 'attached' });
  assert.equal(await teacher.locator('[data-role="exercises"], [data-role="contents-progress"], [data-covered]').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

// What a course page hears: the element's attention-lab:progress events and
// the iframe's messages to its parent, each with the section's score.
test('progress reaches the course page: the element\'s events and the iframe\'s messages', async () => {
  const { page: course, context, problems } = await openPage(lab.browser, `${lab.server.origin}/course-example.html`, { predictions: 'open', ready: null });
  await elementsReady(course, 2);
  await course.evaluate(() => {
    window.heard = { events: [], messages: [] };
    document.addEventListener('attention-lab:progress', (event) => window.heard.events.push({ target: event.target.id, ...event.detail }));
    window.addEventListener('message', (event) => {
      if (event.data?.type === 'attention-lab:progress') window.heard.messages.push(event.data);
    });
  });
  const concept = course.locator('#lab-pooling [data-exercise="pooling.average-query"]');
  await concept.locator('input[value="nearer"]').check();
  await concept.locator('[data-action="check"]').click();
  await concept.locator('input[value="ignores"]').check();
  await concept.locator('[data-action="check"]').click();
  const total = await course.locator('#lab-pooling [data-exercise]').count();
  assert.deepEqual(await course.evaluate(() => window.heard.events), [
    { target: 'lab-pooling', section: 'pooling', exercise: 'average-query', status: 'wrong', attempts: 1, score: { right: 0, finished: 0, total } },
    { target: 'lab-pooling', section: 'pooling', exercise: 'average-query', status: 'right', attempts: 2, score: { right: 1, finished: 1, total } },
  ]);

  await course.evaluate((src) => {
    document.getElementById('frame-training').src = src;
  }, `${lab.server.origin}/#embed=masking`); // another path than the frame's index.html: a new load, not a hash change
  const frame = course.frameLocator('#frame-training');
  await frame.locator('html[data-embed="masking"][data-ready="true"]').waitFor({ state: 'attached', timeout: 30000 });
  const first = frame.locator('[data-exercise]').first();
  const name = await first.getAttribute('data-exercise');
  await first.locator('[data-action="reveal"]').click();
  await course.waitForFunction(() => window.heard.messages.length > 0);
  const [message] = await course.evaluate(() => window.heard.messages);
  assert.deepEqual({ ...message, score: undefined }, {
    type: 'attention-lab:progress', section: name.split('.')[0], exercise: name.split('.')[1], status: 'revealed', attempts: 0, score: undefined,
  });
  assert.deepEqual(message.score, { right: 0, finished: 1, total: await frame.locator('[data-exercise]').count() });
  assert.deepEqual(problems, []);
  await context.close();
});

// What an earlier visit (or anything else) left under the lab's key, put
// there before the page runs: `exercises` (a JSON text, so a "__proto__"
// key is an entry) and `others` made-up entries of no section of the lab.
function storedBefore({ key, exercises, others }) {
  const entries = JSON.parse(exercises);
  for (let i = 0; i < others; i += 1) entries[`other.exercise-${i}`] = { status: 'right', attempts: 1, instance: 0 };
  const text = JSON.stringify({ version: 1, exercises: entries });
  localStorage.setItem(key, text);
  window.storedBefore = text.length;
}

function pageWithStored(exercises, others = 0) {
  const given = { key: STORAGE_KEY, exercises: JSON.stringify(exercises).replace('"proto-entry"', '"__proto__"'), others };
  return openPage(lab.browser, `${lab.server.origin}/#embed=pooling`, { predictions: 'open', init: `(${storedBefore})(${JSON.stringify(given)})` });
}
const inPage = (opened, id) => opened.page.locator(`[data-exercise="pooling.${id}"]`);
const storedIn = (opened) => opened.page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);

// A prediction has one try: stored as wrong or close (its one check made), it
// comes back as that check left it, its answer shown and nothing to check
// again. Stored names after members of Object.prototype are nobody's
// exercises: never read, and not written back; an option's value changed
// to one is no answer.
test('a stored prediction checked wrong comes back revealed, with no second try; names after Object.prototype\'s members are not kept', async () => {
  for (const status of ['wrong', 'close']) {
    const made = { status, attempts: 1, instance: 0 };
    const opened = await pageWithStored({
      'pooling.narrower-kernel': made, 'proto-entry': made, constructor: made, 'toString.valueOf': made, 'hasOwnProperty.x': made,
    });
    const prediction = inPage(opened, 'narrower-kernel');
    assert.equal(await prediction.getAttribute('data-status'), 'revealed', status);
    assert.equal(await prediction.locator('[data-action="check"]').getAttribute('aria-disabled'), 'true', `${status}: no second try`);
    assert.equal(await prediction.locator('.exercise-answer').isVisible(), true, `${status}: its answer shown`);
    assert.equal(await opened.page.locator('[data-covered]').count(), 0, `${status}: no figure covered`);
    // A box whose value was changed in the page (to a member of Object.prototype) is no answer: a reminder, not a try.
    const concept = inPage(opened, 'average-query');
    await concept.locator('input[value="nearer"]').evaluate((box) => {
      box.value = 'constructor';
    });
    await concept.locator('input[value="constructor"]').check();
    await concept.locator('[data-action="check"]').click();
    assert.equal(await concept.getAttribute('data-status'), 'open', `${status}: no try counted`);
    assert.equal(await shownText(concept.locator('.exercise-verdict')), catalogues.en['exercises.pickFirst'], status);
    await inPage(opened, 'average-query').locator('input[value="ignores"]').check();
    await inPage(opened, 'average-query').locator('[data-action="check"]').click();
    const kept = JSON.parse(await storedIn(opened)).exercises;
    assert.deepEqual(Object.keys(kept).sort(), ['pooling.average-query', 'pooling.narrower-kernel'], status);
    assert.deepEqual(kept['pooling.narrower-kernel'], { status: 'revealed', attempts: 1, instance: 0 });
    assert.deepEqual(opened.problems, []);
    await opened.context.close();
  }
});

// Megabytes under the lab's key (the load once took five times as long):
// not parsed, the page opens as a first visit, and the next write keeps the
// lab's entries alone.
test('4 MB under the lab\'s key: the page opens as on a first visit, and writes back only its own entries', async () => {
  const opened = await pageWithStored({ 'pooling.average-query': { status: 'right', attempts: 1, instance: 0 } }, 55000);
  const stored = await opened.page.evaluate(() => window.storedBefore);
  assert.ok(stored > 3.5e6, `${stored} characters stored`);
  assert.equal(await inPage(opened, 'average-query').getAttribute('data-status'), 'open');
  await inPage(opened, 'average-query').locator('input[value="ignores"]').check();
  await inPage(opened, 'average-query').locator('[data-action="check"]').click();
  const text = await storedIn(opened);
  assert.ok(text.length < 200, `${text.length} characters written back`);
  assert.deepEqual(Object.keys(JSON.parse(text).exercises), ['pooling.average-query']);
  assert.deepEqual(opened.problems, []);
  await opened.context.close();
});
