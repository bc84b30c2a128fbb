// A link to a section, and the contents bar, in Chromium, Firefox and WebKit
// (Safari's engine). A #section= link lands on the section's heading: its
// top inside the window, below the sticky contents bar, once the page is at
// rest (WebKit has no scroll anchoring: sections drawn again near the target
// at their real height moved it 267 px up, out of sight). The contents bar
// fits one row at 1280 px: nothing to scroll, the last link whole inside it
// (WebKit sets text about 3 % wider). ENGINES=webkit picks engines.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, launchEngine, retriedAfterCrash } from './drivers.mjs';
import { probedDist } from './probed-dist.mjs';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

// Where the section the hash names is once the page is ready and its top
// has not moved for 30 frames in a row, and the contents bar's fit.
function landing() {
  return new Promise((resolve) => {
    let last = null;
    let still = 0;
    const look = () => {
      if (document.documentElement.dataset.ready !== 'true') { requestAnimationFrame(look); return; }
      const id = new URLSearchParams(location.hash.slice(1)).get('section');
      const section = document.getElementById(id);
      const top = section.getBoundingClientRect().top;
      still = top === last ? still + 1 : 0;
      last = top;
      if (still < 30) { requestAnimationFrame(look); return; }
      const heading = section.querySelector('h2').getBoundingClientRect();
      const bar = document.querySelector('.toc-inner');
      const links = [...bar.querySelectorAll('a')];
      resolve({
        id,
        language: document.documentElement.lang,
        sectionTop: Math.round(top),
        heading: { top: Math.round(heading.top), bottom: Math.round(heading.bottom) },
        barBottom: Math.round(document.querySelector('.toc').getBoundingClientRect().bottom),
        windowHeight: window.innerHeight,
        contents: {
          scrollWidth: bar.scrollWidth,
          clientWidth: bar.clientWidth,
          right: bar.getBoundingClientRect().left + bar.clientLeft + bar.clientWidth,
          lastLinkRight: links.at(-1).getBoundingClientRect().right,
          lastLink: links.at(-1).textContent.trim(),
        },
      });
    };
    look();
  });
}

function assertOnHeading(landed, what) {
  assert.ok(landed.heading.top >= landed.barBottom && landed.heading.bottom <= landed.windowHeight,
    `${what}: the heading of ${landed.id} (${landed.heading.top} to ${landed.heading.bottom} px) is in the window below the contents bar (${landed.barBottom} px): ${JSON.stringify(landed)}`);
}

for (const name of chosen) {
  describe(name, () => {
    let engine;
    let site;
    let visit = 0;
    // A new document each time (a query of its own): a hash alone would be followed in the same one.
    const land = async (hash, width) => {
      const tab = await engine.open(`${site.origin}/?visit=${++visit}${hash}`, { width, height: 900 });
      return { tab, landed: await tab.evaluate(landing) };
    };
    before(async () => {
      [engine, site] = await Promise.all([launchEngine(name), probedDist()]);
    });
    after(async () => {
      await engine?.close();
      await site?.close();
    });

    test('a #section= link lands on its heading, and the contents bar fits at 1280 px', (t) => retriedAfterCrash(t, engine, async () => {
      const { tab, landed } = await land('#section=translation', 1280);
      assertOnHeading(landed, '#section=translation at 1280 px');
      const { contents } = landed;
      assert.ok(contents.scrollWidth <= contents.clientWidth, `the contents bar scrolls: ${contents.scrollWidth} px in ${contents.clientWidth}`);
      assert.ok(contents.lastLinkRight <= contents.right, `"${contents.lastLink}" ends at ${contents.lastLinkRight} px, past the bar's ${contents.right}`);
      // A hash edited in the same document, to another language and section.
      await tab.evaluate(() => { location.hash = '#language=zh&section=scoring'; });
      await tab.evaluate(() => new Promise((resolve) => {
        const wait = () => (document.documentElement.lang.startsWith('zh') ? resolve() : setTimeout(wait, 50));
        wait();
      }));
      const edited = await tab.evaluate(landing);
      assert.match(edited.language, /^zh/);
      assertOnHeading(edited, 'the hash edited to #language=zh&section=scoring');
      assert.ok(edited.contents.scrollWidth <= edited.contents.clientWidth, `in Chinese the contents bar scrolls: ${JSON.stringify(edited.contents)}`);
    }));

    test('in Chinese, #section=scoring lands on its heading at 1280 and 447 px', (t) => retriedAfterCrash(t, engine, async () => {
      for (const width of [1280, 447]) {
        const { landed } = await land('#language=zh&section=scoring', width);
        assert.match(landed.language, /^zh/);
        assertOnHeading(landed, `#language=zh&section=scoring at ${width} px`);
      }
    }));
  });
}
