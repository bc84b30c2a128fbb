// A phone (360 x 740) in the two sections that train a model: the controls
// sheet pinned to the foot of the screen covers at most a quarter of it,
// folds to its bar by a button (keyboard, aria-expanded, both languages),
// and while a run plays the maps the text says to watch are in view above
// it (the sheet docks to its bar and the player; the maps are brought into
// view). Screenshots of each section in English and Chinese, the run
// playing, go to test-results/screenshots/; the sheet's heights are printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { useBrowser, openPage, settled, scrollAtRest, SCREENSHOTS } from './harness.mjs';

const web = useBrowser();
const PHONE = { width: 360, height: 740 };

// Slow runs (steps a second), so a run is still playing when it is looked at.
const SECTIONS = [
  { id: 'translation', name: 'tr', maps: '[data-figure="tr-maps"]', slow: 'trSpeed=20' },
  { id: 'attention-training', name: 'at', maps: '[data-figure="at-heads"]', slow: 'atSpeed=20' },
];

// The sheet's box and how much of `figure` shows between the top of the
// screen and the sheet's top edge.
function measure(page, sheet, figure) {
  return page.evaluate(({ sheet, figure }) => {
    const panel = document.querySelector(sheet).getBoundingClientRect();
    const box = document.querySelector(figure).getBoundingClientRect();
    const room = Math.min(window.innerHeight, panel.top);
    return {
      height: panel.height, top: panel.top, bottom: panel.bottom, viewport: window.innerHeight,
      figureSeen: Math.max(0, Math.min(box.bottom, room) - Math.max(box.top, 0)),
    };
  }, { sheet, figure });
}

// Waits until the sheet is pinned to the foot of the screen (its bottom edge on the screen's).
const pinned = (page, sheet) => page.waitForFunction((s) => {
  const box = document.querySelector(s).getBoundingClientRect();
  return Math.abs(box.bottom - window.innerHeight) <= 1;
}, sheet);

for (const { id, name, maps, slow } of SECTIONS) {
  for (const language of ['en', 'zh']) {
    test(`${id}, ${language}, 360 x 740: the sheet covers at most a quarter of the screen, the maps are in view while the run plays`, async () => {
      const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#language=${language}&section=${id}&${slow}`, {
        viewport: PHONE, touch: true, locale: language === 'zh' ? 'zh-CN' : 'en-US',
      });
      const sheet = `#${id} .controls-panel`;
      const figure = `#${id} ${maps}`;
      const play = `#${id} [data-action="${name}-play"]`;
      const status = `#${id} [data-role="${name}-status"]`;
      // A reader's own key press: the page stops holding the section's heading in place.
      await page.keyboard.press('Shift');
      // Where the section's figures begin: its sheet pins itself to the foot of the screen.
      await page.evaluate((s) => {
        const top = document.querySelector(s).getBoundingClientRect().top + window.scrollY;
        window.scrollTo({ top: top - 200, behavior: 'instant' });
      }, `#${id} .section-body`);
      await settled(page);
      await pinned(page, sheet);
      const open = await measure(page, sheet, figure);
      assert.equal(await page.locator(`${sheet} .sheet-toggle`).getAttribute('aria-expanded'), 'true');
      assert.ok(open.height <= open.viewport * 0.25 + 0.5,
        `the open sheet covers ${open.height} px of ${open.viewport} (at most a quarter)`);

      // Play, from the sheet: the run plays and the maps are in view above the sheet.
      await page.locator(play).tap();
      await page.waitForFunction(({ status, sheet, figure }) => {
        const panel = document.querySelector(sheet).getBoundingClientRect();
        const box = document.querySelector(figure).getBoundingClientRect();
        const room = Math.min(window.innerHeight, panel.top);
        return document.querySelector(status).dataset.status === 'playing' && box.bottom > 0 && box.top < room;
      }, { status, sheet, figure });
      await scrollAtRest(page);
      const playing = await measure(page, sheet, figure);
      assert.equal(await page.locator(status).getAttribute('data-status'), 'playing', 'still playing');
      assert.ok(playing.figureSeen > 0, `the maps are in view above the sheet: ${JSON.stringify(playing)}`);
      assert.ok(playing.height <= playing.viewport * 0.25 + 0.5 && playing.height <= open.height,
        `the sheet docked while the run plays: ${playing.height} px`);
      assert.ok(playing.bottom <= playing.viewport + 1, 'still pinned to the foot of the screen');
      // The screen as the reader has it.
      const file = path.join(SCREENSHOTS, `phone-${id}-${language}-playing.png`);
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: file });
      console.log(`screenshot: ${file}`);
      console.log(`${id} ${language} at 360 x 740: the sheet is ${open.height} px open (${(100 * open.height / open.viewport).toFixed(1)} %), `
        + `${playing.height} px docked while the run plays, ${playing.figureSeen} px of the maps in view above it`);

      // Pause is in the docked sheet; at rest the sheet is open again, as the reader left it.
      assert.equal(await page.locator(play).getAttribute('data-i18n'), 'player.pause');
      await page.locator(play).tap();
      await page.waitForFunction((s) => document.querySelector(s).dataset.status !== 'playing', status);
      await page.waitForFunction((s) => document.querySelector(s).getAttribute('aria-expanded') === 'true', `${sheet} .sheet-toggle`);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('the sheet folds to its bar and opens again, by touch and by keyboard, in both languages', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`, { viewport: PHONE, touch: true });
  const sheet = '#pooling .controls-panel';
  const toggle = `${sheet} .sheet-toggle`;
  await page.evaluate((s) => {
    const top = document.querySelector(s).getBoundingClientRect().top + window.scrollY;
    window.scrollTo({ top: top - 60, behavior: 'instant' });
  }, '#pooling [data-figure="pooling"]');
  await settled(page);
  await pinned(page, sheet);
  const open = (await page.locator(sheet).boundingBox()).height;
  assert.equal(await page.locator(toggle).textContent(), 'Controls');
  assert.equal(await page.locator(toggle).getAttribute('aria-controls'), await page.locator(sheet).getAttribute('id'));

  await page.locator(toggle).tap();
  await page.waitForFunction((s) => document.querySelector(s).getAttribute('aria-expanded') === 'false', toggle);
  const folded = (await page.locator(sheet).boundingBox()).height;
  assert.ok(folded < open / 2, `folded to its bar: ${folded} px, open ${open} px`);
  assert.equal(await page.locator(`${sheet} [data-param="w"]`).isVisible(), false, 'the controls are folded away');
  await pinned(page, sheet);

  // The keyboard: the toggle is a button, Enter and Space work it.
  await page.locator(toggle).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((s) => document.querySelector(s).getAttribute('aria-expanded') === 'true', toggle);
  assert.equal(await page.locator(`${sheet} [data-param="w"]`).isVisible(), true, 'open again');
  await page.keyboard.press('Space');
  await page.waitForFunction((s) => document.querySelector(s).getAttribute('aria-expanded') === 'false', toggle);

  // Chinese: the catalogue's words; wider, no bar (the panel sits beside the figures).
  await page.locator('[data-param="language"] [data-value="zh"]').click();
  await settled(page);
  assert.equal(await page.locator(toggle).textContent(), '控件');
  await page.setViewportSize({ width: 1280, height: 900 });
  await settled(page);
  assert.equal(await page.locator(toggle).isVisible(), false, 'no bar beside the figures');
  assert.equal(await page.locator(`${sheet} [data-param="w"]`).isVisible(), true, 'every control shown beside the figures');
  assert.deepEqual(problems, []);
  await context.close();
});
