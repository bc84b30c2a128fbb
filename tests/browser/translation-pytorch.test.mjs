// "Copy as PyTorch" of the translation section: the script the button copies
// (read back from the clipboard) runs with Debian's PyTorch, /usr/bin/python3,
// loads the core's initial parameters into d2l's classes with load_state_dict
// and trains them on the core's batches: its printed loss per target token of
// every step matches seq2seqTrain's. The settings reach the page through the
// URL hash, as a shared link would set them. Tolerance: 1e-9 relative over
// the snippet's steps (autograd and the core's hand-written backward passes
// differ in the last bits of a double, and Adam can amplify that a little).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { useBrowser, openPage, loadDirectCore, settled } from './harness.mjs';
import { modelConfig, trainingOptions } from '../../web/src/sections/translation/setup.js';
import { SNIPPET_STEPS } from '../../web/src/sections/translation/pytorch.js';

const run = promisify(execFile);
let lab;
useBrowser({
  opened: async ({ browser, server }) => {
    lab = await openPage(browser, `${server.origin}/`, { permissions: ['clipboard-read', 'clipboard-write'] });
    await loadDirectCore(lab.page);
  },
});

const DEFAULTS = {
  trTask: 'numbers-en-zh', trArchitecture: 'bigru', trCell: 'gru', trScoring: 'additive', trHeadScoring: 'dot', trSteps: 600, trSeed: 0,
};
const SETTINGS = [
  ['the default: numbers, English → Chinese, bidirectional GRU', {}],
  ['d2l\'s one-directional GRU on dates, another seed', { trArchitecture: 'gru', trTask: 'dates', trSeed: 5 }],
  ['the Transformer on numbers, Chinese → English, seeds wrapping past 2^32', { trArchitecture: 'transformer', trTask: 'numbers-zh-en', trSeed: 4294967290 }],
  ['reverse with the bidirectional GRU, the fewest steps (50)', { trTask: 'reverse', trSteps: 50 }],
  ['the bidirectional GRU scoring by the scaled dot product (d2l 10.4, exercise 2)', { trScoring: 'dot' }],
  ['the Transformer with additive heads (d2l 10.7, exercise 2)', { trArchitecture: 'transformer', trHeadScoring: 'additive' }],
  ['the bidirectional LSTM (d2l 10.4, exercise 1)', { trCell: 'lstm' }],
  ['d2l\'s one-directional LSTM scoring by the scaled dot product', { trArchitecture: 'gru', trCell: 'lstm', trScoring: 'dot' }],
];

async function snippetFor(page, state) {
  const hash = `#${Object.entries(state).map(([name, value]) => `${name}=${value}`).join('&')}`;
  await page.evaluate((text) => new Promise((resolve) => {
    window.addEventListener('hashchange', () => resolve(), { once: true });
    location.hash = text;
  }), hash);
  await settled(page);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.locator('#translation [data-action="copy-pytorch"]').click();
  await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0);
  return page.evaluate(() => navigator.clipboard.readText());
}

// The same run asked of the core directly (a second instance beside the page's).
function coreRun(page, state, steps) {
  return page.evaluate(({ config, training }) => {
    const core = window.directCore;
    const result = core.seq2seqTrain(core.seq2seqInit(config), { ...training, evaluateAtEnd: false });
    return Array.from(result.loss);
  }, { config: modelConfig(state), training: trainingOptions(state, steps) });
}

test('the translation snippet trains d2l\'s classes in PyTorch as the core does, step for step', { timeout: 600000 }, async () => {
  await run('/usr/bin/python3', ['-c', 'import torch']).catch(() => {
    assert.fail('no PyTorch for /usr/bin/python3: apt-get install python3-torch (bash .ci/setup does)');
  });
  const { page } = lab;
  const folder = await mkdtemp(path.join(tmpdir(), 'attention-lab-'));
  const jobs = [];
  for (const [index, [name, change]] of SETTINGS.entries()) {
    const state = { ...DEFAULTS, ...change };
    const code = await snippetFor(page, state);
    // The state names the scoring setting its architecture reads, not the other one.
    const transformer = state.trArchitecture === 'transformer';
    const unread = transformer ? ['trScoring', 'trCell'] : ['trHeadScoring'];
    const stated = Object.keys(DEFAULTS).filter((key) => !unread.includes(key)).map((key) => `${key}=${state[key]}`).join(', ');
    assert.ok(code.includes(`# State: ${stated}`), `${name}: the snippet states ${stated}`);
    assert.match(code, /load_state_dict/);
    const dot = (transformer ? state.trHeadScoring : state.trScoring) === 'dot';
    assert.equal(code.includes('self.attention = DotProductAttention()'), dot, `${name}: the scoring`);
    assert.equal(code.includes('class AdditiveAttention'), !dot, `${name}: additive attention's class only where it is used`);
    if (transformer && !dot) assert.ok(code.includes('self.attention = AdditiveAttention(head_size, head_size, head_size)'), name);
    if (!transformer) assert.equal(code.includes('nn.LSTM('), state.trCell === 'lstm', `${name}: the cell`);
    const file = path.join(folder, `translation-${index}.py`);
    await writeFile(file, code);
    const steps = Math.min(state.trSteps, SNIPPET_STEPS);
    jobs.push({ name, file, steps, core: await coreRun(page, state, steps) });
  }
  const started = performance.now();
  const outputs = [];
  for (let i = 0; i < jobs.length; i += 2) {
    outputs.push(...await Promise.all(jobs.slice(i, i + 2).map(({ file }) =>
      run('/usr/bin/python3', [file], { timeout: 300000 }).then(({ stdout }) => stdout))));
  }
  const seconds = (performance.now() - started) / 1000;
  const relative = (a, b) => Math.abs(a - b) / Math.max(1e-300, Math.abs(b));
  const report = [];
  jobs.forEach(({ name, steps, core }, j) => {
    const losses = [...outputs[j].matchAll(/^step (\d+), loss (\S+)$/gm)].map((m) => Number(m[2]));
    assert.equal(losses.length, steps, `${name}: a loss per step`);
    let worst = 0;
    losses.forEach((loss, i) => {
      const difference = relative(loss, core[i]);
      worst = Math.max(worst, difference);
      assert.ok(difference < 1e-9, `${name}, step ${i + 1}: torch ${loss}, core ${core[i]}`);
    });
    report.push(`${name}: worst relative difference ${worst.toExponential(1)} in ${losses.length} steps`);
  });
  console.log(`${report.join('\n')}\n${jobs.length} scripts in ${seconds.toFixed(1)} s`);
  assert.deepEqual(lab.problems, []);
});
