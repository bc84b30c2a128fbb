// A lab inside any container, for the <attention-lab> element: the same
// sections (registry), controls, computations and draw loop as the page
// (main.js), in a shadow root instead of the document. The core is the
// page's one instance: loadAttentionCore() loads it once and every mount
// awaits the same promise.
import { createControls } from './controls.js';
import { loadCore } from './core-client.js';
import { createComputations } from './computations.js';
import { translateTree, useLanguage } from './i18n/index.js';
import { parameters } from './state.js';
import { SECTIONS } from './sections/registry.js';
import { attachSectionTools, attachFallbackExports } from './export.js';
import { syncDisabled } from './a11y.js';

export function mountLab({ container, sectionIds, store, indicator }) {
  const controls = createControls(store);
  const shown = SECTIONS.filter(([id]) => sectionIds.includes(id)).map(([id, create, declarations]) => {
    const root = document.createElement('section');
    root.id = id;
    root.dataset.section = id;
    container.append(root);
    return { id, root, declarations, section: create({ root, store, controls }) };
  });
  let computations = null;
  let core = null;
  attachSectionTools({ sections: shown, store, getComputations: () => computations });
  attachFallbackExports(container);
  useLanguage(store.get().language);
  translateTree(container);
  controls.sync(store.get());

  function draw(changed) {
    const state = store.get();
    useLanguage(state.language); // one language per page: see element.js
    if (changed.has('language')) translateTree(container);
    controls.sync(state);
    for (const { section } of shown) section.update(state, changed, computations);
    attachFallbackExports(container);
    syncDisabled(container);
  }

  let pending = new Set();
  let frame = 0;
  let disposed = false;
  const unsubscribe = store.subscribe((state, changed) => {
    for (const name of changed) pending.add(name);
    if (!computations) return; // drawn in full once the core is there
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      const names = pending;
      pending = new Set();
      if (!disposed) draw(names);
    });
  });

  const ready = loadCore(indicator).then((loaded) => {
    if (disposed) return loaded;
    core = loaded;
    computations = createComputations(loaded);
    pending = new Set();
    draw(new Set(Object.keys(parameters)));
    container.classList.add('is-ready');
    return loaded;
  }, (error) => {
    const detail = indicator?.querySelector('[data-role="load-error"]');
    if (detail) detail.textContent = String(error?.message ?? error);
    throw error;
  });

  return {
    ready,
    get core() {
      return core;
    },
    sections: shown,
    dispose() {
      disposed = true;
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
