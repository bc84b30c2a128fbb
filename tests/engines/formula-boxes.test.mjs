// Formula boxes in Chromium, Firefox and WebKit: at 1280 px every formula
// fits its box, so no box may scroll. KaTeX draws a sub- or superscript
// with a 2 px cell that sticks out past its own box (a fix of its for
// Safari), and a box as wide as its formula then scrolled by those 2 px
// (9 boxes in Chromium and WebKit, 30 in Firefox counting the table's
// inline formulas, which scroll in none), each with a scroll track under
// it where scrollbars take room. Every section is scrolled into view
// and drawn before it is measured (sections out of view are not laid out).
// ENGINES=firefox,webkit picks engines.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, launchEngine, waitInPage } from './drivers.mjs';
import { probedDist } from './probed-dist.mjs';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

// Runs in the page: every section scrolled into view and drawn, then each
// shown formula box: whether it scrolls, and whether its formula fits the
// room its box may take (the box's container, less its padding).
async function formulaBoxes() {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const drawn = (section) => (section.checkVisibility ? section.checkVisibility({ contentVisibilityAuto: true }) : true);
  const boxes = [];
  for (const section of document.querySelectorAll('main .lab-section')) {
    section.scrollIntoView({ block: 'start', behavior: 'instant' });
    await frame();
    while (!drawn(section)) await frame();
    await frame();
    for (const box of section.querySelectorAll('.formula')) {
      const formula = box.querySelector('.katex-html');
      // An inline formula (in a table's cell) is no scrolling box: Firefox gives it a
      // scrollWidth and no clientWidth; the table scrolls as a whole.
      if (!formula || box.getClientRects().length === 0 || getComputedStyle(box).display === 'inline') continue;
      const room = box.parentElement;
      const style = getComputedStyle(room);
      const roomWidth = room.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // The formula's own width, its parts sticking out of its boxes included.
      const extent = document.createRange();
      extent.selectNodeContents(formula);
      boxes.push({
        section: section.id,
        tex: box.querySelector('annotation')?.textContent.slice(0, 50) ?? '',
        scrolls: box.scrollWidth > box.clientWidth,
        over: box.scrollWidth - box.clientWidth,
        fits: extent.getBoundingClientRect().width <= roomWidth,
      });
    }
  }
  return boxes;
}

for (const name of chosen) {
  describe(name, () => {
    let engine;
    let site;
    before(async () => {
      [engine, site] = await Promise.all([launchEngine(name), probedDist()]);
    });
    after(async () => {
      await engine?.close();
      await site?.close();
    });

    test('at 1280 px no formula box scrolls where its formula fits', async () => {
      const tab = await engine.open(`${site.origin}/`, { width: 1280, height: 900 });
      await waitInPage(tab, () => document.documentElement.dataset.ready === 'true');
      const boxes = await tab.evaluate(formulaBoxes);
      const overflowing = boxes.filter(({ scrolls, fits }) => scrolls && fits);
      console.log(`${name}: ${overflowing.length} of ${boxes.length} formula boxes overflow at 1280 px`);
      assert.ok(boxes.length >= 20, `${boxes.length} formula boxes measured`);
      assert.deepEqual(overflowing.map(({ section, tex, over }) => `${section}: ${tex} (${over} px)`), []);
      assert.deepEqual(await tab.evaluate(() => window.engineProbe.problems), []);
    });
  });
}
