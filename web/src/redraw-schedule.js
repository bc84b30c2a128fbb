// When the mounted sections are redrawn (one half of mount.js; the other is
// section-loading.js). A change of state is drawn at the next animation
// frame; several changes in one frame draw once. On a page of many
// sections, only those near the screen are drawn in that frame, the others
// in short tasks after it (a change of the data reaches five sections, most
// of them out of sight), so the change is painted sooner; drawn() resolves
// once every section shows the state. Each redraw is timed with the User
// Timing API ("attention-lab:redraw" from the change to the finished
// drawing of the frame, "attention-lab:draw" and one
// "attention-lab:draw:<section>" per section for the drawing alone).
import { syncDisabled } from './a11y.js';
import { TASK_BUDGET_MS, measure } from './mount-timing.js';

// store: the lab's state. sections(): the sections built so far, in order
// (each has root, exercisesRoot, update(), exercisesWaiting and
// drawExercises(): mount.js). many: more than one section, so nearness
// counts (one section alone, a course page's, is always drawn in the frame).
// canDraw(): the sections can be drawn (the core is there: until then
// every change waits, and the sections are drawn in full when built).
// missingTexts(language): null when the texts the sections show are loaded
// in that language, else a promise of them (a language not loaded yet, the
// other one when the learner switches before it arrived, is drawn once its
// catalogue is there). beforeDraw(state, changed): what the frame does before
// the sections (the language, the controls).
export function createRedrawSchedule({ store, sections, many, canDraw, missingTexts, beforeDraw }) {
  let disposed = false;
  let pending = new Set();
  let changedAt = null;
  let frame = 0;
  let catalogueWait = null;

  // Sections out of sight: drawn after the frame, with every name changed
  // since they were last drawn.
  const near = new Set(); // the roots of sections near the screen
  const nearness = many ? new IntersectionObserver((entries) => {
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
    beforeDraw(state, changed);
    for (const section of sections()) {
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

  const unsubscribe = store.subscribe((state, changed) => {
    for (const name of changed) pending.add(name);
    changedAt ??= performance.now();
    scheduleDraw();
  });

  function scheduleDraw() {
    if (!canDraw() || frame || catalogueWait) return;
    const texts = missingTexts(store.get().language);
    if (texts) {
      catalogueWait = texts.then(() => {
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

  return {
    // A section just built: from now on drawn near the screen or after the frame.
    watch(section) {
      nearness?.observe(section.root);
      if (section.exercisesRoot) nearness?.observe(section.exercisesRoot);
    },
    // The changes so far are shown (the first sections were built in the current state).
    forget() {
      pending = new Set();
      changedAt = null;
    },
    // Resolves once every section shows the state: the frame's drawing and
    // the sections drawn after it.
    drawn() {
      return new Promise((resolve) => {
        drawnWaiters.push(resolve);
        resolveDrawn();
      });
    },
    // Stops the frame, the tasks after it and the store's subscription; drawn() resolves.
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
    },
  };
}
