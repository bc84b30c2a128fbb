// How the mounted sections arrive (one half of mount.js; the other is
// redraw-schedule.js): the core, the texts and the sections' code, loaded
// progressively. The sections are built in order. The first ones, enough
// to fill the screen, at once: `interactive` resolves when they can be
// used. The rest follow in tasks of about TASK_BUDGET_MS, so the page
// answers the learner meanwhile, and `ready` resolves when every section is
// drawn. A section is a declaration, or { id, load } whose load() resolves
// to one (the page's sections out of sight: their code arrives while the
// first are drawn, sections/section-loaders.js).
//
// The core's trainable models come in a part of their own: a section that
// declares needsModels is built once they are here, and the sections after
// it wait for it; those before it do not. They are asked for when the first
// section that needs them is next, or once the first screen is up.
import { loadCore, loadWholeCore } from './core-client.js';
import { SHARED_PARTS, hasCatalogue, loadCatalogue } from './i18n/index.js';
import { TASK_BUDGET_MS, measure } from './mount-timing.js';

const nextTask = () => new Promise((resolve) => {
  setTimeout(resolve, 0);
});

// sections, store, indicator: as mountLab's. container: where the sections
// go (the first screen is full when it reaches the bottom of the window).
// What the mount does at each step: begin(core) once the core is loaded,
// before the first section is built; useModels(wholeCore) once the models'
// part is; show(declaration) builds a section; syncControls() after a batch
// of sections; firstScreenShown() once the first ones are built.
export function loadSections({
  sections, store, indicator, container, begin, useModels, show, syncControls, firstScreenShown,
}) {
  let disposed = false;

  let models = null;
  let modelsLoaded = false;
  const loadModels = () => {
    models ??= loadWholeCore(indicator).then((whole) => {
      measure('attention-lab:models-loaded', { start: 0, end: performance.now() });
      modelsLoaded = true;
      if (!disposed) useModels(whole);
    });
    return models;
  };
  const waitsForModels = (declaration) => declaration?.needsModels === true && !modelsLoaded;

  let resolveInteractive;
  const interactive = new Promise((resolve) => {
    resolveInteractive = resolve;
  });
  function showLoadError(error) {
    const detail = indicator?.querySelector('[data-role="load-error"]');
    if (detail) detail.textContent = String(error?.message ?? error);
  }
  function loadFailed(error) {
    showLoadError(error);
    resolveInteractive(Promise.reject(error));
    throw error;
  }
  const declarationOf = (section) => (section.load ? section.load() : section);
  // The catalogue's parts a section needs (i18n/catalogue-parts.js): the
  // shared ones and its own, named by its id; every part for a section
  // given as a declaration (an element's: its one script holds them all).
  const partsOf = (section) => (section.load ? [...SHARED_PARTS, section.id] : undefined);
  let partsShown = new Set(SHARED_PARTS); // those of the sections shown; null: every part
  const textParts = () => (partsShown ? [...partsShown] : undefined);
  // A section's code, with its catalogue part in the language shown when asked for.
  const loadSection = (section) => Promise.all([declarationOf(section), loadCatalogue(store.get().language, partsOf(section))])
    .then(([declaration]) => declaration);
  // Before a section is shown: its part, in the language shown now (a switch meanwhile asks for another).
  const partsReady = (section) => {
    if (section.load) partsShown?.add(section.id);
    else partsShown = null;
    return loadCatalogue(store.get().language, textParts());
  };
  // Asked for at once: the core, the language shown and the first section's code arrive together.
  const firstDeclaration = sections.length > 0 ? loadSection(sections[0]) : null;
  firstDeclaration?.catch(() => {}); // heard when awaited below
  const ready = Promise.all([loadCore(indicator), loadCatalogue(store.get().language, SHARED_PARTS)]).then(async ([loaded]) => {
    // Where the time to interactive goes: the core's download and compile up to here, building and drawing after.
    measure('attention-lab:core-loaded', { start: 0, end: performance.now() });
    if (disposed) {
      resolveInteractive();
      return loaded;
    }
    // The core's limits complete the table's constraints (state.js): the
    // state is repaired before anything asks the core.
    store.useLimits?.(loaded.limits);
    const building = performance.now();
    // The shared texts of the language shown now: a switch while the core loaded asked for another's.
    await loadCatalogue(store.get().language, SHARED_PARTS);
    await firstDeclaration;
    if (disposed) {
      resolveInteractive();
      return loaded;
    }
    begin(loaded);
    const waiting = [...sections];
    while (waiting.length > 0) {
      const section = waiting.shift();
      const declaration = await (section === sections[0] ? firstDeclaration : loadSection(section));
      if (disposed) break;
      if (waitsForModels(declaration)) await loadModels().catch(loadFailed);
      await partsReady(section).catch(loadFailed);
      if (disposed) break;
      show(declaration);
      if (container.getBoundingClientRect().bottom > window.innerHeight) break;
    }
    firstScreenShown();
    measure('attention-lab:first-sections-built', { start: building, end: performance.now() });
    resolveInteractive();
    // The code and texts of the sections out of sight, asked for together now.
    const later = waiting.map(loadSection);
    for (const declaration of later) declaration.catch(() => {}); // heard when awaited below
    // The models' part, asked for as soon as a section out of sight turns out to need it.
    for (const declaration of later) {
      declaration.then((section) => {
        if (waitsForModels(section)) loadModels().catch(() => {}); // heard of below
      }, () => {});
    }
    await nextTask();
    let started = performance.now();
    for (const [index, declaration] of later.entries()) {
      if (disposed) break;
      const section = await declaration;
      if (disposed) break;
      if (waitsForModels(section)) {
        syncControls();
        try {
          await loadModels();
        } catch (error) {
          showLoadError(error);
          throw error;
        }
        if (disposed) break;
      }
      await partsReady(waiting[index]);
      if (disposed) break;
      show(section);
      if (performance.now() - started >= TASK_BUDGET_MS) {
        syncControls();
        await nextTask();
        started = performance.now();
      }
    }
    if (!disposed) syncControls();
    measure('attention-lab:sections-built', { start: building, end: performance.now() });
    return loaded;
  }, (error) => {
    showLoadError(error);
    resolveInteractive(Promise.reject(error));
    throw error;
  });
  interactive.catch(() => {}); // a caller that only awaits `ready` hears of a failure there
  // A failure is on the indicator already; a caller still awaiting something
  // else (the page: its shared texts) when it comes hears of it when it awaits.
  ready.catch(() => {});

  return {
    interactive,
    ready,
    // null when the texts of the sections shown are loaded in `language`, else a promise of them.
    missingTexts(language) {
      return hasCatalogue(language, textParts()) ? null : loadCatalogue(language, textParts());
    },
    // Nothing more is built or handed to the mount; what is under way is let go.
    dispose() {
      disposed = true;
    },
  };
}
