// Performance of the scoring, multi-head and positional-encoding sections,
// measured and printed, not asserted (machines differ): for each section a
// change of its heaviest control, timed by the page itself (User Timing:
// "attention-lab:redraw" from the input to the end of the drawing,
// "attention-lab:draw:<section>" for that section's own work), plus the time
// until the next frame starts, after the paint. Written to
// test-results/attention-performance.json as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, typeInto, settled } from './harness.mjs';

const figures = {};
const web = useBrowser({ report: ['attention-performance.json', figures] });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(1)} ms`;

// One change, made as the control would make it (an input event on a range or
// a click), timed from the event to the end of the page's drawing.
async function timeChange(page, section, act) {
  return page.evaluate(async ([id, action]) => {
    performance.clearMeasures();
    const changed = performance.now();
    // eslint-disable-next-line no-new-func
    new Function(action)();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const painted = performance.now() - changed;
    const [total] = performance.getEntriesByName('attention-lab:redraw');
    const [own] = performance.getEntriesByName(`attention-lab:draw:${id}`);
    return { total: total?.duration, own: own?.duration, painted };
  }, [section, act]);
}

const slider = (param, position) => `const r = document.querySelector('[data-param="${param}"] input[type="range"]');
  r.value = '${position}'; r.dispatchEvent(new Event('input', { bubbles: true }));`;

// Each case: the section, a label, and the actions alternated between repeats.
const CASES = [
  ['pipeline', 'query q1 slider (m = 8 keys)', [slider('pipelineQ1', 300), slider('pipelineQ1', 700)], { pipelineKeys: 8 }],
  ['masking', 'valid length slider', [slider('maskLen2', 250), slider('maskLen2', 1000)], {}],
  ['scoring', 'hidden size h slider (random keys, 4 queries per item)', [slider('additiveHidden', 500), slider('additiveHidden', 900)], { scoringQueries: 4 }],
  ['multihead', 'heads slider 5 <-> 10 (H = 100, the maps rebuilt)', [
    `const r = document.querySelector('[data-role="heads-slider"]'); r.value = '4'; r.dispatchEvent(new Event('input', { bubbles: true }));`,
    `const r = document.querySelector('[data-role="heads-slider"]'); r.value = '3'; r.dispatchEvent(new Event('input', { bubbles: true }));`,
  ], {}],
  ['multihead', 'switch head 2 off and on (H = 100, 5 heads: 3 core calls)', [
    `document.querySelector('#multihead .head-card[data-head="1"] input').click();`,
  ], {}],
  ['multihead', 'hidden size slider (128 <-> 64, heads snapped)', [slider('mhaHidden', 1000), slider('mhaHidden', 496)], {}],
  ['positional', 'encoding dimension slider', [slider('peDim', 200), slider('peDim', 800)], {}],
];

test('redraw after a change of each new section\'s heaviest control', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  await page.locator('[data-param="scoringKeys"] [data-value="random"]').click();
  const rows = [];
  for (const [section, label, actions, setup] of CASES) {
    for (const [name, value] of Object.entries(setup)) await typeInto(page, name, value);
    await page.locator(`#${section}`).scrollIntoViewIfNeeded();
    await settled(page);
    await page.waitForTimeout(300); // let the scaling study and the like finish first
    const total = [];
    const own = [];
    const painted = [];
    for (let i = 0; i < 16; i += 1) {
      const timing = await timeChange(page, section, actions[i % actions.length]);
      if (i < 2) continue; // warm-up: the first calls compile code paths
      total.push(timing.total);
      own.push(timing.own);
      painted.push(timing.painted);
    }
    rows.push({ section, label, total, own, painted });
  }
  for (const { section, label, total, own, painted } of rows) {
    const key = `${section}: ${label}`;
    figures[key] = { sectionDraw: median(own), inputToDrawn: median(total), inputToPainted: median(painted), sectionDrawMax: Math.max(...own) };
    console.log(`${key}: section draw median ${ms(median(own))} (max ${ms(Math.max(...own))}); ` +
      `input to drawn ${ms(median(total))}; input to painted ${ms(median(painted))}`);
  }
  const heaviest = rows.reduce((a, b) => (median(b.own) > median(a.own) ? b : a));
  figures.heaviest = `${heaviest.section}: ${heaviest.label}`;
  console.log(`heaviest: ${figures.heaviest}, section draw median ${ms(median(heaviest.own))}, input to painted ${ms(median(heaviest.painted))}`);
  assert.ok(rows.every((row) => row.own.every(Number.isFinite)), 'every change was drawn and timed');
  assert.deepEqual(problems, []);
  await context.close();
});

test('time for the "why divide by sqrt(d)" study to fill in, and its longest frame', async () => {
  const { page, context } = await openPage(web.browser, `${web.server.origin}/`);
  await page.locator('#scoring').scrollIntoViewIfNeeded();
  await page.waitForSelector('#scoring [data-role="scaling-status"][data-done="true"]', { timeout: 60000 });
  for (const keys of [10, 30]) {
    await typeInto(page, 'scalingKeys', keys === 10 ? 11 : keys);
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
    const label = `scaling study, ${keys === 10 ? 11 : keys} keys, 100 samples`;
    figures[label] = { totalMs: frames[frames.length - 1] - frames[0], frames: frames.length, longestFrameMs: Math.max(...gaps) };
    console.log(`${label}: filled in over ${frames.length} frames in ${ms(frames[frames.length - 1] - frames[0])}; longest frame ${ms(Math.max(...gaps))}`);
  }
  await context.close();
});
