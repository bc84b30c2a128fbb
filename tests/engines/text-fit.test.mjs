// Text that fits its boxes in Chromium, Firefox and WebKit, whose text is
// a little wider. Every section is scrolled into view and drawn before it
// is measured (sections out of view are not laid out).
//
// Formula boxes: at 1280 px every formula fits its box, so no box may
// scroll. KaTeX draws a sub- or superscript with a 2 px cell that sticks
// out past its own box (a fix of its for Safari), and a box as wide as its
// formula then scrolled by those 2 px (9 boxes in Chromium and WebKit, 30
// in Firefox counting the table's inline formulas, which scroll in none),
// each with a scroll track under it where scrollbars take room.
//
// Labels: no short button, choice or read-out value breaks onto a second
// line at 1280 px (WebKit's wider text once wrapped the estimator's choices).
// ENGINES=firefox,webkit picks engines.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, launchEngine, waitInPage } from './drivers.mjs';
import { probedDist } from './probed-dist.mjs';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

// Runs in the page: every section scrolled into view and drawn in turn,
// and measured while it is (a section out of view is not laid out):
// { boxes: each shown formula box, whether it scrolls and whether its
// formula fits the room its box may take (the box's container, less its
// padding); broken: the short buttons, choices and read-out values (a word
// or two, as "Nadaraya–Watson" or "100.0 %"; a longer choice may take two
// lines by design) whose text takes more than one line }.
async function textFit() {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const drawn = (section) => (section.checkVisibility ? section.checkVisibility({ contentVisibilityAuto: true }) : true);
  const linesOf = (label) => {
    const range = document.createRange();
    range.selectNodeContents(label);
    const parts = [...range.getClientRects()].filter(({ width, height }) => width > 0 && height > 0).sort((a, b) => a.top - b.top);
    let lines = 0;
    let bottom = -Infinity;
    for (const part of parts) {
      if (part.top >= bottom - 2) lines += 1; // below the line so far: a new line
      bottom = Math.max(bottom, part.bottom);
    }
    return lines;
  };
  const boxes = [];
  const broken = [];
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
    for (const label of section.querySelectorAll('button, .segment, .big-number')) {
      const text = label.textContent.trim();
      if (label.getClientRects().length === 0 || text === '' || text.length > 24) continue;
      const lines = linesOf(label);
      if (lines > 1) broken.push(`${section.id}: “${text}” on ${lines} lines`);
    }
  }
  return { boxes, broken };
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

    // One page an engine, each section drawn once and measured for both tests.
    let measured;
    let problems;
    before(async () => {
      const tab = await engine.open(`${site.origin}/`, { width: 1280, height: 900 });
      await waitInPage(tab, () => document.documentElement.dataset.ready === 'true');
      measured = await tab.evaluate(textFit);
      problems = await tab.evaluate(() => window.engineProbe.problems);
    });

    test('at 1280 px no formula box scrolls where its formula fits', () => {
      const { boxes } = measured;
      const overflowing = boxes.filter(({ scrolls, fits }) => scrolls && fits);
      console.log(`${name}: ${overflowing.length} of ${boxes.length} formula boxes overflow at 1280 px`);
      assert.ok(boxes.length >= 20, `${boxes.length} formula boxes measured`);
      assert.deepEqual(overflowing.map(({ section, tex, over }) => `${section}: ${tex} (${over} px)`), []);
      assert.deepEqual(problems, []);
    });

    test('at 1280 px no short button, choice or read-out value breaks onto a second line', () => {
      const { broken } = measured;
      console.log(`${name}: ${broken.length} labels broken onto a second line at 1280 px`);
      assert.deepEqual(broken, []);
    });
  });
}
