// The glue: one store, one core, five sections. A change of state is drawn
// at the next animation frame (several changes in one frame draw once); each
// redraw is timed with the User Timing API ("attention-lab:redraw", from the
// change to the finished drawing) so tests and the curious can read it.
import { createStore, parameters } from './state.js';
import { detectLanguage, setLanguage, translateTree } from './i18n/index.js';
import { createControls } from './controls.js';
import { loadCore } from './core-client.js';
import { createComputations } from './computations.js';
// The sections live in one list, shared with the embed mode and the
// <attention-lab> element: add a new section there (sections/registry.js).
import { SECTIONS } from './sections/registry.js';
// Issue 5: state in the URL hash, the iframe mode, figure export, PyTorch snippets.
import { parseHash, startHashSync } from './url-state.js';
import { sectionsToShow, startEmbedMode } from './embed.js';
import { attachSectionTools, attachFallbackExports } from './export.js';
import { syncDisabled } from './a11y.js';

async function start() {
  performance.mark('attention-lab:start');
  // Compiling the wasm runs while the page builds its sections.
  const indicator = document.getElementById('loading');
  const coreLoading = loadCore(indicator);
  // The hash's parameters go through the table like any control's (clamped or ignored).
  const view = parseHash(location.hash, SECTIONS.map(([id]) => id));
  const store = createStore({ language: detectLanguage(), ...view.params });
  setLanguage(store.get().language);
  const controls = createControls(store);
  document.querySelector('[data-slot="language"]').append(controls.choiceControl('language', {
    labelKey: 'app.language', optionKeys: { en: 'language.en', zh: 'language.zh' },
  }));
  const shown = sectionsToShow(SECTIONS, view); // all, or the one of #embed=<id>
  startEmbedMode({ view, store });
  const sections = shown.map(([id, create]) => create({ root: document.getElementById(id), store, controls }));
  let computations;
  attachSectionTools({
    sections: shown.map(([id, , declarations]) => ({ id, root: document.getElementById(id), declarations })),
    store,
    getComputations: () => computations,
  });
  attachFallbackExports(document.getElementById('main'));
  translateTree(document.body);
  controls.sync(store.get());

  try {
    computations = createComputations(await coreLoading);
    performance.mark('attention-lab:core-loaded');
  } catch (error) {
    indicator.querySelector('[data-role="load-error"]').textContent = String(error?.message ?? error);
    return;
  }

  function draw(changed) {
    const state = store.get();
    if (changed.has('language')) {
      setLanguage(state.language);
      translateTree(document.body);
    }
    controls.sync(state);
    sections.forEach((section, i) => {
      const started = performance.now();
      section.update(state, changed, computations);
      performance.measure(`attention-lab:draw:${shown[i][0]}`, { start: started, end: performance.now() });
    });
    attachFallbackExports(document.getElementById('main'));
    syncDisabled(document.getElementById('main'));
  }

  let pending = new Set();
  let changedAt = null;
  let frame = 0;
  store.subscribe((state, changed) => {
    for (const name of changed) pending.add(name);
    changedAt ??= performance.now();
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      const names = pending;
      const started = changedAt;
      pending = new Set();
      changedAt = null;
      const drawStarted = performance.now();
      draw(names);
      const finished = performance.now();
      performance.measure('attention-lab:redraw', { start: started, end: finished, detail: [...names] });
      performance.measure('attention-lab:draw', { start: drawStarted, end: finished, detail: [...names] });
    });
  });

  draw(new Set(Object.keys(parameters)));
  document.body.classList.add('is-ready');
  document.documentElement.dataset.ready = 'true';
  performance.measure('attention-lab:interactive', { start: 0, end: performance.now() });
  startHashSync({ store, view, sectionIds: SECTIONS.map(([id]) => id) });
  if (view.section && !view.embed) document.getElementById(view.section)?.scrollIntoView({ block: 'start' });

  // For tests of the error path: a value the table's bounds would never let through.
  window.attentionLab = Object.freeze({
    get state() {
      return store.get();
    },
    setUnchecked: (patch) => store.setUnchecked(patch),
  });
}

start();
