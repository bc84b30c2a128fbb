// How fast the page answers, measured and printed, not asserted (machines
// differ): every section's heaviest control, the exercise inputs among them,
// with the CPU at full speed and slowed 4x (DevTools' CPU throttling, as on
// a school laptop), and the sqrt(d) study filling in (the time until the
// page is interactive: load-performance.test.mjs).
//
// A case is one control changed over and over on one page load per CPU
// rate: the time from the input event until the frame that shows it is
// painted (its style, layout and paint done; sections out of sight are
// drawn after it), median and p95, and the section's own work: its drawing
// ("attention-lab:draw:<section>", User Timing) plus what the input's
// handler did at once (an exercise's check runs there). The page also
// measures "attention-lab:redraw", from the change to the end of the
// drawing, and "attention-lab:draw", the frame's drawing work. The heaviest
// control of each section was found by timing all of them once (every
// slider, choice, switch, button and exercise input); the cases below are
// the heaviest, the four of the first measurements (the width slider at
// n = 50 and 1000, the noise slider, the heads slider) and one exercise
// input per section that has one worth timing. At 4x each case is then
// profiled (frame-profile.mjs): a trace of a few more changes, its main
// thread's time by kind. Each case is also timed on its section embedded
// alone (#embed=<section>): the whole page's median over that one is the
// page's tax, what the rest of the page costs a drag. With REDRAW_BASE set
// (another build's dist/, e.g. main's copied aside) both builds are timed,
// interleaved, and the table shows before -> after. One table, both rates,
// p95, the tax and the profile, printed at the end and written to
// test-results/redraw-performance.json.
import { after, test } from 'node:test';
import path from 'node:path';
import assert from 'node:assert/strict';
import { useBrowser, openPage, typeInto, settled, serveDist } from './harness.mjs';
import { TRACE_CATEGORIES, profileOfTrace } from './frame-profile.mjs';

const figures = {};
// REDRAW_BASE=<folder>: a second build (main's dist/, copied aside) measured beside this one.
// REDRAW_CASES=<regular expression>: only the cases whose "section: label" matches it.
// REDRAW_SAMPLES: changes timed a case (14 unless given).
const BASE = process.env.REDRAW_BASE ? path.resolve(process.env.REDRAW_BASE) : null;
const ONLY = process.env.REDRAW_CASES ? new RegExp(process.env.REDRAW_CASES) : null;
const web = useBrowser({
  report: ['redraw-performance.json', figures],
  opened: async (shared) => {
    if (!BASE) return;
    shared.base = await serveDist(BASE);
    shared.baseFolder = process.env.REDRAW_BASE;
  },
});
after(() => web.base?.close());

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// The nearest-rank 95th percentile: of 14 samples (or fewer), the largest.
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1];
const ms = (value) => `${value.toFixed(1)} ms`;

// A change as the learner makes it: a slider's input event, a number box's
// change (a control's, or a table cell's), a click, or an exercise's answer
// typed and checked with Enter; `option` picks an exercise's option and
// clicks its Check.
const slider = (parameter, position) => ({ range: `[data-param="${parameter}"] input[type="range"]`, value: position });
const headsSlider = (value) => ({ range: '[data-role="heads-slider"]', value });
const numberBox = (selector, value) => ({ number: selector, value });
const click = (selector) => ({ click: selector });
const exercise = (name) => `[data-exercise="${name}"]`;
const answer = (name, value) => ({ enter: `${exercise(name)} input.exercise-number`, value });
const another = (name) => click(`${exercise(name)} [data-action="another"]`);

// Makes the change and times it (see the top of the file).
async function timeChange(page, change, section) {
  return page.evaluate(async ([action, id]) => {
    performance.clearMeasures();
    const changed = performance.now();
    if (action.range || action.number || action.enter) {
      const input = document.querySelector(action.range ?? action.number ?? action.enter);
      input.value = String(action.value);
      if (action.range) input.dispatchEvent(new Event('input', { bubbles: true }));
      else if (action.number) input.dispatchEvent(new Event('change', { bubbles: true }));
      else input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    } else {
      document.querySelector(action.click).click();
    }
    const handled = performance.now() - changed;
    // The page draws in the next frame's animation callbacks, and that frame is styled, laid
    // out and painted in the same task: a user-blocking task posted from a later callback runs
    // right after (Chromium's scheduler.postTask). Then the sections out of sight are drawn.
    await new Promise((resolve) => requestAnimationFrame(() => scheduler.postTask(resolve, { priority: 'user-blocking' })));
    const painted = performance.now() - changed;
    const [draw] = performance.getEntriesByName(`attention-lab:draw:${id}`);
    const [redraw] = performance.getEntriesByName('attention-lab:redraw');
    await window.attentionLab.drawn();
    return { painted, work: handled + (draw?.duration ?? 0), redrawn: redraw?.detail ?? null };
  }, [change, section]);
}

// The loss landscape fills in over many frames (at n = 1000 for seconds),
// and the studies run in tasks 200 ms after their inputs rest: a case is
// timed after both (an embedded section may have neither). A study marks
// itself not done when it starts, in the draw that settled() waits for.
async function quiet(page) {
  await settled(page);
  const points = (await page.evaluate(() => window.attentionLab.state.n)) <= 300 ? 121 : 61;
  await page.waitForFunction((count) => !document.querySelector('[data-figure="landscape"]') || ['landscape', 'other'].every((layer) => {
    const d = document.querySelector(`[data-figure="landscape"] .layer-${layer} path`)?.getAttribute('d') ?? '';
    return d.split('M').length === 2 && d.split(/[LM]/).filter(Boolean).length === count;
  }), points, { timeout: 60000 });
  // The scroll's intersection callbacks (a study that starts once seen) have run two frames on.
  await settled(page);
  await page.waitForFunction(() => document.querySelectorAll('[data-done="false"]').length === 0, null, { timeout: 60000 });
}

// Each case: the section, what is changed, the changes (alternated), the
// state set first, where the learner looks (scrolled into view; the
// section unless given), and an untimed step before each change (an
// exercise's next instance, so that its answer can be checked again).
const CASES = [
  { section: 'cues', label: 'exercise: another random matrix (softmax of its rows)', changes: [another('cues.random-softmax')], at: exercise('cues.random-softmax') },
  { section: 'cues', label: 'exercise: a typed answer checked (identity output)', changes: [answer('cues.identity-output', 7)], before: another('cues.identity-output'), at: exercise('cues.identity-output') },
  { section: 'data', label: 'noise slider, n = 50', changes: [slider('noise', 200), slider('noise', 700)], setup: { n: 50 } },
  { section: 'data', label: 'n slider (n = 301 <-> 601)', changes: [slider('n', 300), slider('n', 600)] },
  { section: 'data', label: 'exercise: a typed answer checked (point noise)', changes: [answer('data.point-noise', 7)], before: another('data.point-noise'), at: exercise('data.point-noise') },
  { section: 'pooling', label: 'width slider, n = 50', changes: [slider('w', 300), slider('w', 620)], setup: { n: 50 }, at: '[data-param="w"]' },
  { section: 'pooling', label: 'width slider, n = 1000', changes: [slider('w', 300), slider('w', 620)], setup: { n: 1000 }, at: '[data-param="w"]' },
  { section: 'pooling', label: 'estimator switch, n = 50', changes: [click('[data-param="estimator"] [data-value="average"]'), click('[data-param="estimator"] [data-value="nadaraya-watson"]')], setup: { n: 50 }, at: '[data-param="w"]' },
  { section: 'pooling', label: 'exercise: a typed answer checked (read the prediction)', changes: [answer('pooling.read-prediction', 7)], before: another('pooling.read-prediction'), at: exercise('pooling.read-prediction') },
  { section: 'heatmap', label: 'query slider, n = 50', changes: [slider('query', 300), slider('query', 700)], setup: { n: 50 }, at: '[data-param="query"]' },
  { section: 'heatmap', label: 'query slider, n = 1000', changes: [slider('query', 300), slider('query', 700)], setup: { n: 1000 }, at: '[data-param="query"]' },
  { section: 'heatmap', label: 'exercise: a typed answer checked (weight ratio)', changes: [answer('heatmap.weight-ratio', 7)], before: another('heatmap.weight-ratio'), at: exercise('heatmap.weight-ratio') },
  { section: 'training', label: 'w0 slider', changes: [slider('w0', 300), slider('w0', 700)], at: '[data-param="w0"]' },
  { section: 'training', label: 'leave-one-out switch', changes: [click('[data-param="leaveOneOut"] input')], at: '[data-param="leaveOneOut"]' },
  { section: 'training', label: 'exercise: a typed answer checked (mirror gradient)', changes: [answer('training.mirror-gradient', 7)], before: another('training.mirror-gradient'), at: exercise('training.mirror-gradient') },
  { section: 'pipeline', label: 'seed box (new keys)', changes: [numberBox('[data-param="pipelineSeed"] input[type="number"]', 1), numberBox('[data-param="pipelineSeed"] input[type="number"]', 0)] },
  { section: 'pipeline', label: 'query q2 slider', changes: [slider('pipelineQ2', 300), slider('pipelineQ2', 700)] },
  { section: 'pipeline', label: 'query q1 slider (m = 8 keys)', changes: [slider('pipelineQ1', 300), slider('pipelineQ1', 700)], setup: { pipelineKeys: 8 } },
  { section: 'masking', label: 'valid length slider', changes: [slider('maskLen2', 250), slider('maskLen2', 1000)] },
  { section: 'masking', label: 'exercise: a typed answer checked (masked weight)', changes: [answer('masking.masked-weight-value', 7)], before: another('masking.masked-weight-value'), at: exercise('masking.masked-weight-value') },
  { section: 'scoring', label: 'sqrt(d) study: keys slider', changes: [slider('scalingKeys', 500), slider('scalingKeys', 800)], at: '[data-param="scalingKeys"]' },
  { section: 'scoring', label: 'second valid length slider', changes: [slider('scoringLen2', 300), slider('scoringLen2', 700)], at: '[data-param="scoringLen2"]' },
  { section: 'scoring', label: 'hidden size h slider (random keys, 4 queries per item)', changes: [slider('additiveHidden', 500), slider('additiveHidden', 900)], setup: { scoringKeys: 'random', scoringQueries: 4 }, at: '[data-param="additiveHidden"]' },
  { section: 'self-attention', label: 'an embedding entry typed ("apple", food)', changes: [numberBox('[data-param="saAppleFood"] input[type="number"]', 1.5), numberBox('[data-param="saAppleFood"] input[type="number"]', -0.5)], at: '[data-param="saAppleFood"]' },
  { section: 'self-attention', label: 'series points slider', changes: [slider('seriesPoints', 300), slider('seriesPoints', 700)], at: '[data-param="seriesPoints"]' },
  { section: 'translation', label: 'step button (one training step)', changes: [click('[data-action="tr-step"]')] },
  { section: 'translation', label: 'steps slider', changes: [slider('trSteps', 300), slider('trSteps', 700)] },
  { section: 'multihead', label: 'heads slider 5 <-> 10 (H = 100, the maps rebuilt)', changes: [headsSlider(4), headsSlider(3)] },
  { section: 'multihead', label: 'switch head 2 off and on (H = 100, 5 heads)', changes: [click('#multihead .head-card[data-head="1"] input')] },
  { section: 'multihead', label: 'hidden size slider (128 <-> 64, heads snapped)', changes: [slider('mhaHidden', 1000), slider('mhaHidden', 496)] },
  { section: 'multihead', label: 'seed box (new projections)', changes: [numberBox('[data-param="mhaSeed"] input[type="number"]', 1), numberBox('[data-param="mhaSeed"] input[type="number"]', 0)] },
  { section: 'positional', label: 'encoding dimension slider', changes: [slider('peDim', 200), slider('peDim', 800)] },
  { section: 'attention-training', label: 'task choice (reverse <-> sort)', changes: [click('[data-param="atTask"] [data-value="sort"]'), click('[data-param="atTask"] [data-value="reverse"]')] },
  { section: 'attention-training', label: '"new seed" button', changes: [click('[data-action="at-new-seed"]')] },
];

// Warm-up changes (the first calls compile code paths), then the samples.
const WARM_UP = 2;
const SAMPLES = Number(process.env.REDRAW_SAMPLES ?? 14); // fewer for a quick look (REDRAW_SAMPLES)
const PROFILED = 4; // changes traced at 4x, after the samples
const caseKey = ({ section, label }) => `${section}: ${label}`;
const CASES_RUN = CASES.filter((testCase) => !ONLY || ONLY.test(caseKey(testCase)));

// The builds measured: this one, and the one REDRAW_BASE names (before and after in one run).
// Each on the whole page and on the case's section embedded alone (#embed=<section>): the
// page's tax is the first's median over the second's.
const builds = () => [{ name: 'now', origin: web.server.origin }, ...(web.base ? [{ name: 'base', origin: web.base.origin }] : [])];
const MODES = ['page', 'embed'];
const measured = {}; // rate -> build -> mode -> case key -> { painted: [ms], work: [ms], profile }

// Times one case on one page: its state set, scrolled to, and changed over and over.
async function measureCase(page, initial, testCase, { profiled }) {
  const { section, changes, setup = {}, at = `#${section}`, before = null } = testCase;
  await page.evaluate((state) => window.attentionLab.set(state), { ...initial, ...setup });
  await page.locator(at).first().scrollIntoViewIfNeeded();
  await quiet(page);
  const painted = [];
  const work = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i += 1) {
    if (before) {
      await page.locator(before.click).click();
      await settled(page);
    }
    const change = changes[i % changes.length];
    const timing = await timeChange(page, change, section);
    if (change.range || change.number) assert.ok(timing.redrawn?.length > 0, `${caseKey(testCase)}: the change was drawn`);
    if (i < WARM_UP) continue;
    painted.push(timing.painted);
    work.push(timing.work);
  }
  let profile = null;
  if (profiled) {
    await web.browser.startTracing(page, { categories: TRACE_CATEGORIES });
    for (let i = 0; i < PROFILED; i += 1) {
      if (before) {
        await page.locator(before.click).click();
        await settled(page);
      }
      await timeChange(page, changes[i % changes.length], section);
    }
    // The untimed steps before each change are traced too: their share is small beside a redraw's.
    profile = profileOfTrace(await web.browser.stopTracing(), PROFILED);
  }
  return { painted, work, profile };
}

for (const rate of [1, 4]) {
  test(`input to painted for every section's heaviest control, CPU ${rate}x`, async () => {
    // Loaded at full speed, then slowed: this measures the controls, not the load (below).
    // One whole page per build; an embedded page per build and section, opened when its cases come.
    const open = new Map(); // build:mode -> { page, context, problems, initial, section }
    async function pageFor(build, mode, section) {
      const key = `${build.name}:${mode}`;
      const current = open.get(key);
      if (current && (mode === 'page' || current.section === section)) return current;
      if (current) {
        assert.deepEqual(current.problems, [], `${key} #embed=${current.section}`);
        await current.context.close();
      }
      const url = mode === 'page' ? `${build.origin}/` : `${build.origin}/#embed=${section}`;
      const opened = await openPage(web.browser, url);
      if (rate !== 1) await (await opened.context.newCDPSession(opened.page)).send('Emulation.setCPUThrottlingRate', { rate });
      opened.initial = await opened.page.evaluate(() => ({ ...window.attentionLab.state }));
      opened.section = section;
      open.set(key, opened);
      return opened;
    }
    measured[rate] = {};
    for (const testCase of CASES_RUN) {
      const key = caseKey(testCase);
      // Interleaved: each build and mode in turn, so a busy spell of the machine falls on all.
      for (const build of builds()) {
        for (const mode of MODES) {
          const { page, initial } = await pageFor(build, mode, testCase.section);
          const result = await measureCase(page, initial, testCase, { profiled: rate === 4 && build.name === 'now' && mode === 'page' });
          ((measured[rate][build.name] ??= {})[mode] ??= {})[key] = result;
          const { painted, work, profile } = result;
          console.log(`CPU ${rate}x, ${build.name}, ${mode}, ${key}: painted median ${ms(median(painted))} (p95 ${ms(p95(painted))}), own work ${ms(median(work))}` +
            (profile ? `; a change's main thread: ${Object.entries(profile).map(([kind, value]) => `${kind} ${value.toFixed(0)}`).join(', ')} ms` : ''));
        }
      }
    }
    for (const [key, { problems, context }] of open) {
      assert.deepEqual(problems, [], key);
      await context.close();
    }
  });
}

test('the table: input to painted at 1x and 4x, median and p95, the page\'s tax, before and after', () => {
  const rows = CASES_RUN.map(caseKey).filter((key) => [1, 4].every((rate) => builds().every(({ name }) =>
    MODES.every((mode) => measured[rate]?.[name]?.[mode]?.[key]))));
  assert.equal(rows.length, CASES_RUN.length, 'every case was measured at both rates, on the page and embedded');
  const of = (rate, build, mode, key) => measured[rate][build][mode][key].painted;
  const tax = (rate, build, key) => median(of(rate, build, 'page', key)) / median(of(rate, build, 'embed', key));
  const base = Boolean(web.base);
  // "after" alone, or "before -> after" when a second build was measured.
  const pair = (format) => (base ? `${format('base')} -> ${format('now')}` : format('now'));
  const kinds = (profile) => Object.values(profile).map((value) => value.toFixed(0)).join(' / ');
  const lines = [
    `| control | 1x median | 4x median | 4x p95 | tax 1x | tax 4x | embedded 4x median | own work 4x | 4x: script / style / layout / pre-paint / paint |`,
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const key of rows) {
    lines.push(`| ${key} | ${pair((b) => median(of(1, b, 'page', key)).toFixed(1))} | ${pair((b) => median(of(4, b, 'page', key)).toFixed(1))} | ` +
      `${pair((b) => p95(of(4, b, 'page', key)).toFixed(0))} | ${pair((b) => tax(1, b, key).toFixed(2))} | ${pair((b) => tax(4, b, key).toFixed(2))} | ` +
      `${pair((b) => median(of(4, b, 'embed', key)).toFixed(1))} | ${median(measured[4].now.page[key].work).toFixed(1)} | ${kinds(measured[4].now.page[key].profile)} |`);
    figures[key] = Object.fromEntries(builds().map(({ name }) => [name, Object.fromEntries([1, 4].map((rate) => [`${rate}x`, {
      inputToPaintedMedian: median(of(rate, name, 'page', key)),
      inputToPaintedP95: p95(of(rate, name, 'page', key)),
      embeddedMedian: median(of(rate, name, 'embed', key)),
      embeddedP95: p95(of(rate, name, 'embed', key)),
      pageTax: tax(rate, name, key),
      ownWorkMedian: median(measured[rate][name].page[key].work),
    }]))]));
    figures[key].profileAt4x = measured[4].now.page[key].profile;
  }
  const within = (key) => median(of(1, 'now', 'page', key)) <= 20 && median(of(4, 'now', 'page', key)) <= 50 &&
    p95(of(4, 'now', 'page', key)) <= 80;
  const taxed = (key) => Math.max(tax(1, 'now', key), tax(4, 'now', key)) <= 1.15;
  console.log(`input to painted, ms, ${base ? `before (${web.baseFolder}) -> after (dist/)` : 'dist/'}; tax: the whole page / the section embedded alone` +
    ` (goal: 20 at 1x; 50, p95 80 at 4x; tax at most 1.15)\n${lines.join('\n')}`);
  figures.withinTimeGoal = rows.filter(within).length;
  figures.withinTaxGoal = rows.filter(taxed).length;
  figures.cases = rows.length;
  console.log(`within the time goal: ${figures.withinTimeGoal} of ${rows.length}; within the tax goal: ${figures.withinTaxGoal} of ${rows.length}`);
  const slowest = rows.reduce((a, b) => (median(of(4, 'now', 'page', b)) > median(of(4, 'now', 'page', a)) ? b : a));
  figures.slowestAt4x = slowest;
  console.log(`slowest at 4x: ${slowest}, ${ms(median(of(4, 'now', 'page', slowest)))}`);
});

test('time for the "why divide by sqrt(d)" study to fill in, and its longest frame', async () => {
  const { page, context } = await openPage(web.browser, `${web.server.origin}/`);
  await page.locator('#scoring').scrollIntoViewIfNeeded();
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { timeout: 60000 });
  for (const keys of [11, 30]) {
    await typeInto(page, 'scalingKeys', keys);
    await settled(page);
    const frames = await page.evaluate(() => new Promise((resolve) => {
      const times = [];
      const tick = (now) => {
        times.push(now);
        if (document.querySelector('#scoring [data-role="scaling-status"]').dataset.done === 'true' || times.length > 5000) resolve(times);
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }));
    const gaps = frames.slice(1).map((time, i) => time - frames[i]);
    const label = `scaling study, ${keys} keys, 100 samples`;
    figures[label] = { totalMs: frames[frames.length - 1] - frames[0], frames: frames.length, longestFrameMs: Math.max(...gaps) };
    console.log(`${label}: filled in over ${frames.length} frames in ${ms(frames[frames.length - 1] - frames[0])}; longest frame ${ms(Math.max(...gaps))}`);
  }
  await context.close();
});
