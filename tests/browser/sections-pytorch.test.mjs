// "Copy as PyTorch" of the masking, scoring and multi-head sections: each
// snippet is copied from the page (the clipboard), run with Debian's PyTorch
// (/usr/bin/python3, float64) and its printed numbers compared with the
// numbers the page draws and the core computes. Beside it, every section's
// links to its subsection in both books of d2l.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { useBrowser, openPage, loadDirectCore, typeInto, settled, setLanguage } from './harness.mjs';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { bookAddress } from '../../web/src/book-links.js';
import { matrixCells, values } from './figure-readers.mjs';
import { directMultiHead } from './multihead-direct.mjs';

const run = promisify(execFile);
const TOLERANCE = 1e-9;
let lab;
useBrowser({
  opened: async ({ browser, server }) => {
    lab = await openPage(browser, `${server.origin}/`, { permissions: ['clipboard-read', 'clipboard-write'] });
    await loadDirectCore(lab.page);
  },
});

// The section's snippet, copied as a learner copies it.
async function copiedSnippet(section) {
  const { page } = lab;
  await settled(page);
  const status = page.locator(`#${section} .section-tools [role="status"]`);
  await status.evaluate((node) => { node.textContent = ''; });
  // Pressed from the keyboard: a click is aimed at a point, and on a loaded machine the sections above
  // may be measured into their height between the aim and the press, so the click lands elsewhere.
  await page.locator(`#${section} [data-action="copy-pytorch"]`).press('Enter');
  await page.waitForFunction((id) => document.querySelector(`#${id} .section-tools [role="status"]`).textContent.length > 0, section);
  return page.evaluate(() => navigator.clipboard.readText());
}

let folder;
async function python(code) {
  await run('/usr/bin/python3', ['-c', 'import torch']).catch(() => {
    assert.fail('no PyTorch for /usr/bin/python3: apt-get install python3-torch (bash .ci/setup does)');
  });
  folder ??= await mkdtemp(path.join(tmpdir(), 'attention-lab-'));
  const file = path.join(folder, 'snippet.py');
  await writeFile(file, code);
  return (await run('/usr/bin/python3', [file], { timeout: 120000 })).stdout;
}

// The numbers of a printed line "name: [a, b, ...]".
function printed(output, name) {
  const line = output.split('\n').find((text) => text.startsWith(`${name}: `));
  assert.ok(line, `the snippet prints ${name}`);
  return JSON.parse(line.slice(name.length + 2));
}

function assertClose(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: as many numbers`);
  actual.forEach((value, i) => {
    const error = Math.abs(value - expected[i]) / Math.max(1, Math.abs(expected[i]));
    assert.ok(error <= TOLERANCE, `${what} ${i}: torch ${value}, lab ${expected[i]}`);
  });
}

test('the masking snippet gives d2l\'s weights the page draws, in 1-D and 2-D mode', async () => {
  const { page } = lab;
  await typeInto(page, 'maskSeed', 7);
  await typeInto(page, 'maskLen2', 1);
  let output = await python(await copiedSnippet('masking'));
  assertClose(printed(output, 'weights'), values(await matrixCells(page, 'mask-book')), 'weight');

  // 2-D, with a fully masked row: d2l's uniform row, as the page shows it.
  await page.locator('[data-param="maskMode"] [data-value="2d"]').click();
  await typeInto(page, 'maskLen11', 0);
  const code = await copiedSnippet('masking');
  for (const part of ['import torch', 'torch.set_default_dtype(torch.float64)', '§10.3.1', 'maskMode=2d', 'def masked_softmax(X, valid_lens):',
    'valid_lens = torch.tensor([[0, 3], [2, 4]])']) {
    assert.ok(code.includes(part), `the snippet has "${part}"`);
  }
  output = await python(code);
  const shown = values(await matrixCells(page, 'mask-book'));
  assertClose(printed(output, 'weights'), shown, 'weight');
  assertClose(shown.slice(0, 4), [0.25, 0.25, 0.25, 0.25], 'the fully masked row');
  const core = await page.evaluate(() => {
    const scores = window.directCore.randomNormal(16, { seed: 7 });
    const { maskedScores } = window.directCore.maskScores(scores, [2, 2, 4], [0, 3, 2, 4]);
    return Array.from(window.directCore.maskedSoftmax(maskedScores, [2, 2, 4], null));
  });
  assertClose(printed(output, 'weights'), core, 'weight (core)');
  assert.deepEqual(lab.problems, []);
});

test('the scoring snippet gives both layers\' weights and outputs the page draws', async () => {
  const { page } = lab;
  await page.locator('#scoring').scrollIntoViewIfNeeded();
  await page.locator('[data-param="scoringKeys"] [data-value="random"]').click();
  await typeInto(page, 'scoringSeed', 3);
  await typeInto(page, 'scoringQueries', 2);
  await typeInto(page, 'additiveHidden', 5);
  const code = await copiedSnippet('scoring');
  for (const part of ['class AdditiveAttention(nn.Module):', 'class DotProductAttention(nn.Module):', 'AdditiveAttention(key_size=2, query_size=20, num_hiddens=5)', '§10.3.2',
    '# AdditiveAttention(key_size, query_size, num_hiddens, dropout) of zh.d2l.ai §10.3.2, without dropout.']) {
    assert.ok(code.includes(part), `the snippet has "${part}"`);
  }
  const output = await python(code);
  for (const [name, figure] of [['additive weights', 'additive-weights'], ['additive output', 'additive-output'],
    ['dot weights', 'dot-weights'], ['dot output', 'dot-output']]) {
    const shown = values(await matrixCells(page, figure));
    assert.ok(shown.length > 0, `${figure} drawn`);
    assertClose(printed(output, name), shown, name);
  }
  assert.deepEqual(lab.problems, []);
});

test('the multi-head snippet gives every head\'s weights and the outputs of the core', async () => {
  const { page } = lab;
  await page.locator('#multihead').scrollIntoViewIfNeeded();
  await typeInto(page, 'mhaSeed', 2);
  await settled(page);
  const state = await page.evaluate(() => ({ hidden: window.attentionLab.state.mhaHidden, heads: window.attentionLab.state.mhaHeads }));
  // The core called directly with the section's seeded draws (seed 2, as typed).
  const direct = (headMask) => directMultiHead(page, { ...state, seed: 2, headMask });

  let output = await python(await copiedSnippet('multihead'));
  const full = await direct(null);
  assertClose(printed(output, 'weights'), full.weights, 'weight');
  assertClose(printed(output, 'output'), full.output, 'output');
  const shownHeads = [];
  for (let head = 1; head <= state.heads; head += 1) shownHeads.push(...values(await matrixCells(page, `mha-head-${head}`)));
  assertClose(printed(output, 'weights'), shownHeads, 'weight shown');

  // Head 1 switched off: the kept heads' output and head 1's share.
  await page.locator('#multihead .head-card[data-head="0"] .switch').click();
  await settled(page);
  output = await python(await copiedSnippet('multihead'));
  const mask = Array.from({ length: state.heads }, (_, i) => (i === 0 ? 0 : 1));
  assertClose(printed(output, 'kept output'), (await direct(mask)).output, 'kept output');
  assertClose(printed(output, 'switched-off output'), (await direct(mask.map((f) => 1 - f))).output, 'switched-off output');
  assert.deepEqual(lab.problems, []);
});

test('every section links to its subsection in both books of d2l, beside Copy as PyTorch, in both languages', async () => {
  const { page } = lab;
  for (const language of ['en', 'zh']) {
    await setLanguage(page, language);
    for (const { id, book } of SECTIONS) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      const tools = page.locator(`#${id} .section-tools`);
      await tools.locator('[data-role="book-links"]').waitFor();
      const links = await tools.locator('[data-role="book-link"]').evaluateAll((nodes) => nodes.map((node) => ({
        href: node.getAttribute('href'), lang: node.lang, text: node.textContent, target: node.target, rel: node.rel,
      })));
      assert.deepEqual(links.map(({ href }) => href), [bookAddress(book.en, 'en'), bookAddress(book.zh, 'zh')], id);
      assert.deepEqual(links.map(({ lang }) => lang), ['en', 'zh'], `${id}: each link in its book's language`);
      assert.match(links[0].text, /^d2l\.ai 11\.\d/);
      assert.match(links[1].text, /^zh\.d2l\.ai 10\.\d/);
      for (const { target, rel } of links) assert.equal(`${target} ${rel}`, '_blank noopener');
      const label = await tools.locator('[data-role="book-links"] [data-i18n="export.book"]').textContent();
      assert.equal(label, language === 'en' ? 'In the book:' : '书中对应：');
      // Beside "Copy as PyTorch", in the same row, where the section has a snippet.
      if (await page.locator(`#${id} [data-action="copy-pytorch"]`).count() > 0) {
        assert.equal(await tools.locator('[data-action="copy-pytorch"]').count(), 1, `${id}: in the row of Copy as PyTorch`);
      }
    }
  }
  await setLanguage(page, 'en');
});
