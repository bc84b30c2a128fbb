// Accessible: an axe-core audit (light and dark, English and
// Chinese, the page, the iframe mode and the course example with its
// Shadow DOM elements; the page at 360, 768 and 1280 px with every section
// drawn: a box that scrolls sideways there is a tab stop with a name),
// every control reached by the keyboard with a visible
// focus, the heatmap cells by the arrow keys with their value announced,
// the layout from 360 px wide, and the dark theme of the system setting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, settled, screenshot, elementsReady, scrollAtRest, shownText } from './harness.mjs';
import { axeViolations, axeViolationsSectionBySection, describeViolations } from './axe-audit.mjs';

const audit = {};
const web = useBrowser({ report: ['a11y.json', audit] });

const PAGES = [
  ['page', '/'],
  ['embed', '/index.html#embed=heatmap&hide=seed'],
  ['course', '/course-example.html'],
];

test('axe-core finds no violation: light and dark, English and Chinese', async () => {
  let total = 0;
  const failures = [];
  for (const [name, url] of PAGES) {
    for (const locale of ['en-US', 'zh-CN']) {
      const course = name === 'course';
      // As a first visit: the predictions open, their figures covered.
      const { page, context, problems } = await openPage(web.browser, `${web.server.origin}${url}`,
        { locale, ready: course ? 'attention-lab' : 'html[data-ready="true"]', predictions: 'open' });
      if (course) {
        await elementsReady(page, 2);
        // The course page is in English; its elements follow a language attribute.
        if (locale === 'zh-CN') await page.evaluate(() => document.querySelector('attention-lab').setAttribute('language', 'zh'));
      }
      // Both themes in the one page: the system setting changes, the page's CSS follows (no script reads it).
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await settled(page);
        // The page section by section, each drawn; the iframe mode's one section and the course page whole.
        const violations = name === 'page' ? await axeViolationsSectionBySection(page) : await axeViolations(page);
        const key = `${name} ${colorScheme} ${locale}`;
        audit[key] = { violations: violations.length, nodes: violations.reduce((sum, v) => sum + v.nodes.length, 0), ids: violations.map((v) => v.id) };
        total += violations.length;
        if (violations.length > 0) failures.push(`${key}:\n  ${describeViolations(violations)}`);
      }
      assert.deepEqual(problems, [], `${name} ${locale}`);
      await context.close();
    }
  }
  audit.total = total;
  console.log(`axe-core violations: ${total} over ${Object.keys(audit).length - 1} audits`);
  assert.equal(total, 0, failures.join('\n'));
});

// On a phone and a tablet, formulas, the pipeline's table and the contents
// bar scroll sideways: each such box is reached by the keyboard and named
// (axe's scrollable-region-focusable), and none scrolls by the keyboard only
// where its content fits.
// Each width in one language (a section by section audit takes minutes):
// English on the phone, where its longer words overflow most, Chinese on
// the tablet; both languages at 1280 px above.
test('axe-core finds no violation at 360 px (English) and 768 px (Chinese), every section drawn', async () => {
  const failures = [];
  for (const [width, locale] of [[360, 'en-US'], [768, 'zh-CN']]) {
    const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`,
      { locale, viewport: { width, height: width === 360 ? 740 : 1024 }, predictions: 'open' });
    const violations = await axeViolationsSectionBySection(page);
    const key = `page ${width} px ${locale}`;
    audit[key] = { violations: violations.length, nodes: violations.reduce((sum, v) => sum + v.nodes.length, 0), ids: violations.map((v) => v.id) };
    if (violations.length > 0) failures.push(`${key}:\n  ${describeViolations(violations)}`);
    // Every box that scrolls sideways is a named tab stop: each read with its section drawn.
    const scrolling = await page.evaluate(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const found = [];
      for (const section of document.querySelectorAll('main .lab-section')) {
        section.scrollIntoView({ block: 'start', behavior: 'instant' });
        await frame();
        while (!section.checkVisibility({ contentVisibilityAuto: true })) await frame();
        await frame();
        for (const box of section.querySelectorAll('.formula, .pipeline-scroll')) {
          if (box.clientWidth === 0 || box.scrollWidth <= box.clientWidth) continue;
          // A box holding its own controls (self-attention's editors) is reached through them.
          if (box.querySelector('input, button, select, textarea, [tabindex="0"]')) continue;
          found.push({ box: box.dataset.role ?? box.className, tabIndex: box.tabIndex, label: box.getAttribute('aria-label') });
        }
      }
      return found;
    });
    if (width === 360) assert.ok(scrolling.length >= 3, `${scrolling.length} boxes scroll sideways at 360 px`);
    assert.deepEqual(scrolling.filter(({ tabIndex, label }) => tabIndex !== 0 || !label), [], `${key}: reached and named`);
    console.log(`${key}: ${violations.length} axe violations, ${scrolling.length} boxes scroll sideways`);
    assert.deepEqual(problems, [], key);
    await context.close();
  }
  assert.deepEqual(failures, []);
});

// What the keyboard reaches from the top of the page, and whether each stop
// shows where the focus is (an outline of 2 px or more on it, or on the
// switch's drawn track).
async function tabStops(page, limit = 400) {
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.scrollTo(0, 0);
  });
  const stops = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const node = document.activeElement;
      if (!node || node === document.body) return null;
      const shown = node.matches('.switch-input') ? node.nextElementSibling : node;
      const style = getComputedStyle(shown);
      return {
        tag: node.localName,
        type: node.getAttribute('type'),
        role: node.getAttribute('role'),
        param: node.closest('[data-param]')?.dataset.param ?? null,
        action: node.dataset.action ?? null,
        visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        id: `${node.localName}${node.className ? `.${String(node.className).split(' ')[0]}` : ''}`,
      };
    });
    if (!stop) break;
    stops.push(stop);
    if (stops.length > 3 && stop.id === stops[0].id && stop.param === stops[0].param) break;
  }
  await scrollAtRest(page); // the last focus scrolled the page: a click aimed after lands where aimed
  return stops;
}

test('every control is reached by the keyboard and shows its focus', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#embed=pooling`);
  const stops = await tabStops(page);
  const invisible = stops.filter((stop) => !stop.visible);
  assert.deepEqual(invisible, [], 'every focused element shows a focus outline');
  const expected = await page.evaluate(() => {
    const shown = (selector) => [...document.querySelectorAll(selector)].filter((node) => node.offsetParent !== null).length;
    return { sliders: shown('input[type="range"]'), boxes: shown('input[type="number"]'), groups: shown('[role="radiogroup"]') };
  });
  assert.equal(stops.filter((s) => s.type === 'range').length, expected.sliders, 'every slider');
  assert.equal(stops.filter((s) => s.type === 'number').length, expected.boxes, 'every number box');
  assert.equal(stops.filter((s) => s.role === 'radio').length, expected.groups, 'every choice (one stop per group)');
  assert.ok(stops.some((s) => s.tag === 'summary'), 'the save menus');
  assert.ok(stops.some((s) => s.action === 'copy-pytorch'), 'copy as PyTorch');

  // The full page: every section's controls, the heatmaps' grids and the player.
  const full = await openPage(web.browser, `${web.server.origin}/`);
  const all = await tabStops(full.page, 600);
  assert.deepEqual(all.filter((stop) => !stop.visible), [], 'focus visible everywhere');
  for (const action of ['new-sample', 'play', 'step', 'reset', 'draw-w0']) {
    assert.ok(all.some((s) => s.action === action), `button ${action}`);
  }
  assert.ok(all.filter((s) => s.role === 'grid').length >= 3, 'the heatmaps');
  assert.ok(all.some((s) => s.param === 'leaveOneOut'), 'the switch');
  assert.deepEqual(problems, []);
  assert.deepEqual(full.problems, []);
  await full.context.close();
  await context.close();
});

test('a control greyed out is out of the keyboard\'s reach, and back in reach when it is not', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#embed=pooling`);
  const widthStops = async () => (await tabStops(page)).filter((stop) => stop.param === 'w').length;
  assert.equal(await widthStops(), 2, 'the width: its slider and its number box');
  await page.locator('[data-param="estimator"] [data-value="average"]').click();
  await settled(page);
  assert.equal(await widthStops(), 0, 'average pooling has no width: its controls are skipped');
  assert.equal(await page.locator('[data-param="w"]').evaluate((node) => node.closest('[inert]') !== null), true);
  await page.locator('[data-param="estimator"] [data-value="nadaraya-watson"]').click();
  await settled(page);
  assert.equal(await widthStops(), 2, 'Nadaraya-Watson\'s width is reached again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('sliders say their value, not their position', async () => {
  const { page, context } = await openPage(web.browser, `${web.server.origin}/#w=2.5&lr=0.01`);
  for (const [name, value] of [['w', '2.5'], ['lr', '0.01'], ['noise', '0.5']]) {
    const slider = page.locator(`[data-param="${name}"] input[type="range"]`);
    assert.equal(await slider.getAttribute('aria-valuetext'), value);
    const label = await slider.evaluate((node) => document.getElementById(node.getAttribute('aria-labelledby'))?.textContent);
    assert.ok(label && label.length > 1, `${name} slider labelled "${label}"`);
  }
  await page.locator('[data-param="noise"] input[type="range"]').focus();
  await page.keyboard.press('ArrowRight');
  await settled(page);
  const text = await page.locator('[data-param="noise"] input[type="range"]').getAttribute('aria-valuetext');
  assert.equal(text, String(await page.evaluate(() => window.attentionLab.state.noise)));
  await context.close();
});

test('a heatmap cell is reached by the arrow keys and its value announced', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  const grid = page.locator('#heatmap .heatmap-grid');
  await grid.focus();
  // The grid starts on the dragged query's row (2.5 -> row 25), first column.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  const state = await grid.evaluate((node) => {
    const cell = node.getRootNode().getElementById(node.getAttribute('aria-activedescendant'));
    return { cell: cell.textContent, row: cell.parentElement.getAttribute('aria-rowindex'), col: cell.getAttribute('aria-colindex'), rows: node.getAttribute('aria-rowcount') };
  });
  assert.equal(state.row, '28');
  assert.equal(state.col, '4');
  assert.equal(state.rows, '50');
  assert.match(state.cell, /^row 28, column 4: \d/);
  const readout = await shownText(page.locator('[data-role="heatmap-readout"]'));
  assert.match(readout, /^query x = 2\.70 · key x4 = \d\.\d{3} · weight α = /, 'the live read-out says the query, key and weight');
  assert.equal(await page.locator('[data-role="heatmap-readout"]').getAttribute('aria-live'), 'polite');
  assert.equal(await page.locator('#heatmap .hover-box').isVisible(), true, 'the cell is outlined');
  await page.keyboard.press('End');
  assert.match(await shownText(page.locator('[data-role="heatmap-readout"]')), /key x50 /);
  await page.keyboard.press('Control+Home');
  assert.match(await shownText(page.locator('[data-role="heatmap-readout"]')), /^query x = 0\.00 · key x1 /);
  await page.keyboard.press('PageDown');
  assert.match(await shownText(page.locator('[data-role="heatmap-readout"]')), /^query x = 0\.50 /);
  // The identity heatmap and the training one (no read-out of their own
  // there but the cell's text) work the same way; in Chinese too.
  await page.locator('[data-param="language"] [data-value="zh"]').click();
  await settled(page);
  const training = page.locator('#training .heatmap-grid');
  await training.focus();
  await page.keyboard.press('ArrowRight');
  const cell = await training.evaluate((node) => node.getRootNode().getElementById(node.getAttribute('aria-activedescendant')).textContent);
  assert.match(cell, /^第 \d+ 行，第 2 列：/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the element\'s heatmap works by keyboard inside its shadow root', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(page, 2);
  const grid = page.locator('#lab-heatmap .heatmap-grid');
  await grid.focus();
  await page.keyboard.press('ArrowRight');
  const readout = await shownText(page.locator('#lab-heatmap [data-role="heatmap-readout"]'));
  assert.match(readout, /^query x = 1\.50 · key x2 = /, 'query 1.5 from the element\'s attribute');
  assert.deepEqual(problems, []);
  await context.close();
});

test('from 360 px phones to wide screens nothing sticks out sideways', async () => {
  const cases = [
    ['/', 360, 'en-US'], ['/', 360, 'zh-CN'], ['/#embed=training', 360, 'en-US'],
    ['/course-example.html', 360, 'zh-CN'], ['/', 1920, 'en-US'],
  ];
  for (const [url, width, locale] of cases) {
    const course = url.includes('course');
    const { page, context, problems } = await openPage(web.browser, `${web.server.origin}${url}`,
      { viewport: { width, height: 800 }, locale, ready: course ? 'attention-lab' : 'html[data-ready="true"]' });
    if (course) await elementsReady(page, 2);
    await settled(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${url} at ${width} px (${locale}) is ${overflow} px too wide`);
    if (width === 360 && !course) {
      console.log(`screenshot: ${await screenshot(page, `a11y-360-${url === '/' ? 'page' : 'embed'}-${locale}`)}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('a dark theme follows the system setting', async () => {
  const { page, context } = await openPage(web.browser, `${web.server.origin}/`, { colorScheme: 'light' });
  const colours = {};
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await settled(page);
    colours[colorScheme] = await page.evaluate(() => {
      // A canvas's points are painted in the theme's colours: the colour
      // most of its painted pixels have is the points' fill.
      const canvas = document.querySelector('[data-figure="data"] .plot-canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      const counts = new Map();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] === 0) continue;
        const colour = `${data[i]},${data[i + 1]},${data[i + 2]}`;
        counts.set(colour, (counts.get(colour) ?? 0) + 1);
      }
      return {
        body: getComputedStyle(document.body).backgroundColor,
        ink: getComputedStyle(document.body).color,
        frame: getComputedStyle(document.querySelector('.plot:not(.has-canvas) .plot-frame')).fill,
        plotPaper: getComputedStyle(canvas).backgroundColor,
        points: [...counts].sort((a, b) => b[1] - a[1])[0][0],
        pointsStyled: getComputedStyle(document.documentElement).getPropertyValue('--points').trim(),
      };
    });
  }
  console.log(`screenshot: ${await screenshot(page, 'page-dark')}`);
  await context.close();
  assert.equal(colours.light.body, 'rgb(255, 255, 255)');
  assert.equal(colours.dark.body, 'rgb(20, 23, 31)');
  assert.notEqual(colours.dark.ink, colours.light.ink);
  assert.notEqual(colours.dark.frame, colours.light.frame);
  assert.notEqual(colours.dark.plotPaper, colours.light.plotPaper);
  // The points repainted in each theme's colour (--points, a #rrggbb token;
  // a canvas keeps its pixels premultiplied by their alpha: within 2 a channel).
  const rgbOf = (hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  for (const scheme of ['light', 'dark']) {
    const painted = colours[scheme].points.split(',').map(Number);
    const styled = rgbOf(colours[scheme].pointsStyled);
    assert.ok(painted.every((channel, i) => Math.abs(channel - styled[i]) <= 2),
      `${scheme}: the points painted in ${painted} for ${colours[scheme].pointsStyled}`);
  }
  assert.notEqual(colours.dark.points, colours.light.points);
});
