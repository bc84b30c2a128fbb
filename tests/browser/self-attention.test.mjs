// Section 9, self-attention by hand: the sentence 她正在吃一个绿色的苹果 with
// hand-built word vectors attends to itself. The drawn weights and outputs
// are the core's (a second core in the page, called directly), 吃 and 绿色的
// lean most on 苹果, an edited vector changes its word's row as the core
// says and travels in the URL (a hostile hash is repaired), the projections
// switch gives the core's one-head attention with seeded projections, the
// cross-attention example is the English translation asking over the
// Chinese sentence, and both languages label it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, usePage, typeInto, numberValue, openPage, screenshot, shownText } from './harness.mjs';
import { matrixCells, values } from './figure-readers.mjs';
import { SALTS } from '../../web/src/sections/shared/seeded-draws.js';
import { parameters, defaultState } from '../../web/src/state.js';
import { parseHash } from '../../web/src/url-state.js';
import {
  WORDS, VECTOR_PARAMETERS, sentenceMatrix, translationQueries, TRANSLATION,
} from '../../web/src/sections/self-attention/words.js';

const lab = usePage({ section: '#self-attention', directCore: true });
const page = () => lab.page;
const EAT = 2;
const GREEN = 4;
const APPLE = 5;

// The core, called directly: the sentence over itself (or other queries over it).
async function direct(state, { queries = null, nq = 6, projections = false, seed = 0 } = {}) {
  const sentence = Array.from(sentenceMatrix(state));
  return page().evaluate(({ sentence, queries, nq, projections, seed, salts }) => {
    const core = window.directCore;
    if (!projections) {
      const result = core.dotProductAttention({
        queries: queries ?? sentence, keys: sentence, values: sentence, shape: { batch: 1, nq, nk: 6, d: 5, dv: 5 },
      });
      return { weights: Array.from(result.weights), output: Array.from(result.output) };
    }
    const draw = (role) => core.randomNormal(25, { seed: (seed ^ salts[role]) >>> 0, std: 1 / Math.sqrt(5) });
    const identity = Array.from({ length: 25 }, (_, i) => (i % 6 === 0 ? 1 : 0));
    const result = core.multiHeadAttention({
      queries: sentence, keys: sentence, values: sentence, shape: { batch: 1, nq: 6, nk: 6, hidden: 5, heads: 1 },
      Wq: draw('wq'), Wk: draw('wk'), Wv: draw('wv'), Wo: identity,
    });
    return { weights: Array.from(result.weights), output: Array.from(result.output) };
  }, { sentence, queries: queries && Array.from(queries), nq, projections, seed, salts: SALTS });
}

const drawn = async (figure) => values(await matrixCells(page(), figure));
const row = (weights, i, n = 6) => weights.slice(i * n, (i + 1) * n);
const state = () => page().evaluate(() => window.attentionLab.state);
const labels = (figure, axis) => page().locator(`[data-figure="${figure}"] .matrix-${axis}-labels text`).allTextContents();

// The column other than i with the largest weight in row i.
function strongestOther(weights, i) {
  let best = -1;
  for (let j = 0; j < 6; j += 1) if (j !== i && (best < 0 || weights[i * 6 + j] > weights[i * 6 + best])) best = j;
  return best;
}

test('the weights and outputs drawn are the core\'s, and 吃 and 绿色的 lean most on 苹果', async () => {
  const expected = await direct(defaultState());
  const weights = await drawn('sa-weights');
  assert.equal(weights.length, 36);
  assert.deepEqual(weights, expected.weights, 'every drawn weight is the core\'s');
  assert.deepEqual(await drawn('sa-outputs'), expected.output, 'every output y_i is the core\'s');
  assert.deepEqual(await labels('sa-weights', 'col'), ['she', 'is', 'eating', 'a', 'green', 'apple']);
  assert.deepEqual(await labels('sa-outputs', 'col'), ['person', 'action', 'food', 'colour', 'grammar']);
  assert.equal(strongestOther(weights, EAT), APPLE, `吃's row: ${row(weights, EAT)}`);
  assert.equal(strongestOther(weights, GREEN), APPLE, `绿色的's row: ${row(weights, GREEN)}`);
  // The rows visibly prefer 苹果: clearly more than any other word but themselves.
  assert.ok(weights[EAT * 6 + APPLE] > 0.15 && weights[GREEN * 6 + APPLE] > 0.2, 'a visible weight on 苹果');
  for (const i of [EAT, GREEN]) {
    for (let j = 0; j < 6; j += 1) {
      if (j !== i && j !== APPLE) assert.ok(weights[i * 6 + APPLE] > 1.5 * weights[i * 6 + j], `row ${i}: 苹果 well ahead of ${j}`);
    }
  }
  const listed = await page().locator('#self-attention [data-role="sa-strongest"] li[data-word="吃"]');
  assert.equal(await listed.getAttribute('data-strongest'), '苹果');
  assert.match(await shownText(listed), /“eating” attends most to “apple” \(0\.19\)/);
  assert.equal(await page().locator('#self-attention [data-role="sa-strongest"] li[data-word="绿色的"]').getAttribute('data-strongest'), '苹果');
  // Rows sum to one, as the caption says.
  for (let i = 0; i < 6; i += 1) assert.ok(Math.abs(row(weights, i).reduce((a, b) => a + b, 0) - 1) < 1e-12);
});

test('editing a vector changes that word\'s row as the core says, travels in the URL, and resets', async () => {
  const before = await drawn('sa-weights');
  await typeInto(page(), 'saEatFood', 0);
  await settled(page());
  assert.equal(await numberValue(page(), 'saEatFood'), 0);
  const edited = { ...defaultState(), saEatFood: 0 };
  assert.equal((await state()).saEatFood, 0);
  const after = await drawn('sa-weights');
  assert.deepEqual(after, (await direct(edited)).weights, 'the redrawn weights are the core\'s for the edited X');
  assert.notDeepEqual(row(after, EAT), row(before, EAT), '吃\'s row changed');
  assert.notEqual(strongestOther(after, EAT), APPLE, 'without its food feature 吃 no longer leans on 苹果');
  // Only 吃's row moves by more than its column's share: the other rows change
  // only through their weight on 吃 (renormalised), so their ratios among the
  // other words stay exactly as they were.
  for (let i = 0; i < 6; i += 1) {
    if (i === EAT) continue;
    const ratio = (weights) => weights[i * 6 + APPLE] / weights[i * 6 + (i === 0 ? 1 : 0)];
    assert.ok(Math.abs(ratio(after) - ratio(before)) < 1e-9, `row ${i} keeps its ratios among the unchanged words`);
  }
  // Typed out of range: clamped by the table.
  await typeInto(page(), 'saGreenColour', 99);
  await settled(page());
  assert.equal(await numberValue(page(), 'saGreenColour'), parameters.saGreenColour.max);
  assert.deepEqual(await drawn('sa-weights'), (await direct({ ...edited, saGreenColour: 3 })).weights);

  // The URL carries the edit (written at most every 120 ms); a page opened with it draws the same numbers.
  await page().waitForFunction(() => /saEatFood=0\b/.test(location.hash) && /saGreenColour=3\b/.test(location.hash));
  const hash = await page().evaluate(() => location.hash);
  const params = parseHash(hash).params;
  assert.equal(params.saEatFood, 0);
  assert.equal(params.saGreenColour, 3);
  const other = await openPage(lab.browser, `${lab.server.origin}/${hash}`);
  assert.equal(await other.page.locator('[data-param="saEatFood"] input').inputValue(), '0');
  const otherWeights = values(await matrixCells(other.page, 'sa-weights'));
  assert.deepEqual(otherWeights, await drawn('sa-weights'), 'the same weights after the round trip');
  await other.context.close();

  // Reset: the built-in vectors, nothing of them left in the hash.
  await page().locator('#self-attention [data-action="sa-reset"]').click();
  await settled(page());
  const now = await state();
  for (const name of VECTOR_PARAMETERS) assert.equal(now[name], parameters[name].default, `${name} reset`);
  assert.deepEqual(await drawn('sa-weights'), before);
  await page().waitForFunction(() => !/saEat|saGreen/.test(location.hash)); // no vector entry left in the hash
});

test('a hostile hash is repaired: out-of-range and malformed components', async () => {
  const hash = '#saEatFood=1e9&saGreenColour=NaN&saAppleFood=-7&saSheAction=0x10&saIsGrammar=%3Cscript%3E&saProjections=yes&saSeed=-3';
  const { page: opened, context, problems } = await openPage(lab.browser, `${lab.server.origin}/${hash}`);
  const held = await opened.evaluate(() => window.attentionLab.state);
  assert.equal(held.saEatFood, 3, 'clamped to the maximum');
  assert.equal(held.saAppleFood, -3, 'clamped to the minimum');
  assert.equal(held.saGreenColour, parameters.saGreenColour.default, 'NaN ignored');
  assert.equal(held.saSheAction, parameters.saSheAction.default, 'hex ignored');
  assert.equal(held.saIsGrammar, parameters.saIsGrammar.default, 'markup ignored');
  assert.equal(held.saProjections, false);
  assert.equal(held.saSeed, 0);
  const expected = await direct(held);
  assert.deepEqual(values(await matrixCells(opened, 'sa-weights')), expected.weights);
  assert.deepEqual(problems, []);
  await context.close();
});

test('with projections: the core\'s one-head attention with seeded W_q, W_k, W_v', async () => {
  await page().locator('#self-attention [data-param="saProjections"] .switch').click();
  await settled(page());
  assert.equal((await state()).saProjections, true);
  const expected = await direct(defaultState(), { projections: true });
  const weights = await drawn('sa-weights');
  assert.deepEqual(weights, expected.weights);
  assert.deepEqual(await drawn('sa-outputs'), expected.output);
  assert.notDeepEqual(weights, (await direct(defaultState())).weights, 'not the plain weights');
  assert.deepEqual(await labels('sa-outputs', 'col'), ['v1', 'v2', 'v3', 'v4', 'v5']);
  assert.match(await shownText(page().locator('#self-attention [data-role="sa-formula"]')), /W/);
  assert.match(await shownText(page().locator('#self-attention [data-role="sa-projections-note"]')), /random draws/);
  // A new draw: the next seed, other weights, again the core's.
  await page().locator('#self-attention [data-action="sa-new-draw"]').click();
  await settled(page());
  assert.equal((await state()).saSeed, 1);
  const next = await drawn('sa-weights');
  assert.deepEqual(next, (await direct(defaultState(), { projections: true, seed: 1 })).weights);
  assert.notDeepEqual(next, weights);
  // The comparison's self-attention stays without projections.
  assert.deepEqual(await drawn('sa-self'), (await direct(defaultState())).weights);
  await page().locator('#self-attention [data-param="saProjections"] .switch').click();
  await typeInto(page(), 'saSeed', 0);
  await settled(page());
  assert.deepEqual(await drawn('sa-weights'), (await direct(defaultState())).weights);
});

test('the cross-attention example: the English translation asks over the Chinese sentence', async () => {
  const expected = await direct(defaultState(), { queries: translationQueries(), nq: 5 });
  const cross = await drawn('sa-cross');
  assert.equal(cross.length, 30, '5 English queries x 6 Chinese keys');
  assert.deepEqual(cross, expected.weights);
  assert.deepEqual(await labels('sa-cross', 'row'), ['she', 'eats', 'a', 'green', 'apple']);
  assert.deepEqual(await labels('sa-cross', 'col'), WORDS.map((word) => word.token));
  const self = await drawn('sa-self');
  assert.deepEqual(self, (await direct(defaultState())).weights);
  // Two sequences, not one: no English question has the weights of the Chinese word it translates
  // (which, asking over its own sentence, also finds itself).
  TRANSLATION.forEach(({ word, source }, row) => {
    assert.notDeepEqual(cross.slice(row * 6, row * 6 + 6), self.slice(source * 6, source * 6 + 6), `${word} vs ${WORDS[source].token}`);
  });
  assert.equal(await page().locator('#self-attention [data-role="sa-comparison"] tbody tr').count(), 8);
  assert.match(await shownText(page().locator('#self-attention [data-role="sa-comparison"]')), /outputs or an RNN’s states[\s\S]*feature crossing/);
  await page().locator('[data-figure="sa-cross"]').scrollIntoViewIfNeeded();
  await screenshot(page(), 'self-attention-cross-vs-self', '#self-attention .figure-grid:has([data-figure="sa-cross"])');
  // Editing a Chinese vector changes the keys and values, not the English questions.
  await typeInto(page(), 'saAppleColour', 0);
  await settled(page());
  const edited = { ...defaultState(), saAppleColour: 0 };
  assert.deepEqual(await drawn('sa-cross'), (await direct(edited, { queries: translationQueries(), nq: 5 })).weights);
  assert.notDeepEqual(await drawn('sa-cross'), cross);
  await page().locator('#self-attention [data-action="sa-reset"]').click();
  await settled(page());
});

test('both languages: titles, labels and text', async () => {
  await page().locator('[data-param="language"] [data-value="zh"]').click();
  await settled(page());
  assert.equal(await shownText(page().locator('#self-attention h2')), '9 · 自注意力，动手算');
  assert.deepEqual(await labels('sa-weights', 'col'), ['她', '正在', '吃', '一个', '绿色的', '苹果']);
  assert.deepEqual(await labels('sa-outputs', 'col'), ['人', '动作', '食物', '颜色', '语法']);
  assert.deepEqual(await labels('sa-cross', 'row'), ['she 她', 'eats 吃', 'a 一个', 'green 绿色的', 'apple 苹果'], 'each English query names the word it translates');
  assert.match(await shownText(page().locator('#self-attention [data-role="sa-strongest"] li[data-word="吃"]')), /“吃”最关注“苹果”/);
  assert.match(await shownText(page().locator('#self-attention [data-role="sa-comparison"]')), /编码器/);
  // (The link's label: beside it the contents bar counts the section's exercises.)
  assert.equal(await shownText(page().locator('nav a[href="#self-attention"] [data-i18n]')), '自注意力');
  assert.equal(await page().locator('[data-param="saEatFood"] input').getAttribute('aria-label'), '吃：食物');
  await page().locator('[data-param="language"] [data-value="en"]').click();
  await settled(page());
  assert.equal(await shownText(page().locator('#self-attention h2')), '9 · Self-attention, hands on');
  assert.equal(await shownText(page().locator('nav a[href="#self-attention"] [data-i18n]')), 'Self-attention');
  assert.equal(await page().locator('[data-param="saEatFood"] input').getAttribute('aria-label'), 'eating: food');
  assert.deepEqual(lab.problems, [], 'no console error');
  await page().locator('#self-attention').scrollIntoViewIfNeeded();
  await screenshot(page(), 'self-attention');
});
