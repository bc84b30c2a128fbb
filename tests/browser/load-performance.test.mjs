// How fast the page loads, measured and printed, not asserted (machines and
// their load differ): the time to the first contentful paint and until the
// page is interactive (its first screenful of sections usable; the rest are
// built after), over http at full speed and with the CPU slowed 4x (DevTools'
// CPU throttling, a school laptop), from disk (file://), and with the CPU 4x
// slower on two school networks emulated by DevTools: slow 4G (1.6 Mbps
// down, 150 ms round trip) and 750 kbps (300 ms round trip). DevTools adds
// the round trip to every request (a real connection's handshakes come on
// top). dist/ is served gzipped, as a real host serves it, and the bytes
// each file took over the wire are counted: those in before the page was
// interactive, and all of them once the page has loaded everything it
// loads while the learner reads. The runs of the settings are interleaved
// (one of each, then again), so a change in the machine's load reaches them
// all alike; medians are printed and written to
// test-results/load-performance.json. Asserted only what must hold: every
// run became interactive and drew every section, with no console error and
// no request to any other host.
// The second visit: the page loaded once at full speed, its service worker
// installed and active, then reloaded with the CPU 4x slower on slow 4G
// (the page then comes from the worker's cache; a build without a worker,
// a baseline's, reloads from the network).
// LOAD_BASELINE=<a dist/ folder> (another build, say main's) loads that one
// too, interleaved with this one, and prints the ratios of the medians.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { useBrowser, openPage, foreignRequests, serveDistGzipped, offlineWorkerActive, DIST, FILE_URL } from './harness.mjs';
import { OFFLINE_WORKER } from '../../web/build-steps/offline-worker.mjs';

const RUNS = Number(process.env.LOAD_RUNS ?? 5);
const figures = {};
const web = useBrowser({ serve: serveDistGzipped, report: ['load-performance.json', figures] });
const BASELINE = process.env.LOAD_BASELINE ? path.resolve(process.env.LOAD_BASELINE) : null;
const baseline = {};
before(async () => {
  if (BASELINE) baseline.server = await serveDistGzipped(BASELINE);
});
after(() => baseline.server?.close());

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

// Bytes a second from bits a second.
const SLOW_4G = { latency: 150, download: 1.6e6 / 8, upload: 750e3 / 8 };
const KBPS_750 = { latency: 300, download: 750e3 / 8, upload: 250e3 / 8 };

// name, where from ('second visit': http, the page's second load), CPU
// slowdown, network, the goal for the time to interactive (ms)
const SETTINGS = [
  ['http', 'http', 1, null, 500],
  ['http, CPU 4x slower', 'http', 4, null, 1500],
  ['file://', 'file', 1, null, 500],
  ['slow 4G, CPU 4x slower', 'http', 4, SLOW_4G, 1500],
  ['750 kbps, CPU 4x slower', 'http', 4, KBPS_750, 3000],
  ['second visit, slow 4G, CPU 4x slower', 'second visit', 4, SLOW_4G, 500],
];

// Resolves once no request of the page has been in flight for `quiet` ms
// (what the page loads while the learner reads has arrived), or after
// `longest` ms, with the requests still in flight.
function networkQuiet(page, quiet, longest = 30000) {
  const inFlight = new Set();
  let timer = null;
  return new Promise((resolve) => {
    const giveUp = setTimeout(() => resolve([...inFlight].map((request) => request.url())), longest);
    const check = () => {
      clearTimeout(timer);
      if (inFlight.size === 0) {
        timer = setTimeout(() => {
          clearTimeout(giveUp);
          resolve([]);
        }, quiet);
      }
    };
    page.on('request', (request) => {
      inFlight.add(request);
      clearTimeout(timer);
    });
    for (const event of ['requestfinished', 'requestfailed']) {
      page.on(event, (request) => {
        inFlight.delete(request);
        check();
      });
    }
    check();
  });
}

// The page opened once at full speed, its worker (if the build has one)
// active; then the CPU and network slowed and the page reloaded.
async function secondVisit(url, cpuThrottle, network, worker) {
  const opened = await openPage(web.browser, url);
  if (worker) await offlineWorkerActive(opened.page);
  const devtools = await opened.context.newCDPSession(opened.page);
  await devtools.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle });
  await devtools.send('Network.enable');
  await devtools.send('Network.emulateNetworkConditions', {
    offline: false, latency: network.latency, downloadThroughput: network.download, uploadThroughput: network.upload,
  });
  opened.requests.length = 0;
  await opened.page.reload({ waitUntil: 'commit' });
  return opened;
}

async function oneLoad(url, origin, { from, cpuThrottle, network, worker }) {
  const { page, context, problems, requests } = from === 'second visit'
    ? await secondVisit(url, cpuThrottle, network, worker)
    : await openPage(web.browser, url, { cpuThrottle, network, ready: null });
  const quiet = networkQuiet(page, network ? 3 * network.latency + 1000 : 1000);
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 120000 });
  const unfinished = await quiet;
  const run = await page.evaluate(() => {
    const entry = (part) => performance.getEntriesByName(`attention-lab:${part}`)[0];
    const interactive = entry('interactive').duration;
    const all = entry('sections-built');
    const files = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
      .map(({ name, transferSize, encodedBodySize, decodedBodySize, responseEnd }) => ({
        file: new URL(name).pathname.split('/').pop() || 'index.html',
        transferred: transferSize,
        gzipped: encodedBodySize,
        raw: decodedBodySize,
        arrived: responseEnd,
        beforeInteractive: responseEnd <= interactive,
      }));
    return {
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      interactive,
      coreLoaded: entry('core-loaded').duration,
      allDrawn: all.startTime + all.duration,
      files,
    };
  });
  await context.close();
  return { ...run, problems, unfinished, foreign: foreignRequests(requests, url.startsWith('file:') ? null : origin) };
}

// The files of one load, with the bytes each took over the wire (gzipped),
// those in before the page was interactive first.
function fileTable(files) {
  const sorted = [...files].sort((a, b) => a.arrived - b.arrived);
  const sum = (list) => list.reduce((total, { gzipped }) => total + gzipped, 0);
  const before = sorted.filter(({ beforeInteractive }) => beforeInteractive);
  return {
    beforeInteractive: sum(before),
    total: sum(sorted),
    lines: sorted.map(({ file, gzipped, raw, arrived, beforeInteractive }) =>
      `  ${beforeInteractive ? '*' : ' '} ${file.padEnd(36)} ${kb(gzipped).padStart(9)} (${kb(raw)} raw), in at ${ms(arrived)}`),
  };
}

// The builds measured: this one, and the baseline's when asked for.
async function builds() {
  const hasWorker = (folder) => access(path.join(folder, OFFLINE_WORKER)).then(() => true, () => false);
  const own = { label: 'this build', origin: web.server.origin, fileUrl: FILE_URL, worker: await hasWorker(DIST) };
  if (!BASELINE) return [own];
  return [{
    label: 'baseline', origin: baseline.server.origin, fileUrl: pathToFileURL(path.join(BASELINE, 'index.html')).href,
    worker: await hasWorker(BASELINE),
  }, own];
}

function report(label, runs) {
  const out = {};
  for (const [name, from, , , goal] of SETTINGS) {
    const list = runs[name];
    const part = (key) => median(list.map((run) => run[key]));
    out[name] = {
      firstContentfulPaintMs: part('firstPaint'),
      interactiveMs: part('interactive'),
      coreLoadedMs: part('coreLoaded'),
      everySectionDrawnMs: part('allDrawn'),
      interactiveRunsMs: list.map((run) => Math.round(run.interactive)),
    };
    console.log(`${label}, ${name} (goal: interactive within ${ms(goal)}): first contentful paint ${ms(part('firstPaint'))}, ` +
      `interactive ${ms(part('interactive'))} (runs: ${list.map((run) => Math.round(run.interactive)).join(', ')}), ` +
      `the core loaded at ${ms(part('coreLoaded'))}, every section drawn at ${ms(part('allDrawn'))}`);
    if (from === 'second visit') {
      const transferred = list[0].files.reduce((total, file) => total + file.transferred, 0);
      out[name].bytesOverTheNetwork = transferred;
      console.log(`  over the network: ${kb(transferred)} (the rest from the cache)`);
    }
    if (from === 'http') {
      const table = fileTable(list[0].files);
      out[name].bytesBeforeInteractive = table.beforeInteractive;
      out[name].bytesInAll = table.total;
      out[name].files = list[0].files;
      console.log(`  gzipped over the wire: ${kb(table.beforeInteractive)} before interactive (*), ${kb(table.total)} in all`);
      if (name.startsWith('slow 4G')) console.log(table.lines.join('\n'));
    }
  }
  return out;
}

test('time to the first paint and until interactive: http, file://, CPU 4x slower, slow 4G, 750 kbps, the second visit', async () => {
  const measured = await builds();
  const runs = measured.map(() => Object.fromEntries(SETTINGS.map(([name]) => [name, []])));
  for (let i = 0; i < RUNS; i += 1) {
    for (const [name, from, cpuThrottle, network] of SETTINGS) {
      for (const [index, build] of measured.entries()) {
        const url = from === 'file' ? build.fileUrl : `${build.origin}/`;
        runs[index][name].push(await oneLoad(url, build.origin, { from, cpuThrottle, network, worker: build.worker }));
      }
    }
  }
  const reports = measured.map((build, index) => report(build.label, runs[index]));
  Object.assign(figures, reports.at(-1));
  if (BASELINE) {
    figures.baseline = reports[0];
    for (const [name] of SETTINGS) {
      const [was, now] = reports.map((one) => one[name]);
      console.log(`${name}: this build / baseline, median time to interactive ${(now.interactiveMs / was.interactiveMs).toFixed(2)}, ` +
        `first contentful paint ${(now.firstContentfulPaintMs / was.firstContentfulPaintMs).toFixed(2)}` +
        (now.bytesBeforeInteractive ? `, bytes before interactive ${kb(was.bytesBeforeInteractive)} -> ${kb(now.bytesBeforeInteractive)}, in all ${kb(was.bytesInAll)} -> ${kb(now.bytesInAll)}` : ''));
    }
  }
  for (const [index, build] of measured.entries()) {
    for (const [name, list] of Object.entries(runs[index])) {
      for (const run of list) {
        assert.ok(Number.isFinite(run.interactive) && run.interactive > 0, `${build.label}, ${name}: interactive`);
        assert.ok(Number.isFinite(run.allDrawn), `${build.label}, ${name}: every section drawn`);
        assert.deepEqual(run.problems, [], `${build.label}, ${name}: no console error`);
        assert.deepEqual(run.foreign, [], `${build.label}, ${name}: no request to any other host`);
        assert.deepEqual(run.unfinished, [], `${build.label}, ${name}: every request finished`);
      }
    }
  }
});
