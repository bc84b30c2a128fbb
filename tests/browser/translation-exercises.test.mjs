// The translation section's exercises in the page
// (sections/translation/exercises.js): each answered wrong, then right, in
// English, then in Chinese, on the default translator the page trains (300
// steps at full speed); the right answers worked out here from the test's
// own core (window.directCore), training the same model, never read from
// the page. Checked: data-status, the feedback's opening from the catalogue,
// the hint after a wrong try, "cannot be checked" before a model is trained
// (no try counted: the prediction is committed and the maps shown), and the
// maps covered while the prediction is open. The ratio exercise reads the
// row the learner opened (its scores on screen).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { usePage, settled, setState, setLanguage, shownText } from './harness.mjs';
import { exerciseDriver } from './exercise-driver.mjs';
import { EXAMPLES, modelConfig, trainingOptions } from '../../web/src/sections/translation/setup.js';
import { EIGHT_OPTIONS } from '../../web/src/sections/translation/exercises.js';
import { defaultState } from '../../web/src/state.js';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
const opening = (language, key) => catalogues[language][key].split(/[{$]/)[0].replace(/\*\*/g, '').trim();
const RUN = { trSpeed: 1000, trSteps: 300, trTask: 'numbers-en-zh', trArchitecture: 'bigru' };

let page;
usePage({ predictions: 'open', section: '#translation', directCore: true, opened: (opened) => ({ page } = opened) });

const { exercise, statusOf, verdictOf, hintShown, check, choose, type, covered, resetAnswers } = exerciseDriver(() => page, 'translation');

async function playToTheEnd() {
  await page.locator('#translation [data-action="tr-play"]').click();
  await page.waitForFunction(() => document.querySelector('#translation [data-role="tr-status"]').dataset.status === 'done',
    null, { timeout: 120000 });
  await settled(page);
}

// The test's own answers from the same model trained on the test's core.
const answers = new Map();
function directAnswers(seed) {
  const state = { ...defaultState(), ...RUN, trSeed: seed };
  if (!answers.has(seed)) answers.set(seed, page.evaluate(({ config, training, count }) => {
    const core = window.directCore;
    let model = core.seq2seqInit(config);
    let last = null;
    for (let done = 0; done < training.steps; done += 25) { // the core bounds a call's work
      const part = core.seq2seqTrain(model, { ...training, steps: Math.min(25, training.steps - done), evaluateAtEnd: false });
      model = part.model;
      if (part.accuracy.length > 0) last = part.accuracy.at(-1);
    }
    const vocabulary = core.seq2seqVocabulary(training.task);
    const source = core.seq2seqSourceFromText(training.task, '4782');
    const translation = core.seq2seqTranslate(model, source, {});
    const words = Array.from(translation.tokens.subarray(0, translation.lengths[0]), (id) => vocabulary.target[id]);
    const row = words.indexOf('八');
    const weights = Array.from(translation.crossWeights.subarray(row * source.length, (row + 1) * source.length));
    const eight = vocabulary.source[source[weights.indexOf(Math.max(...weights))]];
    const examples = core.seq2seqHeldOut({ task: training.task, count });
    const { crossWeights } = core.seq2seqForward(model, examples);
    const T = model.config.targetLength;
    const S = model.config.sourceLength;
    const rows = (ids, width, words) => Array.from({ length: count }, (_, item) => Array.from(ids.subarray(item * width, (item + 1) * width), (id) => words[id]));
    return {
      eight, heldOut: last, crossWeights: Array.from(crossWeights), T, S,
      targetWords: rows(examples.targetOut, T, vocabulary.target), sourceWords: rows(examples.source, S, vocabulary.source),
      targetLens: Array.from(examples.targetLens), sourceLens: Array.from(examples.sourceLens),
    };
  }, { config: modelConfig(state), training: trainingOptions(state, state.trSteps), count: EXAMPLES }));
  return answers.get(seed);
}

// The test's own race for a scoring question: the step at which the run of
// RUN with `settings` first reaches 95 % held-out exact match with either
// scoring (the kept one and the live one), and which got there first.
async function scoringRace(seed, settings, setting, kept, live) {
  const runs = Object.fromEntries([kept, live].map((scoring) => {
    const state = { ...defaultState(), ...RUN, ...settings, trSeed: seed, [setting]: scoring };
    return [scoring, { config: modelConfig(state), training: trainingOptions(state, state.trSteps) }];
  }));
  const at = await page.evaluate((races) => {
    const reached = ({ config, training }) => {
      const core = window.directCore;
      let model = core.seq2seqInit(config);
      for (let done = 0; done < training.steps; done += 25) {
        const part = core.seq2seqTrain(model, { ...training, steps: 25, evaluateAtEnd: false });
        model = part.model;
        const index = Array.from(part.accuracy).findIndex((accuracy) => accuracy >= 0.95);
        if (index >= 0) return part.evaluatedAt[index];
      }
      return null;
    };
    return Object.fromEntries(Object.entries(races).map(([scoring, run]) => [scoring, reached(run)]));
  }, runs);
  assert.ok(at[kept] !== null && at[live] !== null, `the test's own steps to 95 %: ${JSON.stringify(at)}`);
  const faster = at[live] < at[kept] ? live : at[live] === at[kept] ? 'same' : kept;
  return { faster, at };
}

// A race question answered wrong, then right after a reset: the run trained
// with `settings` kept, then `setting` switched from `kept` to `live`.
async function raceWrongThenRight(language, seed, { id, settings, setting, kept, live, fasterKey }) {
  await page.locator('#translation [data-action="tr-keep"]').click();
  await setState(page, { ...settings, [setting]: live });
  assert.equal(await covered('tr-compare'), '', 'the comparison is covered while the prediction is open');
  assert.equal(await covered('tr-accuracy'), '', 'so is the live curve');
  const { faster, at } = await scoringRace(seed, settings, setting, kept, live);
  await choose(id, faster === kept ? live : kept);
  assert.equal(await statusOf(id), 'open', 'nothing trained: committed');
  assert.ok((await verdictOf(id)).includes(opening(language, 'exercises.committed')));
  assert.equal(await covered('tr-compare'), null, 'committed: the comparison shown to watch');
  await playToTheEnd();
  await check(id);
  assert.equal(await statusOf(id), 'revealed', 'a prediction has one try');
  const raceVerdict = await verdictOf(id);
  assert.ok(raceVerdict.includes(opening(language, fasterKey(faster))), raceVerdict);
  assert.ok(raceVerdict.includes(String(at[kept])) && raceVerdict.includes(String(at[live])), `the steps said: ${raceVerdict}`);
  await resetAnswers();
  assert.equal(await covered('tr-compare'), '', 'covered again after "Reset my answers"');
  await choose(id, faster);
  assert.equal(await statusOf(id), 'right', await verdictOf(id));
  // The kept run removed: at most three are kept, and each race keeps its own.
  // (The comparison hides once nothing is kept.)
  const remove = page.locator('#translation [data-action="tr-remove-1"]');
  while (await remove.isVisible()) {
    await remove.click();
    await settled(page);
  }
}

async function answerWrongThenRight(language, seed) {
  const ids = ['where-eight-looks', 'shifted-map', 'exact-match', 'read-weight', 'row-weight-ratio', 'dot-scoring', 'head-scoring', 'lstm-cell'];
  for (const id of ids) assert.equal(await statusOf(id), 'open', `${id} starts open`);
  await setState(page, { ...RUN, trSeed: seed });
  assert.equal(await covered('tr-maps'), '', 'the maps are covered while the prediction is open');

  const {
    eight, heldOut, crossWeights, T, S, targetWords, sourceWords, targetLens, sourceLens,
  } = await directAnswers(seed);

  // 1. The prediction, made before training: no try counted, the choice
  // committed (kept as made) and the maps shown to watch the run; checked
  // once trained: one try, then reset and right.
  const wrong = EIGHT_OPTIONS.find((word) => word !== eight);
  await choose('where-eight-looks', wrong);
  assert.equal(await statusOf('where-eight-looks'), 'open');
  assert.ok((await verdictOf('where-eight-looks')).includes(opening(language, 'exercises.committed')));
  assert.ok((await verdictOf('where-eight-looks')).includes(opening(language, 'translation.ex.pressPlay')));
  assert.equal(await covered('tr-maps'), null, 'committed: the maps shown');
  await playToTheEnd();
  await check('where-eight-looks');
  assert.equal(await statusOf('where-eight-looks'), 'revealed', 'a prediction has one try');
  assert.equal(await hintShown('where-eight-looks'), false, 'no hint once the one try is made');
  assert.equal(await covered('tr-maps'), null, 'the maps shown once checked');
  await resetAnswers();
  await choose('where-eight-looks', eight);
  assert.equal(await statusOf('where-eight-looks'), 'right', `${eight}: ${await verdictOf('where-eight-looks')}`);

  // 2. The concept.
  await choose('shifted-map', 'drawing');
  assert.equal(await statusOf('shifted-map'), 'wrong');
  assert.ok((await verdictOf('shifted-map')).includes(opening(language, 'translation.ex.shift.drawingWhy')));
  assert.ok(await hintShown('shifted-map'));
  await choose('shifted-map', 'prefix');
  assert.equal(await statusOf('shifted-map'), 'right');

  // 3. The goal: the run's last evaluation, as the test's core has it.
  assert.ok(heldOut >= 0.95, `the default passes 95 % in 300 steps: ${heldOut}`);
  await check('exact-match');
  assert.equal(await statusOf('exact-match'), 'right');
  assert.ok((await verdictOf('exact-match')).includes((heldOut * 100).toFixed(1)));

  // 4. A weight read off the map: the question names the pair, the target
  // word and the source word; the test finds that cell in its own forward pass.
  const question = await shownText(exercise('read-weight').locator('legend'));
  const item = Number(/(\d+)/.exec(question)[1]) - 1;
  // English names the source word first, Chinese the target word.
  const quoted = [...question.matchAll(/“([^”]+)”/g)].map((match) => match[1]);
  const [target, sourceWord] = language === 'en' ? quoted.reverse() : quoted;
  const cellsOf = [];
  for (let row = 0; row < targetLens[item]; row += 1) {
    for (let col = 0; col < sourceLens[item]; col += 1) {
      if (targetWords[item][row] === target && sourceWords[item][col] === sourceWord) cellsOf.push(crossWeights[(item * T + row) * S + col]);
    }
  }
  assert.ok(cellsOf.length >= 1, `the cell of “${target}” and “${sourceWord}” in pair ${item + 1}`);
  await type('read-weight', 5);
  assert.equal(await statusOf('read-weight'), 'wrong', 'no weight is 5');
  assert.ok(await hintShown('read-weight'));
  await type('read-weight', cellsOf[0].toFixed(3));
  assert.equal(await statusOf('read-weight'), 'right', await verdictOf('read-weight'));
  assert.ok((await verdictOf('read-weight')).includes(opening(language, 'translation.ex.weight.right')));

  // 5. Two weights' ratio from two scores, in the decoder's row taken apart (its additive scores).
  const rowPanel = page.locator('#translation [data-role="tr-row-steps"]');
  await type('row-weight-ratio', 1);
  assert.equal(await statusOf('row-weight-ratio'), 'open', 'the panel closed: no try counted');
  assert.ok((await verdictOf('row-weight-ratio')).includes(opening(language, 'steps.ex.ratio.openFirst')));
  await rowPanel.locator('.row-steps-summary').click();
  await page.locator('[data-role="tr-steps-query"]').selectOption('1');
  const stepValues = async (step) => {
    await page.locator(`#translation [data-action="tr-steps-${step}"]`).click();
    await settled(page);
    return page.locator('[data-figure="tr-steps-matrix"] g.cell rect').evaluateAll((rects) => rects.map((r) => ({
      value: Number(r.dataset.value), masked: r.dataset.masked === 'true' })));
  };
  const weightCells = await stepValues('softmax');
  const weights = weightCells.map(({ value }) => value);
  const scores = (await stepValues('scores')).map(({ value }) => value);
  const [a, b] = scores.map((_, j) => j).filter((j) => !weightCells[j].masked).sort((x, y) => scores[y] - scores[x] || x - y);
  await type('row-weight-ratio', weights[a]);
  assert.equal(await statusOf('row-weight-ratio'), 'wrong', 'α_a itself is a recognised mistake');
  assert.ok((await verdictOf('row-weight-ratio')).includes(opening(language, 'steps.ex.ratio.weight')));
  await type('row-weight-ratio', Math.exp(scores[a] - scores[b]).toPrecision(6));
  assert.equal(await statusOf('row-weight-ratio'), 'right', await verdictOf('row-weight-ratio'));
  assert.ok((await verdictOf('row-weight-ratio')).includes(opening(language, 'steps.ex.ratio.right')));
  await rowPanel.locator('.row-steps-summary').click(); // closed again, as a first visit finds it

  // 6. Dot-product scoring against additive: the additive run trained above
  // kept, then the dot-product one.
  await raceWrongThenRight(language, seed, {
    id: 'dot-scoring', settings: {}, setting: 'trScoring', kept: 'additive', live: 'dot',
    fasterKey: (faster) => `translation.ex.dot.${faster}Faster`,
  });

  // 7. The Transformer's additive heads against its dot product: a
  // dot-product Transformer trained and kept, then one with additive heads.
  const transformer = { trScoring: 'additive', trArchitecture: 'transformer' };
  await setState(page, { ...transformer, trHeadScoring: 'dot' });
  await playToTheEnd();
  await raceWrongThenRight(language, seed, {
    id: 'head-scoring', settings: transformer, setting: 'trHeadScoring', kept: 'dot', live: 'additive',
    fasterKey: (faster) => `translation.ex.heads.${faster}Faster`,
  });
  await setState(page, { trArchitecture: RUN.trArchitecture, trHeadScoring: 'dot' });

  // 8. An LSTM in the GRU's place: a GRU run trained and kept, then an LSTM one.
  const gru = { trScoring: 'additive', trCell: 'gru' };
  await setState(page, gru);
  await playToTheEnd();
  await raceWrongThenRight(language, seed, {
    id: 'lstm-cell', settings: gru, setting: 'trCell', kept: 'gru', live: 'lstm',
    fasterKey: (faster) => `translation.ex.lstm.${faster}Faster`,
  });
  await setState(page, { trCell: 'gru' });
}

test('each exercise wrong, then right, in English, then in Chinese, on the translator the page trains', { timeout: 600000 }, async () => {
  assert.equal(await exercise('where-eight-looks').getAttribute('data-kind'), 'predict');
  assert.equal(await exercise('shifted-map').getAttribute('data-kind'), 'concept');
  assert.equal(await exercise('exact-match').getAttribute('data-kind'), 'achieve');
  assert.equal(await exercise('read-weight').getAttribute('data-kind'), 'compute');
  assert.equal(await exercise('dot-scoring').getAttribute('data-kind'), 'predict');
  assert.equal(await exercise('head-scoring').getAttribute('data-kind'), 'predict');
  assert.equal(await exercise('lstm-cell').getAttribute('data-kind'), 'predict');
  await answerWrongThenRight('en', 0);
  await setLanguage(page, 'zh');
  await resetAnswers();
  await answerWrongThenRight('zh', 1);
});
