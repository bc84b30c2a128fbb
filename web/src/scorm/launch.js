// A SCORM package's page (its index.html runs this script in place of
// app.js): the lab, its answers kept in the LMS. The packager
// (web/build-steps/scorm-package.mjs) writes into the page which SCORM
// version it speaks and which sections it holds:
//   <meta name="attention-lab:scorm" content="1.2">        or "2004"
//   <meta name="attention-lab:sections" content="pooling,masking">
//   <meta name="attention-lab:mastery" content="80">      the percentage right that passes
//   <meta name="attention-lab:hide" content="reveal">     only when hidden: no "Show answer"
// With the LMS's API found, the exercises' progress store reads and writes
// through cmi.suspend_data, each change reports the score and statuses and
// commits, each check and answer shown is recorded in cmi.interactions
// (answer-records.js), and leaving the page ends the session (LMSFinish / Terminate).
// Without one (the package's page opened on its own, from disk or a plain
// web server: a teacher's preview), or with one that refuses, throws or
// answers what no API answers at launch, it is the plain lab, answers in
// localStorage, under a note that says so: the learner knows their answers
// do not reach the course (scorm.notConnected).
// <html data-scorm> says which: "1.2" or "2004" when connected, "none".
// Either way the exercises have one mode, the learner's: a package is
// graded, so the hash's exercises=answers shows no answer here (a
// teacher's answer key is the plain lab's).
import { start } from '../main.js';
import { SECTIONS, SECTION_IDS } from '../sections/registry.js';
import { createProgressStore } from '../exercises/progress-store.js';
import { findApi } from './api-discovery.js';
import { API_NAME as API_12, connectScorm12 } from './scorm12.js';
import { API_NAME as API_2004, connectScorm2004 } from './scorm2004.js';
import { createSuspendDataStorage } from './suspend-data-storage.js';
import { exerciseNames, predictionNames } from './package-exercises.js';
import { createAnswerRecords } from './answer-records.js';
import { MASTERY } from './outcome.js';
import { applyHide } from '../embed.js';
import { t } from '../i18n/index.js';

const VERSIONS = Object.freeze({
  '1.2': { apiName: API_12, connect: connectScorm12 },
  '2004': { apiName: API_2004, connect: connectScorm2004 },
});

// The one mode of a package's exercises: the learner's.
const LEARNER_MODE = 'on';

const metaContent = (name) => /** @type {HTMLMetaElement | null} */ (document.querySelector(`meta[name="${name}"]`))?.content ?? null;

// The package's sections, in the registry's order; all when the page names none.
function packageSections() {
  const named = metaContent('attention-lab:sections')?.split(',').map((id) => id.trim()) ?? SECTION_IDS;
  return SECTIONS.filter(({ id }) => named.includes(id));
}

// The package's mastery threshold as a share (the manifest states the
// same), or the lab's default when the page names none it can read.
function packageMastery() {
  const text = metaContent('attention-lab:mastery')?.trim() ?? '';
  const percent = /^\d{1,3}(\.\d{1,2})?$/.test(text) ? Number(text) : NaN;
  return percent >= 0 && percent <= 100 ? percent / 100 : MASTERY;
}

// What the package hides: "reveal", the exercises' "Show answer" button
// (as the iframe's hide=reveal does).
const HIDEABLE = Object.freeze(['reveal']);
const packageHide = () => (metaContent('attention-lab:hide') ?? '').split(',').map((token) => token.trim())
  .filter((token) => HIDEABLE.includes(token));

// The session with the LMS, or null (no version named, no API, or Initialize refused).
function connect(version) {
  const spec = Object.hasOwn(VERSIONS, version) ? VERSIONS[version] : null;
  const api = spec ? findApi(window, spec.apiName) : null;
  return api ? spec.connect(api) : null;
}

// Tells the learner, above the lab, that the LMS did not store their latest
// answers (once: the note stays until the page goes).
function showUnsaved() {
  if (document.querySelector('[data-role="scorm-unsaved"]')) return;
  const note = document.createElement('p');
  note.className = 'note note-warning page-notice';
  note.setAttribute('role', 'alert');
  note.dataset.role = 'scorm-unsaved';
  note.dataset.i18n = 'scorm.unsaved';
  note.textContent = t('scorm.unsaved');
  document.getElementById('main').before(note);
}

// The session and its storage; null when there is no LMS, or when its API
// refuses or throws at launch (Initialize, a read, the first report): the
// plain lab then, as without an LMS. A session that throws later is the
// storage's to tell the learner of.
function connectStorage(version, sections) {
  try {
    const session = connect(version);
    if (!session) return null;
    const storage = createSuspendDataStorage({
      session,
      names: exerciseNames(sections),
      predictions: predictionNames(sections),
      onUnsaved: showUnsaved,
      mastery: packageMastery(),
      describe: createAnswerRecords({ sections, root: document }),
    });
    return { session, storage };
  } catch {
    return null;
  }
}

function launch() {
  const sections = packageSections();
  applyHide(document, packageHide());
  const connected = connectStorage(metaContent('attention-lab:scorm'), sections);
  document.documentElement.dataset.scorm = connected ? connected.session.version : 'none';
  const sectionIds = sections.map(({ id }) => id);
  if (!connected) {
    start({ sectionIds, exerciseMode: LEARNER_MODE, notice: 'scorm.notConnected' });
    return;
  }
  const { session, storage } = connected;
  const began = performance.now();
  let finished = false;
  // pagehide: the LMS closes the content's frame or window, or the learner
  // leaves; the session time goes with the last commit (an LMS that throws
  // now has nothing left to lose).
  window.addEventListener('pagehide', () => {
    if (finished) return;
    finished = true;
    try {
      session.finish((performance.now() - began) / 1000);
    } catch {
      // the page is going: nothing to tell
    }
  });
  start({ sectionIds, progress: createProgressStore(() => storage), exerciseMode: LEARNER_MODE });
}

launch();
