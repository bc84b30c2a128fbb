// The glue: one store, one core, five sections. A change of state is drawn
// at the next animation frame (several changes in one frame draw once); each
// redraw is timed with the User Timing API ("attention-lab:redraw", from the
// change to the finished drawing; the latest entry of each name is kept) so
// tests and the curious can read it.
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

// A redraw's timings replace the last ones of the same name: the browser
// keeps every User Timing entry until it is cleared, and at a dozen entries
// per redraw a lecture's worth of dragging grew the page's memory without
// bound (the soak test: ~28,000 entries, +4 MB after 10,000 changes). A
// PerformanceObserver still sees every entry.
function measure(name, options) {
  performance.clearMeasures(name);
  performance.measure(name, options);
}

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
      measure(`attention-lab:draw:${shown[i][0]}`, { start: started, end: performance.now() });
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
      measure('attention-lab:redraw', { start: started, end: finished, detail: [...names] });
      measure('attention-lab:draw', { start: drawStarted, end: finished, detail: [...names] });
    });
  });

  draw(new Set(Object.keys(parameters)));
  document.body.classList.add('is-ready');
  document.documentElement.dataset.ready = 'true';
  performance.measure('attention-lab:interactive', { start: 0, end: performance.now() });
  startHashSync({ store, view, sectionIds: SECTIONS.map(([id]) => id) });
  if (view.section && !view.embed) document.getElementById(view.section)?.scrollIntoView({ block: 'start' });

  // For tests: the state; set() takes the controls' path (the table's
  // clamping), setUnchecked() a value the table's bounds would never let
  // through (the error path); memoryStats() is the page's own core instance's
  // (the soak test's leak check).
  window.attentionLab = Object.freeze({
    get state() {
      return store.get();
    },
    set: (patch) => store.set(patch),
    setUnchecked: (patch) => store.setUnchecked(patch),
    memoryStats: () => computations.core.memoryStats(),
  });
}

start();
