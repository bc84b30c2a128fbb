// The glue, one copy for the page, its iframe mode and the <attention-lab>
// element: loads the core (one instance per page: loadAttentionCore() loads
// it once), builds the given sections into `container` from their
// declarations (sections/registry.js), the first screenful at once and the
// rest in short tasks after, and redraws them. It composes two machines:
// section-loading.js (how the core, texts and sections arrive) and
// redraw-schedule.js (when the built sections are drawn).
//
// From a declaration the mount derives everything a section used to list by
// hand: the parameters it watches (its `inputs`, and the language), when to
// ask the core again (the inputs' values changed), and which control an
// error belongs to (section-errors.js), and the exercises it declares,
// shown below its figures and checked against the same core
// (exercises/exercise-block.js). When the core refuses a section's
// inputs, its last good figures stay, marked as out of date until it
// accepts them again.
import { createControls } from './controls.js';
import { memoizeCore } from './core-memo.js';
import { createErrorRouter } from './section-errors.js';
import { t, translateTree, useLanguage } from './i18n/index.js';
import { parameters } from './state.js';
import { createSectionFrame } from './sections/shared/frame.js';
import { sectionNumber } from './sections/section-loaders.js';
import { attachSectionTools } from './export/section-tools.js';
import { syncDisabled } from './a11y.js';
import { createExerciseBlock } from './exercises/exercise-block.js';
import { createProgressStore } from './exercises/progress-store.js';
import { createRedrawSchedule } from './redraw-schedule.js';
import { loadSections, createTextParts } from './section-loading.js';

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
// exerciseBlock(declaration, view, root): its exercises' block, or null.
function buildSection(declaration, {
  root, store, controls, core, heading, alone, exerciseBlock,
}) {
  const inputs = declaration.inputs ?? [];
  const frame = createSectionFrame(root, declaration.frame, { number: sectionNumber(declaration.id), heading });
  const errors = createErrorRouter({ controls, slot: frame.errorSlot, routes: declaration, core });
  const view = declaration.create({ frame, store, controls, core, errors, alone });
  // Its exercises, below its figures: checked against the same core, for the inputs drawn.
  const exercises = exerciseBlock(declaration, view, root);
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
// unless given; in memory where storage is refused), handed back as the
// lab's `progress`. exercises: 'on', 'off' (none shown) or 'answers' (the
// teacher's screen: every answer shown). onProgress(detail): called
// whenever an exercise's entry changes, with
// { section, exercise, status, attempts, score: { right, finished, total } }.
/** @param {{ container: any, sections: readonly any[], store: any, indicator?: any, controls?: any, applyLanguage?: (language: string) => void, translateRoot?: any, heading?: any, progress?: any, exercises?: string, onProgress?: (detail: any) => void }} options */
export function mountLab({
  container, sections, store, indicator, controls = createControls(store),
  applyLanguage = useLanguage, translateRoot = container, heading = null,
  progress = createProgressStore(), exercises: exerciseMode = 'on', onProgress = () => {},
}) {
  let core = null;
  let shown = [];
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
  const alone = sections.length === 1;
  // A section's exercises, below its figures, when it declares some and they are shown.
  const exerciseBlock = (declaration, view, root) => (declaration.exercises?.length > 0 && exerciseMode !== 'off'
    ? createExerciseBlock({
      section: declaration, sectionView: view, sectionRoot: root, core, progress, mode: exerciseMode, onProgress,
    })
    : null);

  const texts = createTextParts(store);
  const schedule = createRedrawSchedule({
    store,
    sections: () => shown,
    many: sections.length > 1,
    canDraw: () => core !== null,
    missingTexts: texts.missing,
    beforeDraw(state, changed) {
      applyLanguage(state.language); // one language per page: see element.js
      if (changed.has('language')) translateTree(translateRoot);
      controls.sync(state);
    },
  });

  // The core as loaded so far (section-loading.js): the basics, then the
  // whole core. The first one puts the texts in the page.
  let loadedCore = null;
  function useCore(loaded) {
    if (loaded === loadedCore) return;
    if (loadedCore === null) {
      applyLanguage(store.get().language);
      translateTree(translateRoot);
    }
    loadedCore = loaded;
    core = memoizeCore(loaded);
  }

  // One section built, its tools attached, translated and drawn in the current state.
  function show(declaration, loaded) {
    useCore(loaded);
    const section = buildSection(declaration, {
      root: sectionRoot(container, declaration.id), store: sectionStore, controls, core, heading, alone, exerciseBlock,
    });
    shown.push(section);
    schedule.watch(section);
    attachSectionTools({
      sections: [{
        id: declaration.id,
        root: section.root,
        book: declaration.book,
        declarations: declaration.pytorch && { pytorch: (state) => declaration.pytorch(state, core, declaration) },
      }],
      store: sectionStore,
      getComputations: () => core,
    });
    translateTree(section.root);
    section.update(store.get(), new Set(Object.keys(parameters)));
  }

  // After a batch of sections: their controls show the state (and what it
  // disables); after the first screenful, the page is ready to use.
  function settle({ firstScreen, core: loaded }) {
    useCore(loaded);
    controls.sync(store.get());
    syncDisabled(container);
    if (!firstScreen) return;
    schedule.forget();
    container.classList.add('is-ready');
  }

  const loading = loadSections({
    sections, store, indicator, container, texts, show, settle,
  });

  return {
    interactive: loading.interactive,
    ready: loading.ready,
    get core() {
      return core;
    },
    controls,
    progress,
    // Resolves once every section shows the state: the frame's drawing and
    // the sections drawn after it.
    drawn: () => schedule.drawn(),
    // Stops everything the mount started (the loading, the redraw frame,
    // the sections' own clocks, every subscription to the store) and lets go
    // of the sections; the store and the container's elements are the caller's.
    dispose() {
      loading.dispose();
      schedule.dispose();
      for (const section of shown) section.dispose();
      for (const unsubscribeSection of subscriptions.splice(0)) unsubscribeSection();
      shown = [];
      core = null;
    },
  };
}
