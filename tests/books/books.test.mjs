// A course built with Sphinx (Debian's python3-sphinx) from MyST Markdown
// (python3-myst-parser) and reStructuredText pages, each embedding a
// section through a raw HTML block, with the element's script among the
// book's static files: the recipe for Jupyter Book, MyST and Sphinx of
// docs/learning-and-teaching.md ("For course authors"), as written.
// Chromium opens the built pages from disk; each section draws with its
// attributes and no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';

const run = promisify(execFile);

const PAGES = {
  'conf.py': "project = 'A course'\nextensions = ['myst_parser']\nhtml_static_path = ['_static']\n",
  'index.md': `# Part 2: the weights

\`\`\`{raw} html
<script src="_static/attention-lab-element.js"></script>
<attention-lab section="pooling" kernel="boxcar" w="2"></attention-lab>
\`\`\`

\`\`\`{toctree}
masking
\`\`\`
`,
  'masking.rst': `Part 3: the mask
================

.. raw:: html

   <script src="_static/attention-lab-element.js"></script>
   <attention-lab section="masking" hide="text" language="zh"></attention-lab>
`,
};

let book;

before(async () => {
  book = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-book-'));
  await mkdir(path.join(book, 'src', '_static'), { recursive: true });
  for (const [name, text] of Object.entries(PAGES)) await writeFile(path.join(book, 'src', name), text);
  await copyFile('dist/attention-lab-element.js', path.join(book, 'src', '_static', 'attention-lab-element.js'));
  await run('/usr/bin/python3', ['-m', 'sphinx', '-b', 'html', '-q', '-W', path.join(book, 'src'), path.join(book, 'html')]);
});

after(async () => {
  await rm(book, { recursive: true, force: true });
});

test('a Sphinx book from MyST and reStructuredText pages: each raw HTML block draws its section', async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const [page, expected] of [
      ['index.html', { section: 'pooling', kernel: 'boxcar', w: 2, language: 'en', leadHidden: false }],
      ['masking.html', { section: 'masking', kernel: 'gaussian', w: 1, language: 'zh', leadHidden: true }],
    ]) {
      const tab = await browser.newPage({ locale: 'en-US' });
      const problems = [];
      tab.on('console', (message) => ['error', 'warning'].includes(message.type()) && problems.push(message.text()));
      tab.on('pageerror', (error) => problems.push(error.message));
      await tab.goto(pathToFileURL(path.join(book, 'html', page)).href);
      await tab.waitForSelector('attention-lab[data-ready]', { state: 'attached', timeout: 30000 });
      const shown = await tab.evaluate(() => {
        const lab = document.querySelector('attention-lab');
        const lead = lab.shadowRoot.querySelector('.section-lead, .lead, [data-i18n-rich]');
        return {
          section: lab.getAttribute('section'), kernel: lab.state.kernel, w: lab.state.w, language: lab.state.language,
          leadHidden: lead ? !lead.checkVisibility() : null,
          figures: lab.shadowRoot.querySelectorAll('[data-figure] svg, [data-figure] canvas').length,
        };
      });
      const { figures, ...rest } = shown;
      assert.deepEqual(rest, expected, page);
      assert.ok(figures > 0, `${page}: figures drawn`);
      assert.deepEqual(problems, [], page);
      await tab.close();
    }
  } finally {
    await browser.close();
  }
});
