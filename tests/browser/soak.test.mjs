// Soak: a long session in headless Chromium - 10,000 parameter
// changes spread over every control of the page, then 200 training runs -
// and what it leaves behind. Measured at load, after a warm-up (every
// control to its ends, both languages, every section scrolled into view, two
// training runs and 400 random changes: lazy work done, most code compiled,
// the wasm memory at its largest working set), after the first half (5,000
// changes, 100 runs) and after the second, each time in the same state (the
// start's parameters, the training reset, every frame queue finished) and
// after a forced GC:
//   the wasm heap: memoryStats() of the page's own core instance
//     (allocatedBytes: malloc's live bytes; heapBytes: the wasm memory's size;
//     liveHandles: JS values C++ still holds through Embind);
//   the JS heap: CDP Runtime.getHeapUsage after HeapProfiler.collectGarbage
//     (usedSize: V8's heap; embedderHeapUsedSize: Blink's, DOM objects etc.);
//   the DOM: CDP Memory.getDOMCounters (live nodes, JS event listeners), and
//     the page's User Timing entries;
//   redraw and frame times: the page's own User Timing measures
//     ("attention-lab:redraw", from the change to the end of the drawing;
//     "attention-lab:draw", the drawing alone) and the interval between
//     frames, first vs last thousand (reported, not asserted: machines differ).
// Figures are printed and written to test-results/soak.json.
//
// The changes go through the controls themselves, from inside the page: an
// input event on a slider, a change event on a number box, a click on a
// choice button, a switch or a head's switch. Every change is followed by
// its redraw, but a frame carries several changes whose redraws do not
// overlap: no section (nor the scaling panel) is drawn from two changes of
// one frame, so each still redraws once per change of its own, and 10,000
// changes take ~1,300 frames instead of 10,000 (the page's style, layout
// and paint of a frame are shared). The language switch, which redraws
// everything, gets frames of its own. Values
// are drawn by a seeded generator (SOAK_SEED), over each control's whole
// range except n, which stays below 100 but for one change in 25 (up to
// 1000), to keep the run within minutes.
//
// SOAK_CHANGES, SOAK_RUNS and SOAK_SEED override the counts and the seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage } from './harness.mjs';
import { formatHash } from '../../web/src/url-state.js';

const CHANGES = Number(process.env.SOAK_CHANGES ?? 10000);
const RUNS = Number(process.env.SOAK_RUNS ?? 200);
const SEED = Number(process.env.SOAK_SEED ?? 6);
const FRAMES_PER_CALL = 60; // about the frames driven by one page.evaluate
const MB = 1024 * 1024;

const report = { changes: CHANGES, trainingRuns: RUNS, seed: SEED };
const web = useBrowser({ report: ['soak.json', report] });

// ---- In the page: the driver, installed once by page.evaluate ----

function installDriver() {
  // What a change of each parameter redraws: its section, or (for the
  // sections of the kernel regression, and the scaling panel of the scoring
  // section) the parts that watch it (the sections' `watched` lists).
  const DATA = ['data', 'pooling', 'heatmap', 'training'];
  const UNITS = {
    n: DATA, noise: DATA, seed: DATA,
    estimator: ['pooling', 'heatmap'], kernel: ['pooling', 'heatmap'], w: ['pooling', 'heatmap'], query: ['heatmap'],
    lr: ['training'], epochs: ['training'], w0: ['training'], leaveOneOut: ['training'],
    scalingKeys: ['scaling'], scalingSamples: ['scaling'], scalingSeed: ['scaling'],
  };
  let random = Math.random; // mulberry32, seeded per call
  const seeded = (seed) => {
    let a = seed >>> 0;
    random = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  };
  const pick = (items) => items[Math.floor(random() * items.length)];
  const shuffled = (items) => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const state = () => window.attentionLab.state;
  const usable = (node) => !node.closest('[inert], .is-disabled, [hidden]') && !node.disabled;

  // The page's own timing of each redraw (a PerformanceObserver sees every
  // entry, whatever the page keeps), and the interval between frames.
  const timings = { redraw: [], draw: [], frame: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'attention-lab:redraw') timings.redraw.push(entry.duration);
      else if (entry.name === 'attention-lab:draw') timings.draw.push(entry.duration);
    }
  }).observe({ type: 'measure' });
  const takeTimings = () => ({ redraw: timings.redraw.splice(0), draw: timings.draw.splice(0), frame: timings.frame.splice(0) });
  async function timedFrame() {
    const started = performance.now();
    await frame();
    timings.frame.push(performance.now() - started);
  }

  // Each control, with how a user changes it (`to`: a position in [0, 1] of
  // its range, or else a random one).
  const slide = (range, position) => {
    range.value = String(position);
    range.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const sliderAt = (range, to) => Math.round(to * Number(range.max)) + Math.round((1 - to) * Number(range.min));
  const controls = [];
  for (const control of document.querySelectorAll('main [data-param]')) {
    const name = control.dataset.param;
    const units = UNITS[name] ?? [control.closest('section').id];
    const range = control.querySelector('input[type="range"]'); // mhaHeads: the slider over the divisors
    const box = control.querySelector('input[type="number"]');
    const choices = [...control.querySelectorAll('[role="radio"]')];
    const toggle = control.querySelector('input[type="checkbox"]');
    let act;
    if (name === 'n') {
      // Mostly up to 100 points; one change in 25 anywhere up to 1000.
      act = (to) => slide(range, to === undefined ? Math.floor(random() * (random() < 0.04 ? 1001 : 100)) : sliderAt(range, to));
    } else if (range) act = (to) => slide(range, to === undefined ? Math.floor(random() * (Number(range.max) + 1)) : sliderAt(range, to));
    else if (box) {
      act = (to) => {
        box.value = String(to === undefined ? Math.floor(random() * 2 ** 32) : Math.floor(to * (2 ** 32 - 1)));
        box.dispatchEvent(new Event('change', { bubbles: true }));
      };
    } else if (choices.length > 0) act = () => pick(choices.filter((button) => button.dataset.value !== state()[name])).click();
    else if (toggle) act = () => toggle.click();
    controls.push({ name, units, node: control, act });
  }
  // The heads' own switches (mhaHeadsOff has no control of the table).
  controls.push({
    name: 'mhaHeadsOff', units: ['multihead'], node: document.getElementById('multihead'),
    act: () => pick([...document.querySelectorAll('#multihead .head-card input[type="checkbox"]')].filter(usable))?.click(),
  });
  const language = document.querySelector('header [data-param="language"]');
  // Parameters that redraw the same units form a group; a frame takes one
  // change from each group in turn whose units no change of that frame has
  // taken yet (n, say, leaves no room for w or lr; w and lr go together).
  const groups = Object.values(Object.groupBy(controls, (control) => control.units.join())).map((members) => ({ members, units: members[0].units }));

  // One change of a control of `candidates`: the parameter that changed, or
  // null (after a few tries) when every value came out the same.
  function change(candidates) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const control = pick(candidates.filter((c) => usable(c.node)));
      if (!control) return null;
      const before = state()[control.name];
      control.act();
      if (!Object.is(state()[control.name], before)) return control.name;
    }
    return null;
  }

  window.__soak = {
    groups: groups.length,
    parameters: [...new Set(controls.map((c) => c.name))],
    takeTimings,
    // Every control to both ends of its range (n = 1000 among them: the wasm
    // memory's largest working set), both languages, two training runs, and
    // every section into view (the scaling study starts when its panel is
    // first seen).
    async warmUp() {
      seeded(1);
      for (const to of [1, 0, 1]) {
        for (const control of controls) {
          if (usable(control.node)) control.act(to);
          await frame();
        }
      }
      for (const button of [...language.querySelectorAll('[role="radio"]')].reverse()) {
        button.click();
        await frame();
      }
      await this.trainingRuns({ runs: 2, seed: 1, first: 0 }); // one played, one stepped
      for (const section of document.querySelectorAll('main > section')) {
        section.scrollIntoView();
        for (let i = 0; i < 5; i += 1) await frame();
      }
      window.scrollTo(0, 0);
      await frame();
    },
    // Up to `limit` changes: each frame one per group whose units are still
    // free (and, every `languageEvery` changes, a language switch alone).
    async changes({ limit, seed, done, languageEvery }) {
      seeded(seed);
      const counts = {};
      let made = 0;
      for (let frames = 0; made < limit && frames < 10 * limit; frames += 1) {
        if (Math.floor((done + made) / languageEvery) !== Math.floor((done + made + 8) / languageEvery)) {
          [...language.querySelectorAll('[role="radio"]')].find((b) => b.dataset.value !== state().language).click();
          counts.language = (counts.language ?? 0) + 1;
          made += 1;
          await timedFrame();
        }
        const taken = new Set();
        for (const group of shuffled(groups)) {
          if (made >= limit) break;
          if (group.units.some((unit) => taken.has(unit))) continue;
          const name = change(group.members);
          if (name) {
            counts[name] = (counts[name] ?? 0) + 1;
            made += 1;
            for (const unit of group.units) taken.add(unit);
          }
        }
        await timedFrame();
      }
      return counts;
    },
    // Training runs, each: new settings through the controls (epochs, w0 by
    // its slider or the draw button, lr, sometimes the leave-one-out switch),
    // Reset, then to the end by Step or by Play (at its own pace). The Step
    // clicks of a run are made in one go (each trains an epoch and redraws
    // the section), the frame after them lays it out.
    async trainingRuns({ runs, seed, first }) {
      seeded(seed);
      const section = document.getElementById('training');
      const button = (action) => section.querySelector(`[data-action="${action}"]`);
      const status = () => section.querySelector('[data-role="status"]').dataset.status;
      const slider = (name) => section.querySelector(`[data-param="${name}"] input[type="range"]`);
      const box = section.querySelector('[data-param="epochs"] input[type="number"]');
      const outcomes = { done: 0, stopped: 0, epochs: 0, played: 0, stepped: 0, unfinished: [] };
      for (let i = 0; i < runs; i += 1) {
        const index = first + i;
        const long = index % 100 === 50; // one long run per hundred: 400 epochs, played in chunks
        const played = long || index % 10 === 0;
        const epochs = long ? 400 : played ? 2 : 3 + Math.floor(random() * 8);
        box.value = String(epochs);
        box.dispatchEvent(new Event('change', { bubbles: true }));
        if (random() < 0.2) button('draw-w0').click();
        else slide(slider('w0'), Math.floor(random() * 400)); // w0 in [0, 12)
        slide(slider('lr'), 300 + Math.floor(random() * 500)); // lr from ~0.01 to ~1.2 (log scale)
        if (random() < 0.2) section.querySelector('[data-param="leaveOneOut"] input').click();
        await frame();
        // A section out of sight is drawn in tasks after the frame, and its
        // draw of new settings resets the run: a Play before it would be undone.
        await window.attentionLab.drawn();
        button('reset').click();
        await frame();
        if (played) {
          button('play').click();
          // Until it ends (within 2 minutes: the long run's 400 epochs take a
          // frame or more each at n = 1000, and a slow machine's frames are
          // long): not merely while it shows "playing", which a run may not
          // show yet in the frame after the click.
          const started = performance.now();
          while (status() !== 'done' && status() !== 'stopped' && performance.now() - started < 120000) await frame();
          outcomes.played += 1;
        } else {
          for (let k = 0; k < 1000 && status() !== 'done' && status() !== 'stopped'; k += 1) button('step').click();
          await frame();
          outcomes.stepped += 1;
        }
        const finished = status();
        if (finished === 'done' || finished === 'stopped') outcomes[finished] += 1;
        else outcomes.unfinished.push({ run: index, epochs, played, status: finished, n: state().n });
        outcomes.epochs += section.querySelectorAll('.epoch-log tbody tr').length;
      }
      return outcomes;
    },
  };
}

// ---- In Node: the phases and the measurements ----

const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`;
const ms = (value) => `${value.toFixed(1)} ms`;
const addCounts = (into, counts) => {
  for (const [name, count] of Object.entries(counts)) into[name] = Array.isArray(count) ? [...(into[name] ?? []), ...count] : (into[name] ?? 0) + count;
};

test('soak: 10,000 parameter changes and 200 training runs leave no leak behind', async () => {
  const started = Date.now();
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await page.evaluate(installDriver);
  const initial = await page.evaluate(() => window.attentionLab.state);

  // Back to the start's state with every queue finished, then GC and read.
  // The start's parameters as the URL hash writes them (the section scrolled to aside).
  const initialHash = formatHash(initial).split('&');
  async function measure(label) {
    await page.evaluate(async ({ state, hash }) => {
      window.attentionLab.set(state);
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      await frame();
      document.querySelector('#training [data-action="reset"]').click();
      // The scaling study (if its panel was ever seen) runs to its end.
      const status = document.querySelector('#scoring [data-role="scaling-status"]');
      const t0 = performance.now();
      while (status.textContent !== '' && status.dataset.done !== 'true' && performance.now() - t0 < 60000) await frame();
      for (let i = 0; i < 10; i += 1) await frame();
      await window.attentionLab.drawn(); // and the sections out of sight, drawn in tasks after the frame
      // Every section shown once: the browser lets go of the nodes a section out of view
      // (content-visibility: auto) dropped only when it next renders it.
      const scrolled = window.scrollY;
      for (const section of document.querySelectorAll('.lab-section')) {
        section.scrollIntoView({ block: 'start', behavior: 'instant' });
        await frame();
        await frame();
      }
      window.scrollTo({ top: scrolled, behavior: 'instant' });
      await frame();
      // The URL hash, written once the changes rest, describes the start's state (or, at load,
      // is not there: the page opened without one and nothing has changed yet).
      const written = () => {
        if (location.hash === '') return true;
        const parts = location.hash.slice(1).split('&').filter((part) => !part.startsWith('section='));
        return parts.length === hash.length && hash.every((part) => parts.includes(part));
      };
      while (!written()) await frame();
      window.__soak.takeTimings();
    }, { state: initial, hash: initialHash });
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    const dom = await cdp.send('Memory.getDOMCounters');
    const wasm = await page.evaluate(() => window.attentionLab.memoryStats());
    const figures = {
      label,
      seconds: Math.round((Date.now() - started) / 1000),
      wasm,
      jsHeap: { usedSize: heap.usedSize, totalSize: heap.totalSize, embedderHeapUsedSize: heap.embedderHeapUsedSize },
      dom: { nodes: dom.nodes, jsEventListeners: dom.jsEventListeners, documents: dom.documents },
      // The page's own User Timing entries (the browser caps its other buffers).
      userTimingEntries: await page.evaluate(() => performance.getEntriesByType('measure').length + performance.getEntriesByType('mark').length),
    };
    console.log(`${label} (${figures.seconds} s): wasm allocated ${wasm.allocatedBytes} B, heap ${mb(wasm.heapBytes)}, ` +
      `live handles ${wasm.liveHandles}; JS heap ${mb(heap.usedSize)}, Blink heap ${mb(heap.embedderHeapUsedSize)}; ` +
      `DOM nodes ${dom.nodes}, listeners ${dom.jsEventListeners}; User Timing entries ${figures.userTimingEntries}`);
    return figures;
  }

  const counts = {};
  const training = { done: 0, stopped: 0, epochs: 0, played: 0, stepped: 0, unfinished: [] };
  const timings = { redraw: [], draw: [], frame: [] };
  const phases = {};
  async function phase(label, work) {
    const t0 = Date.now();
    await work();
    phases[label] = (Date.now() - t0) / 1000;
    console.log(`${label}: ${phases[label].toFixed(1)} s`);
  }
  let changed = 0;
  let call = 0;
  async function changes(target) {
    while (changed < target) {
      call += 1;
      const made = await page.evaluate((options) => window.__soak.changes(options), {
        limit: Math.min(target - changed, FRAMES_PER_CALL * 8), seed: SEED * 100003 + call, done: changed, languageEvery: 1000,
      });
      const count = Object.values(made).reduce((a, b) => a + b, 0);
      assert.ok(count > 0, 'the controls still change the state');
      addCounts(counts, made);
      changed += count;
      const taken = await page.evaluate(() => window.__soak.takeTimings());
      for (const key of Object.keys(timings)) timings[key].push(...taken[key]);
    }
  }
  async function trainingRuns(first, runs) {
    addCounts(training, await page.evaluate((options) => window.__soak.trainingRuns(options), { runs, seed: SEED * 7919 + first, first }));
    await page.evaluate(() => window.__soak.takeTimings());
  }

  const atLoad = await measure('at load');
  await phase('warm-up', async () => {
    await page.evaluate(() => window.__soak.warmUp());
    // A few hundred random changes more (not counted): most of what V8
    // compiles for the page is then compiled (see the JS heap bound below).
    await page.evaluate(() => window.__soak.changes({ limit: 400, seed: 1, done: 0, languageEvery: Infinity }));
  });
  const baseline = await measure('before (after the warm-up)');
  await phase(`changes 1-${CHANGES / 2}`, () => changes(CHANGES / 2));
  await phase(`training runs 1-${RUNS / 2}`, () => trainingRuns(0, RUNS / 2));
  const middle = await measure('after the first half');
  await phase(`changes ${CHANGES / 2 + 1}-${CHANGES}`, () => changes(CHANGES));
  await phase(`training runs ${RUNS / 2 + 1}-${RUNS}`, () => trainingRuns(RUNS / 2, RUNS / 2));
  const end = await measure('after the second half');

  // Redraw and frame times of the changes, first vs last thousand (fewer if
  // there are fewer than 2000: never overlapping).
  const firstLast = (values) => {
    const count = Math.min(1000, Math.floor(values.length / 2));
    return { count, first: median(values.slice(0, count)), last: median(values.slice(-count)) };
  };
  const redraw = firstLast(timings.redraw);
  const draw = firstLast(timings.draw);
  const frame = firstLast(timings.frame);
  Object.assign(report, {
    parameterChanges: changed,
    parametersChanged: Object.keys(counts).length,
    perParameter: counts,
    training,
    redraws: timings.redraw.length,
    frames: timings.frame.length,
    medians: { redrawMs: redraw, drawMs: draw, frameMs: frame },
    atLoad,
    before: baseline,
    middle,
    after: end,
    phases,
    seconds: Math.round((Date.now() - started) / 1000),
  });
  console.log(`${changed} changes of ${Object.keys(counts).length} parameters in ${timings.frame.length} frames ` +
    `(${timings.redraw.length} redraws); ${training.played + training.stepped} training runs ` +
    `(${training.stepped} stepped, ${training.played} played; ${training.done} done, ${training.stopped} stopped; ${training.epochs} epochs)`);
  console.log(`medians, first / last ${redraw.count}: redraw (change to drawn) ${ms(redraw.first)} / ${ms(redraw.last)}; ` +
    `drawing alone ${ms(draw.first)} / ${ms(draw.last)}; frame interval ${ms(frame.first)} / ${ms(frame.last)}`);
  const series = (pick, format = String) => [atLoad, baseline, middle, end].map((m) => format(pick(m))).join(' -> ');
  console.log(`at load -> before -> middle -> after: wasm allocated ${series((m) => m.wasm.allocatedBytes)} B; ` +
    `wasm heap ${series((m) => m.wasm.heapBytes, mb)}; live handles ${series((m) => m.wasm.liveHandles)}; ` +
    `JS heap ${series((m) => m.jsHeap.usedSize, mb)}; Blink heap ${series((m) => m.jsHeap.embedderHeapUsedSize, mb)}; ` +
    `DOM nodes ${series((m) => m.dom.nodes)}; listeners ${series((m) => m.dom.jsEventListeners)}; ` +
    `User Timing entries ${series((m) => m.userTimingEntries)}; ${report.seconds} s in all`);

  assert.equal(changed, CHANGES, 'every change was made');
  assert.equal(training.played + training.stepped, RUNS, 'every training run was made');
  assert.equal(training.done + training.stopped, RUNS, `every run came to its end: ${JSON.stringify(training.unfinished)}`);
  assert.deepEqual(problems, [], 'no console error or warning');
  // No leak in C++: nothing malloc'd and no JS value held outlives a call.
  for (const [label, m] of [['the first half', middle], ['the second half', end]]) {
    assert.equal(m.wasm.allocatedBytes, baseline.wasm.allocatedBytes, `wasm allocations back to the baseline after ${label}`);
    assert.equal(m.wasm.liveHandles, baseline.wasm.liveHandles, `Embind handles back to the baseline after ${label}`);
  }
  // The wasm memory never shrinks: a leak, or fragmentation, would make it
  // grow again in the second half. (The warm-up took it to the largest
  // working set the controls allow.)
  assert.equal(end.wasm.heapBytes, middle.wasm.heapBytes, 'the wasm heap stopped growing');
  // The JS heap after GC, in the same state as before: at most 5 MB and 20%
  // more. What legitimately grows is V8's compiled code for paths first
  // taken during the soak (a heap snapshot diff after 2,500 changes: +0.54 MB
  // of code out of +0.67 MB, the rest caches; none of it after the first
  // half); a leak of one small object per change (10,000 x 100 bytes = 1 MB,
  // 18% of the ~5.5 MB heap) or of any drawn figure per redraw (tens of kB
  // each, ~1,300 redraws) would exceed it.
  const growth = end.jsHeap.usedSize - baseline.jsHeap.usedSize;
  assert.ok(growth < 5 * MB && growth < 0.2 * baseline.jsHeap.usedSize,
    `JS heap grew by ${mb(growth)} (limit 5 MB and 20% of ${mb(baseline.jsHeap.usedSize)})`);
  // Blink's heap (DOM, style, User Timing entries) must stop growing too: the
  // second half adds no more than noise (it added 1.9 MB per half while the
  // page kept every timing entry).
  const blinkGrowth = end.jsHeap.embedderHeapUsedSize - middle.jsHeap.embedderHeapUsedSize;
  assert.ok(blinkGrowth < 1 * MB, `Blink's heap grew by ${mb(blinkGrowth)} in the second half`);
  assert.equal(end.userTimingEntries, baseline.userTimingEntries, 'User Timing entries do not pile up');
  // The same state draws the same DOM. Not to the node: a hidden figure
  // keeps the axis ticks it had when last shown (the multi-head output
  // without the heads switched off) and a hidden note its last text; a node
  // left behind per redraw or per run would be thousands.
  for (const [label, m] of [['the first half', middle], ['the second half', end]]) {
    assert.ok(Math.abs(m.dom.nodes - baseline.dom.nodes) <= 150, `DOM nodes ${baseline.dom.nodes} -> ${m.dom.nodes} after ${label}`);
    assert.equal(m.dom.jsEventListeners, baseline.dom.jsEventListeners, `event listeners back to the start after ${label}`);
  }
  await context.close();
});
