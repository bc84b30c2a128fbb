// How far a Translate run gets in the same time in each browser engine, and
// where the time goes: Chromium (playwright-core), Firefox ESR and WebKitGTK's
// MiniBrowser (tests/engines/drivers.mjs), the page served by esbuild.
// Per engine and round, in one page at 1280 px:
//   - play:    the translation section on screen, Play at full speed at the
//              defaults but 5,000 steps, and after --seconds the step reached,
//              the frames drawn and where the run trained (data-thread:
//              the worker or the page); the step reached at each second;
//              each chunk's steps, its time from asked to landed, and the
//              time drawing it took (the section's User Timing entries);
//   - kernels: the same model trained by dist/attention-core.mjs imported in
//              the page, on its own thread, in the page's chunks of 25 steps
//              (wall clock; Firefox and WebKit count whole milliseconds):
//              the core's ms a step in this engine, so the steps the kernels
//              alone would reach in the same time.
// The engines interleaved round by round, each round in a fresh browser;
// medians and ranges, and each engine's figures against Chromium's. With
// --base, a second build (main's dist/, copied aside) is measured beside this
// one in each browser: before and after.
// A report, not a test (tests/benchmarks/README.md).
// Usage: node tests/benchmarks/translate-pace.bench.mjs [--rounds 3] [--seconds 8] [--engines chromium,firefox,webkit] [--base <folder>]
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serveDist } from '../browser/harness.mjs';
import { ENGINES, launchEngine } from '../engines/drivers.mjs';
import { defaultState } from '../../web/src/state.js';
import * as translationSetup from '../../web/src/sections/translation/setup.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    engines: { type: 'string', default: ENGINES.join(',') },
    base: { type: 'string' },
  },
});
const rounds = Number(args.rounds);
const seconds = Number(args.seconds);
const engines = args.engines.split(',');
for (const name of engines) {
  if (!ENGINES.includes(name)) {
    console.error(`translate-pace bench: unknown engine '${name}' (${ENGINES.join(', ')})`);
    process.exit(2);
  }
}
const KERNEL_STEPS = 100;
// The run's length: more than any engine trains in the time, so its end never caps the pace.
const RUN_STEPS = 5000;
const inputs = defaultState();
const kernelRun = {
  config: translationSetup.modelConfig(inputs),
  chunk: { ...translationSetup.trainingOptions(inputs, translationSetup.EVAL_EVERY), evaluateAtEnd: false },
  steps: KERNEL_STEPS,
};

// In the page: Play, wait, read. A function's source: each driver runs it there.
async function play({ seconds: wait, steps }) {
  // Ready when the page says so (html[data-ready]), not after a guessed time.
  await new Promise((resolve) => {
    const ready = () => document.documentElement.dataset.ready === 'true';
    if (ready()) return resolve();
    const observer = new MutationObserver(() => {
      if (!ready()) return;
      observer.disconnect();
      resolve();
    });
    return observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-ready'] });
  });
  window.attentionLab.set({ trSteps: steps });
  const root = document.getElementById('translation');
  root.scrollIntoView();
  await window.attentionLab.drawn();
  const status = root.querySelector('[data-role="tr-status"]');
  let frames = 0;
  let counting = true;
  const count = () => {
    frames += 1;
    if (counting) requestAnimationFrame(count);
  };
  const chunks = []; // each landed chunk: its steps, ms from asked to landed, ms drawing it
  new PerformanceObserver((list) => {
    for (const { name, detail } of list.getEntries()) {
      if (name === 'attention-lab:translation:frame') chunks.push([detail.steps, detail.trainMs, detail.drawMs]);
    }
  }).observe({ type: 'measure' });
  const stepNow = () => Number(root.querySelector('[data-role="tr-step"]').dataset.value);
  const everySecond = [];
  root.querySelector('[data-action="tr-play"]').click();
  requestAnimationFrame(count);
  for (let second = 1; second <= wait; second += 1) {
    await new Promise((resolve) => { setTimeout(resolve, 1000); });
    everySecond.push(stepNow());
  }
  counting = false;
  root.querySelector('[data-action="tr-play"]').click(); // pause
  return { step: everySecond.at(-1), everySecond, frames, thread: status.dataset.thread, chunks };
}

async function kernels({ config, chunk, steps }) {
  const { loadAttentionCore } = await import('/attention-core.mjs');
  const core = await loadAttentionCore();
  let model = core.seq2seqInit(config);
  model = core.seq2seqTrain(model, chunk).model; // compiled and warm
  const started = performance.now();
  for (let done = 0; done < steps; done += chunk.steps) model = core.seq2seqTrain(model, chunk).model;
  return (performance.now() - started) / steps;
}

const builds = { now: await serveDist(), ...(args.base ? { base: await serveDist(path.resolve(args.base)) } : {}) };
// Each measured pair: an engine and a build, named "engine" or "engine, build".
const pairs = engines.flatMap((engine) => Object.keys(builds).map((build) => ({
  engine, build, name: args.base ? `${engine}, ${build}` : engine,
})));
const results = Object.fromEntries(pairs.map(({ name }) => [name, []]));
const versions = {};
console.log(`Translate pace: node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
  `load average at start ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds of ${seconds} s Play at 1280 px, ` +
  `the defaults (${inputs.trArchitecture}) but ${RUN_STEPS} steps${args.base ? `; base: ${args.base}, now: dist/` : ''}`);
for (let round = 0; round < rounds; round += 1) {
  for (const engineName of round % 2 ? [...engines].reverse() : engines) {
    const engine = await launchEngine(engineName);
    try {
      const here = pairs.filter((pair) => pair.engine === engineName);
      for (const { build, name } of round % 2 ? [...here].reverse() : here) {
        const tab = await engine.open(`${builds[build].origin}/`, { width: 1280, height: 900 });
        versions[engineName] ??= await tab.evaluate('navigator.userAgent');
        const run = await tab.evaluate(`(${play})(${JSON.stringify({ seconds, steps: RUN_STEPS })})`);
        const msPerStep = await tab.evaluate(`(${kernels})(${JSON.stringify(kernelRun)})`);
        results[name].push({ ...run, msPerStep });
      }
    } finally {
      await engine.close();
    }
  }
}
for (const server of Object.values(builds)) await server.close();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : 0.5 * (sorted[m - 1] + sorted[m]);
};
const range = (values) => `${Math.min(...values)}-${Math.max(...values)}`;
const summary = Object.fromEntries(pairs.map(({ name }) => {
  const list = results[name];
  const step = median(list.map((r) => r.step));
  const msPerStep = median(list.map((r) => r.msPerStep));
  return [name, { step, msPerStep, kernelSteps: (seconds * 1000) / msPerStep }];
}));
for (const engine of engines) console.log(`${engine}: ${versions[engine]}`);
for (const { name } of pairs) for (const { everySecond } of results[name]) console.log(`  ${name}, the step at each second: ${everySecond.join(' ')}`);
console.log('| engine | steps in the time (range) | trained in | frames | chunks | steps a chunk | asked to landed, ms | drawing a chunk, ms | kernels, ms a step (range) | steps the kernels allow | reached / allowed | steps against Chromium | kernels against Chromium |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { engine, build, name } of pairs) {
  const list = results[name];
  const { step, msPerStep, kernelSteps } = summary[name];
  const base = summary[args.base ? `chromium, ${build}` : 'chromium'];
  const threads = [...new Set(list.map((r) => r.thread || 'none'))].join(', ');
  const chunks = list.flatMap((r) => r.chunks);
  const chunkMedian = (k) => median(chunks.map((chunk) => chunk[k])).toFixed(k ? 1 : 0);
  console.log(`| ${name} | ${step} (${range(list.map((r) => r.step))}) | ${threads} | ${median(list.map((r) => r.frames))} | ` +
    `${median(list.map((r) => r.chunks.length))} | ${chunkMedian(0)} | ${chunkMedian(1)} | ${chunkMedian(2)} | ` +
    `${msPerStep.toFixed(2)} (${list.map((r) => r.msPerStep.toFixed(2)).join(', ')}) | ${Math.round(kernelSteps)} | ` +
    `${(step / kernelSteps).toFixed(2)} | ${base ? (step / base.step).toFixed(2) : '-'} | ${base ? (base.msPerStep / msPerStep).toFixed(2) : '-'} |`);
}
if (args.base) {
  for (const engine of engines) {
    const [now, before] = [summary[`${engine}, now`], summary[`${engine}, base`]];
    console.log(`${engine}: steps in the time now/base ${(now.step / before.step).toFixed(2)}, kernels' ms a step now/base ${(now.msPerStep / before.msPerStep).toFixed(2)}`);
  }
}
