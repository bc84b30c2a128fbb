// The browser tests read text as a learner sees it, through the harness.
// A section out of view is skipped (content-visibility: auto) and its
// innerText is empty, so a test that reads innerText straight from Playwright
// passes while its section happens to be on screen and fails when a loaded
// machine leaves it scrolled away. harness.mjs's shownText and shownTexts
// scroll a skipped element into view first; this keeps every other read out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const FOLDER = 'tests/browser';
const DIRECT_READS = /\.innerText\(\)|\.allInnerTexts\(\)/g;

const directReads = (source) => [...source.matchAll(DIRECT_READS)].map(([read]) => read);

test('the check finds a direct read', () => {
  assert.deepEqual(directReads("await page.locator('h1').innerText(); await rows.allInnerTexts();"), ['.innerText()', '.allInnerTexts()']);
  assert.deepEqual(directReads("await shownText(page.locator('h1')); node.innerText;"), []);
});

test('no browser test reads innerText past the harness', async () => {
  const files = (await readdir(FOLDER)).filter((name) => name.endsWith('.mjs'));
  assert.ok(files.length > 30, `${files.length} files`);
  const found = [];
  for (const name of files) {
    const reads = directReads(await readFile(path.join(FOLDER, name), 'utf8'));
    if (reads.length) found.push(`${name}: ${reads.length}`);
  }
  assert.deepEqual(found, [], 'use shownText or shownTexts from harness.mjs');
});
