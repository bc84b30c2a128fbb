// What the page says matches what it shows: notes and labels describe what
// the code does, leads quote the settings in force, every point of the data
// set is inside its plot, and a run that leaves the valley is said to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settled, usePage, typeInto, screenshot, scrollToRendered, setState as setPageState, setLanguage as setPageLanguage, shownText } from './harness.mjs';
import { drawnPoints } from './figure-readers.mjs';

let page;
usePage({ directCore: true, opened: (lab) => ({ page } = lab) });

// The text a reader sees, with each KaTeX formula as its TeX source.
const text = (css) => page.locator(css).first().evaluate((node) => {
  const copy = node.cloneNode(true);
  for (const formula of copy.querySelectorAll('.katex')) formula.replaceWith(formula.querySelector('annotation').textContent);
  return copy.textContent;
});
const setState = (patch) => setPageState(page, patch);
const setLanguage = (language) => setPageLanguage(page, language);
// The maths of a KaTeX span as written (its annotation), not as laid out.
const texOf = (css) => page.locator(`${css} annotation`).allTextContents();

test('the formula note says the terms are ordered by weight, as the formula lists them', async () => {
  await setState({ estimator: 'nadaraya-watson', kernel: 'gaussian', w: 1, query: 2.5 });
  assert.match(await text('#heatmap .note-muted'), /The terms \\alpha_i \\cdot y_i with the largest weights \\alpha_i first/);
  // The formula's first term has the largest weight of the query's row.
  const [tex] = await texOf('[data-role="query-formula"]');
  const firstWeight = Number(/f\([^)]*\) &= ([0-9.]+) \\cdot/.exec(tex)[1]);
  const largest = await page.evaluate(() => {
    const { x } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5 });
    return Math.max(...window.directCore.attentionWeights([2.5], x, { kernel: 'gaussian', w: 1 }));
  });
  assert.equal(firstWeight, Number(largest.toFixed(3)));
  await setLanguage('zh');
  assert.match(await text('#heatmap .note-muted'), /先列出权重 \\alpha_i 最大的几项/);
  await setLanguage('en');
});

test('under average pooling the heatmap names average pooling and 1/n, with no kernel and no w', async () => {
  await setState({ estimator: 'average', kernel: 'boxcar', w: 20 });
  const settings = await text('#heatmap [data-role="settings"]');
  assert.match(settings, /average pooling, uniform weights 1\/n = 1\/50/);
  assert.doesNotMatch(settings, /w =|kernel|Boxcar|Constant/);
  await setLanguage('zh');
  assert.match(await text('#heatmap [data-role="settings"]'), /平均汇聚，每个键的权重都是 1\/n = 1\/50/);
  await setLanguage('en');
  await setState({ estimator: 'nadaraya-watson' });
  assert.match(await text('#heatmap [data-role="settings"]'), /Boxcar kernel, w = 20/);
  await setState({ kernel: 'gaussian', w: 1 });
});

test('with large noise every point of the data set is inside each plot that shows it', async () => {
  await setState({ noise: 1.5 });
  const outside = await page.evaluate(() => {
    const { y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 1.5 });
    return y.filter((value) => value < -1 || value > 5).length;
  });
  assert.ok(outside > 0, 'the book\'s range [-1, 5] cannot hold this data set');
  for (const figure of ['data', 'pooling', 'query', 'training-prediction']) {
    const plot = page.locator(`[data-figure="${figure}"]`);
    const height = Number(await plot.locator('.plot-frame').getAttribute('height'));
    const circles = await drawnPoints(plot);
    assert.equal(circles.length, 50, `${figure}: every point drawn`);
    for (const { cy, r } of circles) {
      assert.ok(cy - r >= 0 && cy + r <= height, `${figure}: a dot at ${cy} (radius ${r}) inside 0..${height}`);
    }
  }
  await page.locator('#data').scrollIntoViewIfNeeded();
  await screenshot(page, 'noise-1.5-data-plot');
  await setState({ noise: 0.5 });
  const ticks = await page.locator('[data-figure="data"] .axis-y .tick text').allTextContents();
  assert.equal(ticks[0].replace('−', '-'), '-1', 'back to the book\'s ylim');
  assert.equal(ticks.at(-1), '5');
});

test('the training lead quotes the learning rate and epochs set now, in both languages', async () => {
  const lead = '#training [data-live-lead="training.lead"]';
  // The lead's maths: w twice (the parameter it adds, then the one it fits), then the live rate.
  assert.deepEqual(await texOf(lead), ['w', 'w', '\\eta = 0.5']);
  assert.match(await text(lead), /epochs: 5 /);
  await typeInto(page, 'lr', 2);
  await typeInto(page, 'epochs', 12);
  await settled(page);
  assert.deepEqual(await texOf(lead), ['w', 'w', '\\eta = 2']);
  assert.match(await text(lead), /epochs: 12 /);
  await setLanguage('zh');
  assert.deepEqual(await texOf(lead), ['w', 'w', '\\eta = 2']);
  assert.match(await text(lead), /共 12 轮/);
  await setLanguage('en');
  await setState({ lr: 0.5, epochs: 5 });
  assert.deepEqual(await texOf(lead), ['w', 'w', '\\eta = 0.5']);
});

async function trainToTheEnd() {
  await page.locator('#training [data-action="play"]').click();
  await page.waitForSelector('#training [data-role="status"][data-status="done"]', { timeout: 60000 });
  await settled(page);
}

test('a run that overshoots or runs away is said to, by the loss plot, without stopping it', async () => {
  const warning = page.locator('#training [data-role="run-warning"]');
  await setState({ lr: 0.5, w0: 1, epochs: 5 });
  await trainToTheEnd();
  assert.equal(await warning.isVisible(), false, 'a run that descends needs no warning');

  await setState({ lr: 10 });
  await trainToTheEnd();
  assert.ok(await warning.isVisible());
  assert.match(await shownText(warning), /w has run to 218\.5, far outside \[0, 20\].*η = 10/);
  assert.equal(await page.locator('#training .epoch-log tbody tr').count(), 5, 'the run went on to its last epoch');
  // The note sits in the loss plot's figure.
  assert.equal(await warning.evaluate((node) => Boolean(node.closest('figure')?.querySelector('[data-figure="loss"]'))), true);
  await page.locator('#training').scrollIntoViewIfNeeded();
  await screenshot(page, 'training-runaway-note');
  await setLanguage('zh');
  assert.match(await shownText(warning), /w 已经跑到 218\.5/);
  await setLanguage('en');

  await setState({ lr: 10, w0: 3, epochs: 8 });
  await trainToTheEnd();
  assert.match(await shownText(warning), /The loss grew from epoch 1 to epoch 2 \(14\.39 → 15\.05\)/);
  await setState({ lr: 0.5, w0: 1, epochs: 5 });
  assert.equal(await warning.isVisible(), false, 'a new run starts without the warning');
});

// Each tick of a heatmap's axes with its label and where it stands in the
// page; hovering there must read out the cell of that number.
async function ticks(figure, axis) {
  return page.locator(`[data-figure="${figure}"] .axis-${axis} .tick`).evaluateAll((nodes) => nodes.map((node) => {
    const line = node.querySelector('line').getBoundingClientRect();
    return { label: node.textContent, x: line.left + line.width / 2, y: line.top + line.height / 2 };
  }));
}

test('heatmap ticks stand at cell centres, numbered as the hover read-out numbers the cells', async () => {
  await setState({ estimator: 'nadaraya-watson', kernel: 'gaussian', w: 1 });
  await scrollToRendered(page.locator('#heatmap [data-figure="pooling-heatmap"]'));
  const canvas = await page.locator('#heatmap .heatmap-canvas').boundingBox();
  const cell = canvas.width / 50;
  const columns = await ticks('pooling-heatmap', 'x');
  assert.ok(columns.length >= 3, `${columns.length} column ticks`);
  for (const tick of columns) {
    const index = Number(tick.label); // x_1 ... x_50, as the read-out names the keys
    assert.ok(index >= 1 && index <= 50, `tick ${tick.label}`);
    assert.ok(Math.abs(tick.x - (canvas.x + (index - 0.5) * cell)) < 1, `tick ${tick.label} at its cell's centre`);
    await page.mouse.move(tick.x, canvas.y + canvas.height / 2);
    assert.match(await text('[data-role="heatmap-readout"]'), new RegExp(`key x${index} = `));
  }
  const rows = await ticks('pooling-heatmap', 'y');
  for (const tick of rows) {
    const index = Number(tick.label);
    assert.ok(Math.abs(tick.y - (canvas.y + (index - 0.5) * (canvas.height / 50))) < 1, `row tick ${tick.label} at its cell's centre`);
    await page.mouse.move(canvas.x + canvas.width / 2, tick.y);
    // Row i is the i-th test query, x = (i - 1) / 10.
    assert.match(await text('[data-role="heatmap-readout"]'), new RegExp(`query x = ${((index - 1) / 10).toFixed(2)} `));
  }
  // The identity heatmap counts from 0, as torch.eye's indices and its read-out do.
  await scrollToRendered(page.locator('#cues [data-figure="identity-heatmap"]'));
  const identity = await page.locator('#cues [data-figure="identity-heatmap"] .heatmap-canvas').boundingBox();
  const identityColumns = await ticks('identity-heatmap', 'x');
  assert.equal(identityColumns[0].label, '0');
  for (const tick of identityColumns) {
    const index = Number(tick.label);
    assert.ok(Math.abs(tick.x - (identity.x + (index + 0.5) * (identity.width / 10))) < 1, `identity tick ${tick.label}`);
    await page.mouse.move(tick.x, identity.y + identity.height / 2);
    assert.match(await text('#cues .readout'), new RegExp(`key ${index}:`));
  }
  await page.mouse.move(0, 0);
});

test('counts agree with their nouns: 1 head, 2 heads; 1 test query has, 2 have', async () => {
  const summary = page.locator('#multihead .reshape-summary');
  await setState({ mhaHidden: 7, mhaHeads: 1 });
  assert.match(await shownText(summary), /^H = 7 = 1 head × 7: the one head runs/);
  await setState({ mhaHidden: 8, mhaHeads: 2 });
  assert.match(await shownText(summary), /^H = 8 hidden units = 2 heads × 4: each head runs/);
  await setLanguage('zh');
  await setState({ mhaHidden: 7, mhaHeads: 1 });
  assert.match(await shownText(summary), /^H = 7 = 1 个头 × 7：唯一的一个头/);
  await setLanguage('en');
  await setState({ mhaHidden: 100, mhaHeads: 5 });

  // A seed and boxcar width that leave exactly one test query without a key in reach, then two.
  const found = await page.evaluate(() => {
    const queries = Array.from({ length: 50 }, (_, i) => i / 10);
    const widths = {};
    for (let seed = 0; seed < 20 && !(widths[1] && widths[2]); seed += 1) {
      const { x } = window.directCore.makeDataset({ n: 50, seed, noise: 0.5 });
      for (let k = 100; k <= 1500; k += 1) {
        const w = k / 100;
        const weights = window.directCore.attentionWeights(queries, x, { kernel: 'boxcar', w });
        const missing = queries.filter((_, row) => Number.isNaN(weights[row * 50])).length;
        if (missing > 2) break;
        widths[missing] ??= w;
      }
      if (widths[1] && widths[2]) return { seed, widths };
      delete widths[1];
      delete widths[2];
    }
    return null;
  });
  assert.ok(found, 'a data set with one query out of reach');
  const nanNote = page.locator('#pooling [data-role="nan-note"]');
  await setState({ seed: found.seed, estimator: 'nadaraya-watson', kernel: 'boxcar', w: found.widths[1] });
  assert.match(await shownText(nanNote), /^1 of 50 test queries has no training input.*Its weights/);
  await setState({ w: found.widths[2] });
  assert.match(await shownText(nanNote), /^2 of 50 test queries have no training input.*Their weights/);
  await setState({ seed: 0 });
  await setState({ kernel: 'gaussian', w: 1 });
});

test('in Chinese the core is 计算核心, the masking rule is translated and core errors read in Chinese', async () => {
  await setLanguage('zh');
  // Every text of the page, those of the sections out of view (not rendered) too.
  const body = await page.locator('body').textContent();
  assert.doesNotMatch(body, /内核/, 'the computation core is never 内核 (核 is the kernel)');
  assert.match(await shownText(page.locator('footer, .colophon').first()), /C\+\+ 计算核心/);
  const rules = await texOf('#masking .formula-strip');
  assert.ok(rules.some((tex) => tex.includes('\\text{然后做 softmax}')), 'the d2l rule in Chinese');
  assert.ok(rules.every((tex) => !tex.includes('then softmax')));
  // A valid length past the number of keys: the core refuses it, naming the index.
  await page.evaluate(() => window.attentionLab.setUnchecked({ maskLen2: 7 }));
  await settled(page);
  const error = page.locator('#masking [data-param="maskLen2"] .control-error');
  assert.equal(await shownText(error),
    '计算核心拒绝了这个值：参数 validLens 在下标 1 处的值 7 不被接受（计算核心的原话：validLens: expected lengths in [0, 4] (nk), got 7 at index 1）');
  await setLanguage('en');
  assert.equal(await shownText(error), 'The core refused this: validLens: expected lengths in [0, 4] (nk), got 7 at index 1');
  await setState({ maskLen2: 2 });
  assert.equal(await error.isVisible(), false);
  await setState({ maskLen2: 3 });
  // Back in Chinese with the rule, then English again.
  await setLanguage('zh');
  assert.ok((await texOf('#masking .formula-strip')).some((tex) => tex.includes('然后做 softmax')));
  await setLanguage('en');
  assert.ok((await texOf('#masking .formula-strip')).some((tex) => tex.includes('\\text{then softmax}')));
});

test('the multi-head lead says the projections are random and links to the section that trains heads', async () => {
  for (const [language, random] of [['en', /projections .* are seeded random draws/], ['zh', /随机/]]) {
    await setLanguage(language);
    const lead = await text('#multihead .prose');
    assert.match(lead, random);
    assert.doesNotMatch(lead, /苹果.*吃|吃.*苹果|apple.*eating|eating.*apple/, 'no head promised to follow 吃 → 苹果');
    const link = page.locator('#multihead .prose a[href="#attention-training"]');
    assert.equal(await link.count(), 1);
    assert.ok(await link.isVisible());
    assert.equal(await page.locator('#attention-training').count(), 1, 'the link leads somewhere');
  }
  await setLanguage('en');
});

test('the book\'s taxonomy where it happens: Nadaraya–Watson nonparametric (非参), with a learned w parametric (带参)', async () => {
  await setLanguage('en');
  assert.match(await text('#pooling .prose'), /nothing here is learned.*nonparametric attention pooling \(非参\)/is);
  assert.match(await text('#training .prose'), /parametric attention pooling \(带参\)/);
  assert.doesNotMatch(await text('#training .prose'), /nonparametric/, 'the training section names the parametric kind');
  await setLanguage('zh');
  assert.match(await text('#pooling .prose'), /非参数注意力汇聚（非参）/);
  assert.match(await text('#training .prose'), /带参数的注意力汇聚（带参）/);
  await setLanguage('en');
});
