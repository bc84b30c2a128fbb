// Captions that point at an exercise name where it is, as the layout puts
// it: the random softmax heatmap's caption (section 1) says its exercise is
// beside it on a wide screen and above it on a narrow one, and the identity
// pooling question says the heatmap is above it. Measured at 1280 px and
// 360 px, in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';
import { usePage, setState, settled, shownText, scrollToRendered } from './harness.mjs';

const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
// The words a caption uses for each place, and for the place it must not claim.
const PLACES = {
  en: { beside: 'beside this heatmap', above: 'above it', wrong: /exercise below/ },
  zh: { beside: '热图旁边', above: '热图上面', wrong: /下面的练习/ },
};

let page;
usePage({ section: '#cues', opened: (lab) => ({ page } = lab) });

// Where `exercise` stands from `figure`: beside (side by side, overlapping
// in height), above or below.
const placeOf = (exercise, figure) => page.evaluate(([exerciseCss, figureCss]) => {
  const a = document.querySelector(exerciseCss).getBoundingClientRect();
  const b = document.querySelector(figureCss).getBoundingClientRect();
  if (a.right <= b.left || a.left >= b.right) return a.bottom > b.top && a.top < b.bottom ? 'beside' : 'apart';
  if (a.bottom <= b.top) return 'above';
  return a.top >= b.bottom ? 'below' : 'overlapping';
}, [exercise, figure]);

const RANDOM_EXERCISE = '#cues [data-exercise="cues.random-softmax"]';
const RANDOM_FIGURE = '#cues .cell-random-softmax';

for (const [width, place] of [[1280, 'beside'], [360, 'above']]) {
  test(`at ${width} px the random heatmap's exercise is ${place} it, and its caption says so in both languages`, async () => {
    await page.setViewportSize({ width, height: 900 });
    await settled(page);
    await scrollToRendered(page.locator(RANDOM_FIGURE));
    assert.equal(await placeOf(RANDOM_EXERCISE, RANDOM_FIGURE), place);
    // The identity pooling question speaks of "the identity heatmap above".
    assert.equal(await placeOf('#cues [data-exercise="cues.identity-output"]', '#cues .cell-identity'), 'below');
    for (const language of ['en', 'zh']) {
      await setState(page, { language });
      const caption = await shownText(page.locator(`${RANDOM_FIGURE} > figcaption`));
      assert.ok(caption.includes(PLACES[language][place]), `${language} at ${width} px: ${caption}`);
      assert.doesNotMatch(caption, PLACES[language].wrong, `${language}: no place the layout never gives`);
      assert.ok(catalogues[language]['cues.ex.output.question'].includes(language === 'en' ? 'heatmap above' : '上面的单位矩阵热图'));
    }
    await setState(page, { language: 'en' });
    await page.setViewportSize({ width: 1280, height: 900 });
  });
}
