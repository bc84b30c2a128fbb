// The glue, one copy for the page, its iframe mode and the <attention-lab>
// element: loads the core (one instance per page: loadAttentionCore() loads
// it once), builds the given sections into `container` from their
// declarations (sections/registry.js), the first screenful at once and the
// rest in short tasks after, and redraws them.
//
// From a declaration the mount derives everything a section used to list by
// hand: the parameters it watches (its `inputs`, and the language), when to
// ask the core again (the inputs' values changed), and which control an
// error belongs to (section-errors.js), and the exercises it declares,
// shown below its figures and checked against the same core
// (exercises/exercise-block.js). When the core refuses a section's
// inputs, its last good figures stay, marked as out of date until it
// accepts them again. A change of state is drawn at the
// next animation frame; several changes in one frame draw once. On a page
// of many sections, only those near the screen are drawn in that frame, the
// others in short tasks after it (a change of the data reaches five
// sections, most of them out of sight), so the change is painted sooner;
// drawn() resolves once every section shows the state. Each redraw is timed
// with the User Timing API ("attention-lab:redraw" from the change to the
// finished drawing of the frame, "attention-lab:draw" and one
// "attention-lab:draw:<section>" per section for the drawing alone).
import { createControls } from './controls.js';
import { loadCore, loadWholeCore } from './core-client.js';
import { memoizeCore } from './core-memo.js';
import { createErrorRouter } from './section-errors.js';
import { SHARED_PARTS, hasCatalogue, loadCatalogue, t, translateTree, useLanguage } from './i18n/index.js';
import { parameters } from './state.js';
import { createSectionFrame } from './sections/shared/frame.js';
import { sectionNumber } from './sections/section-loaders.js';
import { attachSectionTools } from './export/section-tools.js';
import { syncDisabled } from './a11y.js';
import { createExerciseBlock } from './exercises/exercise-block.js';
import { createProgressStore } from './exercises/progress-store.js';

// A redraw's timings replace the last ones of the same name: the browser
// keeps every User Timing entry until it is cleared, and at a dozen entries
// per redraw a lecture's worth of dragging grew the page's memory without
// bound. A PerformanceObserver still sees every entry.
function measure(name, options) {
  performance.clearMeasures(name);
  performance.measure(name, options);
}

// Longer tasks than this delay a learner's input noticeably (a "long task").
const TASK_BUDGET_MS = 50;

const pick = (state, names) => Object.fromEntries(names.map((name) => [name, state[name]]));
const sameInputs = (a, b, names) => a !== null && names.every((name) => Object.is(a[name], b[name]));

// Marks a section's figures as not showing the values set now: the last
// good drawing dimmed under a note ('stale'), or the note alone when there
// was none ('empty'); null takes the mark away.
function markFigures(figures, mark) {
  let note = figures.querySelector(':scope > .stale-note');
  figures.classList.toggle('is-stale', mark !== null);
  if (mark === null) {
    note?.remove();
    return;
  }
  if (!note) {
    note = document.createElement('p');
    note.className = 'stale-note note note-warning';
    note.setAttribute('role', 'status');
    figures.prepend(note);
  }
  note.dataset.i18n = mark === 'stale' ? 'error.staleFigures' : 'error.noFigures';
  note.textContent = t(note.dataset.i18n);
}

// One section: its frame and view, built once, and its last computation.
function buildSection(declaration, {
  root, store, controls, core, heading, alone, progress, exerciseMode, onProgress,
}) {
  const inputs = declaration.inputs ?? [];
  const frame = createSectionFrame(root, declaration.frame, { number: sectionNumber(declaration.id), heading });
  const errors = createErrorRouter({ controls, slot: frame.errorSlot, routes: declaration, core });
  const view = declaration.create({ frame, store, controls, core, errors, alone });
  // Its exercises, below its figures: checked against the same core, for the inputs drawn.
  const exercises = declaration.exercises?.length > 0 && exerciseMode !== 'off'
    ? createExerciseBlock({
      section: declaration, sectionView: view, sectionRoot: root, core, progress, mode: exerciseMode, onProgress,
    })
    : null;
  if (exercises) root.insertBefore(exercises.element, frame.errorSlot);
  const watched = new Set([...inputs, 'language']);
  let computedFor = null;
  let result;
  let refused = false; // the latest inputs were refused: the figures show computedFor's, marked
  let exercisesWait = null; // the inputs drawn whose exercises are not updated yet

  return {
    declaration,
    root,
    exercisesRoot: exercises?.element ?? null,
    // exercisesLater: the figures now, the exercises when drawExercises()
    // is called (they are out of sight: their checks and shown answers ask
    // the core, which is no work for the change's frame).
    update(state, changed, { exercisesLater = false } = {}) {
      if (![...changed].some((name) => watched.has(name))) return;
      const values = pick(state, inputs);
      if (declaration.compute && !sameInputs(computedFor, values, inputs)) {
        errors.clear();
        try {
          result = declaration.compute(core, values);
        } catch (error) {
          errors.show(error, values);
          // The last good drawing stays, marked: it is not of these values.
          markFigures(frame.figures, computedFor === null ? 'empty' : 'stale');
          refused = true;
          return;
        }
        computedFor = values;
        markFigures(frame.figures, null);
        refused = false;
      } else if (refused) {
        // Back to the values last drawn: their figures are current again.
        errors.clear();
        markFigures(frame.figures, null);
        refused = false;
      }
      declaration.draw?.(view, result, values, changed);
      if (exercisesLater && exercises) exercisesWait = values;
      else this.drawExercises(values);
    },
    get exercisesWaiting() {
      return exercisesWait !== null;
    },
    drawExercises(values = exercisesWait) {
      exercisesWait = null;
      if (values) exercises?.update(values);
    },
    // Stops what the section runs on its own clock (a training run) and lets go of it.
    dispose() {
      view?.dispose?.();
    },
  };
}

// Finds the section's element in `container` (the page's index.html has
// one per section) or makes one (the element, the course page).
function sectionRoot(container, id) {
  const existing = container.querySelector(`[data-section="${id}"]`);
  if (existing) return existing;
  const root = document.createElement('section');
  root.id = id;
  root.dataset.section = id;
  container.append(root);
  return root;
}

// sections: the declarations to show, in order. applyLanguage: how a new
// language reaches t() (the page also sets <html lang> and the title);
// translateRoot: what a language switch re-labels (the page: all of it).
// heading: a course page's own title for the section shown (one section:
// the iframe mode, the element), in place of the lab's.
// progress: where the exercises' answers are kept (the page's localStorage
// unless given; in memory where storage is refused). exercises: 'on', 'off'
// (none shown) or 'answers' (the teacher's screen: every answer shown).
// onProgress(detail): called whenever an exercise's entry changes, with
// { section, exercise, status, attempts, score: { right, finished, total } }.
export function mountLab({
  container, sections, store, indicator, controls = createControls(store),
  applyLanguage = useLanguage, translateRoot = container, heading = null,
  progress = createProgressStore(), exercises: exerciseMode = 'on', onProgress = () => {},
}) {
  let core = null;
  let shown = [];
  let disposed = false;
  // What the sections and their tools subscribe to the store, undone by dispose().
  const subscriptions = [];
  const sectionStore = Object.freeze({
    ...store,
    subscribe(listener) {
      const unsubscribe = store.subscribe(listener);
      subscriptions.push(unsubscribe);
      return unsubscribe;
    },
  });
  let pending = new Set();
  let changedAt = null;
  let frame = 0;

  // Sections out of sight: drawn after the frame, with every name changed
  // since they were last drawn. One section alone (a course page's) is
  // always drawn in the frame.
  const near = new Set(); // the roots of sections near the screen
  const nearness = sections.length > 1 ? new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting) near.add(entry.target);
      else near.delete(entry.target);
    }
  }, { rootMargin: '50% 0px' }) : null;
  const farChanges = new Map(); // section -> the names changed since it was drawn
  const farExercises = new Set(); // sections drawn in the frame whose exercises (out of sight) wait
  let farTask = 0;
  const drawnWaiters = [];

  // A section's drawing, timed; what it greys out is made inert (only its
  // own nodes are searched: the whole page is tens of thousands).
  function drawSection(section, state, changed, options) {
    const started = performance.now();
    section.update(state, changed, options);
    syncDisabled(section.root);
    measure(`attention-lab:draw:${section.declaration.id}`, { start: started, end: performance.now() });
  }

  function resolveDrawn() {
    if (frame || farTask || catalogueWait || farChanges.size > 0 || farExercises.size > 0) return;
    for (const resolve of drawnWaiters.splice(0)) resolve();
  }

  function drawFar() {
    farTask = 0;
    const state = store.get();
    const started = performance.now();
    for (const section of farExercises) {
      farExercises.delete(section);
      section.drawExercises();
      if (performance.now() - started > TASK_BUDGET_MS) break;
    }
    for (const [section, changed] of farChanges) {
      if (performance.now() - started > TASK_BUDGET_MS) break;
      farChanges.delete(section);
      drawSection(section, state, changed);
    }
    if (farChanges.size > 0 || farExercises.size > 0) farTask = setTimeout(drawFar, 0);
    resolveDrawn();
  }

  function draw(changed) {
    const state = store.get();
    applyLanguage(state.language); // one language per page: see element.js
    if (changed.has('language')) translateTree(translateRoot);
    controls.sync(state);
    for (const section of shown) {
      const earlier = farChanges.get(section);
      const names = earlier ? new Set([...earlier, ...changed]) : changed;
      if (nearness && !near.has(section.root)) {
        farChanges.set(section, names);
        continue;
      }
      farChanges.delete(section);
      const exercisesLater = Boolean(nearness && section.exercisesRoot && !near.has(section.exercisesRoot));
      drawSection(section, state, names, { exercisesLater });
      if (section.exercisesWaiting) farExercises.add(section);
      else farExercises.delete(section);
    }
    if ((farChanges.size > 0 || farExercises.size > 0) && !farTask) farTask = setTimeout(drawFar, 0);
  }

  // A language not loaded yet (the other one, when the learner switches
  // before it arrived) is drawn once its catalogue is there.
  let catalogueWait = null;
  const unsubscribe = store.subscribe((state, changed) => {
    for (const name of changed) pending.add(name);
    changedAt ??= performance.now();
    scheduleDraw();
  });

  function scheduleDraw() {
    if (!core || frame || catalogueWait) return; // drawn in full once the core is there
    const { language } = store.get();
    if (!hasCatalogue(language, textParts())) {
      catalogueWait = loadCatalogue(language, textParts()).then(() => {
        catalogueWait = null;
        if (!disposed) scheduleDraw();
      });
      return;
    }
    frame = requestAnimationFrame(() => {
      frame = 0;
      const names = pending;
      const started = changedAt;
      pending = new Set();
      changedAt = null;
      if (disposed) return;
      const drawStarted = performance.now();
      draw(names);
      const finished = performance.now();
      measure('attention-lab:redraw', { start: started, end: finished, detail: [...names] });
      measure('attention-lab:draw', { start: drawStarted, end: finished, detail: [...names] });
      resolveDrawn();
    });
  }

  // One section built, its tools attached, translated and drawn in the current state.
  function show(declaration, alone) {
    const section = buildSection(declaration, {
      root: sectionRoot(container, declaration.id), store: sectionStore, controls, core, heading, alone, progress,
      exerciseMode, onProgress,
    });
    shown.push(section);
    nearness?.observe(section.root);
    if (section.exercisesRoot) nearness?.observe(section.exercisesRoot);
    attachSectionTools({
      sections: [{
        id: declaration.id,
        root: section.root,
        declarations: declaration.pytorch && { pytorch: (state) => declaration.pytorch(state, core, declaration) },
      }],
      store: sectionStore,
      getComputations: () => core,
    });
    translateTree(section.root);
    section.update(store.get(), new Set(Object.keys(parameters)));
    return section;
  }

  // The new sections' controls show the state (and what it disables).
  function syncControls() {
    controls.sync(store.get());
    syncDisabled(container);
  }

  // The core's trainable models come in a part of their own: a section that
  // declares needsModels is built once they are here, and the sections
  // after it wait for it; those before it do not. They are asked for when
  // the first section that needs them is next, or once the first screen is up.
  let models = null;
  let modelsLoaded = false;
  const loadModels = () => {
    models ??= loadWholeCore(indicator).then((whole) => {
      measure('attention-lab:models-loaded', { start: 0, end: performance.now() });
      modelsLoaded = true;
      if (!disposed) core = memoizeCore(whole);
    });
    return models;
  };
  const waitsForModels = (declaration) => declaration?.needsModels === true && !modelsLoaded;

  // The sections are built in order. The first ones, enough to fill the
  // screen, at once: `interactive` resolves when they can be used. The rest
  // follow in tasks of about TASK_BUDGET_MS, so the page answers the learner
  // meanwhile, and `ready` resolves when every section is drawn. A section
  // is a declaration, or { id, load } whose load() resolves to one (the
  // page's sections out of sight: their code arrives while the first are
  // drawn, sections/section-loaders.js).
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
  // shared ones and its own, named by its `file`; every part for a section
  // given as a declaration (an element's: its one script holds them all).
  const partsOf = (section) => (section.file ? [...SHARED_PARTS, section.file] : undefined);
  let partsShown = new Set(SHARED_PARTS); // those of the sections shown; null: every part
  const textParts = () => (partsShown ? [...partsShown] : undefined);
  // A section's code, with its catalogue part in the language shown when asked for.
  const loadSection = (section) => Promise.all([declarationOf(section), loadCatalogue(store.get().language, partsOf(section))])
    .then(([declaration]) => declaration);
  // Before a section is shown: its part, in the language shown now (a switch meanwhile asks for another).
  const partsReady = (section) => {
    if (section.file) partsShown?.add(section.file);
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
    const alone = sections.length === 1;
    const building = performance.now();
    // The shared texts of the language shown now: a switch while the core loaded asked for another's.
    await loadCatalogue(store.get().language, SHARED_PARTS);
    await firstDeclaration;
    if (disposed) {
      resolveInteractive();
      return loaded;
    }
    core = memoizeCore(loaded);
    applyLanguage(store.get().language);
    translateTree(translateRoot);
    const waiting = [...sections];
    while (waiting.length > 0) {
      const section = waiting.shift();
      const declaration = await (section === sections[0] ? firstDeclaration : loadSection(section));
      if (disposed) break;
      if (waitsForModels(declaration)) await loadModels().catch(loadFailed);
      await partsReady(section).catch(loadFailed);
      if (disposed) break;
      show(declaration, alone);
      if (container.getBoundingClientRect().bottom > window.innerHeight) break;
    }
    syncControls();
    pending = new Set();
    changedAt = null;
    container.classList.add('is-ready');
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
    await new Promise((resolve) => {
      setTimeout(resolve, 0);
    });
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
      show(section, alone);
      if (performance.now() - started >= TASK_BUDGET_MS) {
        syncControls();
        await new Promise((resolve) => {
          setTimeout(resolve, 0);
        });
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
    get core() {
      return core;
    },
    controls,
    // Resolves once every section shows the state: the frame's drawing and
    // the sections drawn after it.
    drawn() {
      return new Promise((resolve) => {
        drawnWaiters.push(resolve);
        resolveDrawn();
      });
    },
    // Stops everything the mount started (the redraw frame, the sections'
    // own clocks, every subscription to the store) and lets go of the
    // sections; the store and the container's elements are the caller's.
    dispose() {
      disposed = true;
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      clearTimeout(farTask);
      farTask = 0;
      farChanges.clear();
      farExercises.clear();
      nearness?.disconnect();
      resolveDrawn();
      for (const section of shown) section.dispose();
      for (const unsubscribeSection of subscriptions.splice(0)) unsubscribeSection();
      shown = [];
      core = null;
    },
  };
}
