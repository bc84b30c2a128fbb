// The exercises of the cues, data and heatmap sections in the page
// (sections/cues/exercises.js, data/exercises.js, heatmap/exercises.js):
// one page load; each prediction committed wrong (its figure covered
// before, uncovered after, the answer shown), then "Reset my answers" and
// every exercise answered wrong then right, in English, then in Chinese.
// Every right answer is computed here from a core of the test's own
// (window.directCore) for the live state; the status on the root
// (data-status), the feedback's text from the catalogue, the hint after a
// try that is not right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { usePage, settled, setState, setLanguage, screenshot, shownText } from './harness.mjs';
import { streamSeed } from '../../web/src/sections/shared/seeded-draws.js';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// The longest run of a catalogue text without placeholders, TeX or markup:
// what the page must show of it, whatever fills the rest.
const opening = (language, key) => catalogues[language][key].split(/\{[^}]*\}|\$[^$]*\$/)
  .map((part) => part.replace(/\*/g, '').trim()).sort((a, b) => b.length - a.length)[0];

let page;
let lab;
const started = performance.now();
lab = usePage({ predictions: 'open', section: '#cues', directCore: true, opened: (opened) => ({ page } = opened) });

const exercise = (name) => page.locator(`[data-exercise="${name}"]`);
const statusOf = (name) => exercise(name).getAttribute('data-status');
const verdictOf = (name) => shownText(exercise(name).locator('.exercise-verdict'));
const questionOf = (name) => shownText(exercise(name).locator('legend'));
const hintShown = (name) => exercise(name).locator('.exercise-hint').isVisible();
const check = (name) => exercise(name).locator('[data-action="check"]').click();
const covered = (section, figure) => page.locator(`#${section} [data-figure="${figure}"]`).getAttribute('data-covered');

async function choose(name, ...options) {
  for (const box of await exercise(name).locator('input[type="checkbox"]').all()) await box.uncheck();
  for (const option of options) await exercise(name).locator(`input[value="${option}"]`).check();
  await check(name);
}

async function type(name, value) {
  const box = exercise(name).locator('input[type="number"]');
  await box.fill(String(value));
  await box.press('Enter');
}

async function expectVerdict(language, name, status, key) {
  assert.equal(await statusOf(name), status, `${name}: ${status}`);
  const text = await verdictOf(name);
  assert.ok(text.includes(opening(language, key)), `${name}: said why (${key}): ${text}`);
  // A hint while another try is open; none beside a right answer or one shown.
  assert.equal(await hintShown(name), status === 'wrong' || status === 'close', `${name}: a hint only while another try is open`);
}

// A choice wrong, then right, each with its own explanation.
async function conceptWrongThenRight(language, name, wrong, right) {
  await choose(name, wrong.id);
  await expectVerdict(language, name, 'wrong', wrong.key);
  await choose(name, right.id);
  await expectVerdict(language, name, 'right', right.key);
}

// A prediction committed wrong: its figure covered until then, the answer shown at once.
async function predictionWrong(language, name, options, key, hidden = null) {
  if (hidden) assert.notEqual(await covered(...hidden), null, `${name}: ${hidden[1]} covered before the prediction`);
  await choose(name, ...options);
  await expectVerdict(language, name, 'revealed', key);
  assert.ok(await exercise(name).locator('.exercise-answer').isVisible(), `${name}: the answer shown`);
  if (hidden) assert.equal(await covered(...hidden), null, `${name}: ${hidden[1]} uncovered after it`);
}

const reset = async (section) => {
  await page.locator(`#${section} [data-action="reset-exercises"]`).click();
  await settled(page);
};

// --- The right answers, from the test's own core -------------------------

// The softmax of each row of instance 0's random matrix (its seed's stream
// as the page draws it): the statements that hold.
const softmaxStatements = () => page.evaluate((seed) => {
  const core = window.directCore;
  const scores = core.randomUniform(100, { seed, low: 0, high: 1 });
  const weights = core.maskedSoftmax(scores, [1, 10, 10], null);
  const rows = Array.from({ length: 10 }, (_, i) => Array.from(weights.slice(i * 10, i * 10 + 10)));
  const columns = Array.from({ length: 10 }, (_, j) => rows.map((row) => row[j]));
  const sum = (list) => list.reduce((a, b) => a + b, 0);
  const holds = {
    rows: rows.every((row) => Math.abs(sum(row) - 1) < 1e-9),
    columns: columns.every((column) => Math.abs(sum(column) - 1) < 1e-9),
    positive: rows.every((row) => row.every((weight) => weight > 0)),
    diagonal: rows.every((row, i) => row.indexOf(Math.max(...row)) === i),
    oneHot: rows.every((row) => Math.max(...row) > 0.99),
  };
  return Object.keys(holds).filter((id) => holds[id]);
}, streamSeed(0, 'randomScores'));

// The identity's output for the values and query the question shows.
async function identityAnswer() {
  const question = await questionOf('cues.identity-output');
  const list = question.match(/[(（]\s*([\d.]+(?:,\s*[\d.]+){9})\s*[)）]/)[1].split(',').map(Number);
  // The query: the first whole number after the list (in the bold "query {query}").
  const query = Number(question.slice(question.search(/[)）]\s*\D*\d/)).match(/(\d+)/)[1]);
  const output = await page.evaluate(({ list, query }) => {
    const row = new Float64Array(10);
    row[query] = 1;
    return window.directCore.batchMatrixProduct(row, list, { shapeX: [1, 1, 10], shapeY: [1, 10, 1] }).values[0];
  }, { list, query });
  return { query, output };
}

// What σ's change does, by the core's two data sets: the statements that hold.
const noiseStatements = () => page.evaluate(() => {
  const { n, noise, seed } = window.attentionLab.state;
  const core = window.directCore;
  const to = noise === 0 ? 0.5 : (2 * noise <= 2 ? 2 * noise : noise / 2);
  const [a, b] = [core.makeDataset({ n, noise, seed, xMax: 5 }), core.makeDataset({ n, noise: to, seed, xMax: 5 })];
  const [fa, fb] = [core.truth(a.x), core.truth(b.x)];
  const offA = Array.from(a.y, (y, i) => y - fa[i]);
  const offB = Array.from(b.y, (y, i) => y - fb[i]);
  const sameX = a.x.length === b.x.length && a.x.every((x, i) => x === b.x[i]);
  const holds = {
    sameX,
    scaled: noise > 0 && sameX && offA.every((off, i) => Math.abs(off * (to / noise) - offB[i]) < 1e-9 * (1 + Math.abs(offB[i]))),
    truthMoves: false,
    redrawn: !sameX || offA.some((off, i) => off * offB[i] < 0),
    morePoints: b.x.length > a.x.length,
  };
  return Object.keys(holds).filter((id) => holds[id]);
});

// The ringed point's noise: the point of the live data set at the x the question shows.
async function pointNoise() {
  const question = await questionOf('data.point-noise');
  const [, x, y] = question.replace(/−/g, '-').match(/[(（](-?[\d.]+),\s*(-?[\d.]+)[)）]/).map(Number);
  return page.evaluate(({ x, y }) => {
    const { n, noise, seed } = window.attentionLab.state;
    const data = window.directCore.makeDataset({ n, noise, seed, xMax: 5 });
    const i = data.x.reduce((best, value, j) => (Math.abs(value - x) < Math.abs(data.x[best] - x) ? j : best), 0);
    return { noise: data.y[i] - window.directCore.truth([data.x[i]])[0], y: data.y[i], shownY: y };
  }, { x, y });
}

// The largest σ on the control's steps whose points lie within 0.1 (root mean square) of the curve.
const tightNoise = () => page.evaluate(() => {
  const { n, seed } = window.attentionLab.state;
  const core = window.directCore;
  for (let noise = 0.5; noise >= 0; noise = Math.round((noise - 0.05) * 100) / 100) {
    const data = core.makeDataset({ n, noise, seed, xMax: 5 });
    if (Math.sqrt(core.sumSquaredError(core.truth(data.x), data.y) / n) <= 0.1) return noise;
  }
  return 0;
});

// The heatmap's bright cells once the estimator is switched (average
// pooling from Nadaraya–Watson and back): where each row's largest weight lies.
const bandShape = () => page.evaluate(() => {
  const { n, noise, seed, estimator, kernel, w } = window.attentionLab.state;
  const core = window.directCore;
  const queries = Array.from({ length: 50 }, (_, i) => i / 10);
  const { x } = core.makeDataset({ n, noise, seed, xMax: 5 });
  const weights = core.attentionWeights(queries, x, { kernel: estimator === 'average' ? kernel : 'constant', w });
  const rows = queries.map((_, i) => Array.from(weights.slice(i * n, (i + 1) * n))).filter((row) => !Number.isNaN(row[0]));
  if (rows.every((row) => row.every((value) => Math.abs(value - row[0]) < 1e-12))) return 'uniform';
  const [first, last] = [rows[0], rows.at(-1)].map((row) => row.indexOf(Math.max(...row)));
  if (last > first) return 'diagonal';
  return last < first ? 'antiDiagonal' : 'column';
});

// Narrower or wider when w doubles (halves above 25): the mean over the test
// queries of their weighted mean distance to the keys.
const bandChange = () => page.evaluate(() => {
  const { n, noise, seed, estimator, kernel, w } = window.attentionLab.state;
  const core = window.directCore;
  const { x } = core.makeDataset({ n, noise, seed, xMax: 5 });
  const spread = (width) => {
    let total = 0;
    for (let i = 0; i < 50; i += 1) {
      const q = i / 10;
      const weights = core.attentionWeights([q], x, { kernel: estimator === 'average' ? 'constant' : kernel, w: width });
      total += weights.reduce((sum, weight, j) => sum + weight * Math.abs(q - x[j]), 0);
    }
    return total / 50;
  };
  const [before, after] = [spread(w), spread(2 * w <= 50 ? 2 * w : w / 2)];
  if (Math.abs(after - before) <= 1e-9 * before) return 'same';
  return after < before ? 'narrower' : 'wider';
});

// The ratio of the two ringed keys' weights in the live query's row.
async function weightRatio() {
  const question = await questionOf('heatmap.weight-ratio');
  const [a, b] = [...question.matchAll(/x(\d+) = /g)].map((match) => Number(match[1]) - 1);
  return page.evaluate(({ a, b }) => {
    const { n, noise, seed, kernel, w, query } = window.attentionLab.state;
    const { x } = window.directCore.makeDataset({ n, noise, seed, xMax: 5 });
    const weights = window.directCore.attentionWeights([query], x, { kernel, w });
    return weights[a] / weights[b];
  }, { a, b });
}

// --- Each section, in the page's language --------------------------------
// Each starts from "Reset my answers", so that its predictions are open.

async function cuesExercises(language) {
  await reset('cues');
  await predictionWrong(language, 'cues.random-softmax', ['rows', 'columns', 'positive'], 'cues.ex.softmax.columnsWhy', ['cues', 'random-softmax']);
  await reset('cues');
  for (const id of ['friend-in-crowd', 'identity-output', 'random-softmax', 'depends-on-query']) {
    assert.equal(await statusOf(`cues.${id}`), 'open', `cues.${id} starts open`);
  }
  await conceptWrongThenRight(language, 'cues.friend-in-crowd',
    { id: 'costume', key: 'cues.ex.crowd.costumeWhy' }, { id: 'wish', key: 'cues.ex.crowd.wishWhy' });
  const { query, output } = await identityAnswer();
  assert.notEqual(query, output, 'the key\'s index and its value differ');
  await type('cues.identity-output', query);
  await expectVerdict(language, 'cues.identity-output', 'wrong', 'cues.ex.output.key');
  await type('cues.identity-output', output.toFixed(1));
  await expectVerdict(language, 'cues.identity-output', 'right', 'cues.ex.output.right');
  assert.notEqual(await covered('cues', 'random-softmax'), null, 'the random matrix covered again after the reset');
  await choose('cues.random-softmax', ...await softmaxStatements());
  await expectVerdict(language, 'cues.random-softmax', 'right', 'cues.ex.softmax.right');
  assert.equal(await covered('cues', 'random-softmax'), null, 'uncovered once predicted');
  await conceptWrongThenRight(language, 'cues.depends-on-query',
    { id: 'dense', key: 'cues.ex.apart.denseWhy' }, { id: 'attention', key: 'cues.ex.apart.attentionWhy' });
}

async function dataExercises(language) {
  await page.locator('#data').scrollIntoViewIfNeeded();
  await reset('data');
  await predictionWrong(language, 'data.change-noise', ['sameX', 'scaled', 'redrawn'], 'data.ex.noise.redrawnWhy');
  await reset('data');
  await conceptWrongThenRight(language, 'data.truth-curve',
    { id: 'fit', key: 'data.ex.truth.fitWhy' }, { id: 'function', key: 'data.ex.truth.functionWhy' });
  await choose('data.change-noise', ...await noiseStatements());
  await expectVerdict(language, 'data.change-noise', 'right', 'data.ex.noise.right');
  assert.equal(await page.locator('#data [data-figure="data"] .layer-exercise circle.exercise-ring').count(), 1, 'the point ringed');
  const point = await pointNoise();
  assert.ok(Math.abs(point.y - point.shownY) < 0.001, 'the question shows the point of the live data');
  await type('data.point-noise', point.y.toFixed(3));
  await expectVerdict(language, 'data.point-noise', 'wrong', 'data.ex.point.wholeY');
  await type('data.point-noise', point.noise.toFixed(3));
  await expectVerdict(language, 'data.point-noise', 'right', 'data.ex.point.right');
  await setState(page, { n: 200 });
  await check('data.tight-points');
  await expectVerdict(language, 'data.tight-points', 'wrong', 'data.ex.tight.tooNoisy');
  await setState(page, { n: 50 });
  const noise = await tightNoise();
  await setState(page, { noise });
  await check('data.tight-points');
  await expectVerdict(language, 'data.tight-points', 'right', 'data.ex.tight.right');
  await setState(page, { noise: 0.5 });
}

async function heatmapExercises(language) {
  await page.locator('#heatmap').scrollIntoViewIfNeeded();
  await reset('heatmap');
  await predictionWrong(language, 'heatmap.band-shape', ['diagonal'], 'heatmap.ex.band.flat');
  await predictionWrong(language, 'heatmap.band-width', ['wider'], 'heatmap.ex.width.direction');
  await reset('heatmap');
  await conceptWrongThenRight(language, 'heatmap.row-is-query',
    { id: 'key', key: 'heatmap.ex.row.keyWhy' }, { id: 'query', key: 'heatmap.ex.row.queryWhy' });
  const shape = await bandShape();
  await choose('heatmap.band-shape', shape);
  await expectVerdict(language, 'heatmap.band-shape', 'right', `heatmap.ex.band.${shape}Right`);
  assert.equal(await covered('heatmap', 'pooling-heatmap'), null, 'the section\'s heatmap never covered');
  const change = await bandChange();
  await choose('heatmap.band-width', change);
  await expectVerdict(language, 'heatmap.band-width', 'right', `heatmap.ex.width.${change}Right`);
  assert.equal(await page.locator('#heatmap [data-figure="weights"] .layer-exercise circle.exercise-ring').count(), 2, 'the two keys ringed');
  const ratio = await weightRatio();
  await type('heatmap.weight-ratio', (1 / ratio).toFixed(3));
  await expectVerdict(language, 'heatmap.weight-ratio', 'wrong', 'heatmap.ex.ratio.inverse');
  await type('heatmap.weight-ratio', ratio.toFixed(3));
  await expectVerdict(language, 'heatmap.weight-ratio', 'right', 'heatmap.ex.ratio.right');
}

test('cues, data and heatmap exercises: predictions committed wrong, then each exercise wrong then right, in English and Chinese', async () => {
  assert.equal(await exercise('cues.random-softmax').getAttribute('data-kind'), 'predict');
  assert.notEqual(await covered('cues', 'random-softmax'), null, 'a first visit: the random matrix covered');
  assert.equal(await exercise('cues.random-softmax').locator('input[type="checkbox"]').count(), 5, 'several statements to tick');
  await cuesExercises('en');
  await screenshot(page, 'exercises-cues-en', '#cues [data-role="exercises"]');
  await dataExercises('en');
  await heatmapExercises('en');
  await screenshot(page, 'exercises-heatmap-en', '#heatmap');

  await setLanguage(page, 'zh');
  await page.locator('#cues').scrollIntoViewIfNeeded();
  assert.equal(await questionOf('cues.friend-in-crowd'), catalogues.zh['cues.ex.crowd.question'].replace(/\*\*/g, ''));
  await cuesExercises('zh');
  await dataExercises('zh');
  await heatmapExercises('zh');
  assert.deepEqual(lab.problems, []);
  console.log(`exercises-first-sections: ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
