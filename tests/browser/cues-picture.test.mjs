// The introduction's desk: the gaze goes to the red cup by itself and to the
// book when we want to read; the caption names the cue (key, query); and the
// note says what sets attention apart from fully connected and pooling layers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usePage, setLanguage, screenshot, shownText } from './harness.mjs';

let page;
usePage({ section: '#cues', opened: (lab) => ({ page } = lab) });

const figure = '#cues [data-figure="cues-picture"]';
// The object the dashed ring surrounds, from the drawn geometry alone.
const ringedObject = () => page.evaluate((css) => {
  const svg = document.querySelector(css);
  const ring = svg.querySelector('.cues-gaze').getBBox();
  const centre = { x: ring.x + ring.width / 2, y: ring.y + ring.height / 2 };
  const inside = [...svg.querySelectorAll('.cues-object')].filter((group) => {
    const box = group.querySelector('rect').getBBox();
    return centre.x > box.x && centre.x < box.x + box.width && centre.y > box.y && centre.y < box.y + box.height;
  });
  return inside.map((group) => group.dataset.object);
}, figure);
const pressed = () => page.locator('#cues [data-mode][aria-pressed="true"]').getAttribute('data-mode');
const caption = () => shownText(page.locator('#cues [data-role="cues-picture-caption"]'));

test('no wish: the eye goes to the red cup, the key; wanting to read: to the book, the query', async () => {
  assert.deepEqual(await ringedObject(), ['cup']);
  assert.equal(await pressed(), 'nonvolitional');
  assert.match(await caption(), /^Nonvolitional cue\..*red.*key/s);
  const cupColour = await page.locator('#cues .cues-cup').evaluate((node) => getComputedStyle(node).fill);
  const paperColour = await page.locator('#cues .cues-sheet').first().evaluate((node) => getComputedStyle(node).fill);
  assert.equal(cupColour, 'rgb(214, 39, 40)', 'the cup is red');
  assert.notEqual(paperColour, cupColour);
  await screenshot(page, 'cues-picture-nonvolitional-en', '#cues .cell-cues-picture');

  await page.locator('#cues [data-mode="volitional"]').click();
  assert.deepEqual(await ringedObject(), ['book']);
  assert.equal(await pressed(), 'volitional');
  assert.match(await caption(), /^Volitional cue\..*book.*query/s);
  await screenshot(page, 'cues-picture-volitional-en', '#cues .cell-cues-picture');

  // By keyboard: focus the first button and press Enter.
  await page.locator('#cues [data-mode="nonvolitional"]').focus();
  await page.keyboard.press('Enter');
  assert.deepEqual(await ringedObject(), ['cup']);
});

test('in Chinese: the objects, the buttons and the caption; the why-query note names fully connected and pooling layers', async () => {
  assert.match(await shownText(page.locator('#cues')), /What sets attention apart is the query.*fully connected layer.*average pooling layer/s);
  await setLanguage(page, 'zh');
  const labels = await page.locator(`${figure} .cues-label`).allTextContents();
  assert.deepEqual(labels, ['报纸', '研究论文', '咖啡杯', '笔记本', '书']);
  assert.match(await caption(), /^非自主性提示。.*键/s);
  await page.locator('#cues [data-mode="volitional"]').click();
  assert.match(await caption(), /^自主性提示。.*查询/s);
  assert.match(await shownText(page.locator('#cues')), /让注意力与众不同的是查询.*全连接层/s);
  assert.match(await shownText(page.locator('#cues')), /注意力经济/);
  await screenshot(page, 'cues-picture-volitional-zh', '#cues .cell-cues-picture');
  await setLanguage(page, 'en');
  await page.locator('#cues [data-mode="nonvolitional"]').click();
});

test('the notes\' street photograph: the whole scene first, then a question focuses the eye on a billboard\'s text', async () => {
  const street = '#cues [data-figure="street-picture"]';
  // What the dashed frame encloses, and which parts of the scene stay bright.
  const seen = () => page.evaluate((css) => {
    const svg = document.querySelector(css);
    const ring = svg.querySelector('.cues-gaze').getBBox();
    const place = svg.querySelector('.street-billboard.is-place rect').getBBox();
    const bright = [...svg.querySelectorAll('.street-scene > *')].filter((node) => getComputedStyle(node).opacity === '1');
    return {
      gaze: svg.closest('[data-figure]').dataset.gaze,
      aroundPlace: ring.x <= place.x && ring.y <= place.y && ring.x + ring.width >= place.x + place.width
        && ring.y + ring.height >= place.y + place.height,
      wholeScene: ring.width > 300,
      bright: bright.map((node) => node.getAttribute('class')),
      place: svg.querySelector('.street-place').textContent,
    };
  }, street);
  let now = await seen();
  assert.equal(now.gaze, 'whole');
  assert.ok(now.wholeScene, 'the frame takes in the whole picture');
  assert.match(await shownText(page.locator('#cues [data-role="street-caption"]')), /^The whole first\./);
  await page.locator('#cues [data-look="place"]').click();
  // The dimming's transition, ended (getAnimations() starts it if the style is not yet updated).
  await page.waitForFunction((css) => document.querySelector(css).getAnimations({ subtree: true }).length === 0, street);
  now = await seen();
  assert.equal(now.gaze, 'place');
  assert.ok(now.aroundPlace && !now.wholeScene, 'the frame closes round the billboard with the place name');
  assert.deepEqual(now.bright, ['street-billboard is-place'], 'the rest of the scene dims');
  assert.equal(now.place, 'West Lake Rd');
  assert.match(await shownText(page.locator('#cues [data-role="street-caption"]')), /question \(the query\) chose where attention goes/);
  await screenshot(page, 'street-picture-en', street);
  await setLanguage(page, 'zh');
  assert.equal((await seen()).place, '南山路');
  assert.match(await shownText(page.locator('#cues [data-role="street-caption"]')), /是问题（查询）决定了注意力放在哪里/);
  await screenshot(page, 'street-picture-zh', street);
  // The cue diagram's Chinese terms stay whole: each on one line.
  const lines = await page.locator('#cues .cue-box span').evaluateAll((spans) =>
    spans.map((span) => {
      const range = document.createRange();
      range.selectNodeContents(span);
      return { text: span.textContent, lines: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
    }));
  assert.ok(lines.some(({ text }) => text === '非自主性提示'));
  assert.deepEqual(lines.filter((line) => line.lines > 1), [], 'no term broken over two lines');
  await setLanguage(page, 'en');
  await page.locator('#cues [data-look="whole"]').click();
});
