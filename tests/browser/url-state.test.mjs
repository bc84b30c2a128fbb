// Issue 5, share the state: every parameter of the table goes into the URL
// hash and comes back from it; a hostile hash is clamped or ignored, never
// executed or injected, and the page keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, typeInto, settled } from './harness.mjs';
import { parameters, clampValue } from '../../web/src/state.js';
import { formatHash, parseHash, readParameter } from '../../web/src/url-state.js';

const web = useBrowser();

const hashOf = (page) => page.evaluate(() => decodeURIComponent(location.hash));
const waitForHash = (page, pattern) => page.waitForFunction((source) => new RegExp(source).test(decodeURIComponent(location.hash)), pattern.source);
const stateOf = (page) => page.evaluate(() => ({ ...window.attentionLab.state }));

// A valid value other than the default, for any entry the table has (also
// the entries other sections add): the middle of a range, another option.
function otherValue(name) {
  const spec = parameters[name];
  switch (spec.type) {
    case 'boolean': return !spec.default;
    case 'choice': return spec.options.find((option) => option !== spec.default);
    default: {
      const middle = clampValue(name, spec.min + (spec.max - spec.min) * 0.37);
      return middle === spec.default ? clampValue(name, spec.max) : middle;
    }
  }
}

test('the hash parser reads the table and nothing else (no browser)', () => {
  assert.equal(readParameter('noise', '2000'), parameters.noise.max);
  assert.equal(readParameter('n', '1e308'), parameters.n.max);
  assert.equal(readParameter('n', '-1e308'), parameters.n.min);
  for (const bad of ['NaN', 'Infinity', '-Infinity', '0x10', '1_000', '', ' ', '5px', '٥٠', '1e99999', '9'.repeat(65)]) {
    assert.equal(readParameter('n', bad), undefined, `n=${bad} is ignored`);
  }
  assert.equal(readParameter('kernel', 'Gaussian'), undefined, 'choices match exactly');
  assert.equal(readParameter('leaveOneOut', 'yes'), undefined);
  assert.equal(readParameter('constructor', '1'), undefined);
  const parsed = parseHash('#__proto__=1&constructor=x&toString=y&n=10&n=20&kernel=boxcar&hide=seed,<b>,noise&embed=nowhere', ['pooling']);
  assert.deepEqual(parsed.params, { n: 20, kernel: 'boxcar' });
  assert.deepEqual(parsed.hide, ['seed', 'noise']);
  assert.equal(parsed.embed, null);
  assert.equal(Object.getPrototypeOf(parsed.params), Object.prototype, 'no prototype pollution');
  assert.equal(parseHash('#pooling', ['pooling']).section, 'pooling', 'a plain anchor names a section');
});

test('every entry of the parameter table goes into the hash and comes back', async () => {
  const wanted = Object.fromEntries(Object.keys(parameters).map((name) => [name, otherValue(name)]));
  const hash = formatHash(wanted, {});
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#${hash}`);
  await settled(page);
  const state = await stateOf(page);
  for (const name of Object.keys(parameters)) assert.deepEqual(state[name], wanted[name], `${name} came back from the hash`);
  // And it goes out again: a change rewrites the hash with every non-default value.
  await typeInto(page, 'noise', 0.25);
  await waitForHash(page, /noise=0\.25/);
  const written = parseHash(await page.evaluate(() => location.hash));
  for (const name of Object.keys(parameters)) {
    const expected = name === 'noise' ? 0.25 : wanted[name];
    assert.deepEqual(written.params[name], expected, `${name} went into the hash`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a learner\'s changes are shared by the link, the language too', async () => {
  const first = await openPage(web.browser, `${web.server.origin}/`);
  const { page } = first;
  assert.equal(await page.evaluate(() => location.hash), '', 'an untouched page keeps a clean URL');
  await page.locator('[data-param="kernel"] [data-value="boxcar"]').click();
  await typeInto(page, 'w', 2.5);
  await typeInto(page, 'n', 120);
  await page.locator('[data-param="leaveOneOut"] .switch').click();
  await page.locator('[data-param="language"] [data-value="zh"]').click();
  await waitForHash(page, /language=zh/);
  const hash = await hashOf(page);
  for (const part of ['kernel=boxcar', 'w=2.5', 'n=120', 'leaveOneOut=false', 'language=zh']) assert.ok(hash.includes(part), `${part} in ${hash}`);
  assert.ok(!hash.includes('noise='), 'defaults stay out of the link');
  const link = await page.evaluate(() => location.href);
  assert.deepEqual(first.problems, []);
  await first.context.close();

  const second = await openPage(web.browser, link, { locale: 'en-US' });
  const other = second.page;
  assert.equal(await other.locator('html').getAttribute('lang'), 'zh-CN', 'the link\'s language wins over the web.browser\'s');
  assert.equal(await other.locator('[data-param="kernel"] [data-value="boxcar"]').getAttribute('aria-checked'), 'true');
  assert.equal(await other.locator('[data-param="w"] input[type="number"]').inputValue(), '2.5');
  assert.equal(await other.locator('[data-param="leaveOneOut"] input').isChecked(), false);
  const columns = await other.evaluate(() => document.querySelector('#heatmap .heatmap-canvas').width);
  assert.equal(columns, 120, 'the heatmap is drawn for n = 120');
  assert.deepEqual(second.problems, []);
  await second.context.close();
});

test('the table of contents scrolls without losing the state, and the hash follows the section', async () => {
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#kernel=triangular`);
  await page.locator('.toc a[href="#training"]').click();
  await waitForHash(page, /section=training/);
  const hash = await hashOf(page);
  assert.ok(hash.includes('kernel=triangular'), hash);
  // (The page scrolls smoothly: wait until it is there.)
  await page.waitForFunction(() => Math.abs(document.getElementById('training').getBoundingClientRect().top) < 120);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'training', 'focus moved to the section');
  // A hash typed by hand: the state follows, missing entries go back to their defaults.
  await page.evaluate(() => {
    location.hash = '#n=80&noise=0.1';
  });
  await page.waitForFunction(() => window.attentionLab.state.n === 80);
  const state = await stateOf(page);
  assert.equal(state.noise, 0.1);
  assert.equal(state.kernel, parameters.kernel.default);
  assert.deepEqual(problems, []);
  await context.close();
});

// [hash, check(state) or null]
const HOSTILE = [
  ['n=<script>window.__xss=1</script>', (s) => s.n === 50],
  ['kernel=<img src=x onerror="window.__xss=1">', (s) => s.kernel === 'gaussian'],
  ['kernel=javascript:window.__xss=1', (s) => s.kernel === 'gaussian'],
  ['language=%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E', null],
  ['kernel=%3Csvg%2Fonload%3Dwindow.__xss%3D1%3E&section=%3Csvg%2Fonload%3Dalert(1)%3E', (s) => s.kernel === 'gaussian'],
  ['kernel=&lt;b&gt;boxcar&lt;/b&gt;&estimator=&#97;verage', (s) => s.kernel === 'gaussian' && s.estimator === 'nadaraya-watson'],
  ['noise=2000', (s) => s.noise === 2],
  ['n=1e308&w=1e309&lr=-1e308&epochs=99999999999', (s) => s.n === 1000 && s.w === 50 && s.lr === 0.001 && s.epochs === 1000],
  ['noise=NaN&w=Infinity&lr=-Infinity&n=0x10&seed=1_000', (s) => s.noise === 0.5 && s.w === 1 && s.lr === 0.5 && s.n === 50 && s.seed === 0],
  // Past 4096 characters the hash is not read at all: kernel=boxcar is cut off.
  [`n=${'9'.repeat(5000)}&kernel=boxcar`, (s) => s.n === 50 && s.kernel === 'gaussian'],
  [`kernel=boxcar&seed=${'9'.repeat(3000)}`, (s) => s.seed === 0 && s.kernel === 'boxcar'],
  [`w=2&${'x='.padEnd(9000, 'y')}`, (s) => s.w === 2],
  [`${'a=1&'.repeat(3000)}n=7`, (s) => s.n === 50],
  ['__proto__=1&constructor=2&toString=3&hasOwnProperty=4&valueOf=x&n=60', (s) => s.n === 60],
  ['n=10&n=20&noise=0.1&noise=oops', (s) => s.n === 20 && s.noise === 0.5],
  ['%6E=300&%6Eoise=%30.2', (s) => s.n === 300 && s.noise === 0.2],
  ['n=%&kernel=%E0%A4%A&noise=%2', (s) => s.n === 50 && s.kernel === 'gaussian'],
  ['kernel=%2562oxcar&n=%2531%2530', (s) => s.kernel === 'gaussian' && s.n === 50],
  ['n=50%00&noise=\u202e0.3&seed=٥', (s) => s.noise === 0.5 && s.seed === 0],
  ['leaveOneOut=yes&estimator=NADARAYA-WATSON', (s) => s.leaveOneOut === true && s.estimator === 'nadaraya-watson'],
  ['embed=nowhere&hide=*', (s) => s.n === 50],
  ['embed=pooling&hide=%22%5D%2C*%7Bdisplay%3Anone%7D%5Bx%3D%22,kernel', null],
  ['&&&==&=x&x=&==', null],
  ['section=training&section=data', null],
];

test('hostile hashes are clamped or ignored: no dialog, no error, nothing injected', async () => {
  for (const [hash, check] of HOSTILE) {
    const { page, context, problems, dialogs } = await openPage(web.browser, `${web.server.origin}/#${hash}`);
    await settled(page);
    const label = hash.slice(0, 80);
    const report = await page.evaluate(() => ({
      xss: window.__xss,
      inlineScripts: document.querySelectorAll('script:not([src])').length,
      images: document.querySelectorAll('img, iframe, object, embed').length,
      handlers: [...document.querySelectorAll('*')].filter((node) => [...node.attributes].some((a) => a.name.startsWith('on'))).length,
      visibleSections: [...document.querySelectorAll('main > section')].filter((s) => !s.hidden).length,
      title: document.querySelector('h1').textContent,
      heatmapWidth: document.querySelector('[data-figure="pooling-heatmap"] canvas, #heatmap canvas')?.width ?? null,
    }));
    assert.equal(report.xss, undefined, `${label}: nothing ran`);
    assert.equal(report.inlineScripts, 0, `${label}: no script injected`);
    assert.equal(report.images, 0, `${label}: no element injected`);
    assert.equal(report.handlers, 0, `${label}: no event handler attribute`);
    assert.deepEqual(dialogs, [], `${label}: no dialog`);
    assert.deepEqual(problems, [], `${label}: no console error`);
    assert.ok(report.visibleSections >= 1, `${label}: sections shown`);
    const state = await stateOf(page);
    for (const [name, spec] of Object.entries(parameters)) {
      const value = state[name];
      if (spec.type === 'choice') assert.ok(spec.options.includes(value), `${label}: ${name} = ${value}`);
      else if (spec.type === 'boolean') assert.equal(typeof value, 'boolean', `${label}: ${name}`);
      else assert.ok(Number.isFinite(value) && value >= spec.min && value <= spec.max, `${label}: ${name} = ${value} in bounds`);
    }
    if (check) assert.ok(check(state), `${label}: ${JSON.stringify(state).slice(0, 300)}`);
    // The page still answers: a change of its first visible number control goes through.
    const name = await page.evaluate(() => [...document.querySelectorAll('[data-param] input[type="number"]')]
      .find((input) => input.offsetParent !== null)?.closest('[data-param]').dataset.param);
    const target = clampValue(name, parameters[name].min);
    await typeInto(page, name, target);
    await page.waitForFunction(([key, value]) => window.attentionLab.state[key] === value, [name, target]);
    await context.close();
  }
});

test('a hostile hash typed into a loaded page changes nothing it should not', async () => {
  const { page, context, problems, dialogs } = await openPage(web.browser, `${web.server.origin}/`);
  for (const [hash] of HOSTILE.slice(0, 12)) {
    await page.evaluate((text) => {
      location.hash = text;
    }, hash);
    await settled(page);
  }
  await settled(page);
  const state = await stateOf(page);
  assert.equal(state.kernel, 'gaussian');
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(problems, []);
  await context.close();
});
