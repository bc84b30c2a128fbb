// Grading a teacher can read, in a real LMS run-time: npm scorm-again's
// Scorm12API and Scorm2004API (what LMSs embed) on a host page served by
// this test, running packages made by `npm run scorm` (the command a
// teacher runs). Per version: the records of a wrong, a right and a shown
// answer in cmi.interactions (id, type, response, result, latency, time),
// one per check or reveal; the status at the package's --mastery; and a
// package made with --hide reveal, whose exercises have no "Show answer"
// (an answer still shows after three tries). Needs dist/ (the build).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { unzipSync, strFromU8 } from 'fflate';
import { useBrowser, openPage } from './harness.mjs';

const run = promisify(execFile);
const figures = {};
let work;

async function extract(zipFile, folder) {
  const files = unzipSync(new Uint8Array(await readFile(zipFile)));
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    await writeFile(path.join(folder, name), bytes);
  }
}

// The pooling section's packages, plain and graded (a pass mark of 25 %: one right answer of its four
// exercises, where the default 80 % needs four), made by the teacher's command, beside a host page.
const PACKAGES = { plain: [], graded: ['--mastery', '25', '--hide', 'reveal'] };
async function serveLms() {
  work = await mkdtemp(path.join(tmpdir(), 'scorm-grading-'));
  await writeFile(path.join(work, 'host.html'), '<!doctype html>\n<meta charset="utf-8">\n<title>LMS</title>\n' +
    '<script src="scorm12.js"></script>\n<script src="scorm2004.js"></script>\n<body></body>\n');
  for (const runtime of ['scorm12.js', 'scorm2004.js']) await copyFile(path.join('node_modules/scorm-again/dist', runtime), path.join(work, runtime));
  await Promise.all(Object.entries(PACKAGES).map(([kind, options]) => run(process.execPath,
    ['web/build-steps/scorm-cli.mjs', '--sections', 'pooling', ...options, '--out', path.join(work, 'zips', kind)])));
  for (const kind of Object.keys(PACKAGES)) {
    for (const tag of ['scorm12', 'scorm2004']) {
      const zip = path.join(work, 'zips', kind, `attention-lab-${tag}-pooling.zip`);
      figures[`${kind} ${tag} zip bytes`] = (await readFile(zip)).length;
      await extract(zip, path.join(work, `${kind}-${tag}`));
    }
  }
  const context = await esbuild.context({ logLevel: 'silent' });
  const { port } = await context.serve({ servedir: work, host: '127.0.0.1', port: 0 });
  return { origin: `http://127.0.0.1:${port}`, close: () => context.dispose() };
}

after(async () => {
  console.log(`scorm-grading.test.mjs: ${JSON.stringify(figures)}`);
  await rm(work, { recursive: true, force: true });
});
const shared = useBrowser({ serve: serveLms, report: ['scorm-grading.json', figures] });

// A fresh LMS session of the version, the package's page in its iframe, drawn.
async function launchInLms(version, folder) {
  const opened = await openPage(shared.browser, `${shared.server.origin}/host.html`, { ready: null, predictions: 'open' });
  await opened.page.evaluate(({ version, folder }) => {
    const api = version === '1.2' ? new window.Scorm12API({ logLevel: 5 }) : new window.Scorm2004API({ logLevel: 5 });
    window.lms = api;
    window[version === '1.2' ? 'API' : 'API_1484_11'] = api;
    const frame = document.createElement('iframe');
    frame.id = 'sco';
    frame.src = `${folder}/index.html`;
    frame.style.cssText = 'width: 1280px; height: 900px; border: 0';
    document.body.append(frame);
  }, { version, folder });
  const frame = opened.page.frameLocator('#sco');
  await frame.locator('html[data-ready="true"]').waitFor({ state: 'attached', timeout: 60000 });
  assert.equal(await frame.locator('html').getAttribute('data-scorm'), version);
  return { ...opened, frame };
}

const lmsData = (page) => page.evaluate(() => window.lms.renderCMIToJSONObject().cmi);
// cmi.interactions as scorm-again keeps them, in order.
const records = (cmi) => Object.values(cmi.interactions?.childArray ?? cmi.interactions ?? {});
const exercise = (frame, name) => frame.locator(`[data-exercise="${name}"]`);
async function choose(frame, name, option) {
  await exercise(frame, name).locator(`input[type="radio"][value="${option}"]`).check();
  await exercise(frame, name).locator('[data-action="check"]').click();
}
async function typeNumber(frame, name, value) {
  await exercise(frame, name).locator('input.exercise-number').fill(String(value));
  await exercise(frame, name).locator('[data-action="check"]').click();
}
const visibleReveals = (frame) => frame.locator('[data-exercise] [data-action="reveal"]').evaluateAll((buttons) => buttons
  .filter((button) => getComputedStyle(button).display !== 'none' && button.getClientRects().length > 0).length);
const seconds = (latency, version) => {
  if (version === '2004') return Number(latency.match(/^PT(\d+(?:\.\d{1,2})?)S$/)[1]);
  const [, hours, minutes, rest] = latency.match(/^(\d{2,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/);
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(rest);
};
const statusOf = (cmi, version) => (version === '1.2' ? cmi.core.lesson_status : cmi.success_status);

for (const [version, tag] of [['1.2', 'scorm12'], ['2004', 'scorm2004']]) {
  const wrong = version === '1.2' ? 'wrong' : 'incorrect';
  const response = version === '1.2' ? 'student_response' : 'learner_response';
  const time = version === '1.2' ? 'time' : 'timestamp';

  test(`SCORM ${version}: a wrong, a right and a shown answer, one record each in cmi.interactions; below the default 80 % the status waits`, async () => {
    const lms = await launchInLms(version, `plain-${tag}`);
    const began = Date.now();
    assert.equal(await visibleReveals(lms.frame), 4, 'a plain package shows "Show answer" on each of its four exercises');
    await choose(lms.frame, 'pooling.average-query', 'nearer'); // wrong
    await choose(lms.frame, 'pooling.average-query', 'ignores'); // right
    await typeNumber(lms.frame, 'pooling.read-prediction', 12345); // wrong: no prediction reads that
    assert.equal(await exercise(lms.frame, 'pooling.read-prediction').getAttribute('data-status'), 'wrong');
    await exercise(lms.frame, 'pooling.read-prediction').locator('[data-action="reveal"]').click();
    assert.equal(await exercise(lms.frame, 'pooling.read-prediction').getAttribute('data-status'), 'revealed');
    // Moving a control, step by step, writes no record.
    const slider = lms.frame.locator('#pooling [data-param="w"] input[type="range"]').first();
    for (let step = 0; step < 5; step += 1) await slider.press('ArrowRight');
    const cmi = await lmsData(lms.page);
    const elapsed = (Date.now() - began) / 1000;
    const kept = records(cmi);
    figures[`records (${version})`] = kept.map((one) => [one.id, one.type, one[response], one.result, one.latency, one[time]].join(' | '));
    assert.deepEqual(kept.map((one) => [one.id, one.type, one[response], one.result]), [
      ['pooling.average-query', 'choice', 'nearer', wrong],
      ['pooling.average-query', 'choice', 'ignores', 'correct'],
      ['pooling.read-prediction', 'numeric', '12345', wrong],
      ['pooling.read-prediction', 'numeric', '', 'neutral'],
    ]);
    for (const one of kept) {
      const taken = seconds(one.latency, version);
      assert.ok(taken >= 0 && taken <= elapsed + 60, `${one.id}: latency ${one.latency} within the session`);
      assert.match(one[time], version === '1.2' ? /^\d{2}:\d{2}:\d{2}$/ : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{2}Z$/);
      if (version === '2004') assert.ok(Math.abs(Date.parse(one.timestamp) - Date.now()) < 600000, one.timestamp);
    }
    // One right of four: 25 %, below the default mastery (80 %).
    assert.equal(statusOf(cmi, version), version === '1.2' ? 'incomplete' : 'unknown');
    assert.deepEqual(lms.problems, []);
    await lms.context.close();
  });

  test(`SCORM ${version}: --mastery 25 --hide reveal: passed at one right of four, no "Show answer", the answer still shown after three tries`, async () => {
    const manifest = await readFile(path.join(work, `graded-${tag}`, 'imsmanifest.xml'), 'utf8');
    assert.match(manifest, version === '1.2' ? /<adlcp:masteryscore>25<\/adlcp:masteryscore>/ : /<imsss:minNormalizedMeasure>0\.25<\/imsss:minNormalizedMeasure>/);
    const lms = await launchInLms(version, `graded-${tag}`);
    assert.equal(await lms.frame.locator('[data-exercise] [data-action="reveal"]').count(), 4, 'the buttons are there');
    assert.equal(await visibleReveals(lms.frame), 0, 'and none is shown');
    let cmi = await lmsData(lms.page);
    assert.equal(statusOf(cmi, version), version === '1.2' ? 'incomplete' : 'unknown');
    await choose(lms.frame, 'pooling.average-query', 'ignores');
    cmi = await lmsData(lms.page);
    assert.equal(statusOf(cmi, version), 'passed', 'one right of four reaches the package\'s 25 %');
    for (let tries = 0; tries < 3; tries += 1) await typeNumber(lms.frame, 'pooling.read-prediction', 12345);
    const card = exercise(lms.frame, 'pooling.read-prediction');
    assert.equal(await card.getAttribute('data-status'), 'revealed');
    assert.equal(await card.locator('.exercise-answer').isVisible(), true, 'the answer shows after the third try');
    cmi = await lmsData(lms.page);
    assert.deepEqual(records(cmi).map((one) => [one.id, one[response], one.result]), [
      ['pooling.average-query', 'ignores', 'correct'],
      ...Array.from({ length: 3 }, () => ['pooling.read-prediction', '12345', wrong]),
    ]);
    const page = strFromU8(new Uint8Array(await readFile(path.join(work, `graded-${tag}`, 'index.html'))));
    assert.match(page, /<meta name="attention-lab:hide" content="reveal">/);
    assert.deepEqual(lms.problems, []);
    await lms.context.close();
  });
}
