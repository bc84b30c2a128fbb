// Load timing A/B under DevTools network emulation and CPU throttling, from a
// server that gzips (as a real host does): first contentful paint, the core's
// basics loaded, interactive, the models loaded, every section drawn; bytes
// gzipped on the wire. The two builds' pages interleaved, medians of the rounds.
// Usage: node tests/benchmarks/load-ab.bench.mjs A-dist/ B-dist/ [rounds, 5] [slow4g | 750k]
// (slow 4G: 1.6 Mbps down, 150 ms round trip; 750k: 750 kbps, 300 ms; the CPU 4x slower in both).
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
const [aDir, bDir, roundsArg, profile = 'slow4g'] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 5);
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
function serve(dir) {
  const cache = new Map();
  const server = http.createServer(async (req, res) => {
    const file = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname.replace(/\/$/, '/index.html')));
    try {
      if (!cache.has(file)) cache.set(file, gzipSync(await readFile(file), { level: 9 }));
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Content-Encoding': 'gzip' });
      res.end(cache.get(file));
    } catch { res.writeHead(404); res.end(); }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}`, cache })));
}
const NETWORKS = { slow4g: { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 },
  '750k': { latency: 300, downloadThroughput: 750e3 / 8, uploadThroughput: 250e3 / 8 } };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'] });
const servers = [await serve(aDir), await serve(bDir)];
async function once(origin) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORKS[profile] });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => performance.getEntriesByName('attention-lab:interactive').length > 0, null, { timeout: 120000 });
  await page.waitForSelector('html[data-ready="true"]', { state: 'attached', timeout: 180000 });
  const t = await page.evaluate(() => {
    const end = (name) => { const [e] = performance.getEntriesByName(name); return e ? e.startTime + e.duration : null; };
    return { fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, coreLoaded: end('attention-lab:core-loaded'),
      interactive: end('attention-lab:interactive'), modelsLoaded: end('attention-lab:models-loaded'), sectionsBuilt: end('attention-lab:sections-built') };
  });
  // Bytes on the wire (gzipped, with headers): those in before the page was interactive, and all.
  const bytes = await page.evaluate((interactive) => {
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    const sum = (list) => list.reduce((total, entry) => total + entry.transferSize, 0) / 1024;
    return { kbAtInteractive: sum(entries.filter((entry) => entry.responseEnd <= interactive)), kbAll: sum(entries) };
  }, t.interactive);
  await context.close();
  return { ...t, ...bytes };
}
const results = [[], []];
for (let r = 0; r < rounds; r += 1) for (const i of r % 2 ? [1, 0] : [0, 1]) results[i].push(await once(servers[i].origin));
const median = (xs) => { const s = xs.filter((x) => x != null).sort((p, q) => p - q); return s.length ? s[s.length >> 1] : null; };
for (const [i, label] of [[0, 'A'], [1, 'B']]) {
  const keys = Object.keys(results[i][0]);
  console.log(`${label} ${[aDir, bDir][i]}: ` + keys.map((k) => `${k} ${median(results[i].map((x) => x[k]))?.toFixed(0)}`).join(', '));
  console.log(`   interactive runs: ${results[i].map((x) => x.interactive.toFixed(0)).join(', ')}`);
}
await browser.close();
for (const { server } of servers) server.close();
