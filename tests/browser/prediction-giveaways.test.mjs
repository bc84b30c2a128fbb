// The give-away audit: while a prediction is open, nothing on the page
// answers it. Every prediction declares its tells (the distinctive words of
// its right option and right feedback, in each language) and what would
// answer it: figures (hides, covered) and texts by catalogue key
// (withholds, withheld by web/src/exercises/exercise-block.js). Opened as a
// first visit, with its section drawn in view, no tell may show in the
// section's text outside the prediction's own card and the covers, and
// every element saying a withheld text is hidden (the plot line of the
// notes' recipe included). In both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECTIONS } from '../../web/src/sections/registry.js';
import {
  useBrowser, openPage, settled, setState, setLanguage, scrollToRendered, shownTextOutside,
} from './harness.mjs';

const web = useBrowser();

const PREDICTIONS = SECTIONS.flatMap(({ id, exercises = [] }) => exercises
  .filter(({ kind }) => kind === 'predict')
  .map((exercise) => ({ section: id, exercise })));

// What a question asks the learner to do before answering, done as they
// would, without passing the moment ("switch Leave one out off").
const BEFORE = {
  'training.without-loo': (page) => setState(page, { leaveOneOut: false }),
  'attention-training.no-positions': (page) => setState(page, { atPositional: 'none' }),
};

test('every prediction declares its tells in both languages', () => {
  assert.equal(PREDICTIONS.length, 22, 'the predictions of docs/architecture.md');
  for (const { section, exercise } of PREDICTIONS) {
    for (const language of ['en', 'zh']) {
      assert.ok(exercise.tells?.[language]?.length > 0, `${section}.${exercise.id}: its ${language} tells`);
    }
  }
});

// Every element of the section that says one of the withheld keys.
const sayers = (page, section, keys) => page.evaluate(({ id, withheld }) => {
  const root = document.getElementById(id);
  return withheld.flatMap((key) => [...root.querySelectorAll(['data-i18n', 'data-i18n-rich', 'data-says']
    .map((attribute) => `[${attribute}="${CSS.escape(key)}"]`).join(', '))]
    .filter((element) => !element.closest('[data-role="exercises"], .exercise'))
    .map((element) => ({
      key,
      shown: element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: false }),
      inert: element.closest('[inert]') !== null,
    })));
}, { id: section, withheld: keys });

for (const language of ['en', 'zh']) {
  test(`no open prediction is answered by the page around it (${language})`, async () => {
    const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`, { predictions: 'open' });
    if (language !== 'en') await setLanguage(page, language);
    const giveaways = [];
    for (const { section, exercise } of PREDICTIONS) {
      const name = `${section}.${exercise.id}`;
      await BEFORE[name]?.(page);
      const root = page.locator(`#${section}`);
      await scrollToRendered(root);
      await settled(page);
      assert.equal(await page.locator(`[data-exercise="${name}"]`).getAttribute('data-status'), 'open', `${name} is open`);
      const { found } = await shownTextOutside(root, `[data-exercise="${name}"], [data-role="figure-cover"]`, exercise.tells[language]);
      for (const [tell, places] of Object.entries(found)) giveaways.push(`${name}: “${tell}” in ${places.join(', ')}`);
      for (const { key, shown, inert } of await sayers(page, section, exercise.withholds ?? [])) {
        if (shown || !inert) giveaways.push(`${name}: ${key} shown (${shown ? 'visible' : 'hidden'}, ${inert ? 'inert' : 'reachable'})`);
      }
    }
    assert.deepEqual(giveaways, [], 'nothing outside a prediction and its covers answers it');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('a withheld text comes back once its prediction is answered, and says so in its place before', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`, { predictions: 'open' });
  const note = page.locator('#scoring [data-i18n-rich="scaling.collapseNote"]');
  await scrollToRendered(page.locator('#scoring'));
  await settled(page);
  assert.equal(await note.getAttribute('data-withheld'), 'Shown once you have made the prediction.');
  const before = await note.boundingBox();
  await setLanguage(page, 'zh');
  assert.equal(await note.getAttribute('data-withheld'), '作出预测后显示。');
  const card = page.locator('[data-exercise="scoring.scaling-trend"]');
  await card.locator('input').first().check();
  await card.locator('[data-action="check"]').click();
  await settled(page);
  assert.equal(await note.getAttribute('data-withheld'), null);
  assert.equal(await note.getAttribute('inert'), null);
  assert.equal(await note.isVisible(), true);
  const after = await note.boundingBox();
  assert.ok(Math.abs(after.height - before.height) < before.height, 'its place kept (the language changed its length)');
  assert.deepEqual(problems, []);
  await context.close();
});
