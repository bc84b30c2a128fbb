// The SCORM packages in a real LMS run-time: npm scorm-again's Scorm12API and
// Scorm2004API (what LMSs embed) on a host page served by this test, which
// opens the package's page, extracted from the built zip, in an iframe, as
// an LMS does. Answers are stored and reported (score, statuses,
// suspend_data read through the API's cmi), the session ends when the frame
// goes (LMSFinish / Terminate), and a new API object loaded with what the
// LMS stored brings the answers back. Also: a package of chosen sections
// (made by `npm run scorm`), and the package's page without an LMS, over
// http and from file://. Needs dist/ (the build, with dist/scorm/).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { unzipSync } from 'fflate';
import { SECTIONS } from '../../web/src/sections/registry.js';
import { useBrowser, openPage, DIST } from './harness.mjs';
import { decodeSuspendData } from '../../web/src/scorm/suspend-data.js';
import { wrapApi } from '../web/hostile-lms.mjs';
import { assembleCatalogue } from '../../web/src/i18n/catalogue-files.js';

const started = performance.now();
const run = promisify(execFile);
const SCORM12_SUSPEND_DATA_LIMIT = 4096;
const figures = {};
let work;

const exerciseCount = (ids) => SECTIONS.filter(({ id }) => ids.includes(id)).reduce((sum, { exercises = [] }) => sum + (exercises?.length ?? 0), 0);
const ALL_EXERCISES = exerciseCount(SECTIONS.map(({ id }) => id));
const percent = (share) => Math.round(share * 10000) / 100;
const scaled = (share) => Math.round(share * 10000) / 10000;

async function extract(zipFile, folder) {
  const files = unzipSync(new Uint8Array(await readFile(zipFile)));
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), bytes);
  }
}

// The LMS's site: a host page with scorm-again's run-times, and the packages unpacked beside it.
async function serveLms() {
  work = await mkdtemp(path.join(tmpdir(), 'scorm-lms-'));
  await writeFile(path.join(work, 'host.html'), '<!doctype html>\n<meta charset="utf-8">\n<title>LMS</title>\n' +
    '<script src="scorm12.js"></script>\n<script src="scorm2004.js"></script>\n<body></body>\n');
  for (const runtime of ['scorm12.js', 'scorm2004.js']) await copyFile(path.join('node_modules/scorm-again/dist', runtime), path.join(work, runtime));
  for (const tag of ['scorm12', 'scorm2004']) {
    const zip = path.join(DIST, 'scorm', `attention-lab-${tag}.zip`);
    figures[`${tag} zip bytes`] = (await readFile(zip)).length;
    await extract(zip, path.join(work, `whole-${tag}`));
  }
  // Packages of chosen sections, made by the command a teacher runs (`npm run scorm` runs this script), side by side.
  const chosen = [['pooling,masking', '2004'], ['pooling', '1.2']];
  await Promise.all(chosen.map(([sections, version]) => run(process.execPath,
    ['web/build-steps/scorm-cli.mjs', '--sections', sections, '--version', version, '--out', path.join(work, 'zips')])));
  for (const [sections, version] of chosen) {
    const name = `attention-lab-scorm${version.replace('.', '')}-${sections.replace(',', '-')}`;
    await extract(path.join(work, 'zips', `${name}.zip`), path.join(work, name));
  }
  const context = await esbuild.context({ logLevel: 'silent' });
  const { port } = await context.serve({ servedir: work, host: '127.0.0.1', port: 0 });
  return { origin: `http://127.0.0.1:${port}`, close: () => context.dispose() };
}

// Before useBrowser's own: the figures are complete when it writes them to test-results/scorm.json.
after(async () => {
  figures['browser test seconds'] = Math.round((performance.now() - started) / 100) / 10;
  console.log(`scorm.test.mjs: ${JSON.stringify(figures)}`);
  await rm(work, { recursive: true, force: true });
});
const shared = useBrowser({ serve: serveLms, report: ['scorm.json', figures] });

// A new LMS session: the host page, a fresh API object (loaded with what the
// LMS stored, if anything), the package's page in an iframe, drawn (or,
// with `until`, as far as that element of it: the rest is built meanwhile).
// `hostile`: the options of hostile-lms.mjs's wrapApi (an API that throws, or lies).
// `hash`: the package page's URL hash (a link a learner was given, say).
async function launchInLms({ version, folder, stored = null, until = 'html[data-ready="true"]', hostile = null, hash = '' }) {
  const opened = await openPage(shared.browser, `${shared.server.origin}/host.html`, { ready: null, predictions: 'open' });
  await opened.page.evaluate(({ version, folder, stored, hostile, wrap, hash }) => {
    const api = version === '1.2' ? new window.Scorm12API({ logLevel: 5 }) : new window.Scorm2004API({ logLevel: 5 });
    if (stored) api.loadFromJSON(stored);
    if (hostile) (0, eval)(`(${wrap})`)(api, version, hostile); // eslint-disable-line no-eval
    // What the content calls, in order.
    window.lmsCalls = [];
    for (const name of ['LMSInitialize', 'LMSCommit', 'LMSFinish', 'Initialize', 'Commit', 'Terminate']) {
      if (typeof api[name] !== 'function') continue;
      const call = api[name].bind(api);
      api[name] = (...args) => {
        window.lmsCalls.push(name);
        return call(...args);
      };
    }
    window.lms = api;
    window[version === '1.2' ? 'API' : 'API_1484_11'] = api;
    const frame = document.createElement('iframe');
    frame.id = 'sco';
    frame.src = `${folder}/index.html${hash}`;
    frame.style.cssText = 'width: 1280px; height: 900px; border: 0';
    document.body.append(frame);
  }, { version, folder, stored, hostile, wrap: hostile ? wrapApi.toString() : null, hash });
  const frame = opened.page.frameLocator('#sco');
  await frame.locator(until).waitFor({ state: 'attached', timeout: 30000 });
  return { ...opened, frame };
}

// What the LMS holds now: its cmi object as JSON.
const lmsData = (page) => page.evaluate(() => window.lms.renderCMIToJSONObject().cmi);
const lmsCalls = (page) => page.evaluate(() => window.lmsCalls);

const exercise = (frame, name) => frame.locator(`[data-exercise="${name}"]`);

// The note of a package not connected to its course: above the lab, in the
// page's language, in the first screenful.
const catalogues = { en: assembleCatalogue('en'), zh: assembleCatalogue('zh') };
async function assertNotConnected(target, language, label) {
  const note = target.locator('[data-notice="scorm.notConnected"]');
  await note.waitFor({ state: 'visible' });
  assert.equal(await note.count(), 1, label);
  assert.equal((await note.textContent()).trim(), catalogues[language]['scorm.notConnected'], label);
  const top = await note.evaluate((node) => node.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 400, `${label}: on the first screen (${top} px from the top)`);
}

// The learner's exercises only, whatever the hash asked: no teacher's note,
// no answer shown but those of exercises finished by showing it.
async function assertLearnerMode(target, label) {
  assert.ok(await target.locator('[data-role="exercises"]').count() > 0, label);
  assert.equal(await target.locator('[data-role="exercises"]:not([data-mode="on"])').count(), 0, `${label}: the learner's mode`);
  assert.equal(await target.locator('[data-role="teacher-note"]').count(), 0, `${label}: no teacher's note`);
  const answers = await target.locator('[data-exercise]:not([data-status="revealed"]) .exercise-answer')
    .evaluateAll((nodes) => nodes.filter((node) => !node.hidden).length);
  assert.equal(answers, 0, `${label}: no answer shown`);
}
async function choose(frame, name, option) {
  await exercise(frame, name).locator(`input[type="radio"][value="${option}"]`).check();
  await exercise(frame, name).locator('[data-action="check"]').click();
}

// The whole lab, through one version's API: answer, store, close, come back, finish everything.
async function roundTrip(version) {
  const tag = `scorm${version.replace('.', '')}`;
  // Answered as soon as the two exercises are there (the machine may be slow to draw every section).
  const first = await launchInLms({ version, folder: `whole-${tag}`, until: '[data-exercise="masking.masked-weight"][data-status]' });
  assert.equal(await first.frame.locator('html').getAttribute('data-scorm'), version);
  await choose(first.frame, 'pooling.average-query', 'ignores'); // right
  await choose(first.frame, 'masking.masked-weight', 'score'); // wrong
  assert.equal(await exercise(first.frame, 'pooling.average-query').getAttribute('data-status'), 'right');
  assert.equal(await exercise(first.frame, 'masking.masked-weight').getAttribute('data-status'), 'wrong');

  let cmi = await lmsData(first.page);
  const stored = decodeSuspendData(cmi.suspend_data);
  // Each bound to the settings it was answered at: the defaults ({}: none off them).
  assert.deepEqual({ ...stored['pooling.average-query'] }, { status: 'right', attempts: 1, instance: 0, given: {} });
  assert.deepEqual({ ...stored['masking.masked-weight'] }, { status: 'wrong', attempts: 1, instance: 0, given: {} });
  const oneRight = 1 / ALL_EXERCISES;
  // One record of each check (tests/browser/scorm-grading.test.mjs reads them field by field).
  const records = (data) => Object.values(data.interactions?.childArray ?? data.interactions ?? {});
  assert.deepEqual(records(cmi).map(({ id, result }) => [id, result]),
    [['pooling.average-query', 'correct'], ['masking.masked-weight', version === '1.2' ? 'wrong' : 'incorrect']]);
  if (version === '1.2') {
    assert.equal(cmi.core.lesson_status, 'incomplete');
    assert.equal(Number(cmi.core.score.raw), percent(oneRight));
    assert.equal(Number(cmi.core.score.min), 0);
    assert.equal(Number(cmi.core.score.max), 100);
    assert.equal(cmi.core.exit, 'suspend');
  } else {
    assert.equal(cmi.completion_status, 'incomplete');
    assert.equal(cmi.success_status, 'unknown');
    assert.equal(Number(cmi.score.scaled), scaled(oneRight));
    assert.equal(Number(cmi.score.raw), percent(oneRight));
    assert.equal(Number(cmi.progress_measure), scaled(1 / ALL_EXERCISES)); // the wrong one is not finished
  }
  // Committed at every answer: launch, then two checks (a check also saves).
  const calls = await lmsCalls(first.page);
  assert.equal(calls[0], version === '1.2' ? 'LMSInitialize' : 'Initialize');
  assert.ok(calls.filter((name) => name === 'LMSCommit' || name === 'Commit').length >= 3, calls.join());

  // The LMS closes the content: the page's pagehide ends the session.
  await first.page.evaluate(() => document.getElementById('sco').remove());
  await first.page.waitForFunction(() => window.lmsCalls.includes('LMSFinish') || window.lmsCalls.includes('Terminate'));
  cmi = await lmsData(first.page);
  const sessionTime = version === '1.2' ? cmi.core.session_time : cmi.session_time;
  assert.match(sessionTime, version === '1.2' ? /^\d{2,4}:\d{2}:\d{2}(\.\d{1,2})?$/ : /^PT[\d.]+S$/);
  assert.deepEqual(first.problems, []);
  await first.context.close();

  // The learner comes back: a new API object with what the LMS stored.
  const keep = version === '1.2'
    ? { suspend_data: cmi.suspend_data, core: { entry: 'resume', lesson_status: cmi.core.lesson_status, score: cmi.core.score } }
    : { suspend_data: cmi.suspend_data, entry: 'resume', completion_status: cmi.completion_status, success_status: cmi.success_status, score: cmi.score };
  const second = await launchInLms({ version, folder: `whole-${tag}`, stored: keep });
  assert.equal(await second.frame.locator('[data-exercise]').count(), ALL_EXERCISES);
  assert.equal(await exercise(second.frame, 'pooling.average-query').getAttribute('data-status'), 'right');
  assert.equal(await exercise(second.frame, 'masking.masked-weight').getAttribute('data-status'), 'wrong');
  assert.equal(await exercise(second.frame, 'masking.row-lengths').getAttribute('data-status'), 'open');
  cmi = await lmsData(second.page);
  assert.equal(Number(version === '1.2' ? cmi.core.score.raw : cmi.score.raw), percent(oneRight));

  // Every other exercise of the lab finished by its "Show answer" button (clicked in the page, in one
  // go: dozens of them): complete, but below the mastery threshold.
  await second.frame.locator('[data-exercise]:not([data-status="right"]) [data-action="reveal"]')
    .evaluateAll((buttons) => buttons.forEach((button) => button.click()));
  assert.equal(await second.frame.locator('[data-exercise][data-status="revealed"]').count(), ALL_EXERCISES - 1);
  cmi = await lmsData(second.page);
  figures[`suspend_data characters, all ${ALL_EXERCISES} exercises finished (${version})`] = cmi.suspend_data.length;
  // One record of each answer shown, neutral: a new session's, from the count this LMS handed back (none).
  const shown = records(cmi);
  assert.equal(shown.length, ALL_EXERCISES - 1);
  assert.ok(shown.every(({ result }) => result === 'neutral'), shown.map(({ result }) => result).join());
  assert.ok(cmi.suspend_data.length <= SCORM12_SUSPEND_DATA_LIMIT);
  assert.equal(Object.keys(decodeSuspendData(cmi.suspend_data)).length, ALL_EXERCISES);
  if (version === '1.2') {
    assert.equal(cmi.core.lesson_status, oneRight >= 0.8 ? 'passed' : 'failed');
    assert.equal(Number(cmi.core.score.raw), percent(oneRight));
  } else {
    assert.equal(cmi.completion_status, 'completed');
    assert.equal(cmi.success_status, oneRight >= 0.8 ? 'passed' : 'failed');
    assert.equal(Number(cmi.progress_measure), 1);
    assert.equal(Number(cmi.score.scaled), scaled(oneRight));
  }
  assert.deepEqual(second.problems, []);
  await second.context.close();
}

test('SCORM 1.2: answers reported and stored in the LMS, brought back on return, completion when all are finished', () => roundTrip('1.2'));

test('SCORM 2004: answers reported and stored in the LMS, brought back on return, completion when all are finished', () => roundTrip('2004'));

for (const [sections, version] of [[['pooling', 'masking'], '2004'], [['pooling'], '1.2']]) {
  test(`a package of ${sections.join(' and ')} (SCORM ${version}): only those sections, scored over their exercises`, async () => {
    const name = `attention-lab-scorm${version.replace('.', '')}-${sections.join('-')}`;
    const lms = await launchInLms({ version, folder: name });
    const shown = await lms.frame.locator('main > [data-section]').evaluateAll((nodes) => nodes.map((node) => node.dataset.section));
    assert.deepEqual(shown, sections);
    const total = exerciseCount(sections);
    assert.equal(await lms.frame.locator('[data-exercise]').count(), total);
    await choose(lms.frame, 'pooling.average-query', 'ignores');
    const cmi = await lmsData(lms.page);
    if (version === '1.2') assert.equal(Number(cmi.core.score.raw), percent(1 / total));
    else assert.equal(Number(cmi.score.scaled), scaled(1 / total));
    assert.deepEqual(lms.problems, []);
    await lms.context.close();
  });
}

for (const [version, folder] of [['1.2', 'attention-lab-scorm12-pooling'], ['2004', 'attention-lab-scorm2004-pooling-masking']]) {
  test(`SCORM ${version}: an LMS that throws at launch gives the plain lab; one that throws later, a note, and the learner keeps working`, async () => {
    // Initialize, GetValue, a value's toString, SetValue, Commit: each once left the package blank (never ready).
    for (const throws of ['initialize', 'get', 'toString', 'set', 'commit']) {
      const lms = await launchInLms({ version, folder, hostile: { throws } });
      assert.equal(await lms.frame.locator('html').getAttribute('data-scorm'), 'none', throws);
      assert.equal(await lms.frame.locator('[data-exercise]').count(), exerciseCount(folder.includes('masking') ? ['pooling', 'masking'] : ['pooling']));
      // The learner is told their answers do not reach the course (once silent).
      await assertNotConnected(lms.frame, 'en', throws);
      await choose(lms.frame, 'pooling.average-query', 'ignores');
      assert.equal(await exercise(lms.frame, 'pooling.average-query').getAttribute('data-status'), 'right', throws);
      assert.equal(await lms.frame.locator('[data-role="scorm-unsaved"]').count(), 0, `${throws}: nothing said unsaved`);
      assert.deepEqual(lms.problems, [], throws);
      await lms.context.close();
    }
    // Every Commit after the launch's throws: the answer stays, and the learner is told it is not stored.
    const lms = await launchInLms({ version, folder, hostile: { throws: 'commit', after: 1 } });
    assert.equal(await lms.frame.locator('html').getAttribute('data-scorm'), version);
    assert.equal(await lms.frame.locator('[data-notice="scorm.notConnected"]').count(), 0, 'connected: no such note');
    const note = lms.frame.locator('[data-role="scorm-unsaved"]');
    assert.equal(await note.count(), 0, 'nothing unsaved at launch');
    await choose(lms.frame, 'pooling.average-query', 'ignores');
    assert.equal(await exercise(lms.frame, 'pooling.average-query').getAttribute('data-status'), 'right');
    await note.waitFor({ state: 'visible' });
    assert.match(await note.textContent(), /did not store your latest answers/);
    assert.deepEqual(lms.problems, []);
    await lms.context.close();
  });
}

test('SCORM 1.2: suspend_data the page does not accept, or another package\'s, is neither scored nor kept', async () => {
  // Nine tries, and 4,000 characters of another package's answers, from an LMS that keeps 1.2's 4,096 strictly.
  const foreign = `other:${Array.from({ length: 600 }, (_, i) => `x${i}=r1`).join(',')}`.slice(0, 4000).replace(/,[^,]*$/, '');
  const stored = { suspend_data: `1;pooling:average-query=r9;${foreign}`, core: { entry: 'resume' } };
  const lms = await launchInLms({ version: '1.2', folder: 'attention-lab-scorm12-pooling', stored, hostile: { strict: true } });
  assert.equal(await lms.frame.locator('html').getAttribute('data-scorm'), '1.2');
  assert.equal(await exercise(lms.frame, 'pooling.average-query').getAttribute('data-status'), 'open');
  let cmi = await lmsData(lms.page);
  assert.equal(Number(cmi.core.score.raw), 0, 'once 1.85 while the page showed every exercise open');
  assert.equal(cmi.suspend_data, '1');
  await choose(lms.frame, 'pooling.average-query', 'ignores');
  cmi = await lmsData(lms.page);
  assert.deepEqual(Object.keys(decodeSuspendData(cmi.suspend_data)), ['pooling.average-query'], 'the answer is stored');
  assert.equal(Number(cmi.core.score.raw), percent(1 / exerciseCount(['pooling'])));
  assert.deepEqual(await lms.page.evaluate(() => window.lms.hostile.refusals), []);
  assert.equal(await lms.frame.locator('[data-role="scorm-unsaved"]').count(), 0);
  assert.deepEqual(lms.problems, []);
  await lms.context.close();
});

// A graded package: a link with #exercises=answers shows the learner's
// exercises all the same (the teacher's answer key is the plain lab's), and
// the score is still reported. A prediction the LMS holds as wrong (w1, its
// one try made) comes back as that try left it: revealed, nothing left to
// check, and written back so (v1).
test('SCORM 2004: #exercises=answers shows no answer in a package; a prediction stored as wrong comes back revealed, and is stored so', async () => {
  const folder = 'attention-lab-scorm2004-pooling-masking';
  const stored = { suspend_data: '1;pooling:narrower-kernel=w1', entry: 'resume' };
  const lms = await launchInLms({ version: '2004', folder, stored, hash: '#exercises=answers' });
  assert.equal(await lms.frame.locator('html').getAttribute('data-scorm'), '2004');
  await assertLearnerMode(lms.frame, 'connected, #exercises=answers');
  const hash = () => lms.frame.locator('html').evaluate(() => location.hash);
  assert.doesNotMatch(await hash(), /exercises=/, 'the URL says the mode shown, at once');
  const prediction = exercise(lms.frame, 'pooling.narrower-kernel');
  assert.equal(await prediction.getAttribute('data-status'), 'revealed');
  assert.equal(await prediction.locator('[data-action="check"]').getAttribute('aria-disabled'), 'true', 'no second try');
  const total = exerciseCount(['pooling', 'masking']);
  let cmi = await lmsData(lms.page);
  assert.equal(cmi.suspend_data, '1;pooling:narrower-kernel=v1', 'written back as the page shows it');
  assert.equal(Number(cmi.progress_measure), scaled(1 / total), 'finished');
  await choose(lms.frame, 'pooling.average-query', 'ignores');
  cmi = await lmsData(lms.page);
  assert.equal(Number(cmi.score.raw), percent(1 / total), 'the score is reported');
  assert.doesNotMatch(await hash(), /exercises=/, 'not written back into the URL');
  assert.equal(await lms.frame.locator('[data-notice="scorm.notConnected"]').count(), 0);
  assert.deepEqual(lms.problems, []);
  await lms.context.close();
});

// The pooling package: what is checked here does not depend on the sections, and one section loads fastest.
// A teacher previewing it outside an LMS sees what a learner would: the note, and no answers mode.
test('without an LMS the package\'s page is the plain lab under a note: over http (answers in localStorage) and from file://', async () => {
  const folder = 'attention-lab-scorm12-pooling';
  const alone = await openPage(shared.browser, `${shared.server.origin}/${folder}/index.html#exercises=answers`, { predictions: 'open' });
  assert.equal(await alone.page.locator('html').getAttribute('data-scorm'), 'none');
  await assertNotConnected(alone.page, 'en', 'over http');
  await assertLearnerMode(alone.page, 'over http, #exercises=answers');
  await choose(alone.page, 'pooling.average-query', 'ignores');
  assert.equal(await exercise(alone.page, 'pooling.average-query').getAttribute('data-status'), 'right');
  const saved = JSON.parse(await alone.page.evaluate(() => localStorage.getItem('attention-lab:exercises')));
  assert.deepEqual(saved.exercises['pooling.average-query'], { status: 'right', attempts: 1, instance: 0, given: {} });
  assert.deepEqual(alone.problems, []);
  await alone.context.close();

  const fromDisk = await openPage(shared.browser, `${pathToFileURL(path.join(work, folder, 'index.html')).href}#language=zh&exercises=answers`,
    { predictions: 'open' });
  assert.equal(await fromDisk.page.locator('html').getAttribute('data-scorm'), 'none');
  await assertNotConnected(fromDisk.page, 'zh', 'from file://, in Chinese');
  await assertLearnerMode(fromDisk.page, 'from file://, #exercises=answers');
  assert.equal(await fromDisk.page.locator('[data-exercise]').count(), exerciseCount(['pooling']));
  await choose(fromDisk.page, 'pooling.average-query', 'nearer');
  assert.equal(await exercise(fromDisk.page, 'pooling.average-query').getAttribute('data-status'), 'wrong');
  assert.deepEqual(fromDisk.problems, []);
  assert.ok(fromDisk.requests.every((url) => url.startsWith('file://') || url.startsWith('data:')), fromDisk.requests.join('\n'));
  await fromDisk.context.close();
});

// A short run of the attention-training section played to its end in
// `target` (a page or the LMS's frame): where it trained.
async function trainingThreadOf(target) {
  const section = target.locator('#attention-training');
  await section.scrollIntoViewIfNeeded();
  await section.locator('[data-action="at-play"]').click();
  const status = section.locator('[data-role="at-status"]');
  await status.and(target.locator('[data-status="done"]')).waitFor({ timeout: 120000 });
  return { thread: await status.getAttribute('data-thread'), step: await section.locator('[data-role="at-step"]').getAttribute('data-value') };
}

test('a package trains its models in a worker, in the LMS and opened from file://', async () => {
  const hash = '#atSteps=100&atSpeed=1000';
  const launched = await launchInLms({ version: '2004', folder: 'whole-scorm2004', hash });
  assert.deepEqual(await trainingThreadOf(launched.frame), { thread: 'worker', step: '100' }, 'in the LMS');
  assert.deepEqual(launched.problems, []);
  await launched.context.close();

  const fromDisk = await openPage(shared.browser, `${pathToFileURL(path.join(work, 'whole-scorm12', 'index.html')).href}${hash}`);
  assert.deepEqual(await trainingThreadOf(fromDisk.page), { thread: 'worker', step: '100' }, 'from file://');
  assert.deepEqual(fromDisk.problems, []);
  await fromDisk.context.close();
});
