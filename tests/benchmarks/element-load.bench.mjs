// A course page with one section of the lab, three ways in, on a network and
// CPU a learner may have: the element's loader (attention-lab-element-loader.js),
// the one-script element (attention-lab-element.js) and the iframe mode
// (index.html#embed=<section>). dist/ is served gzipped under lab/ beside the
// course pages, as a host does. Each way's loads are interleaved with the
// others'; it prints the medians and p95 (of the rounds) of:
//   text   the course page's own text painted (first contentful paint);
//   ready  the section drawn (the element's data-ready, the frame's html[data-ready]);
//   KB     bytes over the wire, gzipped, with headers, until ready;
// and each way's ready against the iframe's.
// Usage: node tests/benchmarks/element-load.bench.mjs [section, pooling] [rounds, 3] [slow4g | none]
// (slow 4G: 1.6 Mbps down, 150 ms round trip, the CPU 4x slower; none: neither).
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, serveDistGzipped, DIST } from '../browser/harness.mjs';

const [section = 'pooling', roundsArg = '3', profile = 'slow4g'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const SLOW_4G = { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 };

const text = '<h1>Week 4</h1><p>Attention pooling weighs the training outputs by how close each input is to the query.</p>';
const WAYS = {
  loader: `<script src="lab/attention-lab-element-loader.js" defer></script></head><body>${text}<attention-lab section="${section}"></attention-lab>`,
  'one script': `<script src="lab/attention-lab-element.js" defer></script></head><body>${text}<attention-lab section="${section}"></attention-lab>`,
  iframe: `</head><body>${text}<iframe src="lab/index.html#embed=${section}" title="Attention Lab" style="width:100%;height:3600px;border:0"></iframe>`,
};
// Records in the course page when the section is drawn, whichever way it came.
function watchReady() {
  const drawn = () => {
    const lab = document.querySelector('attention-lab');
    if (lab) return lab.hasAttribute('data-ready');
    return document.querySelector('iframe')?.contentDocument?.documentElement?.dataset.ready === 'true'; // null while it navigates
  };
  const look = () => {
    if (drawn()) window.readyAt = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

const site = await mkdtemp(path.join(os.tmpdir(), 'attention-lab-course-'));
await symlink(DIST, path.join(site, 'lab'));
for (const [index, body] of Object.values(WAYS).entries()) {
  await writeFile(path.join(site, `way${index}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Week 4</title>${body}</body></html>`);
}
const server = await serveDistGzipped(site);
const browser = await launchBrowser();

async function once(index) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(watchReady);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  let bytes = 0;
  let counting = true;
  cdp.on('Network.loadingFinished', ({ encodedDataLength }) => {
    if (counting) bytes += encodedDataLength;
  });
  if (profile === 'slow4g') {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_4G });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  await page.goto(`${server.origin}/way${index}.html`);
  await page.waitForFunction(() => window.readyAt !== undefined, null, { timeout: 180000, polling: 200 });
  counting = false;
  const times = await page.evaluate(() => ({
    text: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, ready: window.readyAt,
  }));
  await context.close();
  return { ...times, kb: bytes / 1024 };
}

const names = Object.keys(WAYS);
const results = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < rounds; round += 1) {
  const order = names.map((name, index) => index);
  if (round % 2) order.reverse();
  for (const index of order) results[names[index]].push(await once(index));
}
const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];
const p95 = (values) => sorted(values)[Math.min(values.length - 1, Math.ceil(0.95 * values.length) - 1)];
console.log(`${section}, ${rounds} rounds, ${profile === 'slow4g' ? 'slow 4G, CPU 4x' : 'no throttling'}`);
const iframeReady = median(results.iframe.map(({ ready }) => ready));
for (const name of names) {
  const list = results[name];
  const figure = (key, digits = 0) => `${median(list.map((r) => r[key])).toFixed(digits)} (p95 ${p95(list.map((r) => r[key])).toFixed(digits)})`;
  console.log(`${name.padEnd(10)} text ${figure('text')} ms, ready ${figure('ready')} ms, ${figure('kb')} KB; `
    + `ready ${(median(list.map(({ ready }) => ready)) / iframeReady).toFixed(2)}x the iframe's; runs: ${list.map(({ ready }) => ready.toFixed(0)).join(', ')}`);
}
await browser.close();
await server.close();
await rm(site, { recursive: true, force: true });
