// The page (started by page-entry.js): the state from the URL hash, the
// language switch, the iframe mode, and every section of the registry
// mounted into <main> (mount.js).
import { createStore } from './state.js';
import { detectLanguage, setLanguage } from './i18n/index.js';
import { createControls } from './controls.js';
import { mountLab } from './mount.js';
import { SECTIONS, SECTION_IDS } from './sections/registry.js';
import { parseHash, startHashSync } from './url-state.js';
import { startEmbedMode, postProgress } from './embed.js';
import { createProgressStore } from './exercises/progress-store.js';
import { showContentsProgress } from './contents-progress.js';

// progress: where the exercises' answers are kept (localStorage unless
// given: a SCORM package's launch, web/src/scorm/launch.js, keeps them in
// the LMS). sectionIds: the sections to show (all unless given: a package
// of chosen sections shows only those).
export async function start({ progress, sectionIds = SECTION_IDS } = {}) {
  performance.mark('attention-lab:start');
  const shown = SECTIONS.filter(({ id }) => sectionIds.includes(id));
  // The hash's parameters go through the table like any control's (clamped or ignored).
  const view = parseHash(location.hash, sectionIds);
  const store = createStore({ language: detectLanguage(), ...view.params });
  setLanguage(store.get().language);
  const controls = createControls(store);
  document.querySelector('[data-slot="language"]').append(controls.choiceControl('language', {
    labelKey: 'app.language', optionKeys: { en: 'language.en', zh: 'language.zh' },
  }));
  startEmbedMode({ view, store });
  const main = document.getElementById('main');
  // The sections shown (all, unless a package chose some), or the one of #embed=<id>.
  const sections = view.embed ? shown.filter(({ id }) => id === view.embed) : shown;
  const exercises = view.exercises ?? 'on';
  const answers = progress ?? createProgressStore();
  const contents = exercises === 'off' ? null
    : showContentsProgress({ nav: document.querySelector('.toc'), sections, progress: answers });
  // The spoken counts follow a new language (set here first: the sections
  // take it up in the next frame).
  store.subscribe((state, changed) => {
    if (!contents || !changed.has('language')) return;
    setLanguage(state.language);
    contents.relabel();
  });
  const lab = mountLab({
    container: main,
    sections,
    progress: answers,
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
  const interactive = lab.interactive.then(() => { // the first screenful of sections can be used
    document.body.classList.add('is-ready');
    performance.measure('attention-lab:interactive', { start: 0, end: performance.now() });
  });
  try {
    await Promise.all([interactive, lab.ready]); // every section is drawn
  } catch {
    return; // the indicator says why
  }
  document.documentElement.dataset.ready = 'true';
  startHashSync({ store, view, sectionIds });
  if (view.section && !view.embed) document.getElementById(view.section)?.scrollIntoView({ block: 'start' });

  // For tests: the state; set() takes the controls' path (the table's
  // clamping), setUnchecked() a value the table's bounds would never let
  // through (the error path); memoryStats() is the page's own core instance's
  // (the soak test's leak check); drawn() resolves once every section,
  // those out of sight too, shows the state.
  window.attentionLab = Object.freeze({
    get state() {
      return store.get();
    },
    set: (patch) => store.set(patch),
    setUnchecked: (patch) => store.setUnchecked(patch),
    memoryStats: () => lab.core.memoryStats(),
    drawn: () => lab.drawn(),
  });
}
