// Frames during a run of attention-training, with nothing kept and with
// three kept runs on screen ("Runs compared", run/run-comparison.js), the
// CPU 4x slower (DevTools throttling): the browser's frame intervals
// (requestAnimationFrame to requestAnimationFrame) and the section's own
// work per frame (its User Timing entry: training and drawing), median and
// p95, the pages interleaved round by round, and the ratio kept/none; and
// in a second run, Pause clicked during it: input to painted. With
// --base, a second build (main's dist/, copied aside) is measured beside this
// one, the same way: before and after, and the ratio after/before.
// Usage: node tests/benchmarks/kept-runs-frames.bench.mjs [--rounds 3] [--steps 300] [--base <folder>]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser, serveDist, openPage, settled, afterFrames } from '../browser/harness.mjs';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, steps: { type: 'string', default: '300' }, base: { type: 'string' } },
});
const rounds = Number(args.rounds);
const steps = Number(args.steps);
const browser = await launchBrowser();
const builds = { now: await serveDist(), ...(args.base ? { base: await serveDist(path.resolve(args.base)) } : {}) };

const done = (page) => page.waitForFunction(
  () => document.querySelector('#attention-training [data-role="at-status"]')?.dataset.status === 'done', null, { timeout: 300000 },
);

async function open(server, kept) {
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

// Pause clicked during a run, PAUSE_CLICKS times, a few frames of the run apart:
// each click's time from the input to the next frame painted after its
// handler, as the browser's Event Timing reports it (to 8 ms; it reports
// none under 16 ms, counted as 16).
const PAUSE_CLICKS = 5;
const PAUSE_RUN_STEPS = 3000; // a run that outlasts the clicks
async function pauseLatency({ page, root }) {
  await page.evaluate((atSteps) => window.attentionLab.set({ atSteps }), PAUSE_RUN_STEPS);
  await settled(page);
  await root.locator('[data-action="at-reset"]').click();
  await settled(page);
  await page.evaluate(() => {
    window.benchClicks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === 'click' && entry.target?.dataset.action === 'at-play') window.benchClicks.push(entry.duration);
      }
    }).observe({ type: 'event', durationThreshold: 16 });
  });
  const play = root.locator('[data-action="at-play"]');
  const status = () => root.locator('[data-role="at-status"]').getAttribute('data-status');
  const latencies = [];
  // A run pauses itself once, where its held-out accuracy levels off: a
  // click that met such a pause played on, and is not counted.
  for (let attempt = 0; latencies.length < PAUSE_CLICKS && attempt < 3 * PAUSE_CLICKS; attempt += 1) {
    if (await status() !== 'playing') await play.click(); // Play
    await afterFrames(page, 10 + 3 * attempt); // into the run, at a different phase of its chunks each time
    if (await status() !== 'playing') continue;
    const before = await page.evaluate(() => window.benchClicks.length);
    await play.click(); // Pause
    await afterFrames(page, 3); // the entry is reported after the frame it waited for
    if (await status() !== 'paused') continue;
    const entries = await page.evaluate(() => window.benchClicks);
    // The Play click's entry (if it took 16 ms or more) came before this one.
    latencies.push(entries.length > before ? entries.at(-1) : 16);
  }
  await page.evaluate((atSteps) => window.attentionLab.set({ atSteps }), steps);
  await settled(page);
  return latencies;
}

// Pages named "<build> <none|kept>", measured in turn each round, the order reversed every other round.
const pages = {};
for (const [build, server] of Object.entries(builds)) {
  for (const [kind, kept] of [['none', 0], ['kept', 3]]) pages[`${build} ${kind}`] = await open(server, kept);
}
const names = Object.keys(pages);
const samples = Object.fromEntries(names.map((name) => [name, { intervals: [], work: [], pause: [] }]));
for (let round = 0; round < rounds; round += 1) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    const { intervals, work } = await measure(pages[name]);
    samples[name].intervals.push(...intervals);
    samples[name].work.push(...work);
    samples[name].pause.push(...await pauseLatency(pages[name]));
  }
}
const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const format = (ms) => ms.toFixed(1);
const ratio = (kind, over, under) => [['median', 0.5], ['p95', 0.95]]
  .map(([label, q]) => `${label} ${(quantile(samples[over][kind], q) / quantile(samples[under][kind], q)).toFixed(2)}`).join(', ');
console.log(`attention-training, ${steps} steps at full speed, CPU 4x, ${rounds} rounds interleaved` +
  `${args.base ? `; base: ${args.base}, now: dist/` : ''}`);
const titles = { intervals: 'frame interval:', work: 'section work per frame:', pause: 'Pause clicked during a run, input to painted (goal 50 ms):' };
for (const kind of ['intervals', 'work', 'pause']) {
  console.log(titles[kind]);
  for (const name of names) {
    const values = samples[name][kind];
    console.log(`  ${name}: median ${format(quantile(values, 0.5))} ms, p95 ${format(quantile(values, 0.95))} ms (${values.length} ${kind === 'pause' ? 'clicks' : 'frames'})`);
  }
  for (const build of Object.keys(builds)) console.log(`  ${build}, kept/none: ${ratio(kind, `${build} kept`, `${build} none`)}`);
  if (args.base) for (const shown of ['none', 'kept']) console.log(`  ${shown}, now/base: ${ratio(kind, `now ${shown}`, `base ${shown}`)}`);
}
for (const { context } of Object.values(pages)) await context.close();
await browser.close();
for (const server of Object.values(builds)) await server.close();
