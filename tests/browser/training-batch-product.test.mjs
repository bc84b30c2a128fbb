// The batch matrix multiplication panel of the training section: the book's
// (2, 1, 4) x (2, 4, 6) of ones gives (2, 1, 6), every entry 4, read from the
// drawn cells; a new c changes the shape; a b' that is not b shows the core's
// error at Y's stepper and no result, and fixing it brings the result back;
// seeded values are the core's product; the training's shapes quote the live
// n (and leave-one-out); Chinese; screenshots in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { screenshot, setLanguage, setState, shownText, typeInto, usePage } from './harness.mjs';

let page;
let problems;
const PANEL = '#training [data-role="batch-product"]';
usePage({ section: PANEL, directCore: true, opened: (lab) => ({ page, problems } = lab) });

const panel = (css = '') => page.locator(`${PANEL} ${css}`);

// A drawn matrix: its cells' values in row-major order, and its rows and columns.
async function drawn(name) {
  return panel(`[data-figure="bmm-${name}"]`).evaluate((figure) => {
    const rects = [...figure.querySelectorAll('rect[data-value]')];
    const rows = Math.max(-1, ...rects.map((r) => Number(r.dataset.row))) + 1;
    const cols = Math.max(-1, ...rects.map((r) => Number(r.dataset.col))) + 1;
    const values = new Array(rows * cols);
    for (const r of rects) values[Number(r.dataset.row) * cols + Number(r.dataset.col)] = Number(r.dataset.value);
    return { rows, cols, values, hidden: figure.closest('[hidden]') !== null || figure.hidden };
  });
}
const text = (css) => shownText(panel(css));

test('the book\'s example: ones (2, 1, 4) x ones (2, 4, 6) is (2, 1, 6), every entry 4', async () => {
  assert.equal(await panel().getAttribute('data-result-shape'), '2,1,6');
  assert.equal(await text('[data-role="bmm-shapes"]'), '(2, 1, 4) × (2, 4, 6) → (2, 1, 6)');
  assert.equal(await text('[data-role="shape-result"]'), 'torch.bmm(X, Y) (2, 1, 6)');
  const result = await drawn('result');
  assert.deepEqual({ rows: result.rows, cols: result.cols }, { rows: 2, cols: 6 }); // n x a rows, c columns
  assert.deepEqual(result.values, new Array(12).fill(4));
  const x = await drawn('x');
  assert.deepEqual({ rows: x.rows, cols: x.cols, values: x.values }, { rows: 2, cols: 4, values: new Array(8).fill(1) });
  const y = await drawn('y');
  assert.deepEqual({ rows: y.rows, cols: y.cols }, { rows: 8, cols: 6 });
  assert.equal(await panel('[data-role="bmm-no-result"]').isVisible(), false);
  await screenshot(page, 'batch-product-en', PANEL);
});

test('a new c changes the result\'s shape', async () => {
  await typeInto(page, 'bmmC', 3);
  await page.waitForFunction((css) => document.querySelector(css)?.dataset.resultShape === '2,1,3', PANEL);
  assert.equal(await text('[data-role="bmm-shapes"]'), '(2, 1, 4) × (2, 4, 3) → (2, 1, 3)');
  const result = await drawn('result');
  assert.deepEqual({ rows: result.rows, cols: result.cols, values: result.values }, { rows: 2, cols: 3, values: new Array(6).fill(4) });
  await setState(page, { bmmA: 3, bmmB: 2, bmmBY: 2 });
  assert.equal(await panel().getAttribute('data-result-shape'), '2,3,3');
  assert.deepEqual((await drawn('result')).values, new Array(18).fill(2), 'each entry sums b = 2 ones');
});

test('b\' not b: the core\'s error at Y\'s stepper, naming Y and both shapes, and no result; fixed, it recovers', async () => {
  await setState(page, { bmmA: 1, bmmB: 4, bmmBY: 4, bmmC: 6 });
  await typeInto(page, 'bmmBY', 5);
  await page.waitForFunction((css) => document.querySelector(css)?.dataset.resultShape === '', PANEL);
  const error = page.locator('[data-error-for="bmmBY"]');
  assert.equal(await error.isVisible(), true);
  const message = await shownText(error);
  assert.match(message, /the rows of Y \(b′ = 5\) must match the columns of X \(b = 4\)/);
  assert.match(message, /Y: expected shape \(2, 4, c\) to match X \(2, 1, 4\), got \(2, 5, 6\)/);
  assert.equal(await panel('[data-role="bmm-no-result"]').isVisible(), true);
  assert.equal(await panel('[data-figure="bmm-result"]').isVisible(), false);
  assert.equal(await text('[data-role="bmm-shapes"]'), '(2, 1, 4) × (2, 5, 6) → ?');
  assert.deepEqual({ rows: (await drawn('y')).rows }, { rows: 10 }, 'Y is drawn as set: 2 panes of 5 rows');
  await screenshot(page, 'batch-product-mismatch-en', PANEL);
  await typeInto(page, 'bmmBY', 4);
  await page.waitForFunction((css) => document.querySelector(css)?.dataset.resultShape === '2,1,6', PANEL);
  assert.equal(await error.isVisible(), false);
  assert.equal(await panel('[data-role="bmm-no-result"]').isVisible(), false);
  assert.deepEqual((await drawn('result')).values, new Array(12).fill(4));
});

test('seeded N(0, 1) values: the drawn product is the core\'s, for the drawn operands', async () => {
  await setState(page, { bmmValues: 'normal', bmmN: 3, bmmA: 2, bmmB: 3, bmmBY: 3, bmmC: 4, bmmSeed: 7 });
  const [x, y, result] = [await drawn('x'), await drawn('y'), await drawn('result')];
  assert.ok(x.values.some((v) => v !== 1), 'not ones');
  const expected = await page.evaluate(([X, Y]) => window.directCore.batchMatrixProduct(X, Y, { shapeX: [3, 2, 3], shapeY: [3, 3, 4] }),
    [x.values, y.values]);
  assert.deepEqual(expected.shape, [3, 2, 4]);
  assert.deepEqual(result.values, Array.from(expected.values));
  await setState(page, { bmmSeed: 8 });
  assert.notDeepEqual((await drawn('x')).values, x.values, 'a new seed draws new values');
  await setState(page, { bmmValues: 'ones', bmmN: 2, bmmA: 1, bmmB: 4, bmmBY: 4, bmmC: 6, bmmSeed: 0 });
});

test('the training\'s product quotes the live n', async () => {
  const line = panel('[data-role="bmm-training"]');
  assert.match(await shownText(line), /weights of shape \(50, 1, 49\) times values of shape \(50, 49, 1\) give shape \(50, 1, 1\)/);
  await setState(page, { n: 20 });
  assert.equal(await line.getAttribute('data-n'), '20');
  assert.match(await shownText(line), /With the 20 points of section \d+/);
  assert.match(await shownText(line), /\(20, 1, 19\) times values of shape \(20, 19, 1\) give shape \(20, 1, 1\)/);
  assert.match(await shownText(line), /over the 19 other keys/);
  await setState(page, { leaveOneOut: false });
  assert.match(await shownText(line), /\(20, 1, 20\) times values of shape \(20, 20, 1\)/);
  await setState(page, { leaveOneOut: true, n: 50 });
});

test('in Chinese', async () => {
  await setLanguage(page, 'zh');
  assert.equal(await text('.subsection-title'), '批量矩阵乘法：torch.bmm');
  assert.match(await text('[data-role="bmm-training"]'), /形状为 \(50, 1, 49\) 的权重乘以形状为 \(50, 49, 1\) 的值，得到形状 \(50, 1, 1\)/);
  assert.deepEqual((await drawn('result')).values, new Array(12).fill(4));
  await screenshot(page, 'batch-product-zh', PANEL);
  await typeInto(page, 'bmmBY', 3);
  await page.waitForFunction((css) => document.querySelector(css)?.dataset.resultShape === '', PANEL);
  const message = await shownText(page.locator('[data-error-for="bmmBY"]'));
  assert.match(message, /Y 的行数（b′ = 3）必须等于 X 的列数（b = 4）/);
  assert.match(message, /Y: expected shape \(2, 4, c\) to match X \(2, 1, 4\), got \(2, 3, 6\)/);
  assert.equal(await shownText(panel('[data-role="bmm-no-result"]')), '没有结果：计算核心拒绝了这些形状。');
  await screenshot(page, 'batch-product-mismatch-zh', PANEL);
  await typeInto(page, 'bmmBY', 4);
  await setLanguage(page, 'en');
  assert.deepEqual(problems, []);
});
