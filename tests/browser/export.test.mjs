// Export: every figure saves as PNG and SVG, the data set and the
// attention weights as CSV (checked against the core's numbers, read back
// from Playwright's download event), and "Copy as PyTorch" copies the book's
// code for the current state (read back from the clipboard; run with
// Debian's PyTorch, /usr/bin/python3, and compared with the core).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { useBrowser, openPage, loadDirectCore, typeInto, settled, FILE_URL, foreignRequests, elementsReady, shownText } from './harness.mjs';
import { saveFigure, parseCsv, evaluateInBlankPage } from './downloads.mjs';
import { TITLE_BAND, LINK_BAND } from '../../web/src/export/svg.js';

const run = promisify(execFile);
let lab; // one page for most tests: { page, context, problems, requests }
const web = useBrowser({
  opened: async ({ browser, server }) => {
    lab = await openPage(browser, `${server.origin}/`, { permissions: ['clipboard-read', 'clipboard-write'] });
    await loadDirectCore(lab.page);
  },
});

const figure = (name) => lab.page.locator(`[data-figure="${name}"]`);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE, 'a PNG file');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// Colours of a PNG, decoded by the browser.
async function pngColours(page, bytes) {
  return page.evaluate(async (base64) => {
    const blob = await (await fetch(`data:image/png;base64,${base64}`)).blob();
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`);
    return colours.size;
  }, Buffer.from(bytes).toString('base64'));
}

test('every figure of the page has registered one save menu', async () => {
  // One element per figure of each kind (web/src/figures/), each registered by its module.
  const figures = await lab.page.evaluate(() => [...document.querySelectorAll('main :is(.plot, .heatmap, .matrix, .plane)')].map((figure) => ({
    name: figure.closest('[data-figure]')?.dataset.figure ?? figure.className,
    registered: figure.dataset.exportable ?? null,
    menus: [...figure.children].filter((child) => child.matches('details.figure-export')).length,
  })));
  assert.ok(figures.length >= 33, `${figures.length} figures`);
  assert.deepEqual(figures.filter((figure) => !figure.registered || figure.menus !== 1), [], 'each with its own menu');
  for (const kind of ['plot', 'heatmap', 'matrix', 'plane']) {
    assert.ok(await lab.page.locator(`main .${kind} > .figure-export`).count() > 0, `figures of kind ${kind} have menus`);
  }
  assert.equal(await lab.page.locator('main .figure-export').count(), figures.length, 'no menu elsewhere');
});

test('the data set saves as CSV: x, y of every training point, the core\'s numbers', async () => {
  const { name, bytes } = await saveFigure(lab.page, figure('data'), 'csv');
  assert.equal(name, 'attention-lab-data.csv');
  const rows = parseCsv(bytes.toString('utf8'));
  assert.deepEqual(rows[0], ['x', 'y']);
  const expected = await lab.page.evaluate(() => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5, xMax: 5 });
    return Array.from(x, (value, i) => [String(value), String(y[i])]);
  });
  assert.deepEqual(rows.slice(1), expected, 'full precision, every point');
});

test('the attention weights save as CSV with the queries and keys they belong to', async () => {
  const { name, bytes } = await saveFigure(lab.page, figure('pooling-heatmap'), 'csv');
  assert.equal(name, 'attention-lab-pooling-heatmap.csv');
  const rows = parseCsv(bytes.toString('utf8'));
  assert.equal(rows.length, 51, 'a header and 50 test queries');
  assert.equal(rows[0].length, 51, 'a corner and 50 keys');
  assert.equal(rows[0][0], 'Sorted testing inputs \\ Sorted training inputs');
  const expected = await lab.page.evaluate(() => {
    const { x } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5, xMax: 5 });
    const queries = Array.from({ length: 50 }, (_, i) => i * 0.1);
    return { keys: Array.from(x, String), weights: Array.from(window.directCore.attentionWeights(queries, x, { kernel: 'gaussian', w: 1 }), String) };
  });
  assert.deepEqual(rows[0].slice(1), expected.keys);
  assert.equal(Number(rows[31][0]).toFixed(2), '3.00', 'row 31 is the query x = 3.0');
  for (let row = 0; row < 50; row += 1) {
    assert.deepEqual(rows[row + 1].slice(1), expected.weights.slice(row * 50, row * 50 + 50), `row ${row}`);
  }
});

test('a plot saves as a standalone SVG with its data and legend, and as a PNG', async () => {
  const { name, bytes } = await saveFigure(lab.page, figure('pooling'), 'svg');
  assert.equal(name, 'attention-lab-pooling.svg');
  const text = bytes.toString('utf8');
  const onScreen = await figure('pooling').locator('.layer-prediction path').getAttribute('d');
  const parsed = await evaluateInBlankPage(lab.page, (source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      paths: [...doc.querySelectorAll('path')].map((p) => p.getAttribute('d')),
      circles: doc.querySelectorAll('circle').length,
      texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      styled: [...doc.querySelectorAll('path')].some((p) => /stroke:\s*rgb\(213, 94, 0\)/.test(p.getAttribute('style') ?? '')),
      classes: doc.querySelectorAll('[class]').length,
    };
  }, text);
  assert.equal(parsed.error, null);
  assert.equal(parsed.root, 'svg');
  assert.ok(parsed.paths.includes(onScreen), 'the prediction curve as drawn');
  assert.ok(parsed.circles >= 50, 'the training points');
  for (const label of ['Truth f(x)', 'Prediction', 'x', 'y']) assert.ok(parsed.texts.includes(label), `text "${label}"`);
  assert.ok(parsed.styled, 'colours written into the file (no stylesheet needed)');
  assert.ok(parsed.classes <= 1, 'no class left that needs the page\'s CSS');
  // The one web address is the lab's own state link (a title and link test below).
  assert.doesNotMatch(text.replace(/<a href="[^"]*"[^>]*>/g, ''), /<script|onload=|href="http/i);

  const png = await saveFigure(lab.page, figure('pooling'), 'png');
  assert.equal(png.name, 'attention-lab-pooling.png');
  const svgWidth = Number(/<svg[^>]* width="(\d+)"/.exec(text)[1]);
  const size = pngSize(png.bytes);
  assert.equal(size.width, svgWidth * 2, 'drawn at twice the size on screen');
  assert.ok(await pngColours(lab.page, png.bytes) > 20, 'a picture, not a blank');
});

test('a saved figure carries its caption as its title and the lab\'s state as a link', async () => {
  const { page } = lab;
  await typeInto(page, 'w', 3);
  await settled(page);
  await page.waitForFunction(() => /w=3\b/.test(location.hash)); // the URL follows the state
  const url = await page.evaluate(() => location.href);
  const caption = (await shownText(figure('pooling').locator('xpath=ancestor::figure[1]/figcaption'))).replace(/\s+/g, ' ').trim();
  assert.ok(caption.length > 0, 'the figure has a caption');
  const { bytes } = await saveFigure(page, figure('pooling'), 'svg');
  const parsed = await evaluateInBlankPage(page, (source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const root = doc.documentElement;
    const link = root.querySelector('a');
    return {
      title: root.querySelector(':scope > title')?.textContent,
      desc: root.querySelector(':scope > desc')?.textContent,
      texts: [...root.querySelectorAll('text')].map((node) => node.textContent),
      href: link?.getAttribute('href'),
      linkText: link?.textContent,
      height: Number(root.getAttribute('height')),
      viewBox: root.getAttribute('viewBox').split(' ').map(Number),
    };
  }, bytes.toString('utf8'));
  assert.equal(parsed.title, caption);
  assert.equal(parsed.desc, url);
  assert.ok(parsed.texts.includes(caption), 'the title drawn above the figure');
  assert.equal(parsed.href, url, 'a link to the state');
  assert.equal(parsed.linkText, url, 'the link drawn below the figure');
  assert.equal(parsed.viewBox[3], parsed.height);

  // The PNG is drawn from that file: taller than the figure by the title and
  // link bands, the title band not blank.
  const drawn = await figure('pooling').locator('svg').first().evaluate((svg) => Math.ceil(Number(svg.getAttribute('height')) || svg.getBoundingClientRect().height));
  const png = await saveFigure(page, figure('pooling'), 'png');
  const size = pngSize(png.bytes);
  assert.equal(size.height, parsed.height * 2);
  assert.ok(size.height >= 2 * (drawn + TITLE_BAND + LINK_BAND), `${size.height} px for a figure of ${drawn} px`);
  const titleInk = await page.evaluate(async ({ base64, band }) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    const { data } = context.getImageData(0, 0, bitmap.width, band);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 300) dark += 1;
    return dark;
  }, { base64: Buffer.from(png.bytes).toString('base64'), band: 2 * TITLE_BAND });
  assert.ok(titleInk > 50, 'the title written in the PNG\'s top band');

  // The title is the caption in the page's language.
  await page.locator('[data-param="language"] [data-value="zh"]').click();
  await settled(page);
  const chinese = (await saveFigure(page, figure('pooling'), 'svg')).bytes.toString('utf8');
  assert.match(chinese, /<title>真实函数、预测与训练样本/);
  await page.locator('[data-param="language"] [data-value="en"]').click();
  await typeInto(page, 'w', 1);
  await settled(page);
  assert.deepEqual(lab.problems, []);
});

test('a heatmap saves as SVG with its cells as an exact image, and as PNG', async () => {
  const { bytes } = await saveFigure(lab.page, figure('pooling-heatmap'), 'svg');
  const text = bytes.toString('utf8');
  assert.match(text, /<image [^>]*href="data:image\/png;base64,/);
  assert.match(text, /Sorted training inputs/);
  const cells = [[0, 0], [10, 12], [30, 20], [49, 49]];
  const exported = await evaluateInBlankPage(lab.page, async ({ source, cells }) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const href = doc.querySelector('image').getAttribute('href');
    const bitmap = await createImageBitmap(await (await fetch(href)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    context.drawImage(bitmap, 0, 0);
    const kx = bitmap.width / 50;
    const ky = bitmap.height / 50;
    const pixel = (row, col) => Array.from(context.getImageData(Math.floor((col + 0.5) * kx), Math.floor((row + 0.5) * ky), 1, 1).data);
    return { integral: Number.isInteger(kx) && Number.isInteger(ky), pixels: cells.map(([r, c]) => pixel(r, c)) };
  }, { source: text, cells });
  const onScreen = await lab.page.evaluate((cells) => {
    const shown = document.querySelector('[data-figure="pooling-heatmap"] canvas').getContext('2d');
    return cells.map(([row, col]) => Array.from(shown.getImageData(col, row, 1, 1).data));
  }, cells);
  assert.ok(exported.integral, 'each cell is a whole block of pixels');
  assert.deepEqual(exported.pixels, onScreen, 'the cell colours of the screen');
  const png = await saveFigure(lab.page, figure('pooling-heatmap'), 'png');
  pngSize(png.bytes);
  assert.ok(await pngColours(lab.page, png.bytes) > 30);
});

test('"Copy as PyTorch" copies the book\'s code for the current state', async () => {
  const { page } = lab;
  await page.locator('[data-param="kernel"] [data-value="boxcar"]').click();
  await typeInto(page, 'w', 2);
  await settled(page);
  const button = page.locator('#pooling [data-action="copy-pytorch"]');
  await button.click();
  await page.waitForFunction(() => document.querySelector('#pooling .section-tools [role="status"]').textContent.length > 0);
  const code = await page.evaluate(() => navigator.clipboard.readText());
  const first = await page.evaluate(() => String(window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5, xMax: 5 }).x[0]));
  for (const part of ['import torch', 'n_train = 50', 'x_train = torch.tensor([', first, 'def boxcar(d):', 'w = 2.0',
    'nadaraya_watson(x_test, x_train, y_train, boxcar, w)', 'kernel=boxcar']) {
    assert.ok(code.includes(part), `the snippet has "${part}"`);
  }
  assert.equal(await shownText(page.locator('#pooling .section-tools [role="status"]')), 'Copied: PyTorch code that reproduces what you see.');
  // The training section's snippet carries its own parameters.
  await typeInto(page, 'lr', 0.2);
  await typeInto(page, 'epochs', 7);
  await page.locator('#training [data-action="copy-pytorch"]').click();
  await page.waitForFunction(() => document.querySelector('#training .section-tools [role="status"]').textContent.length > 0);
  const training = await page.evaluate(() => navigator.clipboard.readText());
  for (const part of ['class NWKernelRegression(nn.Module):', 'lr=0.2', 'range(7)', 'net.w.fill_(1.0)', '(1 - torch.eye(n_train))']) {
    assert.ok(training.includes(part), `the training snippet has "${part}"`);
  }
  // Shown on request too, for a browser that refuses the clipboard.
  await page.locator('#training .code-details summary').click();
  assert.equal((await shownText(page.locator('#training .code-view'))).trimEnd(), training.trimEnd());
  await page.locator('[data-param="kernel"] [data-value="gaussian"]').click();
  await typeInto(page, 'w', 1);
  await typeInto(page, 'lr', 0.5);
  await typeInto(page, 'epochs', 5);
  await settled(page);
  assert.deepEqual(lab.problems, []);
});

test('the PyTorch snippets run and give the core\'s numbers', async () => {
  // .ci/setup installs python3-torch; without it this test fails rather than skips.
  await run('/usr/bin/python3', ['-c', 'import torch']).catch(() => {
    assert.fail('no PyTorch for /usr/bin/python3: apt-get install python3-torch (bash .ci/setup does)');
  });
  const { page } = lab;
  const snippet = (section) => page.evaluate(async (id) => {
    await navigator.clipboard.writeText('');
    document.querySelector(`#${id} [data-action="copy-pytorch"]`).click();
    let text = '';
    while (text === '') { // the copy is written asynchronously
      await new Promise((resolve) => requestAnimationFrame(resolve));
      text = await navigator.clipboard.readText();
    }
    return text;
  }, section);
  const folder = await mkdtemp(path.join(tmpdir(), 'attention-lab-'));
  const python = async (code, extra) => {
    const file = path.join(folder, 'snippet.py');
    await writeFile(file, `${code}\n${extra}\n`);
    return (await run('/usr/bin/python3', [file], { timeout: 120000 })).stdout;
  };
  const relative = (a, b) => Math.abs(a - b) / Math.max(1e-300, Math.abs(b));

  const pooling = await python(await snippet('heatmap'), 'print("ROW", " ".join(repr(float(v)) for v in weights_query.flatten()))\nprint("YHAT", " ".join(repr(float(v)) for v in y_hat))');
  const core = await page.evaluate(() => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5, xMax: 5 });
    const queries = Array.from({ length: 50 }, (_, i) => i * 0.1);
    return {
      row: Array.from(window.directCore.attentionWeights([2.5], x, { kernel: 'gaussian', w: 1 })),
      yHat: Array.from(window.directCore.nadarayaWatson(queries, x, y, { kernel: 'gaussian', w: 1 })),
    };
  });
  const line = (text, tag) => text.split('\n').find((l) => l.startsWith(`${tag} `)).slice(tag.length + 1).split(' ').map(Number);
  line(pooling, 'ROW').forEach((value, i) => assert.ok(relative(value, core.row[i]) < 1e-9, `weight ${i}: ${value} vs ${core.row[i]}`));
  line(pooling, 'YHAT').forEach((value, i) => assert.ok(relative(value, core.yHat[i]) < 1e-9, `y_hat ${i}`));

  const training = await python(await snippet('training'), '');
  const epochs = [...training.matchAll(/epoch (\d+), loss ([\d.e+-]+), w ([\d.e+-]+)/g)].map((m) => [Number(m[2]), Number(m[3])]);
  const run5 = await page.evaluate(() => {
    const { x, y } = window.directCore.makeDataset({ n: 50, seed: 0, noise: 0.5, xMax: 5 });
    const result = window.directCore.trainKernelWidth(x, y, { w0: 1, lr: 0.5, epochs: 5, leaveOneOut: true });
    return { loss: Array.from(result.loss), w: Array.from(result.w) };
  });
  assert.equal(epochs.length, 5);
  epochs.forEach(([loss, w], i) => {
    assert.ok(relative(loss, run5.loss[i]) < 1e-9, `loss of epoch ${i + 1}: torch ${loss}, core ${run5.loss[i]}`);
    assert.ok(relative(w, run5.w[i + 1]) < 1e-9, `w after epoch ${i + 1}: torch ${w}, core ${run5.w[i + 1]}`);
  });
});

test('downloads work offline from file://, and from inside the element\'s shadow root', async () => {
  const fromDisk = await openPage(web.browser, FILE_URL);
  const { name, bytes } = await saveFigure(fromDisk.page, fromDisk.page.locator('[data-figure="data"]'), 'csv');
  assert.equal(name, 'attention-lab-data.csv');
  assert.equal(parseCsv(bytes.toString('utf8')).length, 51);
  const svg = await saveFigure(fromDisk.page, fromDisk.page.locator('[data-figure="training-heatmap"]'), 'svg');
  assert.match(svg.bytes.toString('utf8'), /<image /);
  assert.deepEqual(foreignRequests(fromDisk.requests, null), []);
  assert.deepEqual(fromDisk.problems, []);
  await fromDisk.context.close();

  const course = await openPage(web.browser, `${web.server.origin}/course-example.html`, { ready: 'attention-lab' });
  await elementsReady(course.page, 2);
  const heatmap = course.page.locator('#lab-heatmap [data-figure="pooling-heatmap"]');
  const csv = await saveFigure(course.page, heatmap, 'csv');
  const rows = parseCsv(csv.bytes.toString('utf8'));
  assert.equal(rows.length, 51);
  assert.equal(rows[0].length, 101, 'n = 100 from the element\'s attribute');
  const png = await saveFigure(course.page, heatmap, 'png');
  pngSize(png.bytes);
  assert.deepEqual(foreignRequests(course.requests, web.server.origin), []);
  assert.deepEqual(course.problems, []);
  await course.context.close();
});
