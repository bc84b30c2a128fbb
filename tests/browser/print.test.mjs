// Printing (web/styles/print.css, web/src/print-preparation.js): the page
// printed is a worksheet, each section's questions and the figures they
// need, with no controls and no answers; printed in answers mode
// (#exercises=answers, the teacher's screen) it is the answer key, every
// answer and the teacher's note shown. Each section is printed alone
// (#embed=<id>) to A4 in Chromium (page.pdf: only Chromium prints to PDF),
// as a learner first meets it (its predictions open, their figures covered
// on screen), and its pages are counted: the `/Type /Page` objects of the
// PDF. The whole page is printed once in each mode too, for its total. What
// the paper shows is read from the page under print media
// (emulateMedia): what is rendered there is what is printed, with what
// print-preparation.js made ready for it (page.pdf fires beforeprint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './harness.mjs';
import { SECTIONS } from '../../web/src/sections/registry.js';

const web = useBrowser();

// At most this many A4 pages a section, worksheet or answer key: "a few
// pages a section". Measured with this stylesheet: 2 to 4, but for
// self-attention (its three panels of figures and a comparison table), 6
// as a worksheet and 8 as the key; before it, 2 to 9 a section (answer key).
const MOST_PAGES = 8;
// The whole page, either way: thirteen sections one after the other.
// Measured: 32 (worksheet) and 41 (answer key); before this stylesheet 30
// and 33, with every control printed.
const MOST_PAGES_WHOLE = 50;

const pagesOf = (pdf) => (Buffer.from(pdf).toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;

// Runs in the page, under print media: what the paper would show.
function printedParts() {
  const shown = (node) => node.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const controls = [...document.querySelectorAll(
    'button, input[type="range"], .control, .presets, .player, details, select, .toc, [data-slot="language"]',
  )].filter(shown).map((node) => `${node.tagName.toLowerCase()}.${node.className} ${node.textContent.trim().slice(0, 40)}`);
  const exercises = [...document.querySelectorAll('.exercise')].map((card) => ({
    name: card.dataset.exercise,
    question: shown(card.querySelector('.exercise-question')),
    answer: [...card.querySelectorAll('.exercise-answer')].some((node) => shown(node) && node.textContent.trim() !== ''),
    hint: [...card.querySelectorAll('.exercise-hint, .exercise-verdict')].some(shown),
  }));
  // Every figure laid out; one an open prediction covers prints its
  // cover's note in its place, none of its content.
  const figures = [...document.querySelectorAll('.figure-cell [data-figure]')]
    .filter((node) => !node.closest('.control, details'))
    .map((node) => {
      const cover = node.querySelector(':scope > .figure-cover');
      return {
        name: node.dataset.figure,
        laidOut: node.checkVisibility(),
        shown: shown(node),
        covered: node.hasAttribute('data-covered'),
        // A figure inside a covered one (a map of the covered maps).
        underCover: node.parentElement.closest('[data-covered]') !== null,
        coverNote: cover !== null && shown(cover) && cover.innerText.trim() !== '',
        contentShown: [...node.children].some((child) => child !== cover && shown(child)),
      };
    });
  // A figure on a canvas under its SVG (a heatmap, a matrix's cells): how
  // much each was scaled for the paper; unequal, the cells print beside
  // their labels.
  const canvasFigures = [...document.querySelectorAll('.heatmap, .matrix.has-canvas')]
    .filter((node) => node.checkVisibility())
    .map((node) => {
      const svg = node.querySelector('svg.heatmap-svg, svg.matrix-svg');
      const canvas = node.querySelector('canvas');
      return {
        name: node.closest('[data-figure]')?.dataset.figure,
        svg: svg.getBoundingClientRect().width / Number(svg.getAttribute('width')),
        canvas: canvas.getBoundingClientRect().width / Number.parseFloat(canvas.style.width),
      };
    });
  const teacherNotes = [...document.querySelectorAll('[data-role="teacher-note"]')].map(shown);
  return { controls, exercises, figures, canvasFigures, teacherNotes, text: document.body.innerText };
}

// The words of the page's controls, none of which a printed page says.
// A line of its own, as a button's text is.
const CONTROL_WORDS = ['Check', 'Show answer', 'Try another', 'Reset my answers', 'Copy as PyTorch', 'Show the PyTorch code', 'Save', 'Play', 'Step', 'Reset'];

async function printSection(id, mode) {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/index.html#embed=${id}&exercises=${mode}`,
    { predictions: 'open', ready: null });
  try {
    await page.waitForSelector('html[data-ready="true"]', { timeout: 180000, state: 'attached' }).catch((error) => {
      throw new Error(`${id} (${mode}) never drawn: ${problems.join('; ') || error.message}`);
    });
    const pages = pagesOf(await page.pdf({ format: 'A4' }));
    // The figures the screen lays out (some show only for some settings).
    const onScreen = (await page.evaluate(printedParts)).figures.filter((figure) => figure.laidOut).map(({ name }) => name);
    await page.emulateMedia({ media: 'print' });
    const parts = await page.evaluate(printedParts);
    return { pages, ...parts, figures: parts.figures.filter(({ name }) => onScreen.includes(name)) };
  } finally {
    await context.close();
  }
}

const table = [];

for (const [mode, paper] of [['on', 'worksheet'], ['answers', 'answer key']]) {
  test(`each section prints as ${paper === 'worksheet' ? 'a' : 'an'} ${paper} of at most ${MOST_PAGES} A4 pages, without controls`, { timeout: 1800000 }, async () => {
    const problems = []; // every section printed, what is wrong said at the end
    const check = (holds, message) => holds || problems.push(message);
    for (const { id, exercises = [] } of SECTIONS) {
      const printed = await printSection(id, mode);
      table.push({ section: id, paper, pages: printed.pages });
      check(printed.pages >= 1 && printed.pages <= MOST_PAGES, `${id} (${paper}): ${printed.pages} pages`);
      check(printed.controls.length === 0, `${id} (${paper}): controls printed: ${printed.controls.join('; ')}`);
      const lines = printed.text.split('\n').map((line) => line.trim());
      for (const word of CONTROL_WORDS) check(!lines.includes(word), `${id} (${paper}) prints "${word}"`);
      const hidden = printed.figures.filter((figure) => !figure.shown && !(mode === 'on' && figure.underCover)).map(({ name }) => name);
      check(hidden.length === 0, `${id} (${paper}): figures left out: ${hidden.join(', ')}`);
      // What an open prediction covers stays covered on the worksheet; the key covers nothing.
      for (const figure of printed.figures.filter(({ covered }) => covered)) {
        check(mode === 'on', `${id} (${paper}): ${figure.name} covered in the answer key`);
        check(figure.coverNote && !figure.contentShown, `${id} (${paper}): ${figure.name} prints what its cover hides`);
      }
      for (const { name, svg, canvas } of printed.canvasFigures) {
        check(Math.abs(svg - canvas) <= 0.01, `${id} (${paper}): ${name}'s cells scaled by ${canvas.toFixed(3)}, its labels by ${svg.toFixed(3)}`);
      }
      check(printed.exercises.length === exercises.length, `${id}: ${printed.exercises.length} of ${exercises.length} exercises printed`);
      for (const card of printed.exercises) {
        check(card.question, `${card.name}: its question not printed`);
        check(!card.hint, `${card.name}: a hint or verdict printed`);
        if (mode === 'on') check(!card.answer, `${card.name}: the worksheet prints its answer`);
        else check(card.answer, `${card.name}: the answer key leaves out its answer`);
      }
      if (mode === 'answers') check(printed.teacherNotes.every(Boolean), `${id}: the teacher's note not printed`);
    }
    assert.deepEqual(problems, []);
  });

  test(`the whole page prints as ${paper === 'worksheet' ? 'a' : 'an'} ${paper}, every section rendered`, { timeout: 600000 }, async () => {
    const { page, context } = await openPage(web.browser, `${web.server.origin}/index.html#exercises=${mode}`,
      { predictions: 'open', ready: null });
    try {
      await page.waitForSelector('html[data-ready="true"]', { timeout: 300000, state: 'attached' });
      const pages = pagesOf(await page.pdf({ format: 'A4' }));
      table.push({ section: '(whole page)', paper, pages });
      assert.ok(pages >= SECTIONS.length && pages <= MOST_PAGES_WHOLE, `whole page (${paper}): ${pages} pages`);
      await page.emulateMedia({ media: 'print' });
      const printed = await page.evaluate(printedParts);
      assert.deepEqual(printed.controls, [], `whole page (${paper}): controls printed`);
      // Every section laid out for print, those skipped on screen (content-visibility: auto) too.
      const rendered = await page.evaluate(() => [...document.querySelectorAll('.lab-section')]
        .filter((section) => !section.checkVisibility({ contentVisibilityAuto: true })).map((section) => section.id));
      assert.deepEqual(rendered, [], 'sections left unrendered in print');
    } finally {
      await context.close();
    }
  });
}

test('the pages a section prints, worksheet and answer key (A4)', () => {
  const sections = [...new Set(table.map(({ section }) => section))];
  const cell = (section, paper) => String(table.find((row) => row.section === section && row.paper === paper)?.pages ?? '–');
  console.log(['section'.padEnd(20), 'worksheet', 'answer key'].join(' | '));
  for (const section of sections) console.log([section.padEnd(20), cell(section, 'worksheet').padStart(9), cell(section, 'answer key').padStart(10)].join(' | '));
});
