// Frames during a run of attention-training, with nothing kept and with
// three kept runs on screen ("Runs compared", run/run-comparison.js), the
// CPU 4x slower (DevTools throttling): the browser's frame intervals
// (requestAnimationFrame to requestAnimationFrame) and the section's own
// work per frame (its User Timing entry: training and drawing), median and
// p95, the two pages interleaved round by round, and the ratio kept/none.
// Usage: node tests/benchmarks/kept-runs-frames.bench.mjs [rounds, 3] [steps, 300]
import { launchBrowser, serveDist, openPage, settled } from '../browser/harness.mjs';

const rounds = Number(process.argv[2] ?? 3);
const steps = Number(process.argv[3] ?? 300);
const browser = await launchBrowser();
const server = await serveDist();

const done = (page) => page.waitForFunction(
  () => document.querySelector('#attention-training [data-role="at-status"]')?.dataset.status === 'done', null, { timeout: 300000 },
);

async function open(kept) {
  const { page, context } = await openPage(browser, `${server.origin}/`);
  const root = page.locator('#attention-training');
  await root.scrollIntoViewIfNeeded();
  await settled(page);
  for (let seed = 1; seed <= kept; seed += 1) {
    await page.evaluate((state) => window.attentionLab.set(state), { atSteps: 100, atSpeed: 1000, atSeed: seed });
    await settled(page);
    await root.locator('[data-action="at-play"]').click();
    await done(page);
    await settled(page);
    await root.locator('[data-action="at-keep"]').click();
  }
  await page.evaluate((state) => window.attentionLab.set(state), { atSteps: steps, atSpeed: 1000, atSeed: 0 });
  await settled(page);
  const shown = await root.locator('[data-role="at-compare-table"] tbody tr').count();
  if (kept > 0 && shown !== kept + 1) throw new Error(`${shown - 1} runs kept, not ${kept}`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { page, context, root };
}

// One run from its start: every frame interval and the section's work per frame.
async function measure({ page, root }) {
  await root.locator('[data-action="at-reset"]').click();
  await settled(page);
  await page.evaluate(() => {
    window.benchFrames = { intervals: [], work: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === 'attention-lab:attention-training:frame') window.benchFrames.work.push(entry.duration);
      }
    }).observe({ type: 'measure' });
    let last = performance.now();
    const tick = (now) => {
      window.benchFrames.intervals.push(now - last);
      last = now;
      if (document.querySelector('#attention-training [data-role="at-status"]').dataset.status !== 'done') requestAnimationFrame(tick);
    };
    requestAnimationFrame((now) => {
      last = now;
      requestAnimationFrame(tick);
    });
  });
  await root.locator('[data-action="at-play"]').click();
  await done(page);
  return page.evaluate(() => window.benchFrames);
}

const pages = { none: await open(0), kept: await open(3) };
const samples = { none: { intervals: [], work: [] }, kept: { intervals: [], work: [] } };
for (let round = 0; round < rounds; round += 1) {
  for (const name of round % 2 ? ['kept', 'none'] : ['none', 'kept']) {
    const { intervals, work } = await measure(pages[name]);
    samples[name].intervals.push(...intervals);
    samples[name].work.push(...work);
  }
}
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const format = (ms) => ms.toFixed(1);
console.log(`attention-training, ${steps} steps at full speed, CPU 4x, ${rounds} rounds interleaved`);
for (const kind of ['intervals', 'work']) {
  const line = (name) => `${name}: median ${format(quantile(samples[name][kind], 0.5))} ms, p95 ${format(quantile(samples[name][kind], 0.95))} ms (${samples[name][kind].length} frames)`;
  const ratio = (q) => (quantile(samples.kept[kind], q) / quantile(samples.none[kind], q)).toFixed(2);
  console.log(`${kind === 'intervals' ? 'frame interval' : 'section work per frame'}: ${line('none')}; ${line('kept')}; kept/none median ${ratio(0.5)}, p95 ${ratio(0.95)}`);
}
for (const { context } of Object.values(pages)) await context.close();
await browser.close();
await server.close();
