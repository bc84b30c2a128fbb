// Share the state: the page takes every parameter of the table from the URL
// hash and writes it back; a hostile hash is never executed or injected,
// and the page keeps working. (What the parser makes of each hash, clamped
// or ignored, is checked without a browser: tests/web/url-state.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, typeInto, settled } from './harness.mjs';
import { parameters, clampValue } from '../../web/src/state.js';
import { formatHash, parseHash } from '../../web/src/url-state.js';
import { HOSTILE_HASHES, everyParameterChanged, startingState } from '../web/url-hashes.mjs';
import { SECTIONS } from '../../web/src/sections/registry.js';

const web = useBrowser();

const hashOf = (page) => page.evaluate(() => decodeURIComponent(location.hash));
const waitForHash = (page, pattern) => page.waitForFunction((source) => new RegExp(source).test(decodeURIComponent(location.hash)), pattern.source);
const stateOf = (page) => page.evaluate(() => ({ ...window.attentionLab.state }));

test('every entry of the parameter table goes into the hash and comes back', async () => {
  const wanted = everyParameterChanged();
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

// What a hash can reach only when the page opens with it: the view (an
// embedded section, hidden parts, a course's heading, the section to show)
// and the language. Every other entry a loaded page reads the same way when
// the hash changes, so those hashes are typed into one page (below) rather
// than each opening a page of its own.
const READ_AT_LOAD = /(^|&)(lang|language|embed|hide|heading|section)\b/i;

test('hostile hashes opened: the parser\'s state, no dialog, no error, nothing injected', async () => {
  // Two pages at a time, each in its own context: a load waits on its page's frames as much as on the CPU.
  const waiting = HOSTILE_HASHES.map(([hash]) => hash).filter((hash) => READ_AT_LOAD.test(hash));
  assert.ok(waiting.length >= 8, `${waiting.length} hashes with a view or a language`);
  const checker = async () => {
    while (waiting.length > 0) await checkHostileHash(waiting.shift());
  };
  await Promise.all([checker(), checker()]);
});

// Nothing ran or was injected, nothing complained, and the page shows sections.
async function assertUnharmed(page, { problems, dialogs }, label) {
  const report = await page.evaluate(() => ({
    xss: window.__xss,
    inlineScripts: document.querySelectorAll('script:not([src])').length,
    images: document.querySelectorAll('img, iframe, object, embed').length,
    handlers: [...document.querySelectorAll('*')].filter((node) => [...node.attributes].some((a) => a.name.startsWith('on'))).length,
    visibleSections: [...document.querySelectorAll('main > section')].filter((s) => !s.hidden).length,
  }));
  assert.equal(report.xss, undefined, `${label}: nothing ran`);
  assert.equal(report.inlineScripts, 0, `${label}: no script injected`);
  assert.equal(report.images, 0, `${label}: no element injected`);
  assert.equal(report.handlers, 0, `${label}: no event handler attribute`);
  assert.deepEqual(dialogs, [], `${label}: no dialog`);
  assert.deepEqual(problems, [], `${label}: no console error`);
  assert.ok(report.visibleSections >= 1, `${label}: sections shown`);
}

// The page still answers: a change of its first visible number control goes through.
async function assertAnswers(page) {
  const name = await page.evaluate(() => [...document.querySelectorAll('[data-param] input[type="number"]')]
    .find((input) => input.offsetParent !== null)?.closest('[data-param]').dataset.param);
  const target = clampValue(name, parameters[name].min);
  await typeInto(page, name, target);
  await page.waitForFunction(([key, value]) => window.attentionLab.state[key] === value, [name, target]);
}

async function checkHostileHash(hash) {
  const opened = await openPage(web.browser, `${web.server.origin}/#${hash}`);
  const { page, context } = opened;
  await settled(page);
  const label = hash.slice(0, 80);
  await assertUnharmed(page, opened, label);
  // The page holds exactly what the parser reads from its hash (as the browser encoded it).
  assert.deepEqual(await stateOf(page), startingState(await page.evaluate(() => location.hash)), `${label}: the parser's state`);
  await assertAnswers(page);
  await context.close();
}

// A typed hash that embeds a section loads the page again, as a first load
// of it would (embed.js): those are the hashes opened above.
const SECTION_IDS = SECTIONS.map(({ id }) => id);
const embedsASection = (hash) => parseHash(hash, SECTION_IDS).embed !== null;

test('every hostile hash typed into a loaded page: the parser\'s state, no dialog, no error, nothing injected', async () => {
  const opened = await openPage(web.browser, `${web.server.origin}/`);
  const { page, context } = opened;
  for (const [hash] of HOSTILE_HASHES.filter(([typed]) => !embedsASection(typed))) {
    const label = hash.slice(0, 80);
    // The hash as the browser encoded it, once the page has had its hashchange (none when it is the same).
    const typed = await page.evaluate((text) => new Promise((resolve) => {
      const before = location.hash;
      location.hash = text;
      const encoded = location.hash;
      if (encoded === before) resolve(encoded);
      else window.addEventListener('hashchange', () => resolve(encoded), { once: true });
    }), hash);
    await settled(page);
    await assertUnharmed(page, opened, label);
    // A loaded page keeps its language where the hash names none (English here, as startingState's).
    assert.deepEqual(await stateOf(page), startingState(typed), `${label}: the parser's state`);
  }
  await assertAnswers(page);
  await context.close();
});

test('a hash with a pair the core refuses opens repaired, drawn, and the URL says so', async () => {
  // [hash, the heads shown]: each value within the table's bounds, the pair refused by the core.
  const cases = [['mhaHidden=97&mhaHeads=5', 1], ['mhaHidden=1&mhaHeads=128', 1], ['mhaHidden=128&mhaHeads=128', 64]];
  for (const [hash, heads] of cases) {
    const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/#${hash}&section=multihead`);
    await settled(page);
    const state = await stateOf(page);
    assert.equal(state.mhaHeads, heads, `${hash}: ${heads} heads`);
    assert.equal(await page.locator('#multihead .head-card').count(), heads, `${hash}: one map per head`);
    assert.equal(await page.locator('#multihead [data-error-for="mhaHeads"]').isVisible(), false, `${hash}: no error`);
    assert.equal(await page.locator('#multihead .stale-note').count(), 0, `${hash}: figures of the values shown`);
    const written = parseHash(await page.evaluate(() => location.hash)).params;
    assert.equal(written.mhaHeads, heads, `${hash}: the URL was rewritten`);
    assert.equal(written.mhaHidden, state.mhaHidden);
    assert.deepEqual(problems, []);
    await context.close();
  }
  // Typed into a loaded page: the same repair.
  const { page, context, problems } = await openPage(web.browser, `${web.server.origin}/`);
  await page.evaluate(() => {
    location.hash = '#mhaHidden=97&mhaHeads=5';
  });
  await waitForHash(page, /mhaHeads=1\b/);
  assert.equal((await stateOf(page)).mhaHeads, 1);
  assert.deepEqual(problems, []);
  await context.close();
});
