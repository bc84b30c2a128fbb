// The teacher's answer key (#exercises=answers) gives values where an
// answer depends on a run or a measurement: the trained sections play
// their run at the settings shown, as a learner's Play does, and the
// timing table is measured at once. Each value the key gives is then
// typed or chosen in the same card and checked: the exercise's own check,
// which asks the core about the live model or table, must call it right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { useBrowser, openPage, shownText } from './harness.mjs';
import { exerciseDriver } from './exercise-driver.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
const lab = useBrowser();

// The values of a catalogue text's placeholders, read from the answer
// shown ("The answer: …" around the solution's text), or null when the
// answer is not that text.
function valuesOf(language, key, shown) {
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const names = [];
  const pattern = catalogues[language][key].split(/\{(\w+)\}/)
    .map((part, i) => (i % 2 === 1 ? (names.push(part), '(.+?)') : escape(part))).join('');
  const around = catalogues[language]['exercises.answerIs'].split('{answer}').map(escape);
  const found = new RegExp(`^${around[0]}${pattern}${around[1]}$`).exec(shown.trim());
  return found && Object.fromEntries(names.map((name, i) => [name, found[i + 1]]));
}

async function openKey(hash, language = 'en') {
  const opened = await openPage(lab.browser, `${lab.server.origin}/#exercises=answers&${hash}`, {
    predictions: 'open', locale: language === 'zh' ? 'zh-CN' : 'en-US',
  });
  return { ...opened, driver: exerciseDriver(() => opened.page, hash.match(/embed=([\w-]+)/)[1]) };
}

// The key's answer once it is the solution `key`'s text and `current`
// holds of its values (the run rested, the table measured): those values.
// The key writes its answers again each time the section has more, so the
// answer is read at each change.
async function keyValues({ page, driver }, id, key, { language = 'en', current = () => true } = {}) {
  const card = await driver.exercise(id).getAttribute('data-exercise');
  for (;;) {
    const text = await driver.exercise(id).locator('.exercise-answer').textContent();
    const values = valuesOf(language, key, await shownText(driver.exercise(id).locator('.exercise-answer')));
    if (values && current(values)) return values;
    await page.waitForFunction(({ card, text }) => document.querySelector(`[data-exercise="${card}"] .exercise-answer`)?.textContent !== text,
      { card, text }, { timeout: 90000 });
  }
}

// The step where the section's run rested after training (paused by
// itself at its plateau, or done): its maps, and the key, are then drawn.
const restedAt = async (page, name) => {
  await page.waitForFunction((role) => ['paused', 'done'].includes(document.querySelector(`[data-role="${role}"]`)?.dataset.status),
    `${name}-status`, { timeout: 90000 });
  return Number(await shownText(page.locator(`[data-role="${name}-step"]`)));
};

test('attention-training: the key trains the default run and names the head to remove and the row\'s ratio; the checks agree', async () => {
  const key = await openKey('embed=attention-training&atSpeed=1000');
  // Paused at its plateau, the run's rest draws the key in the same task.
  assert.ok(await restedAt(key.page, 'at') > 0, 'the run trained');
  const removal = await keyValues(key, 'head-removal', 'attention-training.ex.removal.solution');
  const ratio = await keyValues(key, 'row-weight-ratio', 'steps.ex.ratio.solution');
  assert.ok(Number(removal.best) >= 1 && Number(removal.best) <= Number(removal.heads), JSON.stringify(removal));
  await key.driver.type('head-removal', removal.best);
  assert.equal(await key.driver.statusOf('head-removal'), 'right', `head ${removal.best}: ${await key.driver.verdictOf('head-removal')}`);
  assert.ok(Math.abs(Number(ratio.ratio) - Math.exp(Number(ratio.scoreA) - Number(ratio.scoreB))) < 0.01, JSON.stringify(ratio));
  await key.driver.type('row-weight-ratio', ratio.ratio);
  assert.equal(await key.driver.statusOf('row-weight-ratio'), 'right', await key.driver.verdictOf('row-weight-ratio'));
  assert.deepEqual(key.problems, []);
  await key.context.close();
});

test('translation: the key trains the default run and says where 八 looks and the weight read; the checks agree', async () => {
  const key = await openKey('embed=translation');
  const step = await restedAt(key.page, 'tr');
  const atRest = ({ step: said }) => Number(said) === step;
  const eight = await keyValues(key, 'where-eight-looks', 'translation.ex.eight.solution', { current: atRest });
  const weight = await keyValues(key, 'read-weight', 'translation.ex.weight.solution', { current: atRest });
  const option = Object.keys(catalogues.en).find((name) => name.startsWith('translation.ex.eight.option.') && catalogues.en[name] === eight.word);
  assert.ok(option, `“${eight.word}” is one of the options`);
  await key.driver.choose('where-eight-looks', option.split('.').at(-1));
  assert.equal(await key.driver.statusOf('where-eight-looks'), 'right', await key.driver.verdictOf('where-eight-looks'));
  await key.driver.type('read-weight', weight.weight);
  assert.equal(await key.driver.statusOf('read-weight'), 'right', await key.driver.verdictOf('read-weight'));
  assert.deepEqual(key.problems, []);
  await key.context.close();
});

test('scoring, in Chinese: the key times the table at once and gives this device\'s ratio; the check agrees', async () => {
  const key = await openKey('embed=scoring&language=zh', 'zh');
  const cost = await keyValues(key, 'cost-ratio', 'scoring.ex.cost.solution', { language: 'zh' });
  assert.ok(Number(cost.ratio) > 0, JSON.stringify(cost));
  await key.driver.type('cost-ratio', cost.ratio);
  assert.equal(await key.driver.statusOf('cost-ratio'), 'right', await key.driver.verdictOf('cost-ratio'));
  assert.deepEqual(key.problems, []);
  await key.context.close();
});
