// The page's core paths in Chromium, Firefox and WebKit (Safari's engine):
// it loads over http and from file:// with every section drawn and nothing
// wrong (no error, no blocked resource: the probe's record, and the console
// where the driver can read it); w trains and the attention model learns
// reverse; a figure saves as PNG and SVG; the course page's two elements
// and its iframe draw. The whole browser suite runs in Chromium
// (tests/browser/); this is what must hold in every engine a class uses.
// ENGINES=firefox,webkit picks engines.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { ENGINES, launchEngine, retriedAfterCrash, waitInPage } from './drivers.mjs';
import { probedDist } from './probed-dist.mjs';
import { SECTION_IDS } from '../../web/src/sections/registry.js';
import { SCREENSHOTS } from '../browser/harness.mjs';

const chosen = process.env.ENGINES ? process.env.ENGINES.split(',') : ENGINES;

// What a reader would see of each section, and what went wrong in the page.
function pageReport() {
  const visible = (node) => node.getClientRects().length > 0 && node.textContent.trim() !== '';
  return {
    ready: document.documentElement.dataset.ready ?? null,
    sections: [...document.querySelectorAll('main .lab-section')].map((section) => ({
      id: section.id,
      title: section.querySelector('h2 .section-heading')?.textContent.trim() ?? '',
      marks: section.querySelectorAll('svg path, svg rect, svg circle, svg line').length,
      alerts: [...section.querySelectorAll('[role="alert"]')].filter(visible).map((node) => node.textContent.trim()),
    })),
    problems: window.engineProbe.problems,
  };
}

function assertDrawn(report, consoleProblems) {
  assert.equal(report.ready, 'true');
  assert.deepEqual(report.sections.map(({ id }) => id), SECTION_IDS, 'every section, in order');
  for (const section of report.sections) {
    assert.ok(section.title.length > 3, `${section.id} has its title`);
    assert.ok(section.marks > 10, `${section.id} drew ${section.marks} marks`);
    assert.deepEqual(section.alerts, [], `${section.id} shows no error`);
  }
  assert.deepEqual(report.problems, [], 'nothing went wrong in the page');
  assert.deepEqual(consoleProblems, [], 'nothing in the console');
}

for (const name of chosen) {
  describe(name, () => {
    let engine;
    let site;
    const open = async (url, size) => {
      const tab = await engine.open(url, size);
      await waitInPage(tab, () => document.documentElement.dataset.ready === 'true');
      return tab;
    };
    before(async () => {
      [engine, site] = await Promise.all([launchEngine(name), probedDist()]);
    });
    after(async () => {
      await engine?.close();
      await site?.close();
    });

    test('over http: every section drawn, nothing wrong', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await open(`${site.origin}/`);
      assertDrawn(await tab.evaluate(pageReport), tab.consoleProblems);
    }));

    test('English is set in a Latin face (a narrow apostrophe), Chinese in a CJK one', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await open(`${site.origin}/`);
      // The width of a character in the font a paragraph of the page uses, in ems.
      const widths = await tab.evaluate(() => {
        const lead = document.querySelector('main p');
        const measure = (text, lang) => {
          const span = document.createElement('span');
          span.textContent = text;
          span.lang = lang;
          lead.append(span);
          const width = span.getBoundingClientRect().width / parseFloat(getComputedStyle(span).fontSize);
          span.remove();
          return width;
        };
        return { apostrophe: measure('\u2019\u2019\u2019\u2019', 'en') / 4, han: measure('\u6c49\u6c49\u6c49\u6c49', 'zh-CN') / 4 };
      });
      assert.ok(widths.apostrophe < 0.45, `an English apostrophe is ${widths.apostrophe.toFixed(2)} em wide (a CJK face's is 1)`);
      assert.ok(widths.han > 0.9 && widths.han < 1.1, `a Chinese character is ${widths.han.toFixed(2)} em wide`);
      // What a reader sees: a lead with apostrophes (the book’s, the notes’ desk).
      await tab.evaluate(() => document.getElementById('cues').scrollIntoView());
      await mkdir(SCREENSHOTS, { recursive: true });
      await tab.screenshot(path.join(SCREENSHOTS, `engines-${name}-english-text.png`));
    }));

    test('from file://: every section drawn, nothing wrong', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await open(site.fileUrl('index.html'));
      assertDrawn(await tab.evaluate(pageReport), tab.consoleProblems);
    }));

    test('training: w descends to its fit, the attention model learns reverse', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await open(`${site.origin}/#epochs=10&atSpeed=1000`);
      const training = await tab.evaluate(() => new Promise((resolve) => {
        const root = document.getElementById('training');
        root.querySelector('[data-action="play"]').click();
        const watch = () => {
          if (root.querySelector('[data-role="status"]').dataset.status !== 'done') { setTimeout(watch, 50); return; }
          resolve({
            epochs: root.querySelectorAll('.epoch-log tbody tr').length,
            losses: [...root.querySelectorAll('.epoch-log tbody tr')].map((tr) => Number(tr.dataset.loss)),
          });
        };
        watch();
      }));
      assert.equal(training.epochs, 10);
      assert.ok(training.losses[9] < training.losses[0], `the loss fell: ${training.losses}`);

      const learned = await tab.evaluate(() => new Promise((resolve) => {
        const root = document.getElementById('attention-training');
        const value = (role) => root.querySelector(`[data-role="${role}"]`).dataset.value;
        root.querySelector('[data-action="at-play"]').click();
        const watch = () => {
          // Done, or paused by itself once held-out accuracy has plateaued (the section's default).
          if (!['done', 'paused'].includes(root.querySelector('[data-role="at-status"]').dataset.status)) { setTimeout(watch, 100); return; }
          resolve({ step: Number(value('at-step')), accuracy: Number(value('at-accuracy')) });
        };
        watch();
      }));
      assert.ok(learned.accuracy >= 0.99, `reverse learned: ${JSON.stringify(learned)}`);
      assert.deepEqual(await tab.evaluate(() => window.engineProbe.problems), []);
    }));

    // The exercise engine in this engine: a concept question wrong (its own
    // explanation, the hint) then right, a prediction's covered figures shown
    // once it is answered, and the progress kept in the page's storage.
    test('an exercise: wrong then right, a prediction\'s figures uncovered, progress stored', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await open(`${site.origin}/`);
      const answered = await tab.evaluate(() => {
        const concept = document.querySelector('[data-exercise="pooling.average-query"]');
        const choose = (value) => {
          concept.querySelector(`input[value="${value}"]`).click();
          concept.querySelector('[data-action="check"]').click();
          return {
            status: concept.dataset.status,
            verdict: concept.querySelector('.exercise-verdict').textContent,
            hint: !concept.querySelector('.exercise-hint').hidden,
          };
        };
        const predict = document.querySelector('[data-exercise="masking.zero-weights"]');
        const weights = document.querySelector('#masking [data-figure="mask-weights"]');
        // Covered: marked, its drawing out of reach (inert) under the cover.
        const coveredBefore = weights.hasAttribute('data-covered')
          && [...weights.children].some((child) => child.inert && !child.matches('.figure-cover'));
        predict.querySelector('[data-action="reveal"]').click();
        return {
          wrong: choose('nearer'), right: choose('ignores'),
          coveredBefore, coveredAfter: weights.hasAttribute('data-covered'), predicted: predict.dataset.status,
        };
      });
      assert.equal(answered.wrong.status, 'wrong');
      assert.match(answered.wrong.verdict, /Nadaraya/, 'the wrong option\'s own explanation');
      assert.equal(answered.wrong.hint, true);
      assert.equal(answered.right.status, 'right');
      assert.deepEqual([answered.coveredBefore, answered.coveredAfter, answered.predicted], [true, false, 'revealed']);
      const stored = await tab.evaluate(() => JSON.parse(localStorage.getItem('attention-lab:exercises')).exercises);
      assert.deepEqual([stored['pooling.average-query'].status, stored['masking.zero-weights'].status], ['right', 'revealed'], 'kept in localStorage');
      assert.deepEqual(await tab.evaluate(() => window.engineProbe.problems), []);
    }));

    test('export: the data plot saves as PNG and as SVG', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await open(`${site.origin}/`);
      for (const format of ['png', 'svg']) {
        const saved = await tab.evaluate(async (format) => {
          const figure = document.querySelector('[data-figure="data"]');
          const menu = figure.querySelector('.figure-export');
          menu.open = true;
          const before = window.engineProbe.saved.length;
          menu.querySelector(`[data-export="${format}"]`).click();
          const deadline = performance.now() + 20000;
          while (window.engineProbe.saved.length === before && performance.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          const blob = window.engineProbe.saved.at(-1);
          if (!blob || window.engineProbe.saved.length === before) return null;
          const bytes = new Uint8Array(await blob.arrayBuffer());
          return {
            type: blob.type,
            size: blob.size,
            head: Array.from(bytes.subarray(0, 8)),
            text: format === 'svg' ? new TextDecoder().decode(bytes) : null,
          };
        }, format);
        assert.ok(saved, `a ${format} file was handed to the browser`);
        if (format === 'png') {
          assert.equal(saved.type, 'image/png');
          assert.deepEqual(saved.head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
          assert.ok(saved.size > 5000, `${saved.size} bytes`);
        } else {
          assert.equal(saved.type, 'image/svg+xml');
          assert.match(saved.text.slice(0, 300), /^(<\?xml [^>]*\?>\s*)?<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
          assert.ok((saved.text.match(/<circle/g) ?? []).length >= 50, 'the 50 training points');
          // The caption as it reads on screen, its formula once (not again as MathML and TeX).
          const title = saved.text.match(/<title>([^<]*)<\/title>/)[1];
          assert.ok(title.endsWith('Test queries are x=0,0.1,…,4.9.'), title);
        }
      }
      assert.deepEqual(await tab.evaluate(() => window.engineProbe.problems), []);
    }));

    test('the course page: two <attention-lab> elements and the iframe drawn', (t) => retriedAfterCrash(t, engine, async () => {
      const tab = await engine.open(`${site.origin}/course-example.html`);
      const state = await waitInPage(tab, () => {
        const labs = [...document.querySelectorAll('attention-lab')];
        const frame = document.getElementById('frame-training');
        const framed = frame.contentDocument?.documentElement;
        if (labs.length !== 2 || !labs.every((lab) => lab.hasAttribute('data-ready')) || framed?.dataset.ready !== 'true') return null;
        if (frame.getBoundingClientRect().height < 300) return null; // sized to its lab by the element script
        return {
          labs: labs.map((lab) => ({
            sections: [...lab.shadowRoot.querySelectorAll('.lab-section')].map((section) => section.id),
            marks: lab.shadowRoot.querySelectorAll('svg path, svg circle, svg rect').length,
          })),
          frame: {
            sections: [...framed.querySelectorAll('.lab-section')].map((section) => section.id),
            heading: framed.querySelector('.lab-section h2 .section-heading')?.textContent.trim(),
            height: frame.getBoundingClientRect().height,
            problems: frame.contentWindow.engineProbe.problems,
          },
          problems: window.engineProbe.problems,
        };
      });
      assert.deepEqual(state.labs.map(({ sections }) => sections), [['pooling'], ['heatmap']]);
      state.labs.forEach(({ marks }) => assert.ok(marks > 10, `${marks} marks`));
      assert.deepEqual(state.frame.sections, ['training']);
      assert.equal(state.frame.heading, 'Fit the width by gradient descent');
      assert.deepEqual(state.frame.problems, []);
      assert.deepEqual(state.problems, []);
      assert.deepEqual(tab.consoleProblems, []);
    }));
  });
}
