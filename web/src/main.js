// The page (started by page-entry.js): the state from the URL hash, the
// language switch, the iframe mode, and every section of the registry
// mounted into <main> (mount.js).
import { createStore } from './state.js';
import { SHARED_PARTS, detectLanguage, loadCatalogue, setLanguage, t } from './i18n/index.js';
import { createControls } from './controls.js';
import { mountLab } from './mount.js';
import { SECTION_LOADERS, SECTION_IDS } from './sections/section-loaders.js';
import { parseHash, startHashSync } from './url-state.js';
import { startEmbedMode, postProgress } from './embed.js';
import { showContentsProgress } from './contents-progress.js';
import { texReady, useTexStylesheet } from './figures/tex.js';
import { skipSectionsOutOfView, remeasureSectionsOutOfView, landOn } from './offscreen-sections.js';
import { preparePrinting } from './print-preparation.js';

// A note above the lab, in the language shown (a language switch
// re-labels it with the page: data-i18n).
function showNotice(main, key) {
  const note = document.createElement('p');
  note.className = 'note note-warning page-notice';
  note.setAttribute('role', 'status');
  note.dataset.role = 'notice';
  note.dataset.notice = key;
  note.dataset.i18n = key;
  note.textContent = t(key);
  main.before(note);
}

// progress: where the exercises' answers are kept (the mount's default,
// localStorage, unless given: a SCORM package's launch,
// web/src/scorm/launch.js, keeps them in the LMS). sectionIds: the
// sections to show (all unless given: a package of chosen sections shows
// only those). exerciseMode: the one mode of the exercises, the hash's
// exercises= then not read (a SCORM package's: the learner's, 'on', so a
// graded page never shows the answers). notice: a catalogue key, said in
// a note above the lab once its texts are there (a package not connected
// to its course says so).
/**
 * @param {object} [options]
 * @param {ReturnType<typeof import('./exercises/progress-store.js').createProgressStore>} [options.progress]
 * @param {readonly string[]} [options.sectionIds]
 * @param {string | null} [options.exerciseMode]
 * @param {string | null} [options.notice]
 */
export async function start({ progress, sectionIds = SECTION_IDS, exerciseMode = null, notice = null } = {}) {
  performance.mark('attention-lab:start');
  preparePrinting(); // the page's and a SCORM package's
  useTexStylesheet('katex.css'); // beside index.html, loaded with KaTeX
  const shown = SECTION_LOADERS.filter(({ id }) => sectionIds.includes(id));
  // The hash's parameters go through the table like any control's (clamped or ignored).
  const view = parseHash(location.hash, sectionIds);
  if (exerciseMode) view.exercises = null; // neither read nor written back
  const store = createStore({ language: detectLanguage(), ...view.params });
  const controls = createControls(store);
  document.querySelector('[data-slot="language"]').append(controls.choiceControl('language', {
    labelKey: 'app.language', optionKeys: { en: 'language.en', zh: 'language.zh' },
  }));
  const main = document.getElementById('main');
  // The sections shown (all, unless a package chose some), or the one of #embed=<id>.
  const sections = view.embed ? shown.filter(({ id }) => id === view.embed) : shown;
  const exercises = exerciseMode ?? view.exercises ?? 'on';
  let contents = null;
  // Asked for first: the mount loads the core, the language shown and the first sections' code at once.
  const lab = mountLab({
    container: main,
    sections,
    progress,
    exercises,
    // The contents bar, and the page that embeds this one in an iframe.
    onProgress(detail) {
      contents?.update(detail);
      postProgress(detail);
    },
    store,
    controls,
    indicator: document.getElementById('loading'),
    applyLanguage: setLanguage,
    translateRoot: document.body,
    heading: view.embed ? view.heading : null,
  });
  await loadCatalogue(store.get().language, SHARED_PARTS); // the sections' parts come with them (mount.js)
  setLanguage(store.get().language);
  if (notice) showNotice(main, notice);
  startEmbedMode({ view, store });
  // The spoken counts follow a new language (set here first, once its
  // catalogue is there: the sections take it up in the next frame). The
  // sections out of view are measured again once drawn in it.
  let skipping = false;
  let remeasured = Promise.resolve();
  // Settles once a language switch is shown and measured: a landing on a
  // section (an edited #language=…&section=…) holds until then.
  let switched = Promise.resolve();
  store.subscribe((state, changed) => {
    if (!changed.has('language')) return;
    switched = loadCatalogue(state.language).then(() => {
      setLanguage(store.get().language);
      contents?.relabel();
      if (skipping) remeasured = lab.drawn().then(() => remeasureSectionsOutOfView(main));
      return remeasured;
    });
  });
  // The contents bar counts each section's exercises: shown once every
  // section's code is there (asked for once the first screen is usable).
  if (exercises !== 'off') {
    lab.interactive.then(() => Promise.all(sections.map(({ load }) => load()))).then((declarations) => {
      contents = showContentsProgress({ nav: document.querySelector('.toc'), sections: declarations, progress: lab.progress });
    }, () => {}); // a section that could not load: the mount says so
  }
  const interactive = lab.interactive.then(() => { // the first screenful of sections can be used
    document.body.classList.add('is-ready');
    performance.measure('attention-lab:interactive', { start: 0, end: performance.now() });
  });
  try {
    await Promise.all([interactive, lab.ready]); // every section is drawn
    await texReady(); // and its formulas typeset
  } catch {
    return; // the indicator says why
  }
  if (!view.embed) {
    await skipSectionsOutOfView(main);
    skipping = true;
  }
  document.documentElement.dataset.ready = 'true';
  startHashSync({ store, view, sectionIds, land: (target) => landOn(target, { settling: () => switched }) });
  // The other language once the learner reaches for the switch (a pointer
  // over it, or focus): the switch is then drawn at once, and a reader who
  // never switches never downloads it (about 60 KB gzipped).
  const switcher = document.querySelector('[data-slot="language"]');
  const otherLanguage = () => loadCatalogue(store.get().language === 'zh' ? 'en' : 'zh').catch(() => {}); // not reached: loaded when switched to
  for (const intent of ['pointerenter', 'focusin']) switcher?.addEventListener(intent, otherLanguage, { once: true });
  // At once, as a browser goes to a link's #anchor: a smooth scroll past
  // every section was still under way when the reader scrolled on a slow
  // machine. Held there while the sections around it settle (landOn).
  const landing = view.section && !view.embed ? document.getElementById(view.section) : null;
  if (landing) landOn(landing);

  // For tests: the state; set() takes the controls' path (the table's
  // clamping), setUnchecked() a value the table's bounds would never let
  // through (the error path); memoryStats() is the page's own core instance's
  // (the soak test's leak check); drawn() resolves once every section,
  // those out of sight too, shows the state (after a language switch,
  // measured in it); studiesDone() resolves once no study (the consistency,
  // scaling and cost panels' core work) is waiting or under way.
  window.attentionLab = Object.freeze({
    get state() {
      return store.get();
    },
    set: (patch) => store.set(patch),
    setUnchecked: (patch) => store.setUnchecked(patch),
    memoryStats: () => lab.core.memoryStats(),
    drawn: () => lab.drawn().then(() => remeasured),
    // Loaded with the first section that has a study, not with the entry.
    studiesDone: () => import('./sections/shared/study-runner.js').then((studies) => studies.studiesDone()),
  });
}
