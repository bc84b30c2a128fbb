// The lab in a Jupyter notebook: run_notebook.py executes a notebook that
// calls show() for two sections with parameters (and once with a width the
// lab refuses), with Debian's nbclient and ipykernel, and exports it with
// nbconvert. Chromium then opens the exported HTML from disk, and both
// sections must draw with those parameters, with no console error. The
// notebook must carry the element's script once, not once per cell.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const run = promisify(execFile);
const HERE = path.dirname(new URL(import.meta.url).pathname);
const PYTHON = '/usr/bin/python3'; // Debian's, with nbclient, nbconvert and ipykernel
// Found once in the element's script, whatever quoting the notebook's JSON adds.
const SCRIPT_MARK = 'customElements.define(';

let folder;
let made;

before(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-notebook-'));
  const started = performance.now();
  const { stdout } = await run(PYTHON, [path.join(HERE, 'run_notebook.py'), path.resolve('dist/python'), folder],
    { env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' } });
  made = { ...JSON.parse(stdout), seconds: (performance.now() - started) / 1000 };
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

test('the notebook runs; a refused parameter is an error naming it; the script is in it once', async () => {
  assert.deepEqual(made.errors, ['w: expected a number in [0.1, 50], got 1000000000.0']);
  const notebook = await readFile(made.notebook, 'utf8');
  const element = await readFile('dist/attention-lab-element.js', 'utf8');
  assert.equal(element.split(SCRIPT_MARK).length - 1, 1);
  assert.equal(notebook.split(SCRIPT_MARK).length - 1, 1, 'one copy of the element\'s script for three show() calls');
  assert.ok(made.notebookBytes < element.length * 1.1 + 50_000, `the notebook is the script and little more: ${made.notebookBytes} bytes`);
  console.log(`notebook: executed and exported in ${made.seconds.toFixed(1)} s; .ipynb ${(made.notebookBytes / 1024).toFixed(0)} KB ` +
    `(the element's script ${(element.length / 1024).toFixed(0)} KB, once), exported HTML ${(made.htmlBytes / 1024).toFixed(0)} KB`);
});

test('its nbconvert HTML, opened from disk, draws both sections with their parameters and no console error', async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ locale: 'en-US' });
    const problems = [];
    page.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url().slice(0, 100)}`));
    await page.goto(pathToFileURL(made.html).href);
    await page.waitForFunction(() => {
      const labs = document.querySelectorAll('attention-lab');
      return labs.length === 2 && [...labs].every((lab) => lab.hasAttribute('data-ready'));
    }, null, { timeout: 30000 });
    const [pooling, masking] = await page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((lab) => ({
      section: lab.getAttribute('section'),
      state: { kernel: lab.state.kernel, w: lab.state.w, n: lab.state.n, language: lab.state.language },
      points: Number(lab.shadowRoot.querySelector('[data-figure="pooling"] .plot-canvas')?.dataset.points ?? 0),
      estimatorShown: lab.shadowRoot.querySelector('[data-param="estimator"]')?.checkVisibility(),
      heading: lab.shadowRoot.querySelector('.section-heading')?.textContent,
      title: lab.shadowRoot.querySelector('h2')?.innerText.trim(),
      maskCells: lab.shadowRoot.querySelectorAll('[data-figure] canvas, [data-figure] rect').length,
      exercises: lab.shadowRoot.querySelectorAll('[data-exercise]').length,
      answersShown: [...lab.shadowRoot.querySelectorAll('.exercise-answer')].filter((answer) => answer.checkVisibility()).length,
      teacherNote: lab.shadowRoot.querySelector('[data-role="teacher-note"]')?.checkVisibility() ?? false,
    })));
    assert.deepEqual(pooling.state, { kernel: 'boxcar', w: 2.5, n: 40, language: 'zh' });
    assert.equal(pooling.points, 40);
    assert.equal(pooling.estimatorShown, false, 'the estimator control is hidden');
    assert.equal(masking.section, 'masking');
    assert.equal(masking.state.language, 'zh');
    assert.equal(masking.heading, '第二部分：掩蔽');
    // The docs' heading is the whole title: it replaces the lab's section number too.
    assert.equal(masking.title, '第二部分：掩蔽');
    assert.match(pooling.title, /^\d+ · /, 'a section without a heading keeps its number');
    assert.ok(masking.maskCells > 0, 'the masking figures are drawn');
    // exercises='answers': every answer and the teacher's note shown; the
    // pooling section (no such option) shows its exercises unanswered.
    assert.ok(masking.exercises >= 3, 'the masking exercises');
    assert.equal(masking.answersShown, masking.exercises, 'every answer shown');
    assert.equal(masking.teacherNote, true, 'the teacher\'s note shown');
    assert.ok(pooling.exercises >= 3);
    assert.deepEqual([pooling.answersShown, pooling.teacherNote], [0, false]);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
