// A finger as the only input, on an emulated phone (touch events, a mobile
// viewport, pinch zoom): a tap reads a heatmap cell out, a sideways drag
// moves the query, an up-and-down swipe still scrolls the page, and two
// fingers still zoom it over every draggable figure. The touches go through
// Chromium's input pipeline (DevTools' Input domain), so touch-action counts
// as on a real phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, loadDirectCore, settled, shownText } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
// A phone's page, with a DevTools session for its touches.
async function openPhone({ browser, server }) {
  const phone = await openPage(browser, `${server.origin}/`, { viewport: PHONE, touch: true });
  phone.cdp = await phone.context.newCDPSession(phone.page);
  return phone;
}

let lab;
const web = useBrowser({
  opened: async (shared) => {
    lab = await openPhone(shared);
    await loadDirectCore(lab.page);
  },
});

// Fingers along their paths (viewport pixels, one path per finger, all of
// the same length), a move each animation frame, on the phone `on` (the shared one by default).
async function fingersAlong(paths, on = lab) {
  const { cdp, page } = on;
  const at = (i) => paths.map((path, id) => ({ ...path[i], id }));
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
  for (let i = 1; i < paths[0].length; i += 1) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(i) });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await settled(page);
}

const line = (from, to, steps) => Array.from({ length: steps + 1 }, (_, i) => ({
  x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps,
}));

async function inView(selector, on = lab) {
  const target = on.page.locator(selector);
  await target.evaluate((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await settled(on.page);
  return target.boundingBox();
}

const query = async () => Number(await lab.page.locator('[data-param="query"] input[type="number"]').inputValue());

test('a tap on a heatmap cell reads it out, and the read-out stays after the finger lifts', async () => {
  const box = await inView('#heatmap .heatmap-canvas');
  // Row 30 (query 3.0), column 20: the centre of that cell.
  await lab.page.touchscreen.tap(box.x + (box.width * 20.5) / 50, box.y + (box.height * 30.5) / 50);
  await settled(lab.page);
  const text = await shownText(lab.page.locator('[data-role="heatmap-readout"]'));
  const expected = await lab.page.evaluate(() => {
    const { x } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    const weight = window.directCore.attentionWeights([3], x, { kernel: 'gaussian', w: 1 })[20];
    return { key: x[20].toFixed(3), weight: Number(weight.toPrecision(4)).toString() };
  });
  assert.match(text, /query x = 3\.00/);
  assert.ok(text.includes(`key x21 = ${expected.key}`), `${text} names key x21 = ${expected.key}`);
  assert.ok(text.includes(`weight α = ${expected.weight}`), `${text} shows weight ${expected.weight}`);
  assert.equal(await lab.page.locator('#heatmap .hover-box').isVisible(), true, 'the cell stays outlined');
});

test('a finger dragged sideways moves the query and its prediction with it', async () => {
  const box = await inView('[data-figure="query"] .plot-overlay');
  const y = box.y + box.height / 2;
  await fingersAlong([line({ x: box.x + box.width * 0.2, y }, { x: box.x + box.width * 0.8, y }, 20)]);
  const moved = await query();
  assert.ok(Math.abs(moved - 4) < 0.05, `the query followed the finger to x ≈ 4, got ${moved}`);
  const expected = await lab.page.evaluate((q) => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    return window.directCore.nadarayaWatson([q], x, y, { kernel: 'gaussian', w: 1 })[0];
  }, moved);
  assert.equal(Number(await lab.page.locator('[data-role="query-formula"]').getAttribute('data-prediction')), expected);
  assert.equal(await lab.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing slid sideways');
});

test('a finger swiped up over the same plot scrolls the page and leaves the query alone', async () => {
  const box = await inView('[data-figure="query"] .plot-overlay');
  const before = { query: await query(), scroll: await lab.page.evaluate(() => window.scrollY) };
  const x = box.x + box.width * 0.5;
  await fingersAlong([line({ x, y: box.y + box.height * 0.9 }, { x, y: box.y + box.height * 0.1 }, 20)]);
  await lab.page.waitForFunction((from) => window.scrollY > from + 40, before.scroll, { timeout: 5000 });
  const scrolled = await lab.page.evaluate(() => window.scrollY) - before.scroll;
  assert.ok(scrolled > 40, `the page scrolled ${scrolled} px`);
  // The touch began at the middle of the plot, x = 2.5: a drag would have put the query there.
  assert.equal(await query(), before.query, 'the query did not move');
  assert.deepEqual(lab.problems, []);
});

// Each figure on a phone page of its own: on a loaded machine a pinch back
// out over the pipeline's plane once left the page at 5x (docs/testing.md).
test('two fingers zoom the page over every draggable figure: pinch is never taken', async () => {
  for (const selector of ['[data-figure="query"] .plot-overlay', '#pipeline .plane-svg', '#heatmap .heatmap-canvas']) {
    const phone = await openPhone(web);
    const scale = () => phone.page.evaluate(() => window.visualViewport.scale);
    const box = await inView(selector, phone);
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    assert.equal(await scale(), 1, `unzoomed before ${selector}`);
    await fingersAlong([
      line({ x: centre.x - 20, y: centre.y }, { x: centre.x - 100, y: centre.y }, 16),
      line({ x: centre.x + 20, y: centre.y }, { x: centre.x + 100, y: centre.y }, 16),
    ], phone);
    const zoomed = await scale();
    assert.ok(zoomed > 2, `pinching over ${selector} zoomed the page to ${zoomed}`);
    assert.deepEqual(phone.problems, []);
    await phone.context.close();
  }
});
