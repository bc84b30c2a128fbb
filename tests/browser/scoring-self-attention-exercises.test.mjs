// The exercises of "Additive vs scaled dot-product attention" and
// "Self-attention, hands on" in the page (sections/scoring/exercises.js,
// sections/self-attention/exercises.js), on one page load: every exercise
// answered wrong, then (after "Reset my answers") right, in English, then in
// Chinese. The right answers are worked out here from the test's own core
// (window.directCore) for the live state; the one exception is the cost
// ratio, a measurement of this browser, read from the timing table's data.
// Asserted: data-status, the feedback's opening from the catalogue, the
// hint after a wrong try, a prediction's figures covered while it is open
// and uncovered once it is committed, and the marks in the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { usePage, setLanguage, shownText, shownTexts } from './harness.mjs';
import { SALTS } from '../../web/src/sections/shared/seeded-draws.js';
import { SCORING_DRAWS } from '../../web/src/sections/scoring/setup.js';
import { WORDS, VECTOR_PARAMETERS } from '../../web/src/sections/self-attention/words.js';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// A catalogue text up to its first placeholder or formula: what the page shows of it as written.
const opening = (language, key) => catalogues[language][key].split(/[{$]/)[0].replace(/\*\*/g, '').trim();
const TOKENS = WORDS.map(({ token }) => token);

let page;
// A first visit: every prediction open, its figures covered.
const lab = usePage({ section: '#scoring', directCore: true, predictions: 'open', opened: (opened) => ({ page } = opened) });
const started = Date.now();

const exercise = (section, id) => page.locator(`[data-exercise="${section}.${id}"]`);

// The machine is shared, so each exercise is answered and read in one round
// trip: the option picked (or the number typed) and Check clicked as a user
// would, then what the exercise shows. (Clicks are DOM clicks: the engine's
// handlers run at once, so the state is read after them.)
const answerAndRead = (section, id, answer) => page.evaluate(async ({ section, id, answer }) => {
  const root = document.querySelector(`[data-exercise="${section}.${id}"]`);
  // In view and drawn, as the learner answers it (a section out of view has no rendered text).
  root.scrollIntoView({ block: 'center', behavior: 'instant' });
  while (!root.checkVisibility({ contentVisibilityAuto: true })) await new Promise((resolve) => requestAnimationFrame(resolve));
  if (typeof answer === 'number') root.querySelector('input[type="number"]').value = String(answer);
  else root.querySelector(`input[type="radio"][value="${answer}"]`).click();
  root.querySelector('[data-action="check"]').click();
  const visible = (selector) => !root.querySelector(selector).hidden;
  return {
    status: root.dataset.status,
    verdict: root.querySelector('.exercise-verdict').innerText,
    hint: visible('.exercise-hint'),
    answer: visible('.exercise-answer'),
  };
}, { section, id, answer });

// Which of the section's figures are covered, and every exercise's status, in one read.
const sectionState = (section, figures) => page.evaluate(({ section, figures }) => ({
  covered: Object.fromEntries(figures.map((name) => [name, document.querySelector(`#${section} [data-figure="${name}"]`).hasAttribute('data-covered')])),
  statuses: Object.fromEntries([...document.querySelectorAll(`#${section} [data-exercise]`)].map((node) => [node.dataset.exercise.split('.')[1], node.dataset.status])),
}), { section, figures });

// A check's outcome: its status, the feedback's opening, the hint after a
// try that was not right while another is open (none once a prediction's
// one try shows its answer), and a prediction's answer shown at once.
function assertOutcome(shown, { status, language, key, id }) {
  assert.equal(shown.status, status, `${id}: ${status}`);
  assert.ok(shown.verdict.includes(opening(language, key)), `${id}: says why (${key}): ${shown.verdict}`);
  assert.equal(shown.hint, status === 'wrong' || status === 'close', `${id}: a hint only while another try is open`);
  if (status === 'revealed') assert.ok(shown.answer, `${id}: the answer at once`);
}

// --- What the test's own core says for the live state ---

// Both layers with random keys for the live settings, with the page's seeded draws:
// 'differ' when their weights over the valid keys part, else 'same'.
const agreement = () => page.evaluate(({ salts, draws }) => {
  const core = window.directCore;
  const s = window.attentionLab.state;
  const stream = (role) => (s.scoringSeed ^ salts[role]) >>> 0;
  const nq = s.scoringQueries;
  const lens = [s.scoringLen1, s.scoringLen2];
  const values = Float64Array.from({ length: 80 }, (_, i) => i % 40);
  const keys = core.randomNormal(40, { seed: stream('keys') });
  const q2 = core.randomNormal(2 * draws.queries * 2, { seed: stream('queries') }).subarray(0, 2 * nq * 2);
  const dq = s.additiveQueries === '20d' ? 20 : 2;
  const qa = dq === 20 ? core.randomNormal(2 * draws.queries * 20, { seed: stream('queries20') }).subarray(0, 2 * nq * 20) : q2;
  const bound = (fanIn) => 1 / Math.sqrt(fanIn);
  const h = s.additiveHidden;
  const additive = core.additiveAttention({
    queries: qa, keys, values, shape: { batch: 2, nq, nk: 10, dq, dk: 2, dv: 4, h },
    Wq: core.randomUniform(h * dq, { seed: stream('wq'), low: -bound(dq), high: bound(dq) }),
    Wk: core.randomUniform(h * 2, { seed: stream('wk'), low: -bound(2), high: bound(2) }),
    wv: core.randomUniform(h, { seed: stream('wv'), low: -bound(h), high: bound(h) }),
    validLens: lens,
  }).weights;
  const dot = core.dotProductAttention({ queries: q2, keys, values, shape: { batch: 2, nq, nk: 10, d: 2, dv: 4 }, validLens: lens }).weights;
  let most = 0;
  for (let row = 0; row < 2 * nq; row += 1) {
    for (let key = 0; key < lens[Math.floor(row / nq)]; key += 1) most = Math.max(most, Math.abs(additive[row * 10 + key] - dot[row * 10 + key]));
  }
  return most > 0.01 ? 'differ' : 'same';
}, { salts: SALTS, draws: SCORING_DRAWS });

// The scaling study at d = 1 and 512 for the panel's settings: which way each curve goes.
const scalingTrend = () => page.evaluate(() => {
  const s = window.attentionLab.state;
  const [low, high] = window.directCore.scalingStudy({ dims: [1, 512], samples: s.scalingSamples, keys: s.scalingKeys, seed: s.scalingSeed });
  const way = (a, b) => (b - a > 0.1 ? 'peakier' : a - b > 0.1 ? 'flatter' : 'level');
  return `${way(low.maxWeight, high.maxWeight)}-${way(low.scaledMaxWeight, high.scaledMaxWeight)}`;
});

// The row the cost question asks about, outlined in the table, and its measured medians.
async function costAsked() {
  const question = await shownText(exercise('scoring', 'cost-ratio').locator('legend'));
  const n = Number(question.match(/(\d+) × \1/)[1]);
  const marked = page.locator('#scoring [data-role="cost-table"] tr.is-marked');
  assert.equal(await marked.count(), 1, 'one row outlined');
  assert.equal(Number(await marked.getAttribute('data-size')), n, 'the row asked about');
  return { n, additive: Number(await marked.getAttribute('data-additive')), dot: Number(await marked.getAttribute('data-dot')) };
}

// The sentence from the live vectors, without projections: row `word` of its weights.
const weightRow = (word) => page.evaluate(({ names, word }) => {
  const s = window.attentionLab.state;
  const X = Float64Array.from(names, (name) => s[name]);
  const { weights } = window.directCore.dotProductAttention({ queries: X, keys: X, values: X, shape: { batch: 1, nq: 6, nk: 6, d: 5, dv: 5 } });
  return Array.from(weights.subarray(word * 6, word * 6 + 6));
}, { names: VECTOR_PARAMETERS, word });

// The notes' weight softmax_j(x_q . x_j), without the square root, from the core's
// batch matrix product and softmax; and the map's weight of the same cell.
const notesWeight = (query, key) => page.evaluate(({ names, query, key }) => {
  const core = window.directCore;
  const s = window.attentionLab.state;
  const X = Float64Array.from(names, (name) => s[name]);
  const XT = Float64Array.from({ length: 30 }, (_, k) => X[(k % 6) * 5 + Math.floor(k / 6)]);
  const scores = core.batchMatrixProduct(X, XT, { shapeX: [1, 6, 5], shapeY: [1, 5, 6] }).values;
  const shown = core.dotProductAttention({ queries: X, keys: X, values: X, shape: { batch: 1, nq: 6, nk: 6, d: 5, dv: 5 } }).weights;
  return { right: core.maskedSoftmax(scores, [1, 6, 6], null)[query * 6 + key], shown: shown[query * 6 + key] };
}, { names: VECTOR_PARAMETERS, query, key });

// Which point the series' point favours under softmax_j(x_i x_j): the largest value, the smallest, or another.
const seriesFavourite = (point) => page.evaluate((point) => {
  const core = window.directCore;
  const s = window.attentionLab.state;
  const data = core.makeDataset({ n: s.seriesPoints, noise: s.seriesNoise, seed: s.seriesSeed, xMax: 5 });
  const n = data.y.length;
  const row = core.dotProductAttention({ queries: data.y, keys: data.y, values: data.y, shape: { batch: 1, nq: n, nk: n, d: 1, dv: 1 } })
    .weights.subarray(point * n, point * n + n);
  const best = row.indexOf(Math.max(...row));
  if (data.y[best] === Math.max(...data.y)) return 'largest';
  return data.y[best] === Math.min(...data.y) ? 'smallest' : 'other';
}, point);

// The words a question names in bold, as tokens (the English page adds the gloss).
const boldWords = async (section, id) => (await shownTexts(exercise(section, id).locator('legend strong')))
  .map((text) => TOKENS.indexOf(text.split(' ')[0]));

// --- The two sections, answered wrong or right ---

const SCORING_FIGURES = ['additive-weights', 'dot-weights', 'additive-output', 'dot-output', 'scaling-weight', 'scaling-variance'];
const SA_FIGURES = ['sa-weights', 'sa-self', 'series-weights'];
const OPEN = (ids) => Object.fromEntries(ids.map((id) => [id, 'open']));
const ALL_COVERED = (figures, except = []) => Object.fromEntries(figures.map((name) => [name, !except.includes(name)]));

async function scoringExercises(language, { right }) {
  // Before any answer: every exercise open, both predictions' figures covered (the variance plot is the reason, not covered).
  assert.deepEqual(await sectionState('scoring', SCORING_FIGURES), {
    covered: ALL_COVERED(SCORING_FIGURES, ['scaling-variance']),
    statuses: OPEN(['equal-lengths', 'keys-agree', 'scaling-trend', 'cost-ratio']),
  });

  // Concept: the square root is not what fails.
  assertOutcome(await answerAndRead('scoring', 'equal-lengths', right ? 'lengths' : 'scale'), {
    id: 'equal-lengths', status: right ? 'right' : 'wrong', language, key: right ? 'scoring.ex.lengths.lengthsWhy' : 'scoring.ex.lengths.scaleWhy',
  });

  // Prediction: do the two scorings agree on random keys? The core says they part.
  const truth = await agreement();
  assert.equal(truth, 'differ', 'random keys part the two maps at these settings');
  assertOutcome(await answerAndRead('scoring', 'keys-agree', right ? truth : 'same'), {
    id: 'keys-agree', status: right ? 'right' : 'revealed', language, key: right ? 'scoring.ex.agree.differRight' : 'scoring.ex.agree.notSame',
  });

  // Prediction: flatter or peakier as d grows, the study's trend from the core.
  const trend = await scalingTrend();
  assert.equal(trend, 'peakier-level');
  assertOutcome(await answerAndRead('scoring', 'scaling-trend', right ? trend : 'level-level'), {
    id: 'scaling-trend', status: right ? 'right' : 'revealed', language, key: right ? 'scoring.ex.trend.right' : 'scoring.ex.trend.levelWhy',
  });
  const after = await sectionState('scoring', SCORING_FIGURES);
  assert.deepEqual(after.covered, ALL_COVERED(SCORING_FIGURES, SCORING_FIGURES), 'every figure uncovered once both are committed');

  // Compute: the ratio of the outlined row, as this browser measured it.
  await page.waitForFunction(() => document.querySelectorAll('#scoring [data-role="cost-table"] tr[data-size]').length === 3, null, { timeout: 30000 });
  const { additive, dot } = await costAsked();
  const ratio = additive / dot;
  assert.ok(ratio > 1.2, `additive attention costs more: ${ratio}`);
  assertOutcome(await answerAndRead('scoring', 'cost-ratio', Number((right ? ratio : dot / additive).toFixed(3))), {
    id: 'cost-ratio', status: right ? 'right' : 'wrong', language, key: right ? 'exercises.right' : 'scoring.ex.cost.inverse',
  });
}

async function selfAttentionExercises(language, { right }) {
  assert.deepEqual(await sectionState('self-attention', SA_FIGURES), {
    covered: ALL_COVERED(SA_FIGURES), statuses: OPEN(['attends-itself', 'shuffle', 'self-or-cross', 'series-values', 'notes-weight']),
  });

  // Prediction: which word a word attends to most without projections.
  const [word] = await boldWords('self-attention', 'attends-itself');
  assert.ok(word >= 0, 'the question names a word of the sentence');
  const row = await weightRow(word);
  assert.equal(row.indexOf(Math.max(...row)), word, `${TOKENS[word]} attends most to itself with the built-in vectors`);
  assertOutcome(await answerAndRead('self-attention', 'attends-itself', right ? 'self' : 'even'), {
    id: 'attends-itself', status: right ? 'right' : 'revealed', language, key: right ? 'exercises.right' : 'self-attention.ex.itself.notEven',
  });

  // Concept (d2l 10.6 ex. 1).
  assertOutcome(await answerAndRead('self-attention', 'shuffle', right ? 'permuted' : 'changed'), {
    id: 'shuffle', status: right ? 'right' : 'wrong', language, key: right ? 'self-attention.ex.shuffle.permutedWhy' : 'self-attention.ex.shuffle.changedWhy',
  });

  // Concept: attention vs self-attention (the notes' comparison).
  assertOutcome(await answerAndRead('self-attention', 'self-or-cross', right ? 'same-sequence' : 'attends-self'), {
    id: 'self-or-cross', status: right ? 'right' : 'wrong', language, key: right ? 'self-attention.ex.cross.sameSequenceWhy' : 'self-attention.ex.cross.attendsSelfWhy',
  });

  // Prediction on the series, its point marked on the plot.
  assert.equal(await page.locator('#self-attention [data-figure="series"] line.exercise-rule').count(), 1, 'the point marked');
  const legend = await shownText(exercise('self-attention', 'series-values').locator('legend'));
  const point = Number(legend.match(/(\d+)/)[1]) - 1;
  const favourite = await seriesFavourite(point);
  assert.ok(['largest', 'smallest'].includes(favourite), `point ${point + 1}: ${favourite}`);
  assertOutcome(await answerAndRead('self-attention', 'series-values', right ? favourite : 'neighbours'), {
    id: 'series-values', status: right ? 'right' : 'revealed', language,
    key: right ? 'exercises.right' : (favourite === 'largest' ? 'self-attention.ex.series.notNeighbours' : 'self-attention.ex.series.negative'),
  });
  assert.deepEqual((await sectionState('self-attention', SA_FIGURES)).covered, ALL_COVERED(SA_FIGURES, SA_FIGURES), 'uncovered once committed');

  // Compute: the notes' weight of the pair named, outlined in "Self-attention".
  const [query, key] = await boldWords('self-attention', 'notes-weight');
  assert.ok(query >= 0 && key >= 0, 'the question names two words');
  const outlined = page.locator('#self-attention [data-figure="sa-self"] .cell.is-marked rect');
  assert.deepEqual(await outlined.evaluateAll((rects) => rects.map((rect) => [Number(rect.dataset.row), Number(rect.dataset.col)])), [[query, key]],
    'the pair\'s cell outlined');
  const weights = await notesWeight(query, key);
  assert.ok(Math.abs(weights.right - weights.shown) > 0.03, 'the map cannot be copied');
  assertOutcome(await answerAndRead('self-attention', 'notes-weight', Number((right ? weights.right : weights.shown).toFixed(3))), {
    id: 'notes-weight', status: right ? 'right' : 'wrong', language, key: right ? 'exercises.right' : 'self-attention.ex.weight.shown',
  });
}

async function resetBoth(language) {
  for (const section of ['scoring', 'self-attention']) {
    await page.locator(`#${section} [data-action="reset-exercises"]`).click();
    assert.ok((await shownText(page.locator(`#${section} [data-role="exercise-progress"]`))).includes(catalogues[language]['exercises.wasReset']));
  }
}

const progressOf = (section) => shownText(page.locator(`#${section} [data-role="exercise-progress"]`));
const progressText = (language, done, total = 4) => catalogues[language]['exercises.progress'].replace('{done}', done).replace('{total}', total);

test('every exercise of both sections wrong, then right, in English, then in Chinese', async () => {
  for (const [section, kinds] of [['scoring', ['concept', 'predict', 'predict', 'compute']], ['self-attention', ['predict', 'concept', 'concept', 'predict', 'compute']]]) {
    // In any order: a prediction stands beside the figure it covers, above the section's other exercises.
    const shown = await page.locator(`#${section} [data-exercise]`).evaluateAll((nodes) => nodes.map((node) => node.dataset.kind));
    assert.deepEqual([...shown].sort(), [...kinds].sort(), section);
  }
  // The timing table is measured once its panel nears the screen, as a reader scrolls to it.
  await page.locator('#scoring [data-role="cost-panel"]').scrollIntoViewIfNeeded();
  for (const language of ['en', 'zh']) {
    if (language === 'zh') {
      await setLanguage(page, 'zh');
      await resetBoth('zh');
      assert.equal(await shownText(exercise('scoring', 'equal-lengths').locator('legend')),
        catalogues.zh['scoring.ex.lengths.question'].replace(/\*\*/g, ''));
    }
    await scoringExercises(language, { right: false });
    await selfAttentionExercises(language, { right: false });
    assert.equal(await progressOf('scoring'), progressText(language, 2), 'the two predictions are finished');
    assert.equal(await progressOf('self-attention'), progressText(language, 2, 5), 'the two predictions are finished');
    await resetBoth(language);
    await scoringExercises(language, { right: true });
    await selfAttentionExercises(language, { right: true });
    assert.equal(await progressOf('scoring'), progressText(language, 4));
    assert.equal(await progressOf('self-attention'), progressText(language, 5, 5));
  }
  assert.deepEqual(lab.problems, []);
  console.log(`# exercises-scoring-and-self-attention: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});
