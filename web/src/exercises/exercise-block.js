// A section's exercises, below its figures: a heading, the progress
// ("2 of 3 answered") with "Reset my answers", and one view per exercise
// (exercise-view.js). It runs each exercise's state machine
// (exercise-state.js), asks the section's declaration to check an answer
// against the core for the live state, keeps the entries in the progress
// store, lets an exercise point into the section's figures (mark()), and
// covers the figures an open prediction would give away (hides) and
// withholds the texts that would answer it (withholds), with the
// prediction placed beside them. Every
// change of an entry is reported (onProgress), for the events a course
// page and a learning platform read.
//
// An answer stays with its question: the first check (or the answer shown;
// for a task, the check that finishes it) binds the entry to the settings
// of that moment (given-settings.js). When
// a control moves after that, and the card would now ask or answer
// something else, the card keeps its question, verdict and answer for the
// settings it was given for, says which ("Answered for d = 64"), and offers
// to try the question at the current settings. Open exercises follow the
// controls. A prediction committed before its run keeps its answer in the
// entry, so a reload neither loses it nor counts the run as a skip.
//
// mode 'on' is the learner's; 'answers' is the teacher's own screen: every
// answer shown, nothing covered, and the section's teacher's note on top.
// The mount builds one for every section that declares exercises.
import { element } from '../dom.js';
import { t, getLanguage } from '../i18n/index.js';
import {
  afterCheck, reveal, another, initialEntry, hintShown, answerShown, isFinished, bound, commit,
} from './exercise-state.js';
import { givenOf, givenInputs, changedSettings } from './given-settings.js';
import { createExerciseView } from './exercise-view.js';
import { setRichText } from '../i18n/rich-text.js';
import { verdictOf } from './judging.js';
import { settingText as settingTextIn } from '../setting-text.js';

// A card bound to other settings names those whose change alone changes
// it, tried one by one when at most this many changed; past that, all.
const MOST_SETTINGS_TRIED = 8;
// What cardSays gives, before the reason, for a card that cannot be said.
const UNSAID = '\u0001';
const VERDICT_KEYS = Object.freeze({ right: 'exercises.right', close: 'exercises.close', wrong: 'exercises.wrong' });

export function createExerciseBlock({
  section, sectionView, sectionRoot, core, progress, mode = 'on', onProgress = /** @type {(change: object) => void} */ (() => {}),
}) {
  const teacherMode = mode === 'answers';
  const heading = element('h3', { className: 'exercises-title', dataset: { i18n: 'exercises.title' } });
  const summary = element('p', { className: 'exercises-progress', role: 'status', dataset: { role: 'exercise-progress' } });
  const resetButton = element('button', {
    type: 'button', className: 'button button-quiet', dataset: { action: 'reset-exercises', i18n: 'exercises.reset' },
  });
  const list = element('div', { className: 'exercises-list' });
  const teacherNote = teacherMode && section.teacherNoteKey
    ? element('p', { className: 'exercises-teacher-note', dataset: { role: 'teacher-note' } })
    : null;
  const root = element('div', { className: 'exercises', dataset: { role: 'exercises', mode } }, [
    element('div', { className: 'exercises-head' }, [heading, summary, resetButton]), ...(teacherNote ? [teacherNote] : []), list,
  ]);
  let inputs = null;
  let wasReset = false;

  const items = section.exercises.map((exercise) => {
    const name = `${section.id}.${exercise.id}`;
    // A prediction's entry as its one check left it (progress-store.js).
    const entry = progress.get(name, { once: exercise.kind === 'predict' });
    const item = {
      exercise, name, entry, instance: null, feedback: null, skipped: false, committed: false, bound: null,
    };
    const startAgain = (it, next) => {
      save(it, next);
      Object.assign(it, { skipped: false, committed: false, bound: null, feedback: null });
      it.view.clearAnswer();
      drawInstance(it);
    };
    item.view = createExerciseView(exercise, {
      name,
      onCheck: () => act(item, checkAnswer),
      onReveal: () => act(item, (it) => save(it, bound(reveal(it.entry), givenOf(inputs)))),
      onAnother: () => act(item, (it) => startAgain(it, another(it.entry)), { whileBound: true }),
      onRetry: () => act(item, (it) => startAgain(it, initialEntry(it.entry.instance)), { whileBound: true }),
    });
    // A prediction committed before its run, as a reload finds it: its
    // answer back in its card (the view takes only its own options' ids).
    if (entry.committed !== undefined && exercise.kind === 'predict' && exercise.startedBy
      && item.view.restoreAnswer(entry.committed)) {
      Object.assign(item, { committed: true, feedback: { prompt: 'exercises.committedKept' } });
    }
    list.append(item.view.element);
    return item;
  });

  function score() {
    const right = items.filter(({ entry }) => entry.status === 'right').length;
    const finished = items.filter(({ entry }) => isFinished(entry)).length;
    return { right, finished, total: items.length };
  }

  function report(item) {
    const { status, attempts } = item.entry;
    onProgress({ section: section.id, exercise: item.exercise.id, status, attempts, score: score() });
  }

  function save(item, entry) {
    item.entry = entry;
    progress.set(item.name, entry);
    report(item);
  }

  // The figures an open prediction hides are covered until it is checked
  // or shown, or the learner skips it: the Reveal on a cover, or starting
  // what the section's text says to watch (the controls named by the
  // prediction's startedBy, like Play). Skipped is this view's mark alone
  // (not stored): the prediction stays open to answer, its figures shown.
  // A cover is an element of its figure (its note and Reveal stay usable);
  // the figure's other children are hidden and inert, so no keyboard
  // reaches into them.
  const coverable = [...new Set(section.exercises.flatMap(({ hides }) => hides ?? []))];
  const withholdable = [...new Set(section.exercises.flatMap(({ withholds }) => withholds ?? []))];
  const covers = new WeakMap(); // figure -> its cover
  const coversNow = ({ exercise, entry, skipped, committed }) => !teacherMode && exercise.kind === 'predict'
    && entry.status === 'open' && !skipped && !committed
    && (inputs === null || (exercise.coversWhen?.(inputs, sectionView) ?? true));

  function skip(item) {
    if (!coversNow(item)) return;
    item.skipped = true;
    render(item);
    renderLookers();
    syncCovers();
  }

  // The figures covered now, by the open predictions.
  const coveredNow = () => new Set(items.filter(coversNow).flatMap(({ exercise }) => exercise.hides ?? []));
  // An exercise whose hint and feedback send the learner to a figure
  // (looksAt) says so while an open prediction covers it: it does not point
  // where the learner cannot look without telling how to uncover it.
  const pointsUnderCover = (item) => {
    const looked = item.exercise.looksAt ?? [];
    if (looked.length === 0) return false;
    const covered = coveredNow();
    return looked.some((name) => covered.has(name));
  };
  // A prediction answered or skipped uncovers a figure the others point at.
  function renderLookers() {
    for (const item of items) if (item.exercise.looksAt) render(item);
  }

  function coverOf(figure, name) {
    if (!covers.has(figure)) {
      const message = element('p', { className: 'figure-cover-message' });
      const revealButton = element('button', {
        type: 'button', className: 'button', dataset: { action: 'reveal-figure' },
      });
      revealButton.addEventListener('click', () => {
        for (const item of items) if ((item.exercise.hides ?? []).includes(name)) skip(item);
      });
      const cover = element('div', { className: 'figure-cover', dataset: { role: 'figure-cover' } }, [
        element('div', { className: 'figure-cover-note' }, [message, revealButton]),
      ]);
      covers.set(figure, { cover, message, revealButton });
    }
    const parts = covers.get(figure);
    parts.message.textContent = t('exercises.covered');
    parts.revealButton.textContent = t('exercises.revealFigure');
    return parts.cover;
  }

  // A text that would answer an open prediction (its catalogue key in the
  // prediction's withholds) is withheld the same while: every element that
  // says it (data-i18n, data-i18n-rich, or data-says for a text a section
  // sets itself with t(key)) keeps its place but is hidden, inert and out of
  // the accessibility tree, a short note in its place (the data-withheld
  // attribute carries it, exercises.css shows it).
  const saying = (key) => ['data-i18n', 'data-i18n-rich', 'data-says']
    .map((attribute) => `[${attribute}="${CSS.escape(key)}"]`).join(', ');

  function syncWithheld() {
    if (withholdable.length === 0 || !sectionRoot) return;
    const withheld = new Set(items.filter(coversNow).flatMap(({ exercise }) => exercise.withholds ?? []));
    const placeholder = t('exercises.withheld');
    for (const key of withholdable) {
      for (const node of sectionRoot.querySelectorAll(saying(key))) {
        // An exercise's own card says what it says.
        if (node.closest('[data-role="exercises"], .exercise')) continue;
        const hold = withheld.has(key);
        if (hold) node.setAttribute('data-withheld', placeholder);
        else node.removeAttribute('data-withheld');
        node.toggleAttribute('inert', hold);
      }
    }
  }

  function syncCovers() {
    syncWithheld();
    if (coverable.length === 0 || !sectionRoot) return;
    placePredictions();
    const covered = coveredNow();
    for (const name of coverable) {
      for (const figure of sectionRoot.querySelectorAll(`[data-figure="${name}"]`)) {
        const cover = covered.has(name);
        figure.toggleAttribute('data-covered', cover);
        const node = cover ? coverOf(figure, name) : covers.get(figure)?.cover;
        if (cover && node.parentNode !== figure) figure.append(node);
        if (!cover) node?.remove();
        for (const child of figure.children) if (child !== node) child.toggleAttribute('inert', cover);
      }
    }
  }

  // A prediction stands just above the figure it hides (the grid or cell
  // that holds it), not below the section: the learner meets it where the
  // cover is.
  function placePredictions() {
    for (const item of items) {
      const [first] = item.exercise.kind === 'predict' ? item.exercise.hides ?? [] : [];
      const figure = first && sectionRoot.querySelector(`[data-figure="${first}"]`);
      if (!figure) continue;
      const anchor = figure.closest('.figure-grid') ?? figure.closest('.figure-cell') ?? figure;
      if (anchor.previousElementSibling === item.view.element) continue;
      item.view.element.classList.add('exercise-beside');
      anchor.before(item.view.element);
    }
  }

  // Starting what the text says to watch skips the predictions that would
  // hide it (capture: before the control's own handler starts the run),
  // when it starts what they ask about (startedWhen, for the live inputs).
  const starters = new Map(); // data-action -> the items it skips
  for (const item of items) {
    for (const action of item.exercise.startedBy ?? []) starters.set(action, [...(starters.get(action) ?? []), item]);
  }
  if (starters.size > 0 && sectionRoot) {
    sectionRoot.addEventListener('click', (event) => {
      const action = event.target.closest?.('[data-action]')?.dataset.action;
      for (const item of starters.get(action) ?? []) {
        if (inputs !== null && (item.exercise.startedWhen?.(inputs) ?? true)) skip(item);
      }
    }, { capture: true });
  }

  // An exercise with instances draws its instance from the core; mark()
  // shows it in the section's figures (a query's place in the plot).
  function drawInstance(item) {
    if (item.exercise.draw) item.instance = item.exercise.draw(core, inputs, item.entry.instance);
    item.exercise.mark?.(sectionView, item.instance);
  }

  function checkAnswer(item) {
    if (isFinished(item.entry)) return;
    const answer = item.view.answer();
    if (answer === null) {
      // Nothing chosen or typed: a reminder, not a try.
      item.feedback = { prompt: item.exercise.options ? 'exercises.pickFirst' : 'exercises.typeFirst' };
      return;
    }
    let result;
    try {
      result = item.exercise.check(core, inputs, answer, item.instance, sectionView);
    } catch (error) {
      const reason = String(error?.message ?? error);
      // A prediction about a run, made before the run: committed as it is
      // (locked, its figures shown), checked once the run has trained.
      if (item.exercise.kind === 'predict' && item.exercise.startedBy) {
        item.committed = true;
        save(item, commit(item.entry, answer));
        item.feedback = { prompt: 'exercises.committed', params: { reason } };
        return;
      }
      item.feedback = { prompt: 'exercises.cannotCheck', params: { reason } };
      return;
    }
    const verdict = verdictOf(result);
    const checked = afterCheck(item.entry, verdict, { once: item.exercise.kind === 'predict' });
    // A task's answer is the section's state: the learner moves the
    // controls between tries, so it is bound only once it is finished.
    const bindsNow = item.exercise.kind !== 'achieve' || isFinished(checked);
    save(item, bindsNow ? bound(checked, givenOf(inputs)) : checked);
    item.feedback = { ...result, verdict };
  }

  function act(item, action, { whileBound = false } = {}) {
    if (inputs === null) return; // not drawn yet
    // A card answered for other settings takes no check or reveal: only a
    // fresh start at the current settings (whileBound: the same instance,
    // or Try another's next).
    if (item.bound !== null && !whileBound) return;
    wasReset = false;
    action(item);
    item.bound = bindingOf(item);
    render(item);
    renderLookers();
    renderSummary();
    syncCovers();
  }

  // What a card says for these inputs and instance (question, options,
  // answer): two settings ask the same question when they say the same.
  function cardSays(item, values, instance) {
    const { exercise } = item;
    try {
      const params = exercise.questionParams?.(instance, values) ?? {};
      return [
        t(exercise.questionKey, params),
        ...(exercise.options ?? []).map((option) => t(option.labelKey, params)),
        answerText(item, values, instance),
      ].join('\u0000');
    } catch (error) {
      return `${UNSAID}${String(error?.message ?? error)}`;
    }
  }

  // The settings an answered card stays bound to while the controls show
  // others that change what it says: { inputs, instance, names } (names:
  // the settings whose change alone changes it, to name in its note), or
  // null when the card says the same at the live settings.
  function bindingOf(item) {
    const { exercise, entry } = item;
    if (teacherMode || !entry.given || inputs === null) return null;
    const given = givenInputs(entry.given, inputs);
    const changed = changedSettings(given, inputs);
    if (changed.length === 0) return null;
    // undefined: no instance can be drawn for these values.
    const instanceFor = (values) => {
      if (!exercise.draw) return null;
      try {
        return exercise.draw(core, values, entry.instance);
      } catch {
        return undefined;
      }
    };
    // What the card says at its settings, and whether one setting changed
    // alone changes it, are kept while its settings, the language and a
    // trained section's model (the step its run has reached) stay: a drag
    // then asks the core for the live card and the value dragged to.
    const run = sectionView?.trainedRun?.();
    const key = `${getLanguage()} ${JSON.stringify(entry.given)} ${run ? `${run.step} ${run.status}` : ''}`;
    if (item.givenSays?.key !== key) {
      const instance = instanceFor(given);
      item.givenSays = {
        key, instance, said: instance === undefined ? UNSAID : cardSays(item, given, instance), alone: new Map(),
      };
    }
    const { instance: givenInstance, said, alone } = item.givenSays;
    // A card its settings can no longer draw or say follows the controls.
    if (said.startsWith(UNSAID) || said === cardSays(item, inputs, item.instance)) return null;
    const changesAlone = (name) => {
      const setting = `${name} ${JSON.stringify(inputs[name])}`;
      if (!alone.has(setting)) {
        const one = { ...given, [name]: inputs[name] };
        const instance = instanceFor(one);
        alone.set(setting, instance === undefined || cardSays(item, one, instance) !== said);
      }
      return alone.get(setting);
    };
    // Each changed setting alone, when few changed (each try asks the core).
    const names = changed.length > MOST_SETTINGS_TRIED ? [] : changed.filter(changesAlone);
    return { inputs: given, instance: givenInstance, names: names.length > 0 ? names : changed };
  }

  const settingText = (name, value) => settingTextIn(sectionRoot, name, value);

  function boundText(binding) {
    const list = t('exercises.settingList');
    return t('exercises.answeredFor', {
      given: binding.names.map((name) => settingText(name, binding.inputs[name])).join(list),
      now: binding.names.map((name) => settingText(name, inputs[name])).join(list),
    });
  }

  function answerText(item, values = inputs, instance = item.instance) {
    const solution = item.exercise.solution(core, values, instance, sectionView);
    if (solution.labelKey) {
      return `${t('exercises.answerChoice', { choice: t(solution.labelKey) })} ${t(solution.explanationKey)}`;
    }
    return t('exercises.answerIs', { answer: t(solution.key, solution.params ?? {}) });
  }

  // The verdict word is the engine's, said once: a feedback text starts with
  // what it teaches (tests/web/exercise-texts.test.mjs holds the catalogues to it).
  function verdictText(item) {
    const { feedback } = item;
    if (feedback === null) return null;
    if (feedback.prompt) return t(feedback.prompt, feedback.params ?? {});
    const text = `**${t(VERDICT_KEYS[feedback.verdict])}** ${t(feedback.key, feedback.params ?? {})}`;
    return pointsUnderCover(item) ? `${text} ${t('exercises.lookUnderCover')}` : text;
  }

  function hintText(item, values, instance) {
    const { exercise, entry } = item;
    if (!hintShown(entry) || item.bound) return null;
    const hint = `**${t('exercises.hint')}** ${t(exercise.hintKey, exercise.questionParams?.(instance, values) ?? {})}`;
    return pointsUnderCover(item) ? `${hint} ${t('exercises.lookUnderCover')}` : hint;
  }

  function render(item) {
    const { exercise, entry, bound: binding } = item;
    // A bound card says what it said for the settings it was given for.
    const values = binding?.inputs ?? inputs;
    const instance = binding ? binding.instance : item.instance;
    const params = exercise.questionParams?.(instance, values) ?? {};
    item.view.render({
      status: entry.status,
      skipped: item.skipped && entry.status === 'open',
      locked: (item.committed && entry.status === 'open') || binding !== null,
      finished: isFinished(entry) || binding !== null,
      texts: {
        question: t(exercise.questionKey, params),
        options: Object.fromEntries((exercise.options ?? []).map((option) => [option.id, t(option.labelKey, params)])),
        numberLabel: t('exercises.yourAnswer'),
        taskNote: t('exercises.taskNote'),
        check: t('exercises.check'),
        reveal: t('exercises.reveal'),
        another: t('exercises.another'),
        hint: hintText(item, values, instance),
        verdict: verdictText(item),
        answer: teacherMode || answerShown(entry) ? answerText(item, values, instance) : null,
        skipped: t('exercises.skipped'),
        bound: binding ? boundText(binding) : null,
        retry: t('exercises.retryHere'),
      },
    });
  }

  function renderSummary() {
    const { finished, total } = score();
    const text = t('exercises.progress', { done: finished, total });
    summary.textContent = wasReset ? `${text} ${t('exercises.wasReset')}` : text;
    if (teacherNote) setRichText(teacherNote, `**${t('exercises.teacherNote')}** ${t(section.teacherNoteKey)}`);
  }

  resetButton.addEventListener('click', () => {
    if (inputs === null) return;
    progress.clear(items.map(({ name }) => name));
    for (const item of items) {
      item.entry = initialEntry();
      item.feedback = null;
      Object.assign(item, { skipped: false, committed: false, bound: null });
      item.view.clearAnswer();
      drawInstance(item);
      render(item);
      report(item);
    }
    wasReset = true;
    renderSummary();
    syncCovers();
  });

  // The answer key's values that a section measures or trains on its own
  // clock (a timing table, a run at these settings): made now, and the
  // answers written again each time the section has them.
  if (teacherMode) {
    sectionView?.watchAnswers?.(() => {
      if (inputs === null) return;
      for (const item of items) render(item);
    });
  }

  return {
    element: root,
    // The section was drawn for these inputs (or relabelled). An answered
    // card stays with the settings it was given for (bindingOf); feedback
    // on a card without them (an entry stored before cards were bound)
    // would describe a figure no longer shown, and is dropped.
    update(values) {
      const inputsChanged = inputs === null || Object.keys(values).some((name) => !Object.is(inputs[name], values[name]));
      inputs = values;
      for (const item of items) {
        if (inputsChanged) {
          if (item.exercise.kind !== 'concept' && item.feedback && !item.feedback.prompt && !item.entry.given) item.feedback = null;
          drawInstance(item);
        }
        item.bound = bindingOf(item);
        render(item);
      }
      renderSummary();
      syncCovers();
    },
  };
}
