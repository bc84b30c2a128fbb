// One exercise on screen, with the controls every browser, keyboard, screen
// reader and phone already knows: a fieldset whose legend is the question,
// radios for choices, a labelled number box for a number, and nothing to
// fill in for a make-it-happen task (the section's own controls are the
// answer); checkboxes where a prediction picks several options. Check, or Enter in the number box, checks; no <form> is
// submitted, since a sandboxed iframe without allow-forms blocks
// submission before any script hears of it. The feedback, and the answer
// once shown, are read out by a polite live region. The root carries data-exercise, data-kind and data-status for
// tests and styling. The view is handed its texts: it knows no catalogue.
import { element } from '../dom.js';
import { setRichText } from '../i18n/rich-text.js';

let nextId = 0;
const shownTexts = new WeakMap(); // node -> the text it shows

// Writes rich text only when it changed: an equal write of the live region
// would be read out again.
function setText(node, text) {
  if (shownTexts.get(node) === text) return;
  shownTexts.set(node, text);
  setRichText(node, text);
}

export function createExerciseView(exercise, {
  name, onCheck, onReveal, onAnother, onRetry,
}) {
  const uid = `exercise-${(nextId += 1)}`;
  const legend = element('legend', { className: 'exercise-question' });
  const fieldset = element('fieldset', { className: 'exercise-fieldset' }, [legend]);
  const optionLabels = new Map();
  let numberBox = null;
  let numberLabel = null;
  if (exercise.options) {
    const list = element('div', { className: 'exercise-options' });
    for (const option of exercise.options) {
      const text = element('span');
      list.append(element('label', { className: 'exercise-option' }, [
        element('input', { type: exercise.multiple ? 'checkbox' : 'radio', name: uid, value: option.id }), text,
      ]));
      optionLabels.set(option.id, text);
    }
    fieldset.append(list);
  } else if (exercise.kind === 'compute' || exercise.kind === 'predict') {
    numberLabel = element('span', { className: 'exercise-number-label' });
    numberBox = element('input', {
      type: 'number', step: 'any', inputmode: 'decimal', className: 'number exercise-number', autocomplete: 'off',
    });
    fieldset.append(element('label', { className: 'exercise-number-field' }, [numberLabel, numberBox]));
  }
  const taskNote = element('p', { className: 'exercise-task-note' });
  if (exercise.kind === 'achieve') fieldset.append(taskNote);

  const check = element('button', { type: 'button', className: 'button button-primary', dataset: { action: 'check' } });
  const revealButton = element('button', { type: 'button', className: 'button', dataset: { action: 'reveal' } });
  const anotherButton = element('button', { type: 'button', className: 'button', dataset: { action: 'another' } });
  anotherButton.hidden = !exercise.draw;
  const hint = element('p', { className: 'exercise-hint' });
  const skippedNote = element('p', { className: 'exercise-skipped', dataset: { role: 'exercise-skipped' } });
  skippedNote.hidden = true;
  const verdict = element('p', { className: 'exercise-verdict' });
  const answer = element('p', { className: 'exercise-answer' });
  // An answered card whose settings the controls have left: what it was
  // answered for, and a fresh start at the settings shown.
  const boundNote = element('p', { className: 'exercise-bound-note' });
  const retryButton = element('button', { type: 'button', className: 'button', dataset: { action: 'retry-here' } });
  const bound = element('div', { className: 'exercise-bound', dataset: { role: 'exercise-bound' } }, [boundNote, retryButton]);
  bound.hidden = true;
  const feedback = element('div', { className: 'exercise-feedback', role: 'status', 'aria-live': 'polite' }, [verdict, answer]);
  hint.hidden = true;
  answer.hidden = true;

  const root = element('div', {
    className: 'exercise',
    dataset: { exercise: name, kind: exercise.kind, status: 'open' },
  }, [skippedNote, bound, fieldset, element('div', { className: 'exercise-actions' }, [check, revealButton, anotherButton]), hint, feedback]);

  check.addEventListener('click', () => onCheck());
  numberBox?.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onCheck();
  });
  revealButton.addEventListener('click', () => onReveal());
  anotherButton.addEventListener('click', () => onAnother());
  retryButton.addEventListener('click', () => onRetry());

  return {
    element: root,
    // What the learner answered: an option's id (the chosen ids in the
    // options' order, for several), a number, or null for none yet;
    // undefined for a task, whose answer is the section's state. Only the
    // exercise's own option ids: a box's value changed in the page
    // ("constructor", say) is no answer, never a key the check looks up.
    answer() {
      const isOption = (value) => optionLabels.has(value);
      if (exercise.multiple) {
        const chosen = [...root.querySelectorAll(`input[name="${uid}"]:checked`)].map((box) => box.value).filter(isOption);
        return chosen.length > 0 ? chosen : null;
      }
      if (exercise.options) {
        const value = root.querySelector(`input[name="${uid}"]:checked`)?.value;
        return isOption(value) ? value : null;
      }
      if (numberBox) return numberBox.value.trim() === '' || !Number.isFinite(numberBox.valueAsNumber) ? null : numberBox.valueAsNumber;
      return undefined;
    },
    // A committed answer read back (an option's id, several ids, or a
    // number): shown as chosen when it is one of this exercise's answers;
    // returns whether it was.
    restoreAnswer(value) {
      const boxes = [...root.querySelectorAll(`input[name="${uid}"]`)];
      const ids = [value].flat();
      if (exercise.options) {
        if (!ids.every((id) => optionLabels.has(id)) || (!exercise.multiple && ids.length !== 1)) return false;
        for (const box of boxes) box.checked = ids.includes(box.value);
        return true;
      }
      if (!numberBox || typeof value !== 'number' || !Number.isFinite(value)) return false;
      numberBox.value = String(value);
      return true;
    },
    // A new instance, or answers reset: nothing chosen or typed.
    clearAnswer() {
      for (const radio of root.querySelectorAll(`input[name="${uid}"]`)) radio.checked = false;
      if (numberBox) numberBox.value = '';
    },
    // texts: { question, options: {id: label}, numberLabel, taskNote,
    // check, reveal, another, hint, verdict, answer, skipped, bound, retry }
    // (null hides one); `skipped`: a prediction whose figures were shown
    // before it was made (marked, not failed); `locked`: its answer kept as
    // made (a prediction committed before the run it is about, or a card
    // bound to the settings it was answered for: texts.bound says which).
    render({ status, finished, skipped = false, locked = false, texts }) {
      root.dataset.status = status;
      root.toggleAttribute('data-skipped', skipped);
      root.toggleAttribute('data-committed', locked);
      for (const input of fieldset.querySelectorAll('input')) input.disabled = locked;
      skippedNote.hidden = !skipped;
      setText(skippedNote, skipped ? texts.skipped : '');
      root.toggleAttribute('data-bound', texts.bound !== null);
      bound.hidden = texts.bound === null;
      setText(boundNote, texts.bound ?? '');
      setText(retryButton, texts.retry);
      setText(legend, texts.question);
      for (const [id, label] of optionLabels) setText(label, texts.options[id]);
      if (numberLabel) setText(numberLabel, texts.numberLabel);
      if (exercise.kind === 'achieve') setText(taskNote, texts.taskNote);
      setText(check, texts.check);
      setText(revealButton, texts.reveal);
      setText(anotherButton, texts.another);
      // Not disabled: a focused button that disables itself drops the focus.
      check.setAttribute('aria-disabled', String(finished));
      revealButton.setAttribute('aria-disabled', String(finished));
      for (const [node, text] of [[hint, texts.hint], [verdict, texts.verdict], [answer, texts.answer]]) {
        node.hidden = text === null;
        setText(node, text ?? '');
      }
    },
  };
}
