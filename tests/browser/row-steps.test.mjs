// "Take one row apart" in the page (sections/shared/row-steps-panel.js): in "Watch
// attention learn" and "Translate", a head and a query position of the map
// trained on screen stepped through, step by step. Checked against what the
// learner sees: the softmax row equals the map's row; the scores, mask and
// weights hold together and are the core's (the test's own core, training
// the same model); Prev/Next, the step list and the arrow keys; both
// languages; the timeline dragged back says the numbers are the current
// model's; the exercise answered wrong (a recognised mistake) then right;
// 1280 px and 360 px; the open panel's accessibility audit. The cost of one change of row is printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { usePage, settled, setState, setLanguage, screenshot, scrollToRendered, shownText, shownTexts } from './harness.mjs';
import { matrixCells, values } from './figure-readers.mjs';
import { axeViolations, describeViolations } from './axe-audit.mjs';
import { EXAMPLES, modelConfig, trainingOptions } from '../../web/src/sections/attention-training/setup.js';
import { defaultState } from '../../web/src/state.js';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
const opening = (language, key) => catalogues[language][key].split(/[{$]/)[0].replace(/\*\*/g, '').trim();
const AT_RUN = { atSpeed: 1000, atSteps: 200 };
const TR_RUN = { trSpeed: 1000, trSteps: 50 };

let page;
let problems;
usePage({ section: '#attention-training', directCore: true, opened: (opened) => ({ page, problems } = opened) });

const panel = (id, name) => page.locator(`#${id} [data-role="${name}-row-steps"]`);
const cellsOf = (name) => matrixCells(page, `${name}-steps-matrix`);

async function playToTheEnd(id, name) {
  await page.locator(`#${id} [data-action="${name}-play"]`).click();
  await page.waitForFunction(([section, prefix]) => document.querySelector(`#${section} [data-role="${prefix}-status"]`).dataset.status === 'done',
    [id, name], { timeout: 120000 });
  await settled(page);
}

async function openPanel(id, name) {
  const details = panel(id, name);
  if (!(await details.evaluate((node) => node.open))) await details.locator('.row-steps-summary').click();
  await settled(page);
}

async function pick(name, role, value) {
  await page.locator(`[data-role="${name}-steps-${role}"]`).selectOption(String(value));
  await settled(page);
}

async function goToStep(id, name, step) {
  await page.locator(`#${id} [data-action="${name}-steps-${step}"]`).click();
  await settled(page);
  assert.equal(await page.locator(`#${id} [data-role="${name}-steps-body"]`).getAttribute('data-step'), step);
}

// The steps the test's own core gives for the same model (trained as the page trains it) and row.
async function directSteps(state, steps, choice) {
  return page.evaluate(({ config, training, heldOutMix, count, row, causal, variable }) => {
    const core = window.directCore;
    const model = core.attentionModelTrain(core.attentionModelInit(config), training).model;
    const examples = core.attentionTaskBatch({
      task: training.task, batch: count, length: config.length, vocab: config.vocab,
      seed: (training.seed ^ heldOutMix) >>> 0, lag: training.lag, variableLengths: variable,
    });
    const result = core.attentionModelRowSteps(model, examples.tokens, { batch: count, validLens: variable ? examples.validLens : null, causal }, row);
    return { scores: Array.from(result.scores), weights: Array.from(result.weights), output: Array.from(result.output) };
  }, {
    config: modelConfig(state), training: trainingOptions(state, steps), heldOutMix: await page.evaluate(() => window.directCore.defaults.heldOutSeedMix),
    count: EXAMPLES, row: choice, causal: state.atCausal, variable: state.atVariable,
  });
}

const close = (actual, expected, tolerance, label) => {
  assert.equal(actual.length, expected.length, `${label}: length`);
  actual.forEach((value, i) => assert.ok(Math.abs(value - expected[i]) <= tolerance, `${label}[${i}]: ${value} vs ${expected[i]}`));
};

test('Watch attention learn: a trained row taken apart is the core\'s, its softmax the map\'s row', { timeout: 240000 }, async () => {
  await setState(page, AT_RUN);
  // Closed, it computes nothing: no body drawn.
  assert.equal(await panel('attention-training', 'at').evaluate((node) => node.open), false);
  await playToTheEnd('attention-training', 'at');
  await openPanel('attention-training', 'at');
  const state = { ...defaultState(), ...AT_RUN };
  // Head 2 of block 1, query position 3, of example 1 (the maps' default).
  await pick('at', 'head', 1);
  await pick('at', 'query', 3);
  assert.match(await shownText(page.locator('[data-role="at-steps-source"]')), new RegExp(`step ${AT_RUN.atSteps}\\b`));
  const direct = await directSteps(state, AT_RUN.atSteps, { block: 0, item: 0, head: 1, query: 3 });

  await goToStep('attention-training', 'at', 'scores');
  close(values(await cellsOf('at')), direct.scores, 0, 'the scores are the core\'s');
  // The figure's text keeps its numbers apart (copied or read out, "−1.586 −3.655", not "−1.586−3.655").
  const written = (await cellsOf('at')).map((cell) => cell.text);
  const figureText = await page.locator('[data-figure="at-steps-matrix"] svg.matrix-svg').textContent();
  assert.ok(written.some((text) => text.startsWith('−')), 'a negative score among them');
  const tokens = figureText.split(/\s+/);
  for (const text of written) assert.ok(tokens.includes(text), `"${text}" stands apart in the figure's text: ${figureText}`);
  await goToStep('attention-training', 'at', 'softmax');
  const weights = values(await cellsOf('at'));
  close(weights, direct.weights, 0, 'the weights are the core\'s');
  // The map's row 3 of block 1 · head 2, on screen.
  const mapRow = (await matrixCells(page, 'at-map-b1-h2')).filter((cell) => cell.row === 3).sort((a, b) => a.col - b.col);
  close(weights, values(mapRow), 1e-12, 'the softmax row is the map\'s row');
  // The softmax of the masked scores shown in step ③ is the row of step ④.
  await goToStep('attention-training', 'at', 'mask');
  const masked = values(await cellsOf('at'));
  const top = Math.max(...masked);
  const exps = masked.map((score) => Math.exp(score - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  close(weights, exps.map((e) => e / sum), 1e-12, 'softmax of step ③ is step ④');
  await goToStep('attention-training', 'at', 'sum');
  const output = values(await cellsOf('at')).slice(0, direct.output.length);
  close(output, direct.output, 0, 'the output is the core\'s');
  assert.equal(problems.length, 0, problems.join('\n'));
});

test('the steps: Prev/Next, the list, the arrow keys; links back to the sections that taught them', async () => {
  await openPanel('attention-training', 'at');
  const body = page.locator('[data-role="at-steps-body"]');
  await goToStep('attention-training', 'at', 'vectors');
  assert.equal(await page.locator('[data-action="at-steps-prev"]').isDisabled(), true);
  await page.locator('[data-action="at-steps-next"]').click();
  assert.equal(await body.getAttribute('data-step'), 'scores');
  assert.equal(await page.locator('[data-action="at-steps-scores"]').getAttribute('aria-current'), 'step');
  // The scoring section's notation, and a link back to it.
  assert.ok(await body.locator('.katex').count() > 0, 'the formula is typeset');
  const links = await page.locator('[data-role="at-steps-taught"] a:not([hidden])').evaluateAll((list) => list.map((a) => a.getAttribute('href')));
  assert.deepEqual(links, ['#scoring']);
  await page.locator('[data-action="at-steps-scores"]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await body.getAttribute('data-step'), 'mask');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.action), 'at-steps-mask', 'the focus follows the step');
  assert.deepEqual(await page.locator('[data-role="at-steps-taught"] a:not([hidden])').evaluateAll((list) => list.map((a) => a.getAttribute('href'))), ['#masking']);
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  assert.equal(await body.getAttribute('data-step'), 'sum');
  assert.equal(await page.locator('[data-action="at-steps-next"]').isDisabled(), true);
  // The open panel passes the page's accessibility audit (WCAG 2.2 AA and axe's best practices).
  const violations = await axeViolations(page, { include: [['#attention-training [data-role="at-row-steps"]']] });
  assert.deepEqual(violations, [], describeViolations(violations));
  await page.locator('[data-role="at-steps-taught"] a[href="#pooling"]').click();
  await page.waitForFunction(() => Math.abs(document.getElementById('pooling').getBoundingClientRect().top) < 200);
  await page.locator('#attention-training').scrollIntoViewIfNeeded();
});

test('the timeline dragged back: the panel says its numbers are the current model\'s', async () => {
  await openPanel('attention-training', 'at');
  const slider = page.locator('[data-role="at-timeline"]');
  assert.equal(await page.locator('[data-role="at-steps-stale"]').isHidden(), true);
  await slider.evaluate((input) => {
    input.value = '0';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settled(page);
  const stale = page.locator('[data-role="at-steps-stale"]');
  assert.equal(await stale.isVisible(), true);
  assert.match(await shownText(stale), new RegExp(`step 0\\b.*step ${AT_RUN.atSteps}\\b`, 's'));
  await slider.evaluate((input) => {
    input.value = input.max;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settled(page);
  assert.equal(await stale.isHidden(), true);

  // Dragged back again, then the run resumed (more steps, Play): while it
  // plays the panel says where the run is and whose numbers it shows, and
  // no timeline moment; paused at the end, the numbers are that model's.
  const source = page.locator('[data-role="at-steps-source"]');
  await slider.evaluate((input) => {
    input.value = '0';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settled(page);
  assert.equal(await stale.isVisible(), true);
  const longer = AT_RUN.atSteps * 2;
  // Slowly, so both languages are read while it plays (it pauses by itself at its plateau, near step 300).
  await setState(page, { atSteps: longer, atSpeed: 5 });
  await page.locator('#attention-training [data-action="at-play"]').click();
  await page.waitForFunction((from) => Number(document.querySelector('#attention-training [data-role="at-step"]').dataset.value) > from + 2,
    AT_RUN.atSteps);
  for (const language of ['en', 'zh']) {
    await page.evaluate((wanted) => window.attentionLab.set({ language: wanted }), language);
    // Read in one frame while the run plays: the panel's texts then.
    const said = await (await page.waitForFunction((wanted) => {
      const status = document.querySelector('#attention-training [data-role="at-status"]').dataset.status;
      const text = document.querySelector('[data-role="at-steps-source"]').textContent;
      return status === 'playing' && text.startsWith(wanted)
        && { text, stale: document.querySelector('[data-role="at-steps-stale"]').hidden };
    }, opening(language, 'attention-training.stepsPlaying'))).jsonValue();
    assert.equal(said.stale, true, `${language}: no timeline moment while the run plays`);
    assert.ok(said.text.includes(String(AT_RUN.atSteps)), `${language}: whose numbers they are: ${said.text}`);
  }
  await setLanguage(page, 'en');
  await setState(page, { atSpeed: 1000 });
  // To its end: Play again if it pauses by itself at its plateau.
  await page.waitForFunction(() => {
    const status = document.querySelector('#attention-training [data-role="at-status"]').dataset.status;
    if (status === 'paused') document.querySelector('#attention-training [data-action="at-play"]').click();
    return status === 'done';
  }, null, { timeout: 120000, polling: 100 });
  await settled(page);
  assert.match(await shownText(source), new RegExp(`step ${longer}\\b.*current model`), 'the numbers follow the run once it stops');
  assert.equal(await stale.isHidden(), true);
  await setState(page, AT_RUN);
});

test('the ratio exercise: a recognised mistake, then right, from the core\'s scores of the row on screen', async () => {
  await openPanel('attention-training', 'at');
  await goToStep('attention-training', 'at', 'scores');
  const scores = values(await cellsOf('at'));
  const order = scores.map((_, j) => j).sort((a, b) => scores[b] - scores[a] || a - b);
  const [a, b] = order;
  const exercise = page.locator('[data-exercise="attention-training.row-weight-ratio"]');
  const type = async (value) => {
    const box = exercise.locator('input[type="number"]');
    await box.fill(String(value));
    await box.press('Enter');
    await settled(page);
  };
  await type((scores[a] / scores[b]).toPrecision(8));
  assert.equal(await exercise.getAttribute('data-status'), 'wrong');
  assert.ok((await shownText(exercise.locator('.exercise-verdict'))).includes(opening('en', 'steps.ex.ratio.scoreRatio')));
  await type(Math.exp(scores[a] - scores[b]).toPrecision(8));
  assert.equal(await exercise.getAttribute('data-status'), 'right');
  assert.ok((await shownText(exercise.locator('.exercise-verdict'))).includes(opening('en', 'steps.ex.ratio.right')));
});

test('in Chinese, and at 360 px: the panel\'s texts and numbers fit, no placeholder left', async () => {
  await setLanguage(page, 'zh');
  await openPanel('attention-training', 'at');
  await goToStep('attention-training', 'at', 'softmax');
  const text = await shownText(panel('attention-training', 'at'));
  assert.ok(text.includes(catalogues.zh['steps.summary']), 'the summary in Chinese');
  assert.ok(text.includes(opening('zh', 'steps.readout.softmax')), 'the read-out in Chinese');
  assert.doesNotMatch(text, /\{\w+\}/, 'no unfilled placeholder');
  await page.setViewportSize({ width: 360, height: 780 });
  await settled(page);
  await scrollToRendered(panel('attention-training', 'at'));
  const box = await panel('attention-training', 'at').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 360 + 0.5, `the panel inside 360 px: ${JSON.stringify(box)}`);
  for (const action of ['at-steps-prev', 'at-steps-next']) {
    const button = await page.locator(`[data-action="${action}"]`).boundingBox();
    assert.ok(button.x >= 0 && button.x + button.width <= 360 + 0.5, `${action} inside 360 px`);
  }
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(pageWidth <= 360, `the page does not scroll sideways (${pageWidth} px)`);
  await screenshot(page, 'row-steps-360-zh', '[data-role="at-row-steps"]');
  await page.setViewportSize({ width: 1280, height: 900 });
  await setLanguage(page, 'en');
  assert.equal(problems.length, 0, problems.join('\n'));
});

test('Translate: Bahdanau\'s additive row taken apart, its softmax the map\'s row; the cost of a change of row', { timeout: 240000 }, async () => {
  await page.locator('#translation').scrollIntoViewIfNeeded();
  await setState(page, TR_RUN);
  await playToTheEnd('translation', 'tr');
  await openPanel('translation', 'tr');
  // The GRU translator attends once, additively: its one head is named so, not as a Transformer's block and head.
  for (const language of ['en', 'zh']) {
    await setLanguage(page, language);
    assert.deepEqual(await shownTexts(page.locator('[data-role="tr-steps-head"] option')), [catalogues[language]['translation.stepsAdditiveHead']], language);
  }
  await setLanguage(page, 'en');
  await pick('tr', 'query', 2);
  await goToStep('translation', 'tr', 'scores');
  assert.equal(await page.locator('[data-role="tr-steps-body"]').getAttribute('data-scoring'), 'additive');
  assert.match(await shownText(page.locator('[data-role="tr-steps-body"] .formula').first()), /tanh/);
  await goToStep('translation', 'tr', 'softmax');
  const weights = values(await cellsOf('tr'));
  const mapRow = (await matrixCells(page, 'tr-cross-b1-h1')).filter((cell) => cell.row === 2).sort((a, b) => a.col - b.col);
  close(weights, values(mapRow), 1e-12, 'the softmax row is the map\'s row');
  // Masked source positions (past the pair's valid length) weigh exactly 0 and are hatched.
  const cells = await cellsOf('tr');
  for (const cell of cells.filter((c) => c.masked)) assert.equal(cell.value, 0);

  // The GRU's 32-d vectors (① and ⑤) are too many for numbers in their cells: a cell pointed at
  // says its number below the matrix, and a colour scale says what the colours mean.
  for (const step of ['vectors', 'sum']) {
    await goToStep('translation', 'tr', step);
    const drawn = await cellsOf('tr');
    assert.ok(drawn.length >= 32 && drawn.every((cell) => cell.text === ''), `${step}: colour only in the cells`);
    const scale = page.locator('[data-role="tr-steps-scale"]');
    assert.equal(await scale.isVisible(), true, `${step}: a colour scale`);
    const [low, high] = [Number(await scale.getAttribute('data-low')), Number(await scale.getAttribute('data-high'))];
    const shownValues = values(drawn);
    assert.equal(low, Math.min(...shownValues), `${step}: the scale starts at the lowest value`);
    assert.equal(high, Math.max(...shownValues), `${step}: and ends at the highest`);
    const target = drawn.find((cell) => cell.row === 1 && cell.col === 5);
    await page.locator('[data-figure="tr-steps-matrix"] g.cell').nth(drawn.indexOf(target)).hover();
    const hover = page.locator('[data-role="tr-steps-hover"]');
    await page.waitForFunction(() => document.querySelector('[data-role="tr-steps-hover"]').textContent !== '');
    assert.equal(Number(await hover.getAttribute('data-value')), target.value, `${step}: the number of the cell pointed at`);
    assert.match(await shownText(hover), /· 6: [−\d]/, `${step}: its row, column and number`);
  }

  // A typed source is taken apart too: its greedy translation's rows, the softmax its map's row.
  const typed = page.locator('#translation [data-role="tr-typed-input"]');
  await typed.fill('4782');
  await typed.press('Enter');
  await settled(page);
  assert.equal(await page.locator('[data-role="tr-steps-problem"]').isHidden(), true, 'no "choose a pair"');
  const written = (await page.locator('#translation [data-role="tr-typed-result"]').getAttribute('data-translation')).replace(/ /g, '');
  const queryWords = (await shownTexts(page.locator('[data-role="tr-steps-query"] option'))).map((label) => label.split(': ').slice(1).join(': '));
  assert.equal(queryWords.filter((word) => word !== '<eos>').join(''), written, `a query per word the model wrote: ${queryWords}`);
  await pick('tr', 'query', 1);
  await goToStep('translation', 'tr', 'softmax');
  const typedWeights = values(await cellsOf('tr'));
  const typedRow = (await matrixCells(page, 'tr-cross-b1-h1')).filter((cell) => cell.row === 1).sort((a, b) => a.col - b.col);
  close(typedWeights, values(typedRow), 1e-12, 'the typed source\'s softmax row is its map\'s row');
  await page.locator('#translation [data-role="tr-examples"] tbody tr:nth-child(1) input[type="radio"]').check();
  await settled(page);

  // The cost of one change of row: the core's call and the panel's drawing, measured in the page.
  const ms = await page.evaluate(async () => {
    const select = document.querySelector('[data-role="tr-steps-query"]');
    const times = [];
    for (let i = 0; i < 12; i += 1) {
      select.value = String(i % 2);
      const started = performance.now();
      select.dispatchEvent(new Event('change'));
      times.push(performance.now() - started);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return times.sort((x, y) => x - y)[6];
  });
  console.log(`row steps: a change of row (core call and drawing) takes ${ms.toFixed(2)} ms (median, Bahdanau)`);
  await setState(page, { trArchitecture: 'transformer' });
  await playToTheEnd('translation', 'tr');
  await openPanel('translation', 'tr');
  assert.equal(await page.locator('[data-role="tr-steps-head"] option').count(), 8, '2 blocks x 4 heads');
  await pick('tr', 'head', 5);
  await pick('tr', 'query', 1);
  await goToStep('translation', 'tr', 'softmax');
  assert.equal(await page.locator('[data-role="tr-steps-body"]').getAttribute('data-scoring'), 'dot');
  const row = values(await cellsOf('tr'));
  const transformerRow = (await matrixCells(page, 'tr-cross-b2-h2')).filter((cell) => cell.row === 1).sort((a, b) => a.col - b.col);
  close(row, values(transformerRow), 1e-12, 'block 2 · head 2: the softmax row is the map\'s row');
  await screenshot(page, 'row-steps-translation', '[data-role="tr-row-steps"]');
  assert.equal(problems.length, 0, problems.join('\n'));
});
