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
// Every section, first screenful or rest, arrives by the same steps
// (arrive()): its declaration, the part of the core it needs if the core
// loaded so far lacks it, its texts in the language shown; then the mount
// shows it.
//
// The core comes in parts (core-files.js: the cues', the basics, the
// models), each with every function of the one before. The first section's
// part comes first (the cues' for the page: the first screen waits for no
// more), never the models. A section whose part is not here yet is built
// once it is, and the sections after it wait for it; those before it do
// not. A part is asked for when the first section that needs it is next,
// or as soon as a section out of sight turns out to need it.
import { loadCorePart } from './core-client.js';
import { corePartOf, firstCorePart, lacks } from './core-files.js';
import { SHARED_PARTS, hasCatalogue, loadCatalogue } from './i18n/index.js';
import { TASK_BUDGET_MS, measure } from './mount-timing.js';

const nextTask = () => new Promise((resolve) => {
  setTimeout(resolve, 0);
});

// The catalogue's parts (i18n/catalogue-parts.js) of the sections shown:
// the shared ones and each section's own, named by its id; every part once
// a section given as a declaration is shown (an element's: its one script
// holds them all). missing(language): null when they are loaded in that
// language, else a promise of them (the redraw schedule waits for it).
export function createTextParts(store) {
  let shown = new Set(SHARED_PARTS); // null: every part
  const parts = () => (shown ? [...shown] : undefined);
  return {
    // Before a section is shown: its part, in the language shown now (a switch meanwhile asks for another).
    add(section) {
      if (section.load) shown?.add(section.id);
      else shown = null;
      return loadCatalogue(store.get().language, parts());
    },
    missing: (language) => (hasCatalogue(language, parts()) ? null : loadCatalogue(language, parts())),
  };
}

// sections, store, indicator: as mountLab's. container: where the sections
// go (the first screen is full when it reaches the bottom of the window).
// texts: the mount's createTextParts. show(declaration, core): the mount
// builds a section with the core as loaded so far (the larger part once a
// section needed it). settle({ firstScreen, core }): after a batch
// of sections (firstScreen: the first screenful is built, or there was
// none to build).
export function loadSections({
  sections, store, indicator, container, texts, show, settle,
}) {
  let disposed = false;
  let core = null; // the core as loaded so far: its part is `held`
  let held = null;

  // Each part once; the first (indicated) while the page waits, the others while the learner reads.
  const parts = new Map();
  const loadPart = (part) => {
    if (!parts.has(part)) {
      parts.set(part, loadCorePart(part, indicator, { first: parts.size === 0 }).then((loaded) => {
        measure(`attention-lab:${part}-loaded`, { start: 0, end: performance.now() });
        return loaded;
      }));
    }
    return parts.get(part);
  };

  let resolveInteractive;
  let interactiveSettled = false;
  const interactive = new Promise((resolve) => {
    resolveInteractive = (value) => {
      interactiveSettled = true;
      resolve(value);
    };
  });
  // One failure, whatever step it came from: said on the indicator, and
  // heard by whoever awaits `interactive` (before the first screen) or `ready`.
  function failed(error) {
    const detail = indicator?.querySelector('[data-role="load-error"]');
    if (detail) detail.textContent = String(error?.message ?? error);
    if (!interactiveSettled) resolveInteractive(Promise.reject(error));
    throw error;
  }

  // A section's code, with its catalogue part in the language shown when asked for.
  const loadSection = (section) => Promise.all([
    section.load ? section.load() : section,
    section.load ? loadCatalogue(store.get().language, [...SHARED_PARTS, section.id]) : null,
  ]).then(([declaration]) => declaration);

  // The steps before a section is shown, the same for every section:
  // its declaration (asked for earlier: `declaration`), the part of the core
  // it needs if not here yet (beforeWaiting() first: the wait may be long),
  // its texts. Null when the mount went away meanwhile.
  async function arrive(section, declaration, { beforeWaiting = () => {} } = {}) {
    const loaded = await declaration;
    if (disposed) return null;
    const part = loaded ? corePartOf(loaded) : held;
    if (lacks(held, part)) {
      beforeWaiting();
      const larger = await loadPart(part);
      if (disposed) return null;
      if (lacks(held, part)) [core, held] = [larger, part];
    }
    await texts.add(section);
    return disposed ? null : loaded;
  }

  // Asked for at once: the core, the language shown and the first section's code arrive together.
  const firstDeclaration = sections.length > 0 ? loadSection(sections[0]) : null;
  firstDeclaration?.catch(() => {}); // heard when awaited below

  async function build() {
    const first = sections.length > 0 ? firstCorePart(sections[0]) : 'basics';
    const [loaded] = await Promise.all([loadPart(first), loadCatalogue(store.get().language, SHARED_PARTS)]);
    // Where the time to interactive goes: the core's download and compile up to here, building and drawing after.
    measure('attention-lab:core-loaded', { start: 0, end: performance.now() });
    [core, held] = [loaded, first];
    if (disposed) return core;
    // The core's limits complete the table's constraints (state.js): the
    // state is repaired before anything asks the core.
    store.useLimits?.(core.limits);
    const building = performance.now();
    // The shared texts of the language shown now: a switch while the core loaded asked for another's.
    await loadCatalogue(store.get().language, SHARED_PARTS);

    // The first screenful, at once.
    const waiting = [...sections];
    while (waiting.length > 0 && !disposed) {
      const section = waiting.shift();
      const declaration = await arrive(section, section === sections[0] ? firstDeclaration : loadSection(section));
      if (!declaration) break;
      show(declaration, core);
      if (container.getBoundingClientRect().bottom > window.innerHeight) break;
    }
    if (disposed) return core;
    settle({ firstScreen: true, core });
    measure('attention-lab:first-sections-built', { start: building, end: performance.now() });
    resolveInteractive();

    // The rest: their code and texts asked for together now, each part of
    // the core as soon as one of them turns out to need it.
    const later = waiting.map((section) => {
      const declaration = loadSection(section);
      declaration.then((loaded) => {
        if (loaded && lacks(held, corePartOf(loaded))) loadPart(corePartOf(loaded)).catch(() => {}); // heard of when arrived
      }, () => {}); // heard of when arrived
      return declaration;
    });
    await nextTask();
    let started = performance.now();
    for (const [index, section] of waiting.entries()) {
      // The sections built so far are usable while a part of the core loads.
      const declaration = await arrive(section, later[index], { beforeWaiting: () => settle({ firstScreen: false, core }) });
      if (!declaration) break;
      show(declaration, core);
      if (performance.now() - started >= TASK_BUDGET_MS) {
        settle({ firstScreen: false, core });
        await nextTask();
        started = performance.now();
      }
    }
    if (!disposed) settle({ firstScreen: false, core });
    measure('attention-lab:sections-built', { start: building, end: performance.now() });
    return core;
  }

  // `interactive` too, if the mount went away before the first screen.
  const ready = build().then((loaded) => {
    resolveInteractive();
    return loaded;
  }, failed);
  interactive.catch(() => {}); // a caller that only awaits `ready` hears of a failure there
  // A failure is on the indicator already; a caller still awaiting something
  // else (the page: its shared texts) when it comes hears of it when it awaits.
  ready.catch(() => {});

  return {
    interactive,
    ready,
    // Nothing more is built or handed to the mount; what is under way is let go.
    dispose() {
      disposed = true;
    },
  };
}
