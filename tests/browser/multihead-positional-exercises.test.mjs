// The multi-head and positional-encoding sections' exercises in the page
// (sections/multihead/exercises.js, positional/exercises.js):
// each answered wrong, then right, in English and then in Chinese, the
// right answer computed here from the test's own core (window.directCore)
// for the live state; the status on the root, the feedback's opening from
// the catalogue, the hint after a try that was not right, and the figures
// a prediction hides covered while it is open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { usePage, setState, setLanguage, shownText } from './harness.mjs';
import { directMultiHead } from './multihead-direct.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// The longest run of a catalogue text with no placeholder, TeX or bold in
// it: what the page must show of it word for word.
const opening = (language, key) => catalogues[language][key].split(/\{\w+\}|\$[^$]*\$|\*\*/)
  .map((part) => part.trim()).sort((a, b) => b.length - a.length)[0];

let page;
const lab = usePage({ predictions: 'open', section: '#multihead', directCore: true, opened: (opened) => ({ page } = opened) });

const exercise = (name) => page.locator(`[data-exercise="${name}"]`);
const statusOf = (name) => exercise(name).getAttribute('data-status');
const verdictOf = (name) => shownText(exercise(name).locator('.exercise-verdict'));
const questionOf = (name) => shownText(exercise(name).locator('legend'));
const check = (name) => exercise(name).locator('[data-action="check"]').click();
const another = (name) => exercise(name).locator('[data-action="another"]').click();
const hintShown = (name) => exercise(name).locator('.exercise-hint').isVisible();
const covered = (section, figure) => page.locator(`#${section} [data-figure="${figure}"]`).getAttribute('data-covered');

async function choose(name, ids) {
  for (const id of [ids].flat()) await exercise(name).locator(`input[value="${id}"]`).check();
  await check(name);
}

async function type(name, value) {
  const box = exercise(name).locator('input[type="number"]');
  await box.fill(String(value));
  await box.press('Enter');
}

async function saysWhy(name, language, key, status = 'wrong') {
  assert.equal(await statusOf(name), status, `${name}: ${status}`);
  const verdict = await verdictOf(name);
  assert.ok(verdict.includes(opening(language, key)), `${name}: ${key} in “${verdict}”`);
  // A hint while another try is open; none beside a right answer or one shown.
  assert.equal(await hintShown(name), status === 'wrong' || status === 'close', `${name}: a hint only while another try is open`);
}

// The live multi-head state, and the layer with a head mask, from the test's core.
const mhaState = () => page.evaluate(() => window.attentionLab.state);
async function layerNow(headMask = null) {
  const { mhaHidden: hidden, mhaHeads: heads, mhaSeed: seed } = await mhaState();
  return directMultiHead(page, { hidden, heads, seed, headMask });
}

// The claims about switching `head` off that hold, judged here from two calls of the test's core.
async function switchOffClaims(head) {
  const { mhaHidden: hidden, mhaHeads: heads } = await mhaState();
  const full = await layerNow();
  const mask = Array.from({ length: heads }, (_, h) => (h === head ? 0 : 1));
  const off = await layerNow(mask);
  const cells = 36;
  const mapChanged = (h) => full.weights.slice(h * cells, (h + 1) * cells).some((v, i) => v !== off.weights[h * cells + i]);
  const columns = new Set();
  const rows = new Set();
  full.output.forEach((v, i) => {
    if (Math.abs(v - off.output[i]) > 1e-12) {
      columns.add(i % hidden);
      rows.add(Math.floor(i / hidden));
    }
  });
  const size = hidden / heads;
  const claims = {
    'own-map': mapChanged(head),
    'other-maps': Array.from({ length: heads }, (_, h) => h).some((h) => h !== head && mapChanged(h)),
    'own-columns': [...columns].every((c) => c >= head * size && c < (head + 1) * size),
    'all-columns': columns.size === hidden,
    'every-token': rows.size === 6,
  };
  return Object.keys(claims).filter((id) => claims[id]);
}

async function answerMultiHead(language) {
  await setState(page, { mhaHidden: 100, mhaHeads: 5, mhaHeadsOff: 0, mhaSeed: 0 });
  const names = ['split-shape', 'parameter-count', 'switch-off', 'most-important-head'].map((id) => `multihead.${id}`);
  for (const name of names) assert.equal(await statusOf(name), 'open', `${name} starts open`);

  await choose('multihead.split-shape', 'tokens');
  await saysWhy('multihead.split-shape', language, 'multihead.ex.split.tokensWhy');
  await choose('multihead.split-shape', 'features');
  await saysWhy('multihead.split-shape', language, 'multihead.ex.split.featuresWhy', 'right');

  const count = await page.evaluate(() => {
    const { mhaHidden: hidden, mhaHeads: heads } = window.attentionLab.state;
    const { params } = window.directCore.attentionModelInit({ vocab: 2, length: 6, hidden, heads, blocks: 1 });
    return ['b0.Wq', 'b0.Wk', 'b0.Wv', 'b0.Wo'].reduce((sum, name) => sum + params[name].length, 0);
  });
  await type('multihead.parameter-count', count * 5);
  await saysWhy('multihead.parameter-count', language, 'multihead.ex.params.perHead');
  await type('multihead.parameter-count', count);
  await saysWhy('multihead.parameter-count', language, 'multihead.ex.params.right', 'right');

  // The prediction: the outputs covered while open; wrong once, revealed and uncovered.
  const off = 'multihead.switch-off';
  assert.notEqual(await covered('multihead', 'mha-output-kept'), null, 'covered while the prediction is open');
  const head = Number((await questionOf(off)).match(/(\d+)/)[1]) - 1;
  assert.equal(await page.locator('#multihead .head-card.is-marked').getAttribute('data-head'), String(head), 'its card outlined');
  await choose(off, ['own-columns', 'every-token']);
  await saysWhy(off, language, 'multihead.ex.off.ownColumnsWhy', 'revealed');
  assert.equal(await covered('multihead', 'mha-output-kept'), null, 'uncovered once answered');
  await another(off);
  assert.equal(await statusOf(off), 'open');
  assert.notEqual(await covered('multihead', 'mha-output-dropped'), null, 'covered again for another head');
  const next = Number((await questionOf(off)).match(/(\d+)/)[1]) - 1;
  await choose(off, await switchOffClaims(next));
  await saysWhy(off, language, 'multihead.ex.off.right', 'right');
  assert.equal(await covered('multihead', 'mha-output-dropped'), null);

  const important = 'multihead.most-important-head';
  await check(important);
  await saysWhy(important, language, 'multihead.ex.important.none');
  const sizes = [];
  for (let h = 0; h < 5; h += 1) {
    const { output } = await layerNow(Array.from({ length: 5 }, (_, i) => (i === h ? 1 : 0)));
    sizes.push(Math.hypot(...output));
  }
  const best = sizes.indexOf(Math.max(...sizes));
  await setState(page, { mhaHeadsOff: 1 << best });
  await check(important);
  await saysWhy(important, language, 'multihead.ex.important.right', 'right');
}

async function answerPositional(language) {
  await setState(page, { peLength: 60, peDim: 32, peColumn: 6 });
  const names = ['fastest-column', 'entry-value', 'turn-angle', 'column-period'].map((id) => `positional.${id}`);
  for (const name of names) assert.equal(await statusOf(name), 'open', `${name} starts open`);
  const P = (length, dim) => page.evaluate(({ length, dim }) => Array.from(window.directCore.positionalEncoding(length, dim)), { length, dim });

  // The prediction, with the heatmap and the curves covered while it is open.
  const fastest = 'positional.fastest-column';
  for (const figure of ['pe-heatmap', 'pe-curves', 'pe-binary-note']) assert.notEqual(await covered('positional', figure), null, `${figure} covered`);
  await choose(fastest, 'last');
  await saysWhy(fastest, language, 'positional.ex.fastest.rising', 'revealed');
  for (const figure of ['pe-heatmap', 'pe-curves']) assert.equal(await covered('positional', figure), null, `${figure} uncovered`);
  await another(fastest);
  assert.notEqual(await covered('positional', 'pe-heatmap'), null, 'covered again');
  // The entry's hint and feedback send the learner to the heatmap: while the
  // prediction covers it, they say so; once it is answered, no longer.
  const entry = 'positional.entry-value';
  const underCover = opening(language, 'exercises.lookUnderCover');
  await type(entry, 5);
  assert.equal(await statusOf(entry), 'wrong');
  assert.ok((await verdictOf(entry)).includes(underCover), `the feedback says its figure is covered: ${await verdictOf(entry)}`);
  assert.ok((await shownText(exercise(entry).locator('.exercise-hint'))).includes(underCover), 'and so does the hint');
  // The frequencies of columns 6-9 in the test's core: sin and cos of w_j at position 1.
  const second = (await P(2, 32)).slice(32);
  const frequency = (c) => (c % 2 === 0 ? Math.asin(second[c]) : Math.acos(second[c]));
  const top = Math.max(...[6, 7, 8, 9].map(frequency));
  const fastestColumns = [6, 7, 8, 9].filter((c) => frequency(c) >= top * (1 - 1e-9));
  assert.deepEqual(fastestColumns, [6, 7]);
  await choose(fastest, 'firstTwo');
  await saysWhy(fastest, language, 'positional.ex.fastest.right', 'right');
  assert.ok(!(await verdictOf(entry)).includes(underCover), 'the heatmap shown: no word of a cover');

  const [dim, row, col] = (await questionOf(entry)).match(/(\d+)\D+(\d+)\D+(\d+)/).slice(1).map(Number);
  assert.equal(dim, 32);
  assert.ok(row >= 60, 'past the positions drawn');
  const p = await P(row + 1, dim);
  await type(entry, p[row * dim + (col ^ 1)].toFixed(3));
  await saysWhy(entry, language, 'positional.ex.entry.swapped');
  await type(entry, p[row * dim + col].toFixed(3));
  await saysWhy(entry, language, 'positional.ex.entry.right', 'right');

  const turn = 'positional.turn-angle';
  const [sin, , , turnDim, from, to] = (await questionOf(turn)).match(/(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)\D+(\d+)/).slice(1).map(Number);
  const q = await P(to + 1, turnDim);
  const angle = (i) => Math.atan2(q[i * turnDim + sin], q[i * turnDim + sin + 1]);
  const delta = angle(to) - angle(from);
  const right = Math.atan2(Math.sin(delta), Math.cos(delta));
  await type(turn, ((right * 180) / Math.PI).toFixed(2));
  await saysWhy(turn, language, 'positional.ex.turn.degrees');
  await type(turn, right.toFixed(3));
  await saysWhy(turn, language, 'positional.ex.turn.right', 'right');

  const period = 'positional.column-period';
  await check(period);
  await saysWhy(period, language, 'positional.ex.period.tooSlow');
  // The smallest d whose column 6 repeats within 20 positions, from the test's core.
  const goal = await page.evaluate(() => {
    for (let d = 7; d <= 128; d += 1) {
      if ((2 * Math.PI) / Math.asin(window.directCore.positionalEncoding(2, d)[d + 6]) <= 20) return d;
    }
    return null;
  });
  await setState(page, { peDim: goal, peColumn: 6 });
  await check(period);
  await saysWhy(period, language, 'positional.ex.period.right', 'right');
}

test('every exercise of the multi-head and positional-encoding sections, wrong then right, in English then Chinese', async () => {
  const start = Date.now();
  assert.equal(await exercise('multihead.switch-off').getAttribute('data-kind'), 'predict');
  assert.equal(await exercise('multihead.switch-off').locator('input[type="checkbox"]').count(), 5, 'several claims to tick');
  await answerMultiHead('en');
  await answerPositional('en');
  await setLanguage(page, 'zh');
  for (const section of ['multihead', 'positional']) await page.locator(`#${section} [data-action="reset-exercises"]`).click();
  assert.ok((await questionOf('multihead.split-shape')).includes(opening('zh', 'multihead.ex.split.question')), 'the question in Chinese');
  await answerMultiHead('zh');
  await answerPositional('zh');
  assert.deepEqual(lab.problems, []);
  console.log(`heads and positions exercises in the page: ${((Date.now() - start) / 1000).toFixed(1)} s`);
});
